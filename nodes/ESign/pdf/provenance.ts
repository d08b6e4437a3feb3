/**
 * Glyph provenance: where each shown glyph's code is in the content streams, so a writer can stop drawing exactly
 * those glyphs (the tag remover, rewrite.ts). Recorded only when asked (`PdfText.lines(…, { sources: true })`), as
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
	/** the advance the glyph takes along the line before Tz, in text space: w0·Tfs + Tc (+ Tw for code 32) */
	advance: number;
	/** Tfs, the font size the operator ran with */
	size: number;
	vertical: boolean;
}

/** Numbers per glyph in `TextLine.sources`, in the order of `Src`. */
export const SOURCE_SIZE = 9;

export const enum Src {
	Stream,
	OpStart,
	OpEnd,
	Item,
	Code,
	Length,
	Advance,
	Size,
	Vertical,
}

/** Appends one glyph's source to a line's flat array. */
export function pushSource(into: number[], s: GlyphSource): void {
	into.push(s.stream, s.opStart, s.opEnd, s.item, s.code, s.length, s.advance, s.size, s.vertical ? 1 : 0);
}

/** The content streams the reader ran, by id: `page N` for a page's /Contents (read as one), else a form's "num gen". */
export class SourceTable {
	readonly keys: string[] = [];
	private readonly ids = new Map<string, number>();
	/** The last page read with sources: its content's id and decoded bytes (the tag remover rewrites them at once). */
	lastPage: { stream: number; data: Uint8Array } | undefined;
	/** Rewrites still deflating (the tag remover's): the next page's read waits while there are many, so memory holds a
	 * few pages' content, not every page's when the deflate falls behind the read. */
	readonly busy = new Set<Promise<unknown>>();

	track(work: Promise<unknown>): void {
		// Settled either way: a failed rewrite is reported by write(), never by the next read.
		const settled: Promise<unknown> = work.then(
			() => this.busy.delete(settled),
			() => this.busy.delete(settled),
		);
		this.busy.add(settled);
	}

	async settle(most: number): Promise<void> {
		while (this.busy.size > most) await Promise.race(this.busy);
	}

	id(key: string): number {
		let id = this.ids.get(key);
		if (id === undefined) {
			id = this.keys.length;
			this.keys.push(key);
			this.ids.set(key, id);
		}
		return id;
	}
}
