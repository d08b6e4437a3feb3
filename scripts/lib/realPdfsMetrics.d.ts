// Types for scripts/lib/realPdfsMetrics.js (the real-document comparison shared by scripts/real-pdfs.mjs and
// test/unit/pdf/realDocuments.slow.test.ts).
import type { Box, TextLine } from '../../nodes/ESign/pdf';
import type { PdfjsGlyph } from '../../test/support/pdfjs';

export interface AnchorFigures {
	/** words seen exactly once on a page by both readers */
	compared: number;
	/** of those, our anchor box within the tolerance of pdf.js's at both ends along the text */
	within: number;
	worst: number;
	misses: string[];
}

export interface PageFigures {
	/** pdf.js's letters and digits (NFKC) */
	letters: number;
	/** ours */
	ours: number;
	/** pdf.js's letters and digits matched in order by ours */
	matched: number;
	/** too different to align within the edit limit (counted as no match) */
	capped: boolean;
	fffd: number;
	/** our U+FFFD glyphs that start where pdf.js starts a glyph it reads as a letter or digit */
	fffdAtLetters: number;
	anchors: AnchorFigures;
}

export interface Figures extends Omit<PageFigures, 'capped'> {
	pages: number;
	cappedPages: number;
}

export interface RealPdfEntry {
	id: string;
	family: string;
	producer: string;
	creator: string;
	package: string;
	version: string;
	path: string;
	copyright: string;
	pages: number;
	numPages: number;
	bytes: number;
	sha256: string;
	committed?: string;
	known?: { letters?: number; fffdAtLetters?: number; anchors?: number; why: string };
}

export interface ReaderFunctions {
	findAnchor(lines: TextLine[], page: number, anchor: string): Array<{ page: number; box: Box }>;
}

export function lettersOf(text: string): string;
export function matchedInOrder(a: string, b: string, maxEdits?: number): number | undefined;
export function comparePage(
	ourLines: TextLine[],
	theirGlyphs: PdfjsGlyph[],
	pageNumber: number,
	reader: ReaderFunctions,
	options?: { tolerance?: number; maxEdits?: number; keepMisses?: number },
): PageFigures;
export function addUp(results: Array<PageFigures | Figures>): Figures;
export function percent(part: number, whole: number): number;
export function readRealManifest(): { about: string; files: RealPdfEntry[] };
export function readCommittedRealPdfs(): Array<{ entry: RealPdfEntry; bytes: Buffer; sha256: string }>;
export const MAX_EDITS: number;
