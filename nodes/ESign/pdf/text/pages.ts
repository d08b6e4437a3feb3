import type { PdfDocument } from '../read/document';
import { joinBytes } from '../bytes';
import { PdfDict, PdfError, PdfRef, PdfStream, isName, isNumber } from '../read/objects';
import type { PdfObject } from '../read/objects';
import { MAX_CONTENT_PARTS, MAX_PAGE_TREE_DEPTH } from '../limits';

export type Rect = [number, number, number, number];

/** A page as the reader uses it: its dictionary, inherited resources and its geometry as displayed. */
export interface PdfPage {
	/** 1-based */
	number: number;
	dict: PdfDict;
	/** the page object's reference (an incremental update redefines it); absent for a direct page dictionary */
	ref?: PdfRef;
	resources: PdfDict | undefined;
	/** The visible area in user space: CropBox ∩ MediaBox, [x0, y0, x1, y1] normalised. */
	view: Rect;
	rotate: 0 | 90 | 180 | 270;
	/** Displayed size in points (the view, turned by Rotate). */
	width: number;
	height: number;
}

const LETTER: Rect = [0, 0, 612, 792];

async function rectOf(doc: PdfDocument, value: PdfObject | undefined): Promise<Rect | undefined> {
	const resolved = await doc.resolve(value);
	if (!Array.isArray(resolved) || resolved.length < 4) return undefined;
	const numbers = await Promise.all(resolved.slice(0, 4).map((n) => doc.resolve(n)));
	if (!numbers.every(isNumber)) return undefined;
	const [a, b, c, d] = numbers as number[];
	const rect: Rect = [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
	return rect[2] - rect[0] > 0 && rect[3] - rect[1] > 0 ? rect : undefined;
}

interface Inherited {
	resources?: PdfObject;
	mediaBox?: PdfObject;
	cropBox?: PdfObject;
	rotate?: PdfObject;
}

/** Walks the page tree (cycles and depth bounded) and returns the pages in order. */
export async function readPages(doc: PdfDocument, maxPages: number): Promise<PdfPage[]> {
	const catalog = await doc.resolve(doc.rootRef);
	if (!(catalog instanceof PdfDict)) throw new PdfError('damaged', 'the PDF has no document catalog');
	const pages: PdfPage[] = [];
	const seen = new Set<string>();
	const visit = async (node: PdfObject | undefined, inherited: Inherited, depth: number): Promise<void> => {
		if (depth > MAX_PAGE_TREE_DEPTH) throw new PdfError('damaged', 'the page tree of the PDF is nested too deep');
		if (node instanceof PdfRef) {
			if (seen.has(node.key)) return; // a page tree that loops: each node is read once
			seen.add(node.key);
		}
		const dict = await doc.resolve(node);
		if (!(dict instanceof PdfDict)) return;
		const own: Inherited = {
			resources: dict.get('Resources') ?? inherited.resources,
			mediaBox: dict.get('MediaBox') ?? inherited.mediaBox,
			cropBox: dict.get('CropBox') ?? inherited.cropBox,
			rotate: dict.get('Rotate') ?? inherited.rotate,
		};
		const kids = await doc.resolve(dict.get('Kids'));
		if (Array.isArray(kids) && !isName(dict.get('Type'), 'Page')) {
			for (const kid of kids) await visit(kid, own, depth + 1);
			return;
		}
		if (pages.length >= maxPages) throw new PdfError('limit', `the PDF has more than ${maxPages} pages; the reader stops there`);
		pages.push({ ...(await pageOf(doc, dict, own, pages.length + 1)), ref: node instanceof PdfRef ? node : undefined });
	};
	await visit(catalog.get('Pages'), {}, 0);
	return pages;
}

async function pageOf(doc: PdfDocument, dict: PdfDict, inherited: Inherited, number: number): Promise<PdfPage> {
	const media = (await rectOf(doc, inherited.mediaBox)) ?? LETTER;
	const crop = await rectOf(doc, inherited.cropBox);
	let view: Rect = media;
	if (crop) {
		const cut: Rect = [Math.max(crop[0], media[0]), Math.max(crop[1], media[1]), Math.min(crop[2], media[2]), Math.min(crop[3], media[3])];
		// A CropBox outside the MediaBox is ignored, as viewers do.
		if (cut[2] - cut[0] > 0 && cut[3] - cut[1] > 0) view = cut;
	}
	const rawRotate = await doc.resolve(inherited.rotate);
	// A multiple of 90 (anything else is ignored, as viewers do), turned into 0, 90, 180 or 270.
	const rotate = isNumber(rawRotate) && rawRotate % 90 === 0 ? ((rawRotate % 360) + 360) % 360 : 0;
	const resources = await doc.resolve(inherited.resources);
	const w = view[2] - view[0];
	const h = view[3] - view[1];
	const turned = rotate === 90 || rotate === 270;
	return {
		number,
		dict,
		resources: resources instanceof PdfDict ? resources : undefined,
		view,
		rotate: rotate as PdfPage['rotate'],
		width: turned ? h : w,
		height: turned ? w : h,
	};
}

/**
 * The matrix from user space to the displayed page (top-left origin, y down), as a viewer shows it at 100 %:
 * the view's corner moved to the origin, turned clockwise by Rotate.
 */
export function displayMatrix(page: PdfPage): [number, number, number, number, number, number] {
	const [x0, y0, x1, y1] = page.view;
	switch (page.rotate) {
		case 90:
			return [0, 1, 1, 0, -y0, -x0];
		case 180:
			return [-1, 0, 0, 1, x1, -y0];
		case 270:
			return [0, -1, -1, 0, y1, x1];
		default:
			return [1, 0, 0, -1, -x0, y1];
	}
}

/** A page's /Contents (a stream or an array of streams) decoded and read as one, as the format says (joined by a
 * space: operators may be split across the streams of one page). */
export async function pageContent(doc: PdfDocument, contents: PdfObject | undefined): Promise<Uint8Array> {
	const resolved = await doc.resolve(contents);
	const parts = Array.isArray(resolved) ? resolved : [resolved];
	const chunks: Uint8Array[] = [];
	for (const part of parts.slice(0, MAX_CONTENT_PARTS)) {
		const stream = await doc.resolve(part);
		if (stream instanceof PdfStream) chunks.push(await doc.streamData(stream));
	}
	return chunks.length === 1 ? chunks[0] : joinBytes(chunks, 0x20);
}
