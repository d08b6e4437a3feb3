/**
 * Glyph provenance: where each shown glyph's code is in the content streams, so a writer can stop drawing exactly
 * those glyphs (the tag remover, write/tagRemover.ts). Recorded only when asked (`PdfText.lines(…, { sources: true })`), as
 * flat numbers on the line: no object per glyph.
 */

/** Where one placed glyph's code is; one record, refilled by the interpreter for every glyph. */
export interface GlyphSource {
	/** the content stream's id in the document's SourceTable (-1: a stream that cannot be rewritten) */
	stream: number;
	/** the text-showing operator: from the end of the operator before it to the end of its keyword (decoded bytes) */
	opStart: number;
	opEnd: number;
	/** the string's index in a TJ array (0 for Tj, ' and ") */
	item: number;
	/** the code's byte offset and length in the (decoded) string operand */
	code: number;
	length: number;
	/** Tfs, the font size the operator ran with */
	size: number;
	vertical: boolean;
	/** the font's resource name (its index in the SourceTable's names), as the Tf that selected it wrote it */
	font: number;
	/** Ts, the text rise the operator ran with */
	rise: number;
	/** how long one unit of text space's y axis is on the page (Tm × CTM): what a rise moves the glyph by */
	up: number;
}

/** Numbers per glyph in `TextLine.sources`, in the order of `Src`. */
export const SOURCE_SIZE = 11;

export const enum Src {
	Stream,
	OpStart,
	OpEnd,
	Item,
	Code,
	Length,
	Size,
	Vertical,
	Font,
	Rise,
	Up,
}

/**
 * The sources of the line being built, in a buffer reused from line to line: most lines are dropped when they end
 * (a read keeps only those that may hold a tag), so a line's array is made only for the lines kept (`take`),
 * instead of growing an array for every glyph of every page.
 */
export class SourceRecorder {
	private data = new Float64Array(SOURCE_SIZE * 64);
	private count = 0;

	push(s: GlyphSource): void {
		let at = this.count * SOURCE_SIZE;
		if (at + SOURCE_SIZE > this.data.length) {
			// A line's glyphs are bounded by the page's (MAX_PAGE_GLYPHS, layout.ts): so is this buffer.
			const grown = new Float64Array(this.data.length * 2);
			grown.set(this.data);
			this.data = grown;
		}
		const d = this.data;
		d[at++] = s.stream;
		d[at++] = s.opStart;
		d[at++] = s.opEnd;
		d[at++] = s.item;
		d[at++] = s.code;
		d[at++] = s.length;
		d[at++] = s.size;
		d[at++] = s.vertical ? 1 : 0;
		d[at++] = s.font;
		d[at++] = s.rise;
		d[at] = s.up;
		this.count++;
	}

	/** The line's sources (SOURCE_SIZE numbers a glyph), as a line keeps them. */
	take(): number[] {
		const n = this.count * SOURCE_SIZE;
		const out = new Array<number>(n);
		for (let i = 0; i < n; i++) out[i] = this.data[i];
		return out;
	}

	/** A new line starts. */
	reset(): void {
		this.count = 0;
	}
}

/** The content streams the reader ran, by id: `page N` for a page's /Contents (read as one), else a form's "num gen". */
/** Strings numbered in the order first seen, each kept once. */
class Interner {
	readonly values: string[] = [];
	private readonly ids = new Map<string, number>();

	id(value: string): number {
		let id = this.ids.get(value);
		if (id === undefined) {
			id = this.values.length;
			this.values.push(value);
			this.ids.set(value, id);
		}
		return id;
	}
}

export class SourceTable {
	private readonly streams = new Interner();
	private readonly fonts = new Interner();
	/** The streams by id (`page N` or a form's "num gen"). */
	readonly keys = this.streams.values;
	/** Font resource names by index (GlyphSource.font). */
	readonly names = this.fonts.values;
	/** The last page read with sources: its content's id and decoded bytes (the tag remover rewrites them at once). */
	lastPage: { stream: number; data: Uint8Array } | undefined;
	nameId(name: string): number {
		return this.fonts.id(name);
	}

	id(key: string): number {
		return this.streams.id(key);
	}
}
