// Glyph sources (nodes/ESign/pdf/text/provenance.ts) as lines keep them (layout.ts): recorded in a buffer reused from line
// to line and made into a line's array only when the line is kept, so each kept line holds exactly its own glyphs'.
import type { PlacedGlyph } from '../../../nodes/ESign/pdf/text/content';
import { LineBuilder } from '../../../nodes/ESign/pdf/text/layout';
import type { TextLine } from '../../../nodes/ESign/pdf/text/layout';
import { SOURCE_SIZE, SourceRecorder } from '../../../nodes/ESign/pdf/text/provenance';
import type { GlyphSource } from '../../../nodes/ESign/pdf/text/provenance';

/** A source whose numbers all derive from `n`, so a record in the wrong place shows. */
const source = (n: number): GlyphSource => ({
	stream: n,
	opStart: n + 1,
	opEnd: n + 2,
	item: n + 3,
	code: n + 4,
	length: n + 5,
	size: n + 0.25,
	vertical: n % 2 === 1,
	font: n + 6,
	rise: n + 0.125,
	up: n + 0.0625,
});
const numbers = (n: number) => [n, n + 1, n + 2, n + 3, n + 4, n + 5, n + 0.25, n % 2, n + 6, n + 0.125, n + 0.0625];

/** A horizontal glyph at (x, 100) with the source numbered `n` (the runner refills one record: copied here). */
const glyph = (text: string, x: number, n: number): PlacedGlyph => ({ text, x, y: 100, ax: 5, ay: 0, hx: 0, hy: -10, source: source(n) });

function build(glyphs: PlacedGlyph[], keep?: (line: TextLine) => boolean): TextLine[] {
	const builder = new LineBuilder(keep);
	for (const g of glyphs) builder.add(g);
	builder.flush();
	return builder.lines;
}

describe('SourceRecorder', () => {
	it('gives back the glyphs pushed since the last reset, SOURCE_SIZE numbers each, past its first size', () => {
		const recorder = new SourceRecorder();
		recorder.push(source(1000));
		recorder.reset();
		const many = Array.from({ length: 200 }, (_, i) => i * 10);
		for (const n of many) recorder.push(source(n));
		const taken = recorder.take();
		expect(taken).toHaveLength(many.length * SOURCE_SIZE);
		expect(taken).toEqual(many.flatMap(numbers));
	});
});

describe('a line keeps the sources of its own glyphs', () => {
	it('each of three lines, whatever the lines before it held', () => {
		// Lines on three baselines: a new baseline starts a new line.
		const lines = build([glyph('A', 0, 10), glyph('B', 5, 20), { ...glyph('C', 0, 30), y: 200 }, { ...glyph('D', 0, 40), y: 300 }, { ...glyph('E', 5, 50), y: 300 }]);
		expect(lines.map((line) => line.text)).toEqual(['AB', 'C', 'DE']);
		expect(lines.map((line) => line.sources)).toEqual([
			[...numbers(10), ...numbers(20)],
			numbers(30),
			[...numbers(40), ...numbers(50)],
		]);
	});

	it('a line dropped by keep leaves nothing in the next kept line', () => {
		const lines = build([glyph('x', 0, 10), glyph('y', 5, 20), { ...glyph('{', 0, 30), y: 200 }], (line) => line.text.includes('{'));
		expect(lines.map((line) => line.text)).toEqual(['{']);
		expect(lines[0].sources).toEqual(numbers(30));
	});

	it('a line read without sources has none', () => {
		const [line] = build([{ text: 'A', x: 0, y: 100, ax: 5, ay: 0, hx: 0, hy: -10 }]);
		expect(line.sources).toBeUndefined();
	});
});
