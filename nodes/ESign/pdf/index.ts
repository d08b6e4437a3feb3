import type { FontCache } from './text/content';
import { ContentRunner, pageContent } from './text/content';
import type { PdfLimits } from './read/document';
import type { FormWidget } from './forms/forms';
import { readFormFields } from './forms/forms';
import { DEFAULT_LIMITS, PdfDocument } from './read/document';
import type { TextLine } from './text/layout';
import { LineBuilder } from './text/layout';
import type { PdfPage } from './text/pages';
import { displayMatrix, readPages } from './text/pages';
import { SourceTable } from './text/provenance';
import { TagRemover } from './write/tagRemover';
import { Filler } from './write/fill';
import { updateBlocker } from './write/safety';
import { removeWidgets } from './write/widgetRemoval';
import type { Removal } from './write/incremental';

export type { Box, TextLine } from './text/layout';
// A match's box from its glyphs: for the node's text matching (textTags/), which reads lines through this door.
export { boxOf } from './text/layout';
export type { FormFieldKind, FormWidget } from './forms/forms';
export { PdfError } from './read/objects';
export { FOLD_CACHE_CHARS } from './limits'; // textTags/fold.ts's bound, kept with the others
export type { TagRemover } from './write/tagRemover';
export type { Filler } from './write/fill';
export type { WidgetLook } from './forms/look';
export type { Removal, UploadParts } from './write/incremental';

const READ_AHEAD = 4;

/** A page's size as displayed (points; CropBox turned by Rotate). */
export interface PageSize {
	number: number;
	width: number;
	height: number;
	rotate: number;
}

/**
 * A PDF opened for its pages and text. Reading is page by page, so a long document never holds more than one
 * page's text at a time.
 */
export class PdfText {
	/** The next pages' content, decoded while this one is read (Flate runs off the main thread). */
	private readonly ahead = new Map<number, Promise<Uint8Array>>();

	private readonly fonts: FontCache = new Map();

	/** The content streams lines were read from with sources (ids in `TextLine.sources`). */
	private readonly sources = new SourceTable();

	private constructor(
		private readonly doc: PdfDocument,
		private readonly pageList: PdfPage[],
	) {}

	private content(number: number): Promise<Uint8Array> {
		const ready = this.ahead.get(number);
		this.ahead.delete(number);
		return ready ?? pageContent(this.doc, this.pageList[number - 1].dict.get('Contents'));
	}

	/** Starts decoding the next few pages (a bounded window: memory stays a few pages' content). */
	private readAhead(number: number): void {
		for (let next = number + 1; next <= Math.min(number + READ_AHEAD, this.pageList.length); next++) {
			if (this.ahead.has(next)) continue;
			const data = pageContent(this.doc, this.pageList[next - 1].dict.get('Contents'));
			data.catch(() => undefined); // read (and its error reported) when that page is asked for
			this.ahead.set(next, data);
		}
	}

	static async open(bytes: Uint8Array, limits: Partial<PdfLimits> = {}): Promise<PdfText> {
		const merged = { ...DEFAULT_LIMITS, ...limits };
		const doc = await PdfDocument.open(bytes, merged);
		return new PdfText(doc, await readPages(doc, merged.pages));
	}

	get pages(): PageSize[] {
		return this.pageList.map(({ number, width, height, rotate }) => ({ number, width, height, rotate }));
	}

	/** Whether the cross-reference table had to be rebuilt by scanning (the file is damaged). */
	get repaired(): boolean {
		return this.doc.xref.recovered;
	}

	/** The form fields' widgets (a fillable PDF's own fields), in page order; [] when the PDF has no form. */
	formFields(): Promise<FormWidget[]> {
		return readFormFields(this.doc, this.pageList);
	}

	/** A tag remover for tags found in lines read with `{ sources: true }` (write/tagRemover.ts). */
	tagRemover(): TagRemover {
		return new TagRemover(this.doc, this.pageList, this.sources);
	}

	/**
	 * A filler that draws values into the pages (form fields' widgets from formFields(), data tags found in lines read
	 * with `{ sources: true }`); its tags leave the file through `tags` (one made when not given), in one update.
	 */
	filler(tags?: TagRemover): Filler {
		return new Filler(this.doc, this.pageList, tags ?? this.tagRemover());
	}

	/**
	 * The file without `widgets` (from formFields(), the ones that became eSign fields): the original followed by one
	 * update, or the original and why (write/widgetRemoval.ts). With `tags`, the tags' removal goes in the same update.
	 */
	removeWidgets(widgets: FormWidget[], tags?: TagRemover): Promise<Removal> {
		return removeWidgets(this.doc, this.pageList, widgets, tags && ((objects) => tags.write(objects)));
	}

	/** Why an incremental update of this file is not safe (encrypted, signed, damaged), or undefined. */
	rewriteBlocker(): Promise<string | undefined> {
		return updateBlocker(this.doc);
	}

	/** The text lines of a page (1-based); `keep` drops lines early (e.g. those without a tag) to save memory. */
	async lines(pageNumber: number, keep?: (line: TextLine) => boolean, options: { sources?: boolean } = {}): Promise<TextLine[]> {
		const page = this.pageList[pageNumber - 1];
		if (!page) return [];
		const content = this.content(pageNumber);
		this.readAhead(pageNumber);
		const data = await content;
		// Text wholly off the displayed page is not the page's (layout.ts).
		const builder = new LineBuilder(keep, { width: page.width, height: page.height });
		// Sources (where each glyph's code is) only when asked: the tag remover needs them, a plain read does not.
		const runner = new ContentRunner(this.doc, builder.add, this.fonts, options.sources ? this.sources : undefined);
		await runner.runPage(data, page.resources, displayMatrix(page), pageNumber);
		if (options.sources) this.sources.lastPage = { stream: this.sources.id(`page ${pageNumber}`), data };
		builder.flush();
		return builder.lines;
	}
}
