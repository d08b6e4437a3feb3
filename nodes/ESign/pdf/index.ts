import { ContentRunner } from './content';
import type { PdfLimits } from './document';
import { DEFAULT_LIMITS, PdfDocument } from './document';
import type { TextLine } from './layout';
import { LineBuilder } from './layout';
import type { PdfPage } from './pages';
import { displayMatrix, readPages } from './pages';

export type { Box, TextLine } from './layout';
export { boxOf } from './layout';
export { PdfError } from './objects';
export type { PdfErrorKind } from './objects';
export type { PdfLimits } from './document';
export { DEFAULT_LIMITS } from './document';

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
	private constructor(
		private readonly doc: PdfDocument,
		private readonly pageList: PdfPage[],
	) {}

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

	/** The text lines of a page (1-based); `keep` drops lines early (e.g. those without a tag) to save memory. */
	async lines(pageNumber: number, keep?: (line: TextLine) => boolean): Promise<TextLine[]> {
		const page = this.pageList[pageNumber - 1];
		if (!page) return [];
		const builder = new LineBuilder(keep);
		const runner = new ContentRunner(this.doc, builder.add);
		await runner.runPage(page.dict.get('Contents'), page.resources, displayMatrix(page));
		builder.flush();
		return builder.lines;
	}
}
