// The PDF reader's content interpreter (nodes/ESign/pdf/text/content.ts): where each glyph lands under the text state
// (ISO 32000-1 9.3–9.4), the graphics state (q/Q/cm), Form XObjects and inline images. Font /F1 of the test files
// is 500/1000 em wide for every code (test/support/pdfRaw.js), so each expected position below is worked out from the
// content's own numbers: a glyph at size s advances 0.5·s, then Tc, Tw (code 32) and Tz apply as the standard says.
import { PdfText } from '../../../nodes/ESign/pdf';
import type { RawObject, RawPage } from '../../support/pdfRaw';
import { pagesPdf } from '../../support/pdfRaw';
import { pdfError, placed, tidy } from './run';

/** A glyph as expected: origin, advance vector and height vector, in user space. */
const g = (text: string, x: number, y: number, ax: number, hy: number, ay = 0, hx = 0) => ({ text, x, y, ax, ay, hx, hy });

const page = (content: string, extra: Array<[number, RawObject]> = [], more: Partial<RawPage> = {}) =>
	pagesPdf([{ content, ...more }], { extra });

const run = async (content: string, extra: Array<[number, RawObject]> = [], more: Partial<RawPage> = {}) => tidy(await placed(page(content, extra, more)));

describe('text positioning', () => {
	it('Td then Tj: glyphs side by side from the line start', async () => {
		expect(await run('BT /F1 10 Tf 100 200 Td (AB) Tj ET')).toEqual([g('A', 100, 200, 5, 10), g('B', 105, 200, 5, 10)]);
	});

	it('Td is relative to the start of the line, not to where the text ended', async () => {
		expect(await run('BT /F1 10 Tf 100 200 Td (AB) Tj 0 -20 Td (C) Tj ET')).toEqual([
			g('A', 100, 200, 5, 10),
			g('B', 105, 200, 5, 10),
			g('C', 100, 180, 5, 10),
		]);
	});

	it('Tm sets the text matrix (scale 2 at 50,60): positions and sizes scale', async () => {
		expect(await run('BT /F1 10 Tf 2 0 0 2 50 60 Tm (AB) Tj ET')).toEqual([g('A', 50, 60, 10, 20), g('B', 60, 60, 10, 20)]);
	});

	it('Tm turned 90°: text runs up the page', async () => {
		// [0 1 -1 0 300 100]: text x maps to user +y, text y to user −x.
		expect(await run('BT /F1 10 Tf 0 1 -1 0 300 100 Tm (AB) Tj ET')).toEqual([g('A', 300, 100, 0, 0, 5, -10), g('B', 300, 105, 0, 0, 5, -10)]);
	});

	it('BT resets the text matrix', async () => {
		expect(await run('BT /F1 10 Tf 100 100 Td (A) Tj ET BT /F1 10 Tf (B) Tj ET')).toEqual([g('A', 100, 100, 5, 10), g('B', 0, 0, 5, 10)]);
	});

	it('TL and T*: the next line starts TL below the line start', async () => {
		expect(await run('BT /F1 10 Tf 14 TL 0 100 Td (AB) Tj T* (C) Tj ET')).toEqual([g('A', 0, 100, 5, 10), g('B', 5, 100, 5, 10), g('C', 0, 86, 5, 10)]);
	});

	it('TD moves like Td and sets the leading to −ty', async () => {
		expect(await run('BT /F1 10 Tf 0 100 Td (A) Tj 10 -20 TD (B) Tj T* (C) Tj ET')).toEqual([
			g('A', 0, 100, 5, 10),
			g('B', 10, 80, 5, 10),
			g('C', 10, 60, 5, 10),
		]);
	});

	it("' moves to the next line, then shows", async () => {
		expect(await run("BT /F1 10 Tf 14 TL 0 100 Td (A) Tj (B) ' ET")).toEqual([g('A', 0, 100, 5, 10), g('B', 0, 86, 5, 10)]);
	});

	it('" sets word and character spacing, moves to the next line, then shows', async () => {
		// Tw 3, Tc 2: A at 0; space at 0 + 5 + 2 = 7; B at 7 + 5 + 2 + 3 = 17.
		expect(await run('BT /F1 10 Tf 14 TL 0 100 Td 3 2 (A B) " ET')).toEqual([g('A', 0, 86, 5, 10), g(' ', 7, 86, 5, 10), g('B', 17, 86, 5, 10)]);
	});
});

describe('text state', () => {
	it('TJ: a number moves the next glyph by −n/1000 of the font size; the text matrix moves once, at the end', async () => {
		// A at 0; B at 5 + 500/1000·10 = 10; C at 10 + 5 − 2.5 = 12.5; then D after the TJ at 12.5 + 5 = 17.5.
		expect(await run('BT /F1 10 Tf [(A) -500 (B) 250 (C)] TJ (D) Tj ET')).toEqual([
			g('A', 0, 0, 5, 10),
			g('B', 10, 0, 5, 10),
			g('C', 12.5, 0, 5, 10),
			g('D', 17.5, 0, 5, 10),
		]);
	});

	it('Tc adds to every glyph\'s advance, the last one included', async () => {
		expect(await run('BT /F1 10 Tf 2 Tc (AB) Tj (C) Tj ET')).toEqual([g('A', 0, 0, 5, 10), g('B', 7, 0, 5, 10), g('C', 14, 0, 5, 10)]);
	});

	it('Tw adds to the one-byte code 32 only', async () => {
		expect(await run('BT /F1 10 Tf 3 Tw (A B) Tj ET')).toEqual([g('A', 0, 0, 5, 10), g(' ', 5, 0, 5, 10), g('B', 13, 0, 5, 10)]);
	});

	it('Tw does not apply to a two-byte code 0x0020 of a composite font', async () => {
		const cid: Array<[number, RawObject]> = [
			[5, '<< /Type /Font /Subtype /Type0 /BaseFont /CJK /Encoding /Identity-H /DescendantFonts [6 0 R] >>'],
			[6, '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /CJK /DW 500 >>'],
		];
		const glyphs = await run('BT /F2 10 Tf 3 Tw <004100200042> Tj ET', cid, { resources: '/Font << /F2 5 0 R >>' });
		expect(glyphs.map((glyph) => glyph.x)).toEqual([0, 5, 10]);
	});

	it('Tz scales advances (and Tc) horizontally, not the height', async () => {
		// Th = 0.5: A is 2.5 wide; B at (5 + 2)·0.5 = 3.5.
		expect(await run('BT /F1 10 Tf 50 Tz 2 Tc (AB) Tj ET')).toEqual([g('A', 0, 0, 2.5, 10), g('B', 3.5, 0, 2.5, 10)]);
	});

	it('Tz scales TJ adjustments too', async () => {
		expect(await run('BT /F1 10 Tf 50 Tz [(A) -1000 (B)] TJ ET')).toEqual([g('A', 0, 0, 2.5, 10), g('B', 7.5, 0, 2.5, 10)]);
	});

	it('Ts raises the baseline (in text space: scaled by the text matrix)', async () => {
		expect(await run('BT /F1 10 Tf 5 Ts 100 100 Td (A) Tj ET')).toEqual([g('A', 100, 105, 5, 10)]);
		expect(await run('BT /F1 10 Tf 5 Ts 2 0 0 2 100 100 Tm (A) Tj ET')).toEqual([g('A', 100, 110, 10, 20)]);
	});

	it('Tf through an ExtGState /Font entry', async () => {
		const glyphs = await run('/GS1 gs BT (A) Tj ET', [], { resources: '/Font << /F1 3 0 R >> /ExtGState << /GS1 << /Font [3 0 R 12] >> >>' });
		expect(glyphs).toEqual([g('A', 0, 0, 6, 12)]);
	});

	it('a vertical font (Identity-V) places glyphs downwards, 1 em apart', async () => {
		const cid: Array<[number, RawObject]> = [
			[5, '<< /Type /Font /Subtype /Type0 /BaseFont /CJK /Encoding /Identity-V /DescendantFonts [6 0 R] >>'],
			[6, '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /CJK >>'],
		];
		const glyphs = await run('BT /F2 10 Tf 100 200 Td <00010002> Tj ET', cid, { resources: '/Font << /F2 5 0 R >>' });
		expect(glyphs.map((glyph) => [glyph.x, glyph.y])).toEqual([
			[100, 200],
			[100, 190],
		]);
	});

	it('shows nothing before a font is set, and ignores operators that lack their operands', async () => {
		expect(await run('BT (A) Tj Tf Tm 1 2 3 Tm cm (x) (y) cm Td TJ /F1 10 Tf (B) Tj ET')).toEqual([g('B', 0, 0, 5, 10)]);
	});
});

describe('graphics state', () => {
	it('cm maps user space: positions and sizes scale and move', async () => {
		expect(await run('2 0 0 2 10 20 cm BT /F1 10 Tf 5 5 Td (A) Tj ET')).toEqual([g('A', 20, 30, 10, 20)]);
	});

	it('a later cm applies before the earlier ones (it is premultiplied)', async () => {
		// Translate 100, then scale 2: the point (5, 5) becomes (10, 10), then (110, 10).
		expect(await run('1 0 0 1 100 0 cm 2 0 0 2 0 0 cm BT /F1 10 Tf 5 5 Td (A) Tj ET')).toEqual([g('A', 110, 10, 10, 20)]);
	});

	it('Q restores the CTM and the text state saved by q', async () => {
		expect(await run('q 2 0 0 2 0 0 cm Q BT /F1 10 Tf q /F1 20 Tf 5 Tc Q (AB) Tj ET')).toEqual([g('A', 0, 0, 5, 10), g('B', 5, 0, 5, 10)]);
	});

	it('more Q than q leaves the state as it is (no error)', async () => {
		expect(await run('Q Q 2 0 0 2 0 0 cm Q BT /F1 10 Tf (A) Tj ET')).toEqual([g('A', 0, 0, 10, 20)]);
	});

	it('q nested deeper than its bound still reads the text', async () => {
		expect(await run(`${'q '.repeat(1000)}BT /F1 10 Tf (A) Tj ET${' Q'.repeat(1000)}`)).toEqual([g('A', 0, 0, 5, 10)]);
	});
});

describe('Form XObjects', () => {
	const form = (num: number, content: string, dict = '') => [num, { dict: `/Type /XObject /Subtype /Form /BBox [0 0 1000 1000] ${dict}`, stream: content }] as [number, RawObject];
	const resources = (names: string) => `/Font << /F1 3 0 R >> /XObject << ${names} >>`;

	it('runs a form under its /Matrix and the CTM at the Do', async () => {
		// The form's origin is (100, 50) in its parent's space, then scaled by 2: X lands at (200, 100), 20 high.
		const glyphs = await run('2 0 0 2 0 0 cm /Fm1 Do', [form(20, 'BT /F1 10 Tf (X) Tj ET', '/Matrix [1 0 0 1 100 50]')], { resources: resources('/Fm1 20 0 R') });
		expect(glyphs).toEqual([g('X', 200, 100, 10, 20)]);
	});

	it('a form without /Resources uses its parent\'s; one with them uses its own', async () => {
		const extra: Array<[number, RawObject]> = [
			form(20, 'BT /F1 10 Tf (A) Tj ET'),
			form(21, 'BT /F9 10 Tf (B) Tj ET', '/Resources << /Font << /F9 3 0 R >> >>'),
		];
		const glyphs = await run('/Fa Do /Fb Do', extra, { resources: resources('/Fa 20 0 R /Fb 21 0 R') });
		expect(glyphs.map((glyph) => glyph.text)).toEqual(['A', 'B']);
	});

	it('a form keeps the state of the page after it: the page\'s CTM and font come back', async () => {
		const glyphs = await run('BT /F1 10 Tf ET /Fm1 Do BT (B) Tj ET', [form(20, '3 0 0 3 0 0 cm BT /F1 30 Tf (A) Tj ET')], { resources: resources('/Fm1 20 0 R') });
		expect(glyphs).toEqual([g('A', 0, 0, 45, 90), g('B', 0, 0, 5, 10)]);
	});

	it('a form that draws itself is drawn once per chain; forms that draw each other too (A → B → A)', async () => {
		const self = await run('/Fm1 Do', [form(20, 'BT /F1 10 Tf (S) Tj ET /Fm1 Do', '/Resources 30 0 R'), [30, resources('/Fm1 20 0 R').replace(/^/, '<< ') + ' >>']], {
			resources: resources('/Fm1 20 0 R'),
		});
		expect(self.map((glyph) => glyph.text)).toEqual(['S']);
		const pair = await run(
			'/Fa Do',
			[form(20, 'BT /F1 10 Tf (a) Tj ET /Fb Do', '/Resources 30 0 R'), form(21, 'BT /F1 10 Tf (b) Tj ET /Fa Do', '/Resources 30 0 R'), [30, `<< ${resources('/Fa 20 0 R /Fb 21 0 R')} >>`]],
			{ resources: resources('/Fa 20 0 R /Fb 21 0 R') },
		);
		expect(pair.map((glyph) => glyph.text)).toEqual(['a', 'b']);
	});

	it('a form drawn twice shows twice (the chain is per path, not per page)', async () => {
		const glyphs = await run('/Fm1 Do 1 0 0 1 0 50 cm /Fm1 Do', [form(20, 'BT /F1 10 Tf (X) Tj ET')], { resources: resources('/Fm1 20 0 R') });
		expect(glyphs.map((glyph) => [glyph.text, glyph.y])).toEqual([
			['X', 0],
			['X', 50],
		]);
	});

	it('refuses forms nested more than 12 deep with a PdfError "limit"', async () => {
		// Form 20 + k draws form 21 + k; 14 forms in a chain.
		const extra: Array<[number, RawObject]> = [];
		for (let k = 0; k < 14; k++) extra.push(form(20 + k, `/F${k + 1} Do`, `/Resources << /XObject << /F${k + 1} ${21 + k} 0 R >> >>`));
		expect((await pdfError(run('/F0 Do', extra, { resources: resources('/F0 20 0 R') }))).kind).toBe('limit');
	});

	it('each draw of a form counts as at least 1 KB of content (empty forms drawn without end reach the limit)', async () => {
		const bytes = page('/Fm1 Do '.repeat(200), [form(20, '')], { resources: resources('/Fm1 20 0 R') });
		// 200 draws: 200 KB counted against a limit of 100 KB; the page's own 1.6 KB alone is far under it.
		const pdf = await PdfText.open(bytes, { contentBytes: 100 * 1024 });
		expect((await pdfError(pdf.lines(1))).kind).toBe('limit');
		// 90 draws stay under it.
		const fewer = await PdfText.open(page('/Fm1 Do '.repeat(90), [form(20, '')], { resources: resources('/Fm1 20 0 R') }), { contentBytes: 100 * 1024 });
		expect(await fewer.lines(1)).toEqual([]);
	});

	it('a form drawn on many pages is decoded once per document (the decoded-bytes limit counts it once)', async () => {
		// A 200 KB form drawn 50 times on each of two pages: 20 MB if decoded at every draw, against a 1 MB limit.
		const padded = form(20, `BT /F1 10 Tf (X) Tj ET${' '.repeat(200 * 1024)}`);
		const drawn = { content: '/Fm1 Do '.repeat(50), resources: resources('/Fm1 20 0 R') };
		const pdf = await PdfText.open(pagesPdf([drawn, drawn], { extra: [padded] }), { totalBytes: 1048576, contentBytes: 100 * 1048576 });
		for (const number of [1, 2]) expect((await pdf.lines(number)).map((line) => line.text)).toEqual(['X'.repeat(50)]);
	});

	it('an image XObject is not entered', async () => {
		const image: [number, RawObject] = [20, { dict: '/Type /XObject /Subtype /Image /Width 1 /Height 1 /BitsPerComponent 8 /ColorSpace /DeviceGray', stream: 'BT /F1 10 Tf (no) Tj ET' }];
		expect(await run('/Im1 Do BT /F1 10 Tf (A) Tj ET', [image], { resources: resources('/Im1 20 0 R') })).toEqual([g('A', 0, 0, 5, 10)]);
	});
});

describe('inline images', () => {
	it('skips the data to an EI between white-space ("EI" inside the data is not the end)', async () => {
		const content = 'BI /W 4 /H 1 /BPC 8 /CS /G ID xEIx EI BT /F1 10 Tf (A) Tj ET';
		expect(await run(content)).toEqual([g('A', 0, 0, 5, 10)]);
	});

	it('with /L, skips that many bytes first (data holding " EI " and operators is not read)', async () => {
		const data = ' EI BT /F1 10 Tf (Z) Tj ET ';
		const content = `BI /W ${data.length} /H 1 /BPC 8 /CS /G /L ${data.length} ID ${data}\nEI BT /F1 10 Tf (A) Tj ET`;
		expect((await run(content)).map((glyph) => glyph.text)).toEqual(['A']);
	});

	it('binary data with bytes of every value', async () => {
		let data = '';
		for (let b = 0; b < 256; b++) if (b !== 0x45) data += String.fromCharCode(b); // no "E": no early "EI"
		const content = `BI /W 255 /H 1 /BPC 8 /CS /G ID ${data} EI BT /F1 10 Tf (A) Tj ET`;
		expect((await run(content)).map((glyph) => glyph.text)).toEqual(['A']);
	});

	it('an image without its EI ends the content', async () => {
		expect(await run('BT /F1 10 Tf (A) Tj ET BI /W 1 /H 1 ID xyz')).toEqual([g('A', 0, 0, 5, 10)]);
	});
});

describe('content split over several streams', () => {
	const twoStreams = (first: string, second: string) =>
		pagesPdf([{ content: '' }], {
			extra: [
				// Replaces the helper's page 10 (the later definition of an object wins).
				[10, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents [20 0 R 21 0 R] >>'],
				[20, { stream: first }],
				[21, { stream: second }],
			],
		});

	it('reads a /Contents array as one stream: operands in one, their operator in the next', async () => {
		expect(tidy(await placed(twoStreams('BT /F1 10 Tf', '(AB) Tj ET')))).toEqual([g('A', 0, 0, 5, 10), g('B', 5, 0, 5, 10)]);
	});

	it('joins the streams with white-space, so tokens at the boundary stay apart ("5" + "0 Td" is 5 0 Td, not 50 Td)', async () => {
		expect(tidy(await placed(twoStreams('BT /F1 10 Tf 5', '0 Td (A) Tj ET')))).toEqual([g('A', 5, 0, 5, 10)]);
	});
});
