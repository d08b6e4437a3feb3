// Shared by the tag-removal tests: read a PDF's tags with sources, remove them, and compare what is left.
import type { TagRemoval, TextLine } from '../../../nodes/ESign/pdf';
import { PdfText } from '../../../nodes/ESign/pdf';

export interface GlyphAt {
	text: string;
	x: number;
	y: number;
}

/** Every glyph of a page's lines (text, origin), except those in `skip` ranges of a line. */
export function glyphsOf(lines: TextLine[], skip = new Map<TextLine, Array<[number, number]>>()): GlyphAt[] {
	const out: GlyphAt[] = [];
	for (const line of lines) {
		const texts = new Map<number, string>();
		const skipped = new Set<number>();
		line.glyphOf.forEach((index, i) => {
			if (index < 0) return;
			texts.set(index, (texts.get(index) ?? '') + line.text[i]);
			if ((skip.get(line) ?? []).some(([s, e]) => i >= s && i < e)) skipped.add(index);
		});
		for (const [index, text] of texts) {
			if (!skipped.has(index)) out.push({ text, x: line.glyphs[index * 6], y: line.glyphs[index * 6 + 1] });
		}
	}
	return out.sort((a, b) => a.y - b.y || a.x - b.x);
}

export interface RoundTrip {
	result: TagRemoval;
	tags: number;
	pages: number;
	/** glyphs before (tags' glyphs left out) and after, per page */
	before: GlyphAt[][];
	after: GlyphAt[][];
	/** tag texts found in the output */
	left: string[];
	pagesAfter: number;
}

/** Braces text on a line, as a tag finder would see it (which of them are tags, the caller says). */
const BRACES = /\{\s*\{[^{}]*\}\s*\}/g;

/** Reads every braces text `isTag` accepts, removes them all, and reads the upload again. */
export async function roundTrip(bytes: Uint8Array, isTag: (text: string) => boolean): Promise<RoundTrip> {
	const pdf = await PdfText.open(bytes);
	const remover = pdf.tagRemover();
	const before: GlyphAt[][] = [];
	let tags = 0;
	for (const { number } of pdf.pages) {
		const lines = await pdf.lines(number, undefined, { sources: true });
		const skip = new Map<TextLine, Array<[number, number]>>();
		for (const line of lines) {
			for (const match of line.text.matchAll(BRACES)) {
				if (!isTag(match[0])) continue;
				tags++;
				const range: [number, number] = [match.index, match.index + match[0].length];
				if (remover.removeText(number, line, ...range) === undefined) skip.set(line, [...(skip.get(line) ?? []), range]);
			}
		}
		before.push(glyphsOf(lines, skip));
	}
	const result = await remover.write();
	// Nothing removed: every glyph is expected back.
	if (!result.changed) before.splice(0, before.length, ...(await Promise.all(pdf.pages.map(async ({ number }) => glyphsOf(await pdf.lines(number))))));
	const out = await PdfText.open(result.bytes);
	const after: GlyphAt[][] = [];
	const left: string[] = [];
	for (const { number } of out.pages) {
		const lines = await out.lines(number);
		for (const line of lines) left.push(...[...line.text.matchAll(BRACES)].map((match) => match[0]).filter(isTag));
		after.push(glyphsOf(lines));
	}
	return { result, tags, pages: pdf.pages.length, before, after, left, pagesAfter: out.pages.length };
}

/** The largest distance between matching glyphs (same text, in reading order), or Infinity when they differ. */
export function largestShift(before: GlyphAt[], after: GlyphAt[]): number {
	if (before.length !== after.length) return Infinity;
	let most = 0;
	for (let i = 0; i < before.length; i++) {
		if (before[i].text !== after[i].text) return Infinity;
		most = Math.max(most, Math.hypot(before[i].x - after[i].x, before[i].y - after[i].y));
	}
	return most;
}
