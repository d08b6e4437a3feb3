// Helpers for the PDF reader's tests: runs a page's content streams through the interpreter and keeps every glyph it
// places (copied: the interpreter refills one record); the PdfError a read is refused with.
import type { PlacedGlyph } from '../../../nodes/ESign/pdf/text/content';
import { ContentRunner, pageContent } from '../../../nodes/ESign/pdf/text/content';
import { PdfDocument } from '../../../nodes/ESign/pdf/read/document';
import { PdfError } from '../../../nodes/ESign/pdf/read/objects';
import type { Matrix } from '../../../nodes/ESign/pdf/matrix';
import { IDENTITY } from '../../../nodes/ESign/pdf/matrix';
import { readPages } from '../../../nodes/ESign/pdf/text/pages';

/** The glyphs page `pageNumber` shows, in user space (or under `display`). */
export async function placed(bytes: Uint8Array, pageNumber = 1, display: Matrix = IDENTITY): Promise<PlacedGlyph[]> {
	const doc = await PdfDocument.open(bytes);
	const pages = await readPages(doc, 100);
	const page = pages[pageNumber - 1];
	const out: PlacedGlyph[] = [];
	const runner = new ContentRunner(doc, (glyph) => out.push({ ...glyph }));
	await runner.runPage(await pageContent(doc, page.dict.get('Contents')), page.resources, display);
	return out;
}

/** Rounds every number of a glyph to 1e-9 (sums of decimals differ from the expected values in the last bits). */
export function tidy(glyphs: PlacedGlyph[]): PlacedGlyph[] {
	const r = (n: number) => Math.round(n * 1e9) / 1e9 + 0; // + 0 turns -0 into 0
	return glyphs.map((g) => ({ text: g.text, x: r(g.x), y: r(g.y), ax: r(g.ax), ay: r(g.ay), hx: r(g.hx), hy: r(g.hy) }));
}

/** The PdfError a promise is rejected with (fails the test when it resolves, or rejects with anything else). */
export async function pdfError(promise: Promise<unknown>): Promise<PdfError> {
	const error = await promise.then(
		() => undefined,
		(caught: unknown) => caught,
	);
	expect(error).toBeInstanceOf(PdfError);
	return error as PdfError;
}
