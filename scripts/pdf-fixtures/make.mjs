// Makes the PDF fixtures (run through scripts/make-pdf-fixtures.sh, which installs the tools and sets TZ and
// SOURCE_DATE_EPOCH). Each fixture below says how it is made, what it exercises and which tags it holds as written;
// after making them all, the script reads each with the pdf.js oracle, fails if the oracle's tags differ from the
// declared ones, writes test/fixtures/pdf/manifest.json and prints the oracle-versus-poppler table.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pdfLib from 'pdf-lib';
import { readPdf, PDFJS_VERSION } from '../../test/support/pdfjsOracle.mjs';
import { benchContract } from './benchContract.mjs';
import { formFixtures } from './makeForms.mjs';
import { appendIncrementalUpdate, indexOf, lastTrailer, pinVolatile, pointStartxrefAt, shiftAfterHeader } from './pdfEdit.mjs';
import { compareWithPoppler } from './popplerCheck.mjs';
import { formatJson } from './formatJson.mjs';

const { PDFDocument, PDFName, PDFArray, StandardFonts, degrees, rgb } = pdfLib;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = path.join(ROOT, 'test', 'fixtures', 'pdf');
const SRC = path.join(OUT, 'src');
const EPOCH = Number(process.env.SOURCE_DATE_EPOCH ?? 1767225600);
const BENCH_MAX_COMMITTED = 2 * 1024 * 1024;

const args = process.argv.slice(2);
const REMAKE_DOCX = args.includes('--remake-docx');
const KEEP_TEMP = args.includes('--keep-temp');
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;

const TMP = mkdtempSync(path.join(tmpdir(), 'esign-pdf-fixtures-'));
let seq = 0; // names temp files uniquely
const run = (cmd, cmdArgs, options = {}) =>
	execFileSync(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024, ...options });
/** A tool's version from what it prints (pdftotext prints it on stderr). */
const version = (cmd, cmdArgs, re) => {
	const { stdout, stderr } = spawnSync(cmd, cmdArgs, { encoding: 'utf8' });
	return re.exec(`${stdout}${stderr}`)?.[1] ?? '?';
};

// ---- producers ----------------------------------------------------------------------------------------------------

/** LibreOffice converts `src` to `format` (pdf, docx); returns the output path. A fresh profile keeps settings fixed. */
function soffice(src, format) {
	const outdir = mkdtempSync(path.join(TMP, 'soffice-'));
	run('soffice', [
		'--headless',
		'--norestore',
		`-env:UserInstallation=${pathToFileURL(path.join(TMP, 'lo-profile')).href}`,
		'--convert-to',
		format,
		'--outdir',
		outdir,
		src,
	]);
	return path.join(outdir, `${path.basename(src).replace(/\.[^.]+$/, '')}.${format}`);
}

/** Chromium prints `html` to PDF (no header or footer; @page sets size and margins). */
function chromium(html) {
	const out = path.join(TMP, `${path.basename(html, '.html')}-${++seq}.pdf`);
	const profile = mkdtempSync(path.join(TMP, 'chromium-'));
	run('chromium', [
		'--headless',
		'--no-sandbox',
		'--disable-gpu',
		'--no-first-run',
		'--disable-background-networking',
		'--disable-component-update',
		'--disable-sync',
		`--user-data-dir=${profile}`,
		'--no-pdf-header-footer',
		`--print-to-pdf=${out}`,
		pathToFileURL(html).href,
	]);
	return readFileSync(out);
}

/** Ghostscript's pdfwrite, embedding (subset) even the base-14 fonts it would otherwise leave out. */
function ghostscript(ps) {
	const out = path.join(TMP, `${path.basename(ps, '.ps')}.pdf`);
	run('gs', ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=pdfwrite', '-dEmbedAllFonts=true', '-dSubsetFonts=true',
		`-sOutputFile=${out}`, '-c', '<< /NeverEmbed [ ] >> setdistillerparams', '-f', ps]);
	return readFileSync(out);
}

/** qpdf from one fixture's bytes to new bytes; `flags` go before the input file, `after` between it and the output. */
function qpdf(input, flags, after = []) {
	const inFile = path.join(TMP, `qpdf-in-${++seq}.pdf`);
	const outFile = path.join(TMP, `qpdf-out-${seq}.pdf`);
	writeFileSync(inFile, input);
	try {
		run('qpdf', [...flags, inFile, ...after, outFile]);
	} catch (error) {
		if (error.status !== 3) throw error; // 3: written, with warnings
	}
	return readFileSync(outFile);
}

/** Whether two encrypted files hold the same content (qpdf picks a random AES-256 file key, even with --static-id). */
function sameDecrypted(a, b, password = '') {
	const plain = (pdf) => qpdf(pdf, ['--deterministic-id', `--password=${password}`, '--decrypt']);
	return plain(a).equals(plain(b));
}

// ---- fixture recipes --------------------------------------------------------------------------------------------

const made = new Map(); // file → bytes, for the variants made from another fixture
const base = (file) => {
	if (!made.has(file)) made.set(file, readFileSync(path.join(OUT, file)));
	return made.get(file);
};

// The tags and the {{…}} text that is not a tag each source document holds, as written (data: tags.json). WEBSITE_TAGS:
// the contract the README, the examples and the e2e show (white tags for two signers on a LibreOffice document).
const { AGREEMENT_TAGS, AGREEMENT_BRACES, WEB_TAGS, WEB_BRACES, DELIVERY_TAGS, DELIVERY_BRACES, ADDED_BY_OVERLAY, ADDED_BY_UPDATE, WEBSITE_TAGS } = JSON.parse(
	readFileSync(new URL('./tags.json', import.meta.url), 'utf8'),
);

const SHIFT = '% inserted: every offset below is now wrong\n';

// The documents the qpdf variants are made from: the file, its producer, and the tags and braces it holds.
const AGREEMENT = { file: 'agreement-libreoffice.pdf', producer: 'libreoffice-odt', tags: AGREEMENT_TAGS, braces: AGREEMENT_BRACES };
const WEB = { file: 'web-chromium.pdf', producer: 'chromium', tags: WEB_TAGS, braces: WEB_BRACES };
const DELIVERY = { file: 'delivery-ghostscript.pdf', producer: 'ghostscript', tags: DELIVERY_TAGS, braces: DELIVERY_BRACES };
// What other rows hold: the sample contract's white tags, or nothing at all.
const WEBSITE = { tags: WEBSITE_TAGS, braces: [] };
const NOTHING = { tags: [], braces: [] };

/** A fixture row: its file and producer, what it holds ({ tags, braces }: a document above, or its own), how it is made
 * (in words, then `make`) and what it exercises. The shape every fixture shares, said once. */
const row = (file, producer, holds, how, features, make) => ({ file, producer, how, features, make, tags: holds.tags, braces: holds.braces });

/** A fixture qpdf makes from `source` (`flags` before its input file, `after` between it and the output): qpdf
 * rewrites the file, so the variant holds the source's tags and braces. */
const qpdfVariant = (source, { flags, after, ...fixture }) => ({
	producer: `qpdf (from ${source.producer})`,
	...fixture,
	make: () => qpdf(base(source.file), flags, after),
	tags: source.tags,
	braces: source.braces,
});

const FIXTURES = [
	row('website-contract.pdf', 'libreoffice-odt', WEBSITE,
		'soffice --convert-to pdf src/website-contract.fodt (Writer, default PDF export)',
		['classic xref table', 'TrueType subset fonts', 'white tags', 'table', 'A4'],
		() => pinVolatile(readFileSync(soffice(path.join(SRC, 'website-contract.fodt'), 'pdf')), EPOCH)),
	// Issue 42: tags a signer would see. The sample contract with its tags' white turned black, and signer 1's
	// cells (Table1.B1) tinted, so a removed tag must leave the cell's colour, not white. Its tags: the sample's,
	// noted black (the first four, in Table1's cells, tinted).
	row('website-contract-black.pdf', 'libreoffice-odt', { tags: WEBSITE_TAGS.map((tag, i) => ({ ...tag, note: tag.note.replace(/^white/, i < 4 ? 'black, tinted cell' : 'black') })), braces: [] },
		'src/website-contract.fodt with fo:color #ffffff → #000000 and Table1.B1 given fo:background-color #fff2cc (blackTags() in make.mjs), soffice --convert-to pdf; the sandbox serves it as the sample tagged-contract.pdf',
		['black tags (visible)', 'tags in tinted table cells', 'classic xref table', 'TrueType subset fonts', 'A4'],
		() => pinVolatile(readFileSync(soffice(blackTags(), 'pdf')), EPOCH)),
	row('agreement-libreoffice.pdf', 'libreoffice-odt', AGREEMENT,
		'soffice --convert-to pdf src/agreement.fodt (Writer, default PDF export)',
		['classic xref table', 'TrueType subset fonts, custom encoding', 'justified text / TJ kerning',
			'mixed page sizes (Letter, A4)', 'white text', 'table'],
		() => pinVolatile(readFileSync(soffice(path.join(SRC, 'agreement.fodt'), 'pdf')), EPOCH)),
	row('agreement-docx-libreoffice.pdf', 'libreoffice-docx', AGREEMENT,
		'soffice --convert-to docx src/agreement.fodt (committed as src/agreement.docx), then soffice --convert-to pdf src/agreement.docx',
		['classic xref table', 'TrueType subset fonts, WinAnsi encoding', 'justified text / TJ kerning',
			'mixed page sizes (Letter, A4)', 'white text', 'table', 'layout of the .docx import'],
		() => {
			const docx = path.join(SRC, 'agreement.docx');
			if (REMAKE_DOCX || !existsSync(docx)) writeFileSync(docx, readFileSync(soffice(path.join(SRC, 'agreement.fodt'), 'docx')));
			return pinVolatile(readFileSync(soffice(docx, 'pdf')), EPOCH);
		}),
	row('web-chromium.pdf', 'chromium', WEB,
		'chromium --headless --print-to-pdf src/web.html (fresh profile, --no-pdf-header-footer)',
		['CID Identity-H (Type0, CIDFontType2)', 'CJK font with many glyphs (IPAGothic)',
			'glyphs placed one by one (Td before each Tj)', 'letter-spacing', 'flex layout', 'table', 'white text',
			'classic xref table'],
		() => pinVolatile(chromium(path.join(SRC, 'web.html')), EPOCH)),
	row('web-chromium-type3.pdf', 'chromium (variant)', WEB,
		"src/web.html with the Japanese line set in 'Noto Sans CJK JP' (a CFF font): Skia draws that line as Type 3 fonts",
		['Type3 fonts (the line holding {{signature:2}})', 'CID Identity-H (Type0, CIDFontType2)', 'letter-spacing',
			'flex layout', 'table', 'white text', 'classic xref table'],
		() => {
			const html = path.join(SRC, 'web.html');
			const variant = path.join(path.dirname(html), `.web-type3-${process.pid}.html`);
			writeFileSync(variant, readFileSync(html, 'utf8').replace("font-family: 'IPAGothic'", "font-family: 'Noto Sans CJK JP'"));
			try {
				return pinVolatile(chromium(variant), EPOCH);
			} finally {
				rmSync(variant);
			}
		}),
	row('delivery-ghostscript.pdf', 'ghostscript', DELIVERY,
		'gs -sDEVICE=pdfwrite src/postscript.ps (all fonts embedded: URW clones of Times-Roman, Helvetica)',
		['Type1C (CFF) subset fonts', 'Tc character spacing (ashow)', 'Tw word spacing (widthshow)',
			'font size changes (scalefont)', 'rotated text (90°, 30°) via cm/Tm', 'TJ with a large gap', 'CTM 0.1 scale',
			'classic xref table'],
		() => pinVolatile(ghostscript(path.join(SRC, 'postscript.ps')), EPOCH)),
	qpdfVariant(AGREEMENT, {
		file: 'agreement-objstm.pdf',
		how: 'qpdf --object-streams=generate --deterministic-id agreement-libreoffice.pdf',
		features: ['object streams', 'xref stream'],
		flags: ['--object-streams=generate', '--deterministic-id'],
	}),
	qpdfVariant(WEB, {
		file: 'web-linearized.pdf',
		how: 'qpdf --linearize --deterministic-id web-chromium.pdf',
		features: ['linearized', 'CID Identity-H (Type0, CIDFontType2)'],
		flags: ['--linearize', '--deterministic-id'],
	}),
	qpdfVariant(AGREEMENT, {
		file: 'agreement-rotate90.pdf',
		how: 'qpdf agreement-libreoffice.pdf --rotate=+90:1 (page 1 gets /Rotate 90; page 2 stays)',
		features: ['rotated page (/Rotate 90)', 'mixed page sizes (Letter, A4)'],
		flags: ['--deterministic-id'],
		after: ['--rotate=+90:1'],
	}),
	qpdfVariant(DELIVERY, {
		file: 'delivery-rotate180-270.pdf',
		how: 'qpdf delivery-ghostscript.pdf --rotate=+180:1 --rotate=+270:2',
		features: ['rotated page (/Rotate 180)', 'rotated page (/Rotate 270)', 'rotated text on a rotated page'],
		flags: ['--deterministic-id'],
		after: ['--rotate=+180:1', '--rotate=+270:2'],
	}),
	row('delivery-cropbox.pdf', 'pdf-lib (from ghostscript)', DELIVERY,
		'pdf-lib: page 1 of delivery-ghostscript.pdf gets /CropBox [36 36 576 756], page 2 /CropBox [50 100 562 742]; saved without object streams',
		['CropBox offset', 'rewritten by pdf-lib'],
		async () => {
			const doc = await PDFDocument.load(base('delivery-ghostscript.pdf'), { updateMetadata: false });
			doc.getPage(0).setCropBox(36, 36, 540, 720);
			doc.getPage(1).setCropBox(50, 100, 512, 642);
			return Buffer.from(await doc.save({ useObjectStreams: false }));
		}),
	row('agreement-overlay-xobject.pdf', 'qpdf (from libreoffice-odt + pdf-lib)', { tags: [...AGREEMENT_TAGS, ...ADDED_BY_OVERLAY], braces: AGREEMENT_BRACES },
		'a Letter page drawn by pdf-lib (Helvetica, not embedded) laid over page 2 (A4) of agreement-libreoffice.pdf with qpdf --overlay: qpdf moves page 2\'s own content into one Form XObject and the overlay page into another, drawn after a scale-to-fit cm',
		['Form XObject', 'all of page 2\'s text inside Form XObjects', 'cm scale and offset before Do',
			'standard-14 font without /Widths', 'rotated text (90°) inside a Form XObject'],
		async () => {
			const doc = await PDFDocument.create();
			doc.setCreationDate(new Date(EPOCH * 1000));
			doc.setModificationDate(new Date(EPOCH * 1000));
			const font = await doc.embedFont(StandardFonts.Helvetica);
			const page = doc.addPage([612, 792]);
			page.drawText('Witness: {{signature:3}}', { x: 72, y: 150, size: 12, font });
			page.drawText('Date: {{date:3}}', { x: 330, y: 150, size: 14, font, color: rgb(0.2, 0.2, 0.6) });
			page.drawText('Witness initials {{initials:3:n}}', { x: 580, y: 300, size: 9, font, rotate: degrees(90) });
			const overlay = path.join(TMP, 'overlay.pdf');
			writeFileSync(overlay, await doc.save());
			return qpdf(base('agreement-libreoffice.pdf'), ['--deterministic-id'], ['--overlay', overlay, '--to=2', '--']);
		}),
	row('xobject-matrix-pdflib.pdf', 'pdf-lib (hand-written content and Form XObjects)', { tags: [
			{ page: 1, text: '{{name:1}}', note: 'in the page content' },
			{ page: 1, text: '{{signature:1}}', note: 'Form XObject, /Matrix scale 0.8' },
			{ page: 1, text: '{{date:1}}', note: 'Form XObject, /Matrix scale 0.8' },
			{ page: 1, text: '{{initials:2:n}}', note: 'nested Form XObject, rotated 90°' },
			{ page: 2, text: '{{signature:1}}', note: 'the same Form XObject after a cm scale 1.1' },
			{ page: 2, text: '{{date:1}}', note: 'the same Form XObject after a cm scale 1.1' },
			{ page: 2, text: '{{initials:2:n}}', note: 'nested, rotated 90°' },
		], braces: [] },
		'pdf-lib low-level objects: a Form XObject with /Matrix [0.8 0 0 0.8 140 500] holding text and a nested Form XObject with /Matrix [0 1 -1 0 380 0] (90°); drawn on page 1, and on page 2 after a cm [1.1 0 0 1.1 -100 -300]',
		['Form XObject /Matrix (scale and offset)', 'nested Form XObject with a rotating /Matrix',
			'one Form XObject drawn on two pages', 'Helvetica with /Widths, not embedded', 'object streams', 'xref stream'],
		() => xobjectMatrix()),
	row('agreement-incremental.pdf', 'libreoffice-odt + incremental update (scripts/pdf-fixtures/pdfEdit.mjs)', { tags: [...AGREEMENT_TAGS, ...ADDED_BY_UPDATE], braces: AGREEMENT_BRACES },
		'agreement-libreoffice.pdf unchanged, then an appended update: page 2 replaced (new /Contents array with a new stream, new /Resources with a Helvetica font), new xref section and trailer with /Prev',
		['incremental update', 'xref /Prev chain', 'page object replaced in the update', 'Contents array'],
		async () => incrementalUpdate(base('agreement-libreoffice.pdf'))),
	row('agreement-damaged-offsets.pdf', 'libreoffice-odt, damaged', AGREEMENT,
		`agreement-libreoffice.pdf with a comment line inserted after the header: every xref offset and startxref is ${SHIFT.length} bytes short`,
		['damaged xref (wrong offsets)'],
		() => shiftAfterHeader(base('agreement-libreoffice.pdf'), SHIFT)),
	row('agreement-damaged-startxref.pdf', 'libreoffice-odt, damaged', AGREEMENT,
		'agreement-libreoffice.pdf with startxref pointing into the middle of a content stream (the xref table itself is intact)',
		['damaged xref (startxref points to garbage)'],
		() => {
			const pdf = base('agreement-libreoffice.pdf');
			return pointStartxrefAt(pdf, indexOf(pdf, 'stream', indexOf(pdf, '/Length')) + 40);
		}),
	qpdfVariant(AGREEMENT, {
		file: 'agreement-rc4-128.pdf',
		how: 'qpdf --static-id --allow-weak-crypto --encrypt "" esign-owner 128 --use-aes=n',
		features: ['encrypted (RC4 128, R3)', 'empty user password'],
		flags: ['--static-id', '--allow-weak-crypto', '--encrypt', '', 'esign-owner', '128', '--use-aes=n', '--'],
	}),
	qpdfVariant(WEB, {
		file: 'web-aes-256.pdf',
		how: 'qpdf --static-id --static-aes-iv --encrypt "" esign-owner 256',
		features: ['encrypted (AES-256, R6)', 'empty user password', 'CID Identity-H (Type0, CIDFontType2)'],
		randomKey: true,
		flags: ['--static-id', '--static-aes-iv', '--encrypt', '', 'esign-owner', '256', '--'],
	}),
	qpdfVariant(DELIVERY, {
		file: 'delivery-aes-256-userpw.pdf',
		how: 'qpdf --static-id --static-aes-iv --encrypt esign-user esign-owner 256',
		features: ['encrypted (AES-256, R6)', 'user password required'],
		randomKey: true,
		password: 'esign-user',
		flags: ['--static-id', '--static-aes-iv', '--encrypt', 'esign-user', 'esign-owner', '256', '--'],
	}),
	row('scanned-image-only.pdf', 'pdf-lib (image from pdftoppm)', NOTHING,
		'page 1 of web-chromium.pdf rendered by pdftoppm -r 100 -gray to PNG, drawn full-page on a Letter page by pdf-lib (default save: object streams)',
		['no text at all (image only)', 'object streams', 'xref stream'],
		async () => {
			const prefix = path.join(TMP, 'scan');
			writeFileSync(`${prefix}.pdf`, base('web-chromium.pdf'));
			run('pdftoppm', ['-f', '1', '-l', '1', '-r', '100', '-gray', '-png', '-singlefile', `${prefix}.pdf`, prefix]);
			const doc = await PDFDocument.create();
			doc.setCreationDate(new Date(EPOCH * 1000));
			doc.setModificationDate(new Date(EPOCH * 1000));
			const image = await doc.embedPng(readFileSync(`${prefix}.png`));
			doc.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
			return Buffer.from(await doc.save());
		}),
	{
		file: 'contract-300-pages.pdf',
		producer: 'libreoffice-odt',
		how: 'scripts/pdf-fixtures/benchContract.mjs writes a 300-clause .fodt (one clause a page), soffice --convert-to pdf',
		features: ['300 pages (benchmark)', 'justified text / TJ kerning', 'classic xref table'],
		bench: true,
		make: () => {
			const { xml, tags } = benchContract(300);
			const fodt = path.join(TMP, 'contract-300-pages.fodt');
			writeFileSync(fodt, xml);
			BENCH.tags = tags;
			return pinVolatile(readFileSync(soffice(fodt, 'pdf')), EPOCH);
		},
		get tags() {
			return BENCH.tags ?? benchContract(300).tags;
		},
		get braces() {
			return Array.from({ length: 12 }, (_, i) => ({ page: (i + 1) * 25, text: '{{client_name}}' }));
		},
	},
	// Fillable forms (AcroForm fields): scripts/pdf-fixtures/makeForms.mjs.
	...formFixtures({ epoch: EPOCH, run, tmp: TMP, qpdf, base }),
];
const BENCH = {};

/** The black-tags source: website-contract.fodt with its white text black and signer 1's table cells tinted. */
function blackTags() {
	const xml = readFileSync(path.join(SRC, 'website-contract.fodt'), 'utf8');
	const black = xml.replaceAll('fo:color="#ffffff"', 'fo:color="#000000"');
	const cell = '<style:style style:name="Table1.B1" style:family="table-cell">\n   <style:table-cell-properties ';
	if (black === xml || !black.includes(cell)) throw new Error('website-contract.fodt changed: blackTags() finds no white text or no Table1.B1');
	const out = path.join(TMP, 'website-contract-black.fodt');
	writeFileSync(out, black.replace(cell, `${cell}fo:background-color="#fff2cc" `));
	return out;
}

/** Helvetica's widths (pdf-lib's AFM metrics) for codes 32–126, so a font dictionary is complete without embedding. */
async function helveticaWidths() {
	const scratch = await PDFDocument.create();
	const helvetica = await scratch.embedFont(StandardFonts.Helvetica);
	const widths = [];
	for (let code = 32; code <= 126; code++) widths.push(Math.round(helvetica.widthOfTextAtSize(String.fromCharCode(code), 1000)));
	return widths;
}

/** xobject-matrix-pdflib.pdf: content streams and Form XObjects written by hand, objects stored by pdf-lib. */
async function xobjectMatrix() {
	const doc = await PDFDocument.create();
	doc.setCreationDate(new Date(EPOCH * 1000));
	doc.setModificationDate(new Date(EPOCH * 1000));
	const { context } = doc;
	const font = context.register(
		context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding', FirstChar: 32,
			LastChar: 126, Widths: await helveticaWidths() }),
	);
	const form = (content, dict) => context.register(context.stream(content, { Type: 'XObject', Subtype: 'Form', ...dict }));
	const inner = form('BT /F1 10 Tf 20 10 Td (Initials {{initials:2:n}}) Tj ET', {
		BBox: [0, 0, 300, 100], Matrix: [0, 1, -1, 0, 380, 0], Resources: { Font: { F1: font } },
	});
	const outer = form(
		'BT /F1 15 Tf 0 230 Td ({{signature:1}}) Tj ET\nBT /F1 12 Tf 0 180 Td (Date: {{date:1}}) Tj ET\nq /Fm2 Do Q',
		{ BBox: [0, 0, 400, 300], Matrix: [0.8, 0, 0, 0.8, 140, 500], Resources: { Font: { F1: font }, XObject: { Fm2: inner } } },
	);
	const pages = [
		'BT /F1 14 Tf 72 740 Td (Form XObjects with their own /Matrix) Tj ET\n' +
			'BT /F1 11 Tf 72 700 Td (Signature:) Tj ET\nBT /F1 11 Tf 72 600 Td (Name: {{name:1}}) Tj ET\nq /Fm1 Do Q',
		'BT /F1 14 Tf 72 740 Td (The same Form XObject, scaled by a cm) Tj ET\nq 1.1 0 0 1.1 -100 -300 cm /Fm1 Do Q',
	];
	for (const content of pages) {
		const page = doc.addPage([612, 792]);
		page.node.set(PDFName.of('Resources'), context.obj({ Font: { F1: font }, XObject: { Fm1: outer } }));
		page.node.set(PDFName.of('Contents'), context.register(context.stream(content)));
	}
	return Buffer.from(await doc.save());
}

/** The incremental update of agreement-incremental.pdf: page 2 gets a new content stream holding a new tag. */
async function incrementalUpdate(original) {
	const doc = await PDFDocument.load(original, { updateMetadata: false });
	const page = doc.getPage(1);
	const { size } = lastTrailer(original);
	const [fontNum, openNum, drawNum] = [size, size + 1, size + 2];
	const widths = await helveticaWidths();
	const fontDict = `<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding/FirstChar 32/LastChar 126/Widths[${widths.join(' ')}]>>`;

	const resources = page.node.Resources();
	const fonts = resources.lookup(PDFName.of('Font'));
	const fontEntries = fonts ? fonts.entries().map(([k, v]) => `${k} ${v}`).join(' ') : '';
	const otherResources = resources.entries().filter(([k]) => k !== PDFName.of('Font')).map(([k, v]) => `${k} ${v}`).join(' ');
	const contents = page.node.get(PDFName.of('Contents'));
	const oldContents = contents instanceof PDFArray ? contents.asArray().map(String) : [String(contents)];
	const pageEntries = page.node
		.entries()
		.filter(([k]) => k !== PDFName.of('Contents') && k !== PDFName.of('Resources'))
		.map(([k, v]) => `${k} ${v}`);
	pageEntries.push(`/Resources <<${otherResources} /Font <<${fontEntries} /FEsignUpdate ${fontNum} 0 R>>>>`);
	// The old content is bracketed by q … Q so whatever state it leaves does not move the new text.
	pageEntries.push(`/Contents [${openNum} 0 R ${oldContents.join(' ')} ${drawNum} 0 R]`);
	const draw = 'Q\nq BT /FEsignUpdate 12 Tf 1 0 0 1 56.8 90 Tm (Approved in an incremental update: {{stamp:2}}) Tj ET Q\n';
	return appendIncrementalUpdate(original, [
		{ num: page.ref.objectNumber, dict: `<<${pageEntries.join('\n')}>>` },
		{ num: fontNum, dict: fontDict },
		{ num: openNum, dict: '<<>>', stream: Buffer.from('q\n') },
		{ num: drawNum, dict: '<<>>', stream: Buffer.from(draw) },
	]);
}

// ---- run -----------------------------------------------------------------------------------------------------------

const strip = (s) => s.replace(/\s+/g, '');
const countsOf = (list) => {
	const counts = new Map();
	for (const t of list) counts.set(`p${t.page} ${strip(t.text)}`, (counts.get(`p${t.page} ${strip(t.text)}`) ?? 0) + 1);
	return counts;
};
function sameTags(expected, found) {
	const a = countsOf(expected);
	const b = countsOf(found);
	const diff = [];
	for (const key of new Set([...a.keys(), ...b.keys()])) {
		if ((a.get(key) ?? 0) !== (b.get(key) ?? 0)) diff.push(`${key}: declared ${a.get(key) ?? 0}, pdf.js ${b.get(key) ?? 0}`);
	}
	return diff;
}

async function main() {
	mkdirSync(OUT, { recursive: true });
	const tools = {
		libreoffice: version('soffice', ['--version'], /LibreOffice ([\d.]+)/),
		chromium: version('chromium', ['--version'], /Chromium ([\d.]+)/),
		ghostscript: version('gs', ['--version'], /([\d.]+)/),
		qpdf: version('qpdf', ['--version'], /qpdf version ([\d.]+)/),
		poppler: version('pdftotext', ['-v'], /version ([\d.]+)/),
		'pdf-lib': JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'pdf-lib', 'package.json'), 'utf8')).version,
		'pdfjs-dist': PDFJS_VERSION,
	};
	console.log(`tools: ${Object.entries(tools).map(([k, v]) => `${k} ${v}`).join(', ')}`);

	const previous = existsSync(path.join(OUT, 'manifest.json')) ? JSON.parse(readFileSync(path.join(OUT, 'manifest.json'), 'utf8')) : null;
	const entries = [];
	const failures = [];
	const table = [];
	for (const fixture of FIXTURES) {
		const target = path.join(OUT, fixture.file);
		if (!ONLY || ONLY.includes(fixture.file)) {
			const pdf = await fixture.make();
			if (fixture.randomKey && existsSync(target) && sameDecrypted(readFileSync(target), pdf, fixture.password)) {
				console.log(`kept ${fixture.file}: its decrypted content is unchanged (AES-256 files get a random key)`);
			} else {
				writeFileSync(target, pdf);
				console.log(`made ${fixture.file} (${pdf.length} bytes)`);
			}
			made.set(fixture.file, readFileSync(target));
		} else if (!existsSync(target)) {
			const old = previous?.fixtures.find((f) => f.file === fixture.file);
			if (old) entries.push(old);
			continue;
		}
		const oracle = await readPdf(target, { password: fixture.password, glyphs: false });
		const diff = [...sameTags(fixture.tags, oracle.tags), ...sameTags(fixture.braces, oracle.braces)];
		if (diff.length) failures.push(`${fixture.file}: ${diff.join('; ')}`);
		const bytes = statSync(target).size;
		entries.push({
			file: fixture.file,
			producer: fixture.producer,
			how: fixture.how,
			features: fixture.features,
			...(fixture.password ? { userPassword: fixture.password } : {}),
			bytes,
			...(fixture.bench ? { committed: bytes <= BENCH_MAX_COMMITTED } : {}),
			pages: oracle.numPages,
			pageSizes: oracle.pages.map((p) => ({ page: p.page, width: p.width, height: p.height, rotate: p.rotate })),
			tags: fixture.tags.map(({ page, text, note }) => ({ text, page, ...(note ? { note } : {}) })),
			nonTags: fixture.braces.map(({ page, text }) => ({ text, page })),
		});
		const check = compareWithPoppler(target, oracle, fixture.password);
		table.push({ file: fixture.file, ...check });
	}

	const manifest = {
		about: 'PDF fixtures for the text-tag reader (nodes/ESign/pdf/). Remade by scripts/make-pdf-fixtures.sh; see README.md.',
		tools,
		boxConvention:
			'Viewport points of page.getViewport({ scale: 1 }) (top-left origin, y down, after CropBox and Rotate). ' +
			'A glyph\'s em box: origin O = (T[4], T[5]) of the text rendering matrix T; advance A = the glyph\'s own advance ' +
			'(no Tc/Tw) along the text-space x axis mapped by Tm x CTM; H = (T[2], T[3]); corners O + s*A + t*H for s in [0, 1], ' +
			't in [-0.2, 0.8], axis-aligned bounds in viewport coordinates. A tag\'s box: the union over its glyphs, first { to last }.',
		pageSizes: 'width and height of page.getViewport({ scale: 1 }) in pdf.js: after CropBox and Rotate.',
		tags: 'each tag as written in the source (text), with its page; nonTags: {{…}} text that is not a tag.',
		fixtures: entries,
	};
	writeFileSync(path.join(OUT, 'manifest.json'), `${formatJson(manifest)}\n`);
	const bench = entries.find((e) => e.committed !== undefined);
	if (bench) {
		const ignore = path.join(OUT, '.gitignore');
		if (bench.committed) rmSync(ignore, { force: true });
		else writeFileSync(ignore, `# Made by scripts/make-pdf-fixtures.sh, too big to commit.\n${bench.file}\n`);
	}

	console.log('\npdf.js oracle against poppler (pdftotext -bbox-layout -cropbox), tags and other {{…}} text, all pages:');
	console.log('fixture                              pdf.js  poppler  matched  compared  max |Δ| along the text (pt)');
	for (const row of table) {
		console.log(
			`${row.file.padEnd(37)}${String(row.pdfjs).padStart(6)}${String(row.poppler).padStart(9)}${String(row.matched).padStart(9)}` +
				`${String(row.compared).padStart(10)}${row.maxDiff.toFixed(4).padStart(12)}`,
		);
		for (const p of row.problems) console.log(`    DISAGREES ${p}`);
		for (const n of row.notes) console.log(`    note: ${n}`);
	}
	if (failures.length) {
		console.error(`\nthe oracle's tags differ from the declared ones:\n${failures.join('\n')}`);
		process.exitCode = 1;
	}
}

try {
	await main();
} finally {
	if (KEEP_TEMP) console.log(`temp files kept in ${TMP}`);
	else rmSync(TMP, { recursive: true, force: true });
}
