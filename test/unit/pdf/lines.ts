// Text lines made by hand for the tag and anchor tests: one glyph per character, left to right on a horizontal
// baseline of the displayed page (y down), so each glyph's em box is known without the layout code: glyph k spans
// x0 + k·advance to x0 + (k + 1)·advance, and from y − 0.8·size to y + 0.2·size.
import type { Box, TextLine } from '../../../nodes/ESign/pdf';

/** A line of `text`; a "·" stands for a space the layout implied from a gap (no glyph of its own). */
export function line(text: string, { x0 = 0, y = 100, advance = 6, size = 10 } = {}): TextLine {
	const glyphs: number[] = [];
	const glyphOf: number[] = [];
	let out = '';
	for (const char of text) {
		if (char === '·') {
			out += ' ';
			glyphOf.push(-1);
			continue;
		}
		const index = glyphs.length / 6;
		glyphs.push(x0 + index * advance, y, advance, 0, 0, -size);
		out += char;
		glyphOf.push(index);
	}
	return { text: out, glyphOf, glyphs, size };
}

/** The box of glyphs `first` to `last` (glyph indices, inclusive) of a line made by `line` with its defaults. */
export function glyphBox(first: number, last: number, { x0 = 0, y = 100, advance = 6, size = 10 } = {}): Box {
	return { left: x0 + first * advance, top: y - 0.8 * size, right: x0 + (last + 1) * advance, bottom: y + 0.2 * size };
}
