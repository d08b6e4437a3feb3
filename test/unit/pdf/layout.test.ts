// Lines from placed glyphs (nodes/ESign/pdf/text/layout.ts): a glyph continues the line when it runs in the same
// direction on the same baseline without stepping back; a gap wider than 15 % of the font size reads as a space.
// Glyphs are given on the displayed page (y down), as the interpreter places them.
import { PdfText } from '../../../nodes/ESign/pdf';
import type { PlacedGlyph } from '../../../nodes/ESign/pdf/text/content';
import { LineBuilder, boxOf, emBox } from '../../../nodes/ESign/pdf/text/layout';
import { PdfError } from '../../../nodes/ESign/pdf/read/objects';
import type { PageArea, TextLine } from '../../../nodes/ESign/pdf/text/layout';
import { pagesPdf } from '../../support/pdfRaw';

/** A horizontal glyph at (x, y): `width` wide, `size` high (the height vector points up the page: −y). */
const h = (text: string, x: number, y = 100, width = 5, size = 10): PlacedGlyph => ({ text, x, y, ax: width, ay: 0, hx: 0, hy: -size });
/** A glyph of text reading upwards (turned 90° counter-clockwise): it advances towards −y, its height towards −x. */
const up = (text: string, x: number, y: number, width = 5, size = 10): PlacedGlyph => ({ text, x, y, ax: 0, ay: -width, hx: -size, hy: 0 });

function build(glyphs: PlacedGlyph[], keep?: (line: TextLine) => boolean, page?: PageArea) {
	const builder = new LineBuilder(keep, page);
	for (const glyph of glyphs) builder.add(glyph);
	builder.flush();
	return builder.lines;
}

const texts = (glyphs: PlacedGlyph[]) => build(glyphs).map((line) => line.text);

describe('spaces from gaps', () => {
	it('glyphs that touch make one word', () => {
		expect(texts([h('A', 0), h('B', 5), h('C', 10)])).toEqual(['ABC']);
	});

	it('a gap wider than 15 % of the font size is a space; 1.5 (15 % of 10) or less is not', () => {
		expect(texts([h('A', 0), h('B', 6.6)])).toEqual(['A B']);
		expect(texts([h('A', 0), h('B', 6.5)])).toEqual(['AB']);
		expect(texts([h('A', 0), h('B', 6.4)])).toEqual(['AB']);
	});

	it('the space has no glyph: glyphOf marks it −1', () => {
		const [line] = build([h('A', 0), h('B', 20)]);
		expect(line.glyphOf).toEqual([0, -1, 1]);
		expect(line.glyphs).toEqual([0, 100, 5, 0, 0, -10, 20, 100, 5, 0, 0, -10]);
	});

	it('no space is added next to a space glyph', () => {
		expect(texts([h('A', 0), h(' ', 5), h('B', 30)])).toEqual(['A B']);
		expect(texts([h('A', 0), h(' B', 30)])).toEqual(['A B']);
	});

	it('a glyph with several characters maps each to itself (ligatures)', () => {
		const [line] = build([h('ﬁ', 0), h('fl', 5)]);
		expect(line.glyphOf).toEqual([0, 1, 1]);
	});

	it('the gap is measured against the larger of the two sizes', () => {
		// Size 10 then 20: the limit is 3 (15 % of 20); a gap of 2.5 is no space.
		expect(texts([h('A', 0, 100, 5, 10), h('B', 7.5, 100, 5, 20)])).toEqual(['AB']);
	});
});

describe('line breaks', () => {
	it('a baseline more than 30 % of the size away starts a new line; a smaller shift (a superscript) does not', () => {
		expect(texts([h('A', 0, 100), h('B', 5, 103.1)])).toEqual(['A', 'B']);
		expect(texts([h('A', 0, 100), h('2', 5, 97)])).toEqual(['A2']);
	});

	it('stepping back more than half the size starts a new line; a small overlap does not', () => {
		// B ends at 10: C at 5.5 steps back 4.5 (under 5, half the size), C at 4.9 steps back 5.1.
		expect(texts([h('A', 0), h('B', 5), h('C', 5.5)])).toEqual(['ABC']);
		expect(texts([h('A', 0), h('B', 5), h('C', 4.9)])).toEqual(['AB', 'C']);
	});

	it('a change of direction starts a new line', () => {
		expect(texts([h('A', 0), h('B', 5), up('C', 10, 100), up('D', 10, 95)])).toEqual(['AB', 'CD']);
	});

	it('text reading upwards continues upwards', () => {
		const lines = build([up('A', 50, 200), up('B', 50, 195), up('C', 50, 170)]);
		expect(lines.map((line) => line.text)).toEqual(['AB C']);
	});

	it('a zero-width glyph takes its direction from its height (it does not break the line)', () => {
		expect(texts([h('A', 0), { text: '\u0301', x: 5, y: 100, ax: 0, ay: 0, hx: 0, hy: -10 }, h('B', 5)])).toEqual(['A\u0301B']);
	});

	it('the line size is its first glyph\'s', () => {
		expect(build([h('A', 0, 100, 5, 12), h('B', 5, 100, 5, 10)]).map((line) => line.size)).toEqual([12]);
	});
});

describe('what is dropped', () => {
	it('glyphs without a size or at a position that is not a number', () => {
		expect(texts([h('A', 0), h('x', 5, 100, 5, 0), h('y', Number.NaN), h('z', 5, Number.POSITIVE_INFINITY), h('B', 5)])).toEqual(['AB']);
	});

	it('lines of white-space only', () => {
		expect(texts([h(' ', 0), h(' ', 5), h('A', 0, 300)])).toEqual(['A']);
	});

	it('lines `keep` refuses', () => {
		const lines = build([h('{', 0), h('A', 0, 300), h('{', 0, 500)], (line) => line.text.includes('{'));
		expect(lines.map((line) => line.text)).toEqual(['{', '{']);
	});
});

describe('text wholly outside the displayed page is dropped', () => {
	const page = { width: 200, height: 300 };
	const onPage = (glyphs: PlacedGlyph[]) => build(glyphs, undefined, page).map((line) => line.text);

	it('past each edge: the em box wholly outside', () => {
		// Horizontal glyphs 5 wide, size 10: the box runs from x to x + 5 and from y − 8 to y + 2.
		expect(onPage([h('L', -5.1), h('R', 200.1), h('T', 50, -2.1), h('B', 50, 308.1)])).toEqual([]);
	});

	it('a glyph partly on the page stays, and one touching an edge', () => {
		expect(onPage([h('L', -4.9, 20)])).toEqual(['L']);
		expect(onPage([h('R', 199.9, 40)])).toEqual(['R']);
		expect(onPage([h('T', 50, -1.9)])).toEqual(['T']);
		expect(onPage([h('B', 50, 307.9)])).toEqual(['B']);
		expect(onPage([h('E', -5, 60), h('F', 200, 80)])).toEqual(['E', 'F']);
	});

	it('a line running off the right edge keeps what the page shows of it', () => {
		// A table of contents drawn from x = 190 on: "Sig" is on the page ("S" at 190, "i" at 195, "g" at 200 touching it).
		expect(onPage([...'Signature'].map((c, k) => h(c, 190 + 5 * k)))).toEqual(['Sig']);
	});

	it('text reading upwards: its box lies across the baseline direction', () => {
		// Origin (x, 100), height towards −x: the box spans x − 8 to x + 2.
		expect(onPage([up('A', -2.1, 100)])).toEqual([]);
		expect(onPage([up('A', -1.9, 100)])).toEqual(['A']);
		expect(onPage([up('A', 208.1, 100)])).toEqual([]);
		expect(onPage([up('A', 207.9, 100)])).toEqual(['A']);
	});

	it('without a page every glyph is kept', () => {
		expect(texts([h('A', 5000), h('B', -5000, 100)])).toEqual(['A', 'B']);
	});

	it('PdfText reads a page as displayed: text past the CropBox of a turned page is not a line', async () => {
		// MediaBox 612 × 792, CropBox 0 0 300 400 turned 90°: displayed 400 × 300. Text at user x 250 is on it; at
		// x 350 (in the MediaBox, outside the CropBox) and at x 2,600 it is not.
		const bytes = pagesPdf([
			{
				cropBox: [0, 0, 300, 400],
				rotate: 90,
				content: 'BT /F1 10 Tf 250 100 Td (Shown) Tj ET BT /F1 10 Tf 350 100 Td (Cropped) Tj ET BT /F1 10 Tf 2600 100 Td (Contents) Tj ET',
			},
		]);
		const pdf = await PdfText.open(bytes);
		expect((await pdf.lines(1)).map((line) => line.text)).toEqual(['Shown']);
	});
});

describe('the glyphs of a page are bounded', () => {
	it('takes 1,000,000 glyphs and refuses one more with a PdfError "limit"', () => {
		const builder = new LineBuilder(() => false);
		const glyph = h('x', 0);
		for (let k = 0; k < 1_000_000; k++) {
			glyph.x = k % 1000;
			builder.add(glyph);
		}
		let error: unknown;
		try {
			builder.add(glyph);
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(PdfError);
		expect((error as PdfError).kind).toBe('limit');
	});
});

describe('boxes', () => {
	it('an em box spans the advance and 0.2 em below to 0.8 em above the baseline', () => {
		const [line] = build([h('A', 10, 100, 5, 10)]);
		expect(emBox(line, 0)).toEqual({ left: 10, top: 92, right: 15, bottom: 102 });
	});

	it('an em box of text reading upwards', () => {
		// Origin (50, 200), advance (0, −5), height (−10, 0): x from 50 − 8 to 50 + 2, y from 195 to 200.
		const [line] = build([up('A', 50, 200)]);
		expect(emBox(line, 0)).toEqual({ left: 42, top: 195, right: 52, bottom: 200 });
	});

	it('boxOf unites the boxes of a slice of the text, skipping implied spaces', () => {
		const [line] = build([h('A', 0), h('B', 5), h('C', 20, 100, 5, 20)]);
		expect(line.text).toBe('AB C');
		expect(boxOf(line, 0, 2)).toEqual({ left: 0, top: 92, right: 10, bottom: 102 });
		expect(boxOf(line, 1, 4)).toEqual({ left: 5, top: 84, right: 25, bottom: 104 });
		expect(boxOf(line, 2, 3)).toEqual({ left: 0, top: 0, right: 0, bottom: 0 });
	});
});
