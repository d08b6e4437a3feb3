'use strict';
/**
 * Mutated PDFs for fuzzing the package's PDF reader (nodes/ESign/pdf): scripts/fuzz-pdf.mjs runs thousands of them
 * in child processes, test/unit/pdf/fuzz.slow.test.ts a few hundred in jest. Every case is a pure function of its seed
 * (a seeded PRNG, no Math.random, deterministic zlib), so `makeCase(bases, seed)` makes the same bytes again.
 *
 * Bases are the fixtures of test/fixtures/pdf. Besides mutating their bytes, cases rebuild a file from its objects
 * (pdf-lib parses it; test/support/pdfRaw.js writes it with a correct cross-reference), so that what was mutated is
 * what the reader sees behind a sound table: decoded content streams and CMaps mutated token by token and deflated
 * again, objects packed into an object stream whose decoded text is mutated, xref streams whose rows or dictionary are
 * mutated, and single objects rewritten (references into cycles, numbers made huge, names swapped). Font programs
 * (FontFile, FontFile2, FontFile3) are mutated as decoded bytes, their fonts' ToUnicode and /Encoding mostly dropped so
 * that the reader reads the program (a built base, font-programs.pdf, carries a Type 1, a CFF and a TrueType one).
 */
const fs = require('node:fs');
const path = require('node:path');
const { PDFDocument, PDFName, PDFRawStream } = require('pdf-lib');
const { readPdfFixtureManifest, PDF_FIXTURES_DIR } = require('./pdfjs.js');
const { buildPdf, deflate, inflate, pagesPdf } = require('./pdfRaw.js');
const { cffProgram, cmapFormat4, cmapTable, postFormat2, trueTypeProgram, type1Program } = require('./fontPrograms.js');
const { mulberry32 } = require('./prng.js');


/** The fuzzer's draws, from one seeded mulberry32 stream. */
function rng(seed) {
	const next = mulberry32(seed);
	const int = (n) => Math.floor(next() * n);
	return {
		next,
		int,
		range: (lo, hi) => lo + int(hi - lo + 1),
		chance: (p) => next() < p,
		pick: (list) => list[int(list.length)],
		/** Small counts most of the time, sometimes large: 1…max, log-uniform. */
		count: (max) => Math.max(1, Math.floor(Math.exp(next() * Math.log(max)))),
	};
}

const latin1 = (buf) => Buffer.from(buf).toString('latin1');
const bytes = (text) => Buffer.from(text, 'latin1');

const NUMBERS = [
	'0', '-0', '1', '-1', '0.5', '-0.0000001', '65535', '65536', '-65536', '2147483647', '2147483648', '-2147483649',
	'4294967295', '4294967296', '9007199254740993', '1000000000000000', '-1000000000000000', '9'.repeat(400), '--5', '5.',
	'.', '1e5', '0.000000000000000000001', '360', '-90', '1000', '100000',
];

const OPERATORS = [
	'q', 'Q', 'cm', 'BT', 'ET', 'Tf', 'Td', 'TD', 'Tm', 'T*', 'Tj', 'TJ', "'", '"', 'Tc', 'Tw', 'Tz', 'TL', 'Ts', 'Tr', 'Do',
	'gs', 'BI', 'ID', 'EI', 're', 'm', 'l', 'c', 'h', 'S', 'f', 'W', 'n', 'BMC', 'BDC', 'EMC', 'd0', 'd1', 'sh', 'cs', 'sc',
	'scn', 'rg', 'k', 'w', 'J', 'd', 'ri', 'i', 'BX', 'EX', 'MP', 'DP',
];

const CONTENT_SNIPPETS = [
	'q', 'Q', 'q q q', 'Q Q Q', '1 0 0 1 0 0 cm', '0 0 0 0 0 0 cm', '1e5 0 0 1e5 0 0 cm', '0 1 -1 0 0 0 cm', 'BT', 'ET',
	'/F1 12 Tf', '/F1 0 Tf', '/F1 -12 Tf', '/F1 1000000 Tf', '0 0 Td', '100000 -100000 Td', '1 0 0 1 72 700 Tm',
	'0 0 0 0 0 0 Tm', 'T*', '(x) Tj', '({{signature:1}}) Tj', '({{text:2:Name}}) Tj', '({{ ) Tj', '(}}) Tj',
	'[(a) -500 (b) 1e9 (c)] TJ', '[] TJ', "(x) '", '1 2 (x) "', '2 Tc', '3 Tw', '0 Tz', '-100 Tz', '14 TL', '5 Ts',
	'/Fm1 Do', '/Im1 Do', '/X0 Do', '/GS1 gs', 'BI /W 2 /H 2 /BPC 8 /CS /G ID \u0000\u0001EI\u0002 EI', 'BI /L 5 ID abc',
	'BI ID', 'BI /L 999999999 ID', 'EI', '<FEFF0041> Tj', '<0041004200> Tj', '<> Tj', 'EMC', '/Span <</ActualText (x)>> BDC',
	'0 0 612 792 re W n', '0 0 m 10 10 l S', 'd0', '1000 0 0 0 750 750 d1', '(\\', '(', ')', '<', '>', '<<', '>>', '[', ']',
	'{', '}', '%comment', '\\', 'stream', 'endstream', 'obj', 'endobj', 'R', '1 0 R', 'true', 'null',
	'begincodespacerange <00> <FF> endcodespacerange', '1 begincodespacerange <0000> <FFFF> endcodespacerange',
	'1 beginbfrange <0000> <FFFF> <0041> endbfrange', '1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange',
	'1 beginbfchar <01> <D83DDE00> endbfchar', '1 beginbfrange <00> <FF> [<41> <4142>] endbfrange',
	'1 begincidrange <0000> <FFFF> 0 endcidrange', '1 begincidchar <0041> 70000 endcidchar', '/WMode 1 def', 'usecmap',
];

const OBJECT_SNIPPETS = [
	'/Type /Page', '/Type /Pages', '/Type /Catalog', '/Type /ObjStm', '/Type /XRef', '/Kids [1 0 R]', '/Kids []', '/Count 1000000',
	'/Contents 1 0 R', '/Resources 1 0 R', '/Font << /F1 1 0 R >>', '/XObject << /Fm1 1 0 R >>', '/MediaBox [0 0 0 0]',
	'/MediaBox [0 0 1e30 1e30]', '/CropBox [10 10 5 5]', '/Rotate 45', '/Rotate -270', '/Length 999999999', '/Length -1',
	'/Filter /FlateDecode', '/Filter [/LZWDecode /FlateDecode]', '/Filter /DCTDecode', '/Filter /Crypt',
	'/DecodeParms << /Predictor 12 /Columns 1000000 >>', '/DecodeParms << /Predictor 2 /Colors 32 /BitsPerComponent 16 >>',
	'/Subtype /Form', '/Subtype /Image', '/Subtype /Type0', '/Subtype /Type3', '/DescendantFonts [1 0 R]',
	'/W [0 [1000] 1 65535 500]', '/W [0 4294967295 1]', '/DW -1', '/Widths [1e9]', '/FirstChar -5', '/FirstChar 1000000',
	'/Encoding /Identity-V', '/Encoding /constructor', '/Encoding << /Differences [0 /a /b 255 /c 1000 /d] >>',
	'/ToUnicode 1 0 R', '/FontMatrix [0 0 0 0 0 0]', '/FontMatrix [1e9 0 0 1e9 0 0]', '/Matrix [0 0 0 0 0 0]',
	'/Matrix [1 2]', '/BBox [0 0 0 0]', '/Parent 1 0 R', '/N 1000000', '/First 999999', '/Prev 0', '/XRefStm 0',
	'/Encrypt 1 0 R', '/Size 1000000000', '/W [0 0 0]', '/W [8 8 8]', '/Index [0 1000000000]', '/Root 1 0 R',
	'/BaseFont /constructor', '/BaseFont /Helvetica', '/BaseFont /Arial,Bold', '/Encoding /toString', '/Encoding /WinAnsiEncoding',
	'/Encoding << /BaseEncoding /constructor >>', '/Filter /ASCII85Decode', '/Filter /RunLengthDecode', '/Filter /LZWDecode',
	'/Filter /ASCIIHexDecode', '/DecodeParms << /EarlyChange 0 >>', '/Widths 1 0 R', '/Widths []', '/FontDescriptor << /Flags 4 >>',
	'/Subtype /Type0 /Encoding /Identity-H /DescendantFonts [<< /Subtype /CIDFontType2 /W [0 [500]] >>]',
	'/Resources << /Font << /F1 << /Subtype /Type1 /BaseFont /Courier >> >> >>', '/Contents [1 0 R 1 0 R]',
	// Form fields (nodes/ESign/pdf/forms/forms.ts): field trees, widgets and choices.
	'/AcroForm << /Fields [1 0 R] >>', '/Fields [1 0 R 1 0 R]', '/Annots [1 0 R]', '/Subtype /Widget', '/FT /Tx', '/FT /Sig',
	'/FT /Ch', '/FT /Btn', '/Ff 4294967295', '/Ff -1', '/Ff 1.5', '/T 1 0 R', '/T <FEFF00>', '/T <EFBBBF>', '/T (a.b)',
	'/Opt [1 0 R [(a)] [] /x]', '/Opt 1 0 R', '/Rect [1e30 0 -1e30 1]', '/Rect [0 0]', '/P 1 0 R', '/F 2', '/F -1',
];

const BYTE_TOKENS = [
	'[[[[[[[[', '<<<<<<<<', '99999999999999999999', '-1', '0 0 R', '1 0 R 1 0 R', '2 0 R', 'stream\n', 'stream\r\n',
	'\nendstream', 'endobj', '%%EOF', 'xref\n0 1\n0000000000 65535 f \n', 'trailer << /Root 1 0 R >>', 'startxref\n0\n',
	'1 0 obj', '(', ')', '<', '>', '\\', '/Length 99999999', '/Filter /FlateDecode', '/Kids [1 0 R]', '/Type /ObjStm',
	'BT /F1 12 Tf (x) Tj ET', '/Prev 0', '%', '\r', '\n', '\u0000',
];

/** Splits PDF text into tokens and the white-space between them (joined again, they give the text back). */
function tokenize(text) {
	return text.match(/\s+|<<|>>|[[\]{}()<>]|\/[^\s[\]{}()<>/%]*|%[^\r\n]*|[^\s[\]{}()<>/%]+/g) ?? [];
}

const isSpace = (token) => /^\s+$/.test(token);
const isNumber = (token) => /^[+-]?(\d+\.?\d*|\.\d+)$/.test(token);

/** One token-level mutation of PDF text (content streams, CMaps, object text, object streams). */
function mutateText(text, r, snippets, notes, otherTexts = []) {
	const tokens = tokenize(text);
	const at = () => r.int(tokens.length + 1);
	const op = r.int(11);
	switch (op) {
		case 0: {
			const numbers = tokens.map((t, i) => (isNumber(t) ? i : -1)).filter((i) => i >= 0);
			const times = r.count(10);
			for (let k = 0; k < times && numbers.length; k++) tokens[r.pick(numbers)] = r.pick(NUMBERS);
			notes.push(`numbers×${times}`);
			break;
		}
		case 1: {
			const times = r.count(20);
			for (let k = 0; k < times; k++) tokens.splice(at(), 0, ` ${r.pick(snippets)} `);
			notes.push(`insert×${times}`);
			break;
		}
		case 2: {
			const start = at();
			const length = r.count(Math.max(1, tokens.length >> 2));
			tokens.splice(start, length);
			notes.push(`delete ${length}@${start}`);
			break;
		}
		case 3: {
			const start = at();
			const length = r.count(50);
			const piece = tokens.slice(start, start + length).join('');
			const times = r.count(r.chance(0.1) ? 20000 : 200);
			const repeated = piece.length * times > 4_000_000 ? piece : piece.repeat(times);
			tokens.splice(at(), 0, ` ${repeated} `);
			notes.push(`duplicate ${length}×${times}`);
			break;
		}
		case 4: {
			const times = r.count(20);
			for (let k = 0; k < times && tokens.length > 1; k++) {
				const i = r.int(tokens.length);
				const j = r.int(tokens.length);
				[tokens[i], tokens[j]] = [tokens[j], tokens[i]];
			}
			notes.push(`swap×${times}`);
			break;
		}
		case 5: {
			const opener = r.pick(['[', '<<', '(', 'q ', 'BT ', '{', '<']);
			const depth = r.count(200_000);
			tokens.splice(at(), 0, ` ${opener.repeat(depth)} `);
			notes.push(`nest ${JSON.stringify(opener)}×${depth}`);
			break;
		}
		case 6: {
			const operators = tokens.map((t, i) => (OPERATORS.includes(t) ? i : -1)).filter((i) => i >= 0);
			const times = r.count(10);
			for (let k = 0; k < times && operators.length; k++) tokens[r.pick(operators)] = r.pick(OPERATORS);
			notes.push(`operators×${times}`);
			break;
		}
		case 7: {
			const names = tokens.filter((t) => t.startsWith('/'));
			const times = r.count(10);
			for (let k = 0; k < times && names.length; k++) tokens.splice(at(), 0, ` ${r.pick(names)} ${r.pick(['12 Tf', 'Do', 'gs', 'cs', '0 0 R', '', 'BDC'])} `);
			notes.push(`own names×${times}`);
			break;
		}
		case 8: {
			if (otherTexts.length) {
				const other = tokenize(r.pick(otherTexts));
				const start = r.int(other.length + 1);
				const length = r.count(500);
				tokens.splice(at(), 0, ...other.slice(start, start + length));
				notes.push(`splice ${length}`);
			}
			break;
		}
		case 9: {
			const strings = [];
			const times = r.count(5);
			for (let k = 0; k < times; k++) {
				const length = r.count(r.chance(0.1) ? 1_000_000 : 300);
				const body = r.chance(0.5) ? '\\n\\(\\053'.repeat(Math.ceil(length / 8)).slice(0, length) : 'A'.repeat(length);
				strings.push(r.chance(0.5) ? `(${body}) Tj` : `<${'41'.repeat(Math.min(length, 500_000))}> Tj`);
			}
			tokens.splice(at(), 0, ` ${strings.join(' ')} `);
			notes.push(`strings×${times}`);
			break;
		}
		default: {
			const start = at();
			const garbage = Array.from({ length: r.count(64) }, () => String.fromCharCode(r.int(256))).join('');
			tokens.splice(start, 0, garbage);
			notes.push(`garbage@${start}`);
		}
	}
	return tokens.join('');
}

/** Byte-level mutations of a whole file. */
function mutateBytes(input, r, notes) {
	let data = Buffer.from(input);
	const steps = r.count(4);
	for (let s = 0; s < steps; s++) {
		const op = r.int(9);
		const pos = () => r.int(data.length + 1);
		switch (op) {
			case 0: {
				const flips = r.count(30);
				for (let k = 0; k < flips && data.length; k++) data[r.int(data.length)] ^= 1 << r.int(8);
				notes.push(`flip×${flips}`);
				break;
			}
			case 1: {
				const at = pos();
				const length = r.count(256);
				for (let k = 0; k < length && at + k < data.length; k++) data[at + k] = r.int(256);
				notes.push(`random ${length}@${at}`);
				break;
			}
			case 2: {
				const at = pos();
				data = data.subarray(0, at);
				notes.push(`truncate@${at}`);
				break;
			}
			case 3: {
				const at = pos();
				const length = r.count(Math.max(1, data.length >> 3));
				data = Buffer.concat([data.subarray(0, at), data.subarray(at + length)]);
				notes.push(`cut ${length}@${at}`);
				break;
			}
			case 4: {
				const at = pos();
				const length = r.count(4096);
				const times = r.count(r.chance(0.05) ? 1000 : 8);
				const piece = data.subarray(at, at + length);
				const to = pos();
				data = Buffer.concat([data.subarray(0, to), ...Array.from({ length: times }, () => piece), data.subarray(to)]);
				notes.push(`duplicate ${length}×${times}@${to}`);
				break;
			}
			case 5: {
				const at = pos();
				const length = r.count(4096);
				const piece = Buffer.from(data.subarray(at, at + length));
				const rest = Buffer.concat([data.subarray(0, at), data.subarray(at + length)]);
				const to = r.int(rest.length + 1);
				data = Buffer.concat([rest.subarray(0, to), piece, rest.subarray(to)]);
				notes.push(`move ${length}@${at}→${to}`);
				break;
			}
			case 6: {
				const at = pos();
				let token = r.pick(BYTE_TOKENS);
				if (r.chance(0.2)) token = token.repeat(r.count(100_000));
				data = Buffer.concat([data.subarray(0, at), bytes(` ${token} `), data.subarray(at)]);
				notes.push(`token ${JSON.stringify(token.slice(0, 20))}${token.length > 20 ? `…(${token.length})` : ''}@${at}`);
				break;
			}
			case 7: {
				// Shift cross-reference offsets: rows of a classic table, or the number after startxref.
				let text = latin1(data);
				const delta = r.pick([-1, 1, -20, 20, -1000, 100000, -100000]);
				let shifted = 0;
				if (r.chance(0.5)) {
					text = text.replace(/(\d{10}) (\d{5}) n/g, (row, offset, gen) => {
						if (!r.chance(0.3)) return row;
						shifted++;
						return `${String(Math.max(0, Number(offset) + delta)).padStart(10, '0').slice(-10)} ${gen} n`;
					});
				} else {
					text = text.replace(/startxref(\s+)(\d+)/g, (_, space, offset) => {
						shifted++;
						return `startxref${space}${Math.max(0, Number(offset) + delta)}`;
					});
				}
				data = bytes(text);
				notes.push(`shift xref ${shifted} by ${delta}`);
				break;
			}
			default: {
				// A number somewhere replaced by an interesting one.
				const text = latin1(data);
				const matches = [...text.matchAll(/(?<=[\s[/<>])\d+(?=[\s\]/<>])/g)];
				if (matches.length) {
					const match = r.pick(matches);
					const value = r.pick(NUMBERS);
					data = Buffer.concat([data.subarray(0, match.index), bytes(value), data.subarray(match.index + match[0].length)]);
					notes.push(`number ${match[0]}→${value.slice(0, 12)}@${match.index}`);
				}
			}
		}
		if (data.length > 16 * 1048576) data = data.subarray(0, 16 * 1048576);
	}
	return data;
}

/** Loads the fixtures as bases: their bytes, and (pdf-lib permitting, unencrypted ones) their objects. */
async function loadFuzzBases({ include, exclude = [] } = {}) {
	const manifest = readPdfFixtureManifest();
	const bases = [];
	for (const fixture of manifest.fixtures) {
		if (include && !include.includes(fixture.file)) continue;
		if (exclude.includes(fixture.file)) continue;
		const file = path.join(PDF_FIXTURES_DIR, fixture.file);
		if (!fs.existsSync(file)) continue;
		const data = fs.readFileSync(file);
		const base = { name: fixture.file, bytes: data, objects: undefined };
		if (!latin1(data).includes('/Encrypt')) base.objects = await objectsOf(data).catch(() => undefined);
		bases.push(base);
	}
	// The fill's fixtures (issue 51): forms and data tags from LibreOffice, pdf-lib and Chromium, for the fill's check.
	const fillDir = path.join(PDF_FIXTURES_DIR, 'fill');
	const fillManifest = path.join(fillDir, 'manifest.json');
	for (const fixture of fs.existsSync(fillManifest) ? JSON.parse(fs.readFileSync(fillManifest, 'utf8')).fixtures : []) {
		const name = `fill/${fixture.file}`;
		if ((include && !include.includes(name)) || exclude.includes(name)) continue;
		const data = fs.readFileSync(path.join(fillDir, fixture.file));
		bases.push({ name, bytes: data, objects: await objectsOf(data).catch(() => undefined) });
	}
	const name = 'font-programs.pdf';
	if ((!include || include.includes(name)) && !exclude.includes(name)) {
		const data = fontProgramsPdf();
		bases.push({ name, bytes: data, objects: await objectsOf(data) });
	}
	return bases;
}

/**
 * A built base whose three fonts carry only their programs (no ToUnicode, no /Encoding): a Type 1 cleartext like
 * pdfTeX's, a CFF with a custom charset and encoding, a symbolic TrueType with a (3,0) cmap and post names. Each
 * shows "ab" and the "fi" ligature at code 12.
 */
function fontProgramsPdf() {
	const type1 = type1Program('256 array\n0 1 255 {1 index exch /.notdef put} for\ndup 12 /fi put\ndup 97 /a put\ndup 98 /b put\nreadonly def');
	const cff = cffProgram({ glyphs: 4, strings: ['fi'], charset: [0, 0, 66, 0, 67, 1, 135], encoding: [0, 3, 97, 98, 12] });
	const trueType = trueTypeProgram({ cmap: cmapTable([[3, 0, cmapFormat4([[0xf061, 1], [0xf062, 2], [0xf00c, 3]])]]), post: postFormat2([0, 68, 69, 'fi']) });
	const font = (num, subtype, key, flags) => [
		[num, `<< /Type /Font /Subtype /${subtype} /BaseFont /ABCDEF+Fuzz${num} /FirstChar 0 /LastChar 255 /Widths [] /FontDescriptor ${num + 10} 0 R >>`],
		[num + 10, `<< /Type /FontDescriptor /FontName /ABCDEF+Fuzz${num} /Flags ${flags} /${key} ${num + 20} 0 R >>`],
	];
	const show = (name) => `/${name} 12 Tf (ab\\014 Signature:) Tj 0 -20 Td`;
	return pagesPdf([{ content: `BT 72 700 Td ${show('F1')} ${show('F2')} ${show('F3')} ET`, resources: '/Font << /F1 20 0 R /F2 21 0 R /F3 22 0 R >>' }], {
		extra: [
			...font(20, 'Type1', 'FontFile', 32),
			...font(21, 'Type1', 'FontFile3', 32),
			...font(22, 'TrueType', 'FontFile2', 4),
			[40, { dict: `/Filter /FlateDecode /Length1 ${type1.length1} /Length2 4 /Length3 0`, stream: deflate(type1.data) }],
			[41, { dict: '/Filter /FlateDecode /Subtype /Type1C', stream: deflate(cff) }],
			[42, { dict: `/Filter /FlateDecode /Length1 ${trueType.length}`, stream: deflate(trueType) }],
		],
	});
}

/** A file's objects as pdfRaw.buildPdf takes them, plus the decoded text of each content-like stream. */
async function objectsOf(data) {
	const doc = await PDFDocument.load(data, { updateMetadata: false, throwOnInvalidObject: false });
	const context = doc.context;
	const objects = [];
	const texts = [];
	for (const [ref, object] of context.enumerateIndirectObjects()) {
		if (ref.generationNumber !== 0) continue;
		if (!(object instanceof PDFRawStream)) {
			objects.push({ num: ref.objectNumber, text: object.toString() });
			continue;
		}
		const entries = object.dict.entries().filter(([key]) => key !== PDFName.of('Length'));
		const filter = object.dict.get(PDFName.of('Filter'));
		const parms = object.dict.get(PDFName.of('DecodeParms'));
		const dictText = (skip = []) =>
			entries
				.filter(([key]) => !skip.includes(key.asString()))
				.map(([key, value]) => `${key.toString()} ${value.toString()}`)
				.join(' ');
		const entry = { num: ref.objectNumber, stream: { dict: dictText(), data: Buffer.from(object.contents) } };
		let decoded;
		if (!filter) decoded = Buffer.from(object.contents);
		else if (filter.toString() === '/FlateDecode' && !parms) {
			try {
				decoded = inflate(object.contents);
			} catch {
				decoded = undefined;
			}
		}
		// Font programs (a /Length1, or a FontFile3 /Subtype): mutated as decoded bytes by 'font' cases.
		if (decoded && /\/Length1\b|\/Subtype\s*\/(Type1C|CIDFontType0C|OpenType)\b/.test(entry.stream.dict)) {
			entry.program = decoded;
			entry.plainDict = dictText(['/Filter', '/DecodeParms']);
		}
		// Content-like: mostly printable text (content streams, CMaps), not font programs or images.
		else if (decoded && decoded.length < 4 * 1048576 && printable(decoded)) {
			entry.text = latin1(decoded);
			entry.plainDict = dictText(['/Filter', '/DecodeParms']);
			texts.push(entry.text);
		}
		objects.push(entry);
	}
	const trailer = context.trailerInfo;
	const extra = trailer.Info ? `/Info ${trailer.Info.toString()}` : '';
	return { objects, root: trailer.Root.objectNumber, trailer: extra, texts };
}

function printable(data) {
	let good = 0;
	const n = Math.min(data.length, 4096);
	for (let i = 0; i < n; i++) if ((data[i] >= 32 && data[i] < 127) || data[i] === 10 || data[i] === 13 || data[i] === 9) good++;
	return n > 0 && good / n > 0.9;
}

/** The objects as buildPdf takes them, with `replace` (num → RawObject) applied. */
function raw(base, replace = new Map()) {
	return base.objects.objects.map((entry) => {
		if (replace.has(entry.num)) return [entry.num, replace.get(entry.num)];
		return [entry.num, entry.stream ? { dict: entry.stream.dict, stream: entry.stream.data } : entry.text];
	});
}

/** One case: { bytes, description }. */
function makeCase(bases, seed) {
	const r = rng(seed);
	const base = r.pick(bases);
	const notes = [];
	const structured = base.objects;
	const programs = structured ? structured.objects.filter((o) => o.program) : [];
	const kinds = ['bytes', 'bytes', 'bytes', 'content', 'content', 'content', 'objstm', 'object', 'object', 'xrefstream', 'hybrid'];
	const kind = !structured ? 'bytes' : r.pick(programs.length ? [...kinds, 'font', 'font'] : kinds);
	let data;
	const build = (objects, options) => buildPdf(objects, { root: structured.root, trailer: structured.trailer, ...options }).bytes;
	const texts = bases.flatMap((b) => (b.objects ? b.objects.texts.slice(0, 5) : []));
	switch (kind) {
		case 'content': {
			const candidates = structured.objects.filter((o) => o.text !== undefined);
			if (!candidates.length) {
				data = build(raw(base));
				break;
			}
			const target = r.pick(candidates);
			let text = target.text;
			const rounds = r.count(4);
			for (let k = 0; k < rounds; k++) text = mutateText(text, r, CONTENT_SNIPPETS, notes, texts);
			notes.unshift(`stream ${target.num}`);
			data = build(raw(base, new Map([[target.num, { dict: `${target.plainDict} /Filter /FlateDecode`, stream: deflate(text) }]])));
			break;
		}
		case 'object': {
			const plain = structured.objects.filter((o) => !o.stream);
			// Objects that shape the reading (fonts, pages, resources) most of the time.
			const rich = plain.filter((o) => /\/(Font|Page|Pages|XObject|Catalog|Type0|Encoding|Widths|DescendantFonts|Resources|Kids|Fields|Annots|FT|Widget)\b/.test(o.text));
			const numbers = structured.objects.map((o) => o.num);
			const snippets = [...OBJECT_SNIPPETS, ...numbers.slice(0, 50).map((n) => `${n} 0 R`)];
			const entries = () => Array.from({ length: r.count(3) }, () => r.pick(snippets)).join(' ');
			const roll = r.next();
			if (roll < 0.15) {
				// Entries added to a stream's dictionary (a filter it does not have, a /Length that lies…).
				const streams = structured.objects.filter((o) => o.stream);
				const target = r.pick(streams);
				const added = entries();
				notes.push(`stream ${target.num} dict + ${added}`);
				data = build(raw(base, new Map([[target.num, { dict: `${target.stream.dict} ${added}`, stream: target.stream.data }]])));
				break;
			}
			const target = r.pick(rich.length && r.chance(0.7) ? rich : plain);
			let text = target.text;
			if (roll < 0.35) {
				// A reference instead of the object: chains and cycles of references.
				text = `${r.pick(numbers)} 0 R`;
				notes.push('object→ref');
			} else if (roll < 0.7 && text.includes('>>')) {
				// Entries before the dictionary's end: they win over the same keys written earlier.
				const added = entries();
				const at = text.lastIndexOf('>>');
				text = `${text.slice(0, at)} ${added} ${text.slice(at)}`;
				notes.push(`entries ${added}`);
			} else {
				const rounds = r.count(4);
				for (let k = 0; k < rounds; k++) text = mutateText(text, r, snippets, notes);
			}
			notes.unshift(`object ${target.num}`);
			data = build(raw(base, new Map([[target.num, text]])));
			break;
		}
		case 'font': {
			// A font program's decoded bytes mutated; the simple fonts mostly lose ToUnicode and /Encoding, so that
			// the reader goes to the program for their text.
			const target = r.pick(programs);
			const program = mutateBytes(target.program, r, notes);
			const replace = new Map([[target.num, { dict: `${target.plainDict} /Filter /FlateDecode`, stream: deflate(program) }]]);
			if (r.chance(0.8)) {
				for (const o of structured.objects) {
					if (o.stream || !/\/FontDescriptor\b/.test(o.text) || !/\/Subtype\s*\/(Type1|TrueType|MMType1)\b/.test(o.text)) continue;
					replace.set(o.num, o.text.replace(/\/ToUnicode\s+\d+\s+\d+\s+R/g, '').replace(/\/Encoding\s*(\/[^\s/<>[\]()]+|\d+\s+\d+\s+R)/g, ''));
				}
				notes.push('fonts without ToUnicode and /Encoding');
			}
			notes.unshift(`program ${target.num}`);
			data = build(raw(base, replace));
			break;
		}
		case 'objstm': {
			const plain = structured.objects.filter((o) => !o.stream).map((o) => o.num);
			const packed = plain.filter(() => r.chance(0.7));
			notes.push(`packed ${packed.length}`);
			const mutate = (decoded) => {
				let text = latin1(decoded);
				const rounds = r.count(3);
				for (let k = 0; k < rounds; k++) text = mutateText(text, r, [...OBJECT_SNIPPETS, ...NUMBERS], notes);
				return bytes(text);
			};
			const dict = r.chance(0.2) ? r.pick(['/N 1000000', '/First 0', '/First 99999999', '/N -1', '/Extends 1 0 R']) : '';
			if (dict) notes.push(`dict ${dict}`);
			data = build(raw(base), { xref: 'stream', objectStream: packed, mutateObjectStream: mutate, objectStreamDict: dict });
			break;
		}
		case 'xrefstream': {
			const packed = structured.objects.filter((o) => !o.stream && r.chance(0.5)).map((o) => o.num);
			const options = { xref: 'stream', objectStream: packed };
			if (r.chance(0.5)) {
				options.mutateXrefStream = (rows) => {
					const out = mutateBytes(rows, r, notes);
					return out;
				};
			} else {
				const w = r.pick(['[1 4 2]', '[0 0 0]', '[1 2 1]', '[8 8 8]', '[1 4]', '[-1 4 2]', '[1 4 2 9]', '[0 4 2]']);
				const index = r.pick(['', '/Index [0 1000000000]', '/Index [5 3 0 2]', '/Index [-1 5]', '/Index [0]']);
				const size = r.pick(['/Size 1', '/Size 100000000', '/Size -5', '']);
				const prev = r.pick(['', '/Prev 0', '/Prev 9', '/Prev -1']);
				options.xrefStreamDict = `/Type /XRef ${size} /W ${w} ${index} ${prev} /Root ${structured.root} 0 R`;
				notes.push(`xref dict ${options.xrefStreamDict}`);
			}
			data = build(raw(base), options);
			break;
		}
		case 'hybrid': {
			const packed = structured.objects.filter((o) => !o.stream && r.chance(0.5)).map((o) => o.num);
			data = mutateBytes(build(raw(base), { xref: 'hybrid', objectStream: packed }), r, notes);
			break;
		}
		default:
			data = mutateBytes(base.bytes, r, notes);
	}
	return { bytes: data, description: `seed ${seed}: ${base.name} ${kind} ${notes.join(', ')}`.slice(0, 600), base: base.name, kind };
}

module.exports = { loadFuzzBases, makeCase, rng, tokenize, mutateText, mutateBytes };
