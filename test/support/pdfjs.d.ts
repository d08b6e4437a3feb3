// Types for test/support/pdfjs.js. Coordinates are viewport points of page.getViewport({ scale: 1 }) in pdf.js:
// top-left origin, y down, after CropBox and Rotate. Boxes are [left, top, right, bottom].

export type Box = [number, number, number, number];

/** One shown glyph, or an inferred space / line end (`extra`) in reading order. */
export type PdfjsGlyph =
	| { u: string; origin: [number, number]; box: Box; vertical?: true }
	| { extra: ' ' | '\n' };

export interface PdfjsPage {
	page: number;
	width: number;
	height: number;
	/** The page's /Rotate as pdf.js normalises it: 0, 90, 180 or 270. */
	rotate: number;
	/** Every occurrence of each requested anchor phrase (matched with whitespace ignored). */
	anchors: Array<{ text: string; box: Box }>;
	/** Left out when the read asked for glyphs: false. */
	glyphs?: PdfjsGlyph[];
}

export interface PdfjsTag {
	page: number;
	/** The tag's text with whitespace removed, e.g. "{{text:2:Companyname}}". */
	text: string;
	box: Box;
	/** Displayed direction of the baseline, degrees counter-clockwise (0 normal text, 90 reads upwards). */
	angle: number;
}

export interface PdfjsResult {
	/** The pdfjs-dist version that read the file. */
	pdfjs: string;
	numPages: number;
	pages: PdfjsPage[];
	/** {{…}} spans that follow the tag grammar, in page and reading order. */
	tags: PdfjsTag[];
	/** Other {{…}} spans (mail-merge placeholders such as {{client_name}}). */
	braces: PdfjsTag[];
}

export interface PdfjsReadOptions {
	anchors?: string[];
	password?: string;
	/** false leaves out the per-glyph lists (long documents). */
	glyphs?: boolean;
	/** 1-based page numbers to read (default: all). */
	pages?: number[];
}

export function readPdfWithPdfjs(input: string | Uint8Array, options?: PdfjsReadOptions): Promise<PdfjsResult>;

export interface PdfFixture {
	file: string;
	producer: string;
	how: string;
	features: string[];
	/** Needed to open the file (its owner password is "esign-owner"). */
	userPassword?: string;
	bytes: number;
	/** Only on the benchmark file: whether it is committed (else the script makes it and git ignores it). */
	committed?: boolean;
	pages: number;
	pageSizes: Array<{ page: number; width: number; height: number; rotate: number }>;
	/** The tags as written in the source (whitespace kept), with their pages. */
	tags: Array<{ text: string; page: number; note?: string }>;
	/** {{…}} text that is not a tag. */
	nonTags: Array<{ text: string; page: number }>;
}

export interface PdfFixtureManifest {
	about: string;
	tools: Record<string, string>;
	boxConvention: string;
	fixtures: PdfFixture[];
}

export const PDF_FIXTURES_DIR: string;
export function readPdfFixtureManifest(): PdfFixtureManifest;
export function readPdfFixture(file: string): { path: string; bytes: Buffer | undefined };
