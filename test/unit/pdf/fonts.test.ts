// The PDF reader's fonts (nodes/ESign/pdf/fonts/fonts.ts): how a string splits into glyphs, each glyph's advance and text
// (ISO 32000-1 9.6–9.10). Widths are checked against the font dictionaries' own numbers and, for the standard 14
// fonts, against Adobe's AFM metrics as pdf-lib ships them (test/support/pdfAfm.js).
import { DEFAULT_LIMITS, PdfDocument } from '../../../nodes/ESign/pdf/read/document';
import { loadFont, standardFontName } from '../../../nodes/ESign/pdf/fonts/fonts';
import type { Glyph } from '../../../nodes/ESign/pdf/fonts/fonts';
import { PdfDict, PdfError, PdfRef } from '../../../nodes/ESign/pdf/read/objects';
import { cffProgram, cmapFormat4, cmapTable, postFormat2, trueTypeProgram, type1Program } from '../../support/fontPrograms';
import { afmWidth } from '../../support/pdfAfm';
import type { RawObject } from '../../support/pdfRaw';
import { deflate, pagesPdf } from '../../support/pdfRaw';

/** Loads object 5 of a file holding the given objects as a font. */
async function font(objects: Array<[number, RawObject]>, limits = DEFAULT_LIMITS) {
	const doc = await PdfDocument.open(pagesPdf([{ content: '' }], { extra: objects }), limits);
	const dict = await doc.resolve(new PdfRef(5, 0));
	return loadFont(doc, dict as PdfDict);
}

/** The glyphs of a string: [text, width (text space, per unit of font size), word space?]. */
function glyphs(loaded: { decode(bytes: Uint8Array, each: (glyph: Glyph) => void): void }, data: number[] | string) {
	const bytes = typeof data === 'string' ? Uint8Array.from(data, (c) => c.charCodeAt(0)) : Uint8Array.from(data);
	const out: Array<[string, number, boolean]> = [];
	loaded.decode(bytes, (glyph) => out.push([glyph.text, glyph.width, glyph.wordSpace]));
	return out;
}

// Widths are the file's numbers times 0.001 (or the font matrix): equal to a double's last bits.
const widths = (list: Array<[string, number, boolean]>) => list.map(([, width]) => Math.round(width * 1e9) / 1e9);
const rounded = (list: Array<[string, number, boolean]>) => list.map(([text, width, space]) => [text, Math.round(width * 1e9) / 1e9, space]);
const texts = (list: Array<[string, number, boolean]>) => list.map(([text]) => text).join('');

describe('simple fonts', () => {
	it('/Widths from /FirstChar, divided by 1000; word space only on code 32', async () => {
		const loaded = await font([[5, '<< /Type /Font /Subtype /TrueType /BaseFont /Test /FirstChar 65 /LastChar 67 /Widths [600 700 800] /Encoding /WinAnsiEncoding >>']]);
		expect(rounded(glyphs(loaded, 'ABC'))).toEqual([
			['A', 0.6, false],
			['B', 0.7, false],
			['C', 0.8, false],
		]);
		// Codes outside /Widths take /MissingWidth (0 here: no descriptor).
		expect(glyphs(loaded, ' D')).toEqual([
			[' ', 0, true],
			['D', 0, false],
		]);
	});

	it('codes outside /Widths take the descriptor\'s /MissingWidth', async () => {
		const loaded = await font([
			[5, '<< /Type /Font /Subtype /Type1 /BaseFont /Test /FirstChar 65 /LastChar 65 /Widths [600] /FontDescriptor 6 0 R >>'],
			[6, '<< /Type /FontDescriptor /FontName /Test /Flags 32 /MissingWidth 321 >>'],
		]);
		expect(widths(glyphs(loaded, 'AB'))).toEqual([0.6, 0.321]);
	});

	it('/Differences replace the base encoding\'s glyph names from each code on', async () => {
		const loaded = await font([
			[5, '<< /Type /Font /Subtype /Type1 /BaseFont /Test /FirstChar 32 /LastChar 255 /Widths [] /Encoding 6 0 R >>'],
			[6, '<< /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [65 /B /C 97 /fi /f_l 200 /Euro /uni0416 /u1F600] >>'],
		]);
		// 65 → B, 66 → C (the run goes on), 67 keeps WinAnsi's C; 97 → ﬁ as its letters, 98 → "fl" (a ligature name).
		expect(texts(glyphs(loaded, [65, 66, 67, 68]))).toBe('BCCD');
		expect(texts(glyphs(loaded, [97, 98, 99]))).toBe('fiflc');
		expect(texts(glyphs(loaded, [200, 201, 202]))).toBe('€Ж\u{1F600}');
	});

	it('base encodings: WinAnsi, MacRoman and Standard differ above 127', async () => {
		const of = async (encoding: string) =>
			texts(glyphs(await font([[5, `<< /Type /Font /Subtype /Type1 /BaseFont /Test /Encoding /${encoding} >>`]]), [0x80, 0x8a, 0xe9]));
		expect(await of('WinAnsiEncoding')).toBe('€Šé');
		expect(await of('MacRomanEncoding')).toBe('ÄäÈ');
		expect(await of('StandardEncoding')).toBe('\ufffd\ufffdØ');
	});

	it('a ToUnicode map wins over the encoding', async () => {
		const loaded = await font([
			[5, '<< /Type /Font /Subtype /Type1 /BaseFont /Test /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>'],
			[6, { stream: '1 beginbfchar <41> <005A> endbfchar' }],
		]);
		expect(texts(glyphs(loaded, 'AB'))).toBe('ZB');
	});

	it('a symbolic font without an encoding starts from MacRoman (as pdf.js reads it); a Dingbats font not embedded reads its codes', async () => {
		const symbolic = await font([
			[5, '<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+Signs /FontDescriptor 6 0 R >>'],
			[6, '<< /Type /FontDescriptor /FontName /ABCDEF+Signs /Flags 4 /FontFile2 7 0 R >>'],
			[7, { stream: 'not a font program' }],
		]);
		expect(texts(glyphs(symbolic, [65, 200, 10]))).toBe('A»\ufffd');
		const dingbats = await font([
			[5, '<< /Type /Font /Subtype /TrueType /BaseFont /Dingbats /FontDescriptor 6 0 R >>'],
			[6, '<< /Type /FontDescriptor /FontName /Dingbats /Flags 4 >>'],
		]);
		// ZapfDingbats: pdf.js's text gives the codes as themselves (Latin-1 above 159; a control code stays U+FFFD).
		expect(texts(glyphs(dingbats, [65, 200, 10]))).toBe('AÈ\ufffd');
		// Not symbolic: a TrueType font starts from WinAnsi, others from Standard.
		const plain = await font([
			[5, '<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+Plain /FontDescriptor 6 0 R >>'],
			[6, '<< /Type /FontDescriptor /FontName /ABCDEF+Plain /Flags 0 >>'],
		]);
		expect(texts(glyphs(plain, [0x80, 0xe9]))).toBe('€é');
	});

	it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('an encoding named /%s (not an encoding) falls back, without failing', async (name) => {
		const direct = await font([[5, `<< /Type /Font /Subtype /Type1 /BaseFont /Test /Encoding /${name} >>`]]);
		expect(texts(glyphs(direct, 'Ab'))).toBe('Ab');
		const based = await font([
			[5, '<< /Type /Font /Subtype /Type1 /BaseFont /Test /Encoding 6 0 R >>'],
			[6, `<< /BaseEncoding /${name} /Differences [66 /C] >>`],
		]);
		expect(texts(glyphs(based, 'AB'))).toBe('AC');
	});

	it('a font named like an object property is no standard font', async () => {
		expect(standardFontName('constructor')).toBeUndefined();
		expect(standardFontName('toString')).toBeUndefined();
		const loaded = await font([
			[5, '<< /Type /Font /Subtype /Type1 /BaseFont /constructor /Encoding 6 0 R /FontDescriptor 7 0 R >>'],
			[6, '<< /Differences [65 /length] >>'],
			[7, '<< /Type /FontDescriptor /MissingWidth 321 >>'],
		]);
		expect(widths(glyphs(loaded, 'A'))).toEqual([0.321]);
	});
});

describe('standard 14 fonts without /Widths take the AFM widths', () => {
	it.each([
		['Helvetica', 'Helvetica', 'A W i'],
		['Times-Roman', 'Times-Roman', 'Aa m'],
		['Courier', 'Courier', 'Wi.'],
		['Helvetica-Bold', 'Helvetica-Bold', 'AMa'],
		['ArialMT (Helvetica\'s metric twin)', 'Helvetica', 'Arial'],
		['ABCDEF+Arial-BoldMT (a subset)', 'Helvetica-Bold', 'Bold'],
		['TimesNewRomanPS-ItalicMT', 'Times-Italic', 'Italic'],
		['Arial,Bold', 'Helvetica-Bold', 'Comma'],
	] as const)('%s: widths of %s', async (baseFont, metrics, sample) => {
		const name = baseFont.split(' ')[0];
		const loaded = await font([[5, `<< /Type /Font /Subtype /Type1 /BaseFont /${name.replace(',', '#2C')} /Encoding /WinAnsiEncoding >>`]]);
		const expected = [...sample].map((c) => afmWidth(metrics, c === ' ' ? 'space' : c === '.' ? 'period' : c) / 1000);
		expect(widths(glyphs(loaded, sample))).toEqual(expected);
	});

	it('width follows the glyph name after /Differences', async () => {
		const loaded = await font([
			[5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding 6 0 R >>'],
			[6, '<< /Differences [65 /W] >>'],
		]);
		expect(rounded(glyphs(loaded, 'A'))).toEqual([['W', afmWidth('Helvetica', 'W') / 1000, false]]);
	});
});

describe('Type 3 fonts', () => {
	it('scale widths by /FontMatrix, not by 1/1000', async () => {
		const loaded = await font([
			[5, '<< /Type /Font /Subtype /Type3 /FontBBox [0 0 500 500] /FontMatrix [0.002 0 0 0.002 0 0] /FirstChar 65 /LastChar 66 /Widths [250 500] /Encoding << /Differences [65 /A /B] >> /CharProcs << >> >>'],
		]);
		expect(rounded(glyphs(loaded, 'AB'))).toEqual([
			['A', 0.5, false],
			['B', 1, false],
		]);
	});
});

describe('composite (Type 0) fonts', () => {
	const type0 = (encoding: string, cid: string, toUnicode = ''): Array<[number, RawObject]> => [
		[5, `<< /Type /Font /Subtype /Type0 /BaseFont /CJK /Encoding ${encoding} /DescendantFonts [6 0 R] ${toUnicode} >>`],
		[6, `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /CJK ${cid} >>`],
	];

	it('/W in both forms (a list from a CID, one width for a CID range) and /DW for the rest', async () => {
		const loaded = await font(type0('/Identity-H', '/DW 800 /W [1 [500 600] 10 20 700]'));
		expect(widths(glyphs(loaded, [0, 1, 0, 2, 0, 10, 0, 20, 0, 21, 0, 3]))).toEqual([0.5, 0.6, 0.7, 0.7, 0.8, 0.8]);
	});

	it('a /W of 100,000 ranges over the same 65,536 CIDs loads (the work is bounded, not the map of widths)', async () => {
		const loaded = await font(type0('/Identity-H', `/W [${'0 65535 500 '.repeat(100_000)}]`));
		expect(widths(glyphs(loaded, [0, 1, 0xff, 0xff]))).toEqual([0.5, 0.5]);
	});

	it('without /DW the default width is 1000', async () => {
		const loaded = await font(type0('/Identity-H', '/W [1 [500]]'));
		expect(widths(glyphs(loaded, [0, 1, 0, 2]))).toEqual([0.5, 1]);
	});

	it('Identity-H: two-byte codes, text from ToUnicode, no word space on 0x0020', async () => {
		const loaded = await font([...type0('/Identity-H', '', '/ToUnicode 7 0 R'), [7, { stream: '1 begincodespacerange <0000> <FFFF> endcodespacerange 2 beginbfchar <0020> <0020> <0041> <65E5> endbfchar' }]]);
		expect(glyphs(loaded, [0x00, 0x41, 0x00, 0x20, 0x00, 0x42])).toEqual([
			['日', 1, false],
			[' ', 1, false],
			['\ufffd', 1, false],
		]);
	});

	it('no ToUnicode: a CID of Adobe\'s CJK collections reads as its Unicode (as pdf.js reads it); another collection\'s does not', async () => {
		const japan = await font(type0('/Identity-H', '/CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 6 >>'));
		// Adobe-Japan1: CID 34 is "A", 843 "あ", 1200 "一"; CID 1 a space (its no-break space, as pdf.js gives it).
		expect(texts(glyphs(japan, [0, 34, 0x03, 0x4b, 0x04, 0xb0, 0, 1]))).toBe('Aあ一 ');
		const korea = await font(type0('/Identity-H', '/CIDSystemInfo << /Registry (Adobe) /Ordering (Korea1) /Supplement 2 >>'));
		expect(texts(glyphs(korea, [0, 34]))).toBe('A');
		const other = await font(type0('/Identity-H', '/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>'));
		expect(texts(glyphs(other, [0, 34]))).toBe('\ufffd');
		// A named CMap this reader does not hold: codes are not CIDs, so no text is made up.
		const named = await font(type0('/90ms-RKSJ-H', '/CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >>'));
		expect(texts(glyphs(named, [0, 34]))).toBe('\ufffd');
	});

	it('no ToUnicode, a CIDFontType2 outside those collections: its TrueType program\'s cmap or post names the glyph of each CID', async () => {
		// Glyph 5 is "A" by the (3,1) cmap; glyph 6 has no code point, only its post name "fi".
		const program = trueTypeProgram({ cmap: cmapTable([[3, 1, cmapFormat4([[0x41, 5]])]]), post: postFormat2([0, 1, 2, 3, 4, 36, 'fi']) });
		const cidFont = (map: string): Array<[number, RawObject]> => [
			...type0('/Identity-H', `/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) >> /FontDescriptor 7 0 R ${map}`),
			[7, '<< /Type /FontDescriptor /FontName /X /Flags 4 /FontFile2 8 0 R >>'],
			[8, { stream: program }],
		];
		const identity = await font(cidFont(''));
		expect(texts(glyphs(identity, [0, 5, 0, 6, 0, 7]))).toBe('Afi\ufffd');
		// /CIDToGIDMap as a stream: CID 1 → glyph 5, CID 2 → glyph 6.
		const mapped = await font([...cidFont('/CIDToGIDMap 9 0 R'), [9, { stream: Uint8Array.from([0, 0, 0, 5, 0, 6]) }]]);
		expect(texts(glyphs(mapped, [0, 1, 0, 2, 0, 5]))).toBe('Afi\ufffd');
	});

	it('Identity-V is vertical, each glyph advancing 1 em', async () => {
		const loaded = await font(type0('/Identity-V', '/W [1 [500]]'));
		expect(loaded.vertical).toBe(true);
		expect(widths(glyphs(loaded, [0, 1]))).toEqual([1]);
	});

	it('an embedded encoding CMap with one-byte codes maps codes to CIDs; word space on the one-byte code 32', async () => {
		const cmap = '1 begincodespacerange <00> <FF> endcodespacerange 1 begincidrange <20> <7E> 1 endcidrange';
		const loaded = await font([...type0('7 0 R', '/DW 1000 /W [1 [250] 34 [600]]'), [7, { stream: cmap }]]);
		// Code 0x20 → CID 1 (250); code 0x41 → CID 0x41 − 0x20 + 1 = 34 (600).
		expect(glyphs(loaded, ' A').map(([, width, space]) => [width, space])).toEqual([
			[0.25, true],
			[0.6, false],
		]);
	});
});

describe("a font's own encoding, where the PDF gives none (read as pdf.js reads it)", () => {
	// cmr10 as pdfTeX embeds it: TeX's ligatures at codes 11–14, no /Encoding and no ToUnicode in the PDF.
	const cmr = type1Program('256 array\n0 1 255 {1 index exch /.notdef put} for\ndup 11 /ff put\ndup 12 /fi put\ndup 13 /fl put\ndup 14 /ffi put\ndup 65 /A put\ndup 66 /Gamma put\nreadonly def');
	const type1 = (entries: string): Array<[number, RawObject]> => [
		[5, `<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+CMR10 /FirstChar 0 /LastChar 255 /Widths [] /FontDescriptor 6 0 R ${entries} >>`],
		[6, '<< /Type /FontDescriptor /FontName /ABCDEF+CMR10 /Flags 4 /FontFile 7 0 R >>'],
		[7, { dict: `/Length1 ${cmr.length1} /Length2 4 /Length3 0`, stream: cmr.data }],
	];

	it('a Type 1 program\'s built-in encoding: TeX\'s ligature codes read as their letters ("identifiers", not "identi\ufffders")', async () => {
		const loaded = await font(type1(''));
		expect(texts(glyphs(loaded, [11, 12, 13, 14, 65, 66]))).toBe('fffiflffiAΓ');
		// One glyph a code, though a ligature's text is several letters (layout maps each letter to the glyph).
		expect(glyphs(loaded, [12])).toHaveLength(1);
	});

	it('/Differences without a base encoding win over the program\'s names; the program gives the rest', async () => {
		const loaded = await font([...type1('/Encoding 8 0 R'), [8, '<< /Type /Encoding /Differences [12 /B] >>']]);
		expect(texts(glyphs(loaded, [11, 12, 65]))).toBe('ffBA');
	});

	it('a named base encoding or a ToUnicode map: the program is not read', async () => {
		const named = await font(type1('/Encoding /WinAnsiEncoding'));
		expect(texts(glyphs(named, [12, 65]))).toBe('\ufffdA');
		const mapped = await font([...type1('/ToUnicode 8 0 R'), [8, { stream: '1 beginbfchar <41> <005A> endbfchar' }]]);
		expect(texts(glyphs(mapped, [65, 12]))).toBe('Z\ufffd');
	});

	it('a CFF program (FontFile3 /Type1C): its encoding and charset', async () => {
		// Glyph 1 = SID 192 (the standard strings' "Scaron"), glyph 2 = SID 391 (a string of the font's own: "fi").
		const program = cffProgram({ glyphs: 3, strings: ['fi'], charset: [0, 0, 192, 1, 135], encoding: [0, 2, 12, 65] });
		const loaded = await font([
			[5, '<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Test /FontDescriptor 6 0 R >>'],
			[6, '<< /Type /FontDescriptor /FontName /ABCDEF+Test /Flags 4 /FontFile3 7 0 R >>'],
			[7, { dict: '/Subtype /Type1C', stream: program }],
		]);
		expect(texts(glyphs(loaded, [12, 65]))).toBe('Šfi');
	});

	it('a symbolic TrueType program (FontFile2): code → (3,0) glyph → post name', async () => {
		const program = trueTypeProgram({ cmap: cmapTable([[3, 0, cmapFormat4([[0xf0b7, 1], [0xf041, 2]])]]), post: postFormat2([0, 'bullet', 'A']) });
		const loaded = await font([
			[5, '<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+Symbolic /FontDescriptor 6 0 R >>'],
			[6, '<< /Type /FontDescriptor /FontName /ABCDEF+Symbolic /Flags 4 /FontFile2 7 0 R >>'],
			[7, { dict: '/Filter /FlateDecode', stream: deflate(program) }],
		]);
		expect(texts(glyphs(loaded, [0xb7, 65, 66]))).toBe('•AB');
	});

	it('Symbol without an embedded program: its built-in encoding; ZapfDingbats: its codes, as pdf.js\'s text gives them', async () => {
		const symbol = await font([[5, '<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>']]);
		expect(texts(glyphs(symbol, [0x61, 0x62, 0x53, 0xb3]))).toBe('αβΣ≥');
		const dingbats = await font([[5, '<< /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats >>']]);
		expect(texts(glyphs(dingbats, [0x21, 0x33]))).toBe('!3');
	});

	it('a program that cannot be read leaves the font as it was; a limit on its stream stops the read', async () => {
		const garbage = await font([
			[5, '<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Test /FontDescriptor 6 0 R >>'],
			[6, '<< /Type /FontDescriptor /FontName /ABCDEF+Test /Flags 4 /FontFile3 7 0 R >>'],
			[7, { dict: '/Subtype /Type1C', stream: Uint8Array.from([1, 0, 4, 4, 0xff, 0xff, 4, 0xff]) }],
		]);
		expect(texts(glyphs(garbage, [65, 12]))).toBe('A\ufffd');
		const big = deflate(new Uint8Array(100_000));
		const limited = font(
			[
				[5, '<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Test /FontDescriptor 6 0 R >>'],
				[6, '<< /Type /FontDescriptor /FontName /ABCDEF+Test /Flags 4 /FontFile 7 0 R >>'],
				[7, { dict: '/Filter /FlateDecode /Length1 100000', stream: big }],
			],
			{ ...DEFAULT_LIMITS, streamBytes: 50_000 },
		);
		await expect(limited).rejects.toThrow(PdfError);
		await expect(limited).rejects.toMatchObject({ kind: 'limit' });
	});
});

describe('ligatures U+FB00–FB06 come out as their letters (as pdf.js\'s text content gives them)', () => {
	it('from a ToUnicode map, in simple and composite fonts', async () => {
		const simple = await font([
			[5, '<< /Type /Font /Subtype /Type1 /BaseFont /Test /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>'],
			[6, { stream: '7 beginbfchar <01> <FB00> <02> <FB01> <03> <FB02> <04> <FB03> <05> <FB04> <06> <FB05> <07> <FB06> endbfchar' }],
		]);
		expect(glyphs(simple, [1, 2, 3, 4, 5, 6, 7]).map(([text]) => text)).toEqual(['ff', 'fi', 'fl', 'ffi', 'ffl', '\u017ft', 'st']);
		const composite = await font([
			[5, '<< /Type /Font /Subtype /Type0 /BaseFont /CJK /Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>'],
			[6, '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /CJK >>'],
			[7, { stream: '1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfchar <0003> <0065FB030063> endbfchar' }],
		]);
		expect(glyphs(composite, [0, 3]).map(([text]) => text)).toEqual(['effic']);
	});
});
