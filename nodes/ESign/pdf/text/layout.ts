import type { PlacedGlyph } from './content';
import { MAX_PAGE_GLYPHS } from '../limits';
import { PdfError } from '../read/objects';
import { SourceRecorder } from './provenance';

/**
 * Lines of text from glyphs in content order, as readers rebuild them: a glyph continues the line when it runs in
 * the same direction on the same baseline without stepping back; a gap wider than 15 % of the font size reads as a
 * space. Boxes are em boxes (from 0.2 em below the baseline to 0.8 em above it, across the glyph's own advance),
 * on the displayed page; they are worked out only for the text a search asks about.
 *
 * Text wholly outside the page as displayed (a table of contents drawn past the right edge and clipped) is dropped
 * before it reaches a line: a viewer shows none of it, so it is neither a tag nor an anchor. Poppler's text output
 * (pdftotext) does the same, throwing away a character whose origin-to-advance span lies wholly off the page;
 * pdf.js's getTextContent keeps every character, though its canvas shows nothing there. The test here is the em
 * box (the glyph's advance by its height), so a glyph partly on the page, even by its ascent only, stays.
 */

export interface Box {
	left: number;
	top: number;
	right: number;
	bottom: number;
}

export interface TextLine {
	text: string;
	/** per UTF-16 unit of `text`: the index of its glyph, or -1 for a space the gap implied */
	glyphOf: number[];
	/** six numbers per glyph: origin x, y, advance vector, height vector */
	glyphs: number[];
	/** the line's font size (of its first glyph) */
	size: number;
	/** per glyph, where its code is (provenance.ts, SOURCE_SIZE numbers each); only when the read asked for sources,
	 * and filled once the line ends (`keep` sees it empty) */
	sources?: number[];
}

const DESCENT = 0.2;
const ASCENT = 0.8;

/** The em box of glyph `index` of a line. */
export function emBox(line: TextLine, index: number): Box {
	const box = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
	growByEmBox(box, line.glyphs, index * 6);
	return box;
}

/** `box` grown to take in the em box of the glyph whose six numbers start at `g[at]` (its four corners). */
function growByEmBox(box: Box, g: number[], at: number): void {
	const x = g[at];
	const y = g[at + 1];
	const ax = g[at + 2];
	const ay = g[at + 3];
	const hx = g[at + 4];
	const hy = g[at + 5];
	for (let corner = 0; corner < 4; corner++) {
		const s = corner & 1;
		const t = corner < 2 ? -DESCENT : ASCENT;
		const px = x + s * ax + t * hx;
		const py = y + s * ay + t * hy;
		if (px < box.left) box.left = px;
		if (px > box.right) box.right = px;
		if (py < box.top) box.top = py;
		if (py > box.bottom) box.bottom = py;
	}
}

/** The displayed page's size: glyphs wholly outside 0..width × 0..height are not text of the page. */
export interface PageArea {
	width: number;
	height: number;
}

/** Whether the em box of a placed glyph lies wholly outside the page (touching an edge counts as on it). */
function offPage(g: PlacedGlyph, page: PageArea): boolean {
	// The box's corners are the origin plus 0 or 1 advance plus −DESCENT or ASCENT heights: extremes per axis.
	const left = g.x + Math.min(0, g.ax) + Math.min(-DESCENT * g.hx, ASCENT * g.hx);
	const right = g.x + Math.max(0, g.ax) + Math.max(-DESCENT * g.hx, ASCENT * g.hx);
	const top = g.y + Math.min(0, g.ay) + Math.min(-DESCENT * g.hy, ASCENT * g.hy);
	const bottom = g.y + Math.max(0, g.ay) + Math.max(-DESCENT * g.hy, ASCENT * g.hy);
	return right < 0 || left > page.width || bottom < 0 || top > page.height;
}

export class LineBuilder {
	readonly lines: TextLine[] = [];
	private current: TextLine | undefined;
	// the current line's direction (unit vector) and its last glyph's end
	private dx = 1;
	private dy = 0;
	private endX = 0;
	private endY = 0;
	private count = 0;
	/** the current line's glyph sources, made into its array only if the line is kept (provenance.ts) */
	private readonly recorder = new SourceRecorder();

	/** `page`: the displayed page, when known; glyphs wholly outside it are dropped. */
	constructor(
		private readonly keep: (line: TextLine) => boolean = () => true,
		private readonly page?: PageArea,
	) {}

	add = (g: PlacedGlyph): void => {
		if (++this.count > MAX_PAGE_GLYPHS) {
			throw new PdfError('limit', `a page of the PDF shows more than ${MAX_PAGE_GLYPHS.toLocaleString('en-US')} characters; the reader stops there`);
		}
		const size = Math.hypot(g.hx, g.hy);
		if (!(size > 0) || !Number.isFinite(g.x) || !Number.isFinite(g.y)) return;
		if (this.page && offPage(g, this.page)) return;
		const length = Math.hypot(g.ax, g.ay);
		// The writing direction: the advance, or (for a zero-width glyph) the height turned a quarter clockwise.
		const dx = length > 0 ? g.ax / length : -g.hy / size;
		const dy = length > 0 ? g.ay / length : g.hx / size;
		let line = this.current;
		if (line) {
			const sameDirection = dx * this.dx + dy * this.dy > 0.99;
			const ox = g.x - this.endX;
			const oy = g.y - this.endY;
			const along = ox * this.dx + oy * this.dy;
			const across = Math.abs(-ox * this.dy + oy * this.dx);
			const limit = Math.max(line.size, size);
			if (!sameDirection || across > 0.3 * limit || along < -0.5 * limit) {
				this.flush();
				line = undefined;
			} else if (along > 0.15 * limit && line.text.length && !/\s/.test(line.text[line.text.length - 1]) && !/^\s/.test(g.text)) {
				line.text += ' ';
				line.glyphOf.push(-1);
			}
		}
		if (!line) {
			line = g.source ? { text: '', glyphOf: [], glyphs: [], size, sources: [] } : { text: '', glyphOf: [], glyphs: [], size };
			this.current = line;
			this.dx = dx;
			this.dy = dy;
		}
		const index = line.glyphs.length / 6;
		line.glyphs.push(g.x, g.y, g.ax, g.ay, g.hx, g.hy);
		if (g.source && line.sources) this.recorder.push(g.source);
		line.text += g.text;
		for (let k = 0; k < g.text.length; k++) line.glyphOf.push(index);
		this.endX = g.x + g.ax;
		this.endY = g.y + g.ay;
	};

	flush(): void {
		const line = this.current;
		if (line && line.text.trim() && this.keep(line)) {
			if (line.sources) line.sources = this.recorder.take();
			this.lines.push(line);
		}
		this.recorder.reset();
		this.current = undefined;
	}
}

/** The box of `text.slice(start, end)` of a line: the union of its glyphs' em boxes. */
export function boxOf(line: TextLine, start: number, end: number): Box {
	const box = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
	let last = -1;
	for (let i = start; i < end; i++) {
		const index = line.glyphOf[i];
		if (index < 0 || index === last) continue;
		last = index;
		growByEmBox(box, line.glyphs, index * 6);
	}
	return last < 0 ? { left: 0, top: 0, right: 0, bottom: 0 } : box;
}
