// Shared by the tag-removal tests: read a PDF's tags with sources, remove them, and compare what is left.
import type { Removal, TextLine, UploadParts } from '../../../nodes/ESign/pdf';
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
	result: Removal;
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

/**
 * A removal's upload as its parts (nodes/ESign/pdf/write/incremental.ts UploadParts), checked against the file it was
 * given: the original part is that very object (no copy); the update (none when unchanged) is written to follow it:
 * its startxref and every cross-reference row, read from the update alone, point inside the update once the
 * original's length is taken off; joined, the parts are `bytes`, joined once (the same object on a second access) and
 * not by a spread of the result. Returns how many cross-reference rows were checked.
 */
export function expectParts(result: UploadParts & { changed: boolean }, original: Uint8Array): number {
	expect(result.original).toBe(original);
	expect(Object.keys(result)).not.toContain('bytes');
	if (!result.changed) {
		expect(result.update).toBeUndefined();
		expect(result.length).toBe(original.length);
		expect(result.bytes).toBe(original);
		return 0;
	}
	const pieces = result.update as Uint8Array[];
	for (const piece of pieces) {
		expect(piece).toBeInstanceOf(Uint8Array);
		expect(piece.buffer).not.toBe(original.buffer);
	}
	const update = Buffer.concat(pieces);
	expect(result.length).toBe(original.length + update.length);
	const joined = Buffer.concat([original, update]);
	expect(Buffer.from(result.bytes).equals(joined)).toBe(true);
	expect(result.bytes).toBe(result.bytes);

	const text = Buffer.from(update.buffer, update.byteOffset, update.length).toString('latin1');
	// Where an offset counted from the original's first byte lands in the update alone.
	const at = (offset: number, length: number) => {
		expect(offset).toBeGreaterThanOrEqual(original.length);
		return text.slice(offset - original.length, offset - original.length + length);
	};
	const xref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
	const section = at(xref, 200);
	const rows: Array<{ num: number; offset: number }> = [];
	if (section.startsWith('xref\n')) {
		const table = /^xref\n([^]*?)trailer/.exec(text.slice(xref - original.length))?.[1] ?? '';
		for (const sub of table.matchAll(/^(\d+) (\d+)\n((?:\d{10} \d{5} n\r\n)+)/gm)) {
			sub[3].trim().split(/\r\n/).forEach((row, k) => rows.push({ num: Number(sub[1]) + k, offset: Number(row.slice(0, 10)) }));
		}
	} else {
		// An xref stream, as incremental.ts writes it: uncompressed, /W [1 4 2], its /Index in the dictionary.
		expect(section).toMatch(/^\d+ 0 obj\n<<[^]*\/W \[1 4 2\]/);
		const index = (/\/Index \[([\d ]+)\]/.exec(section)?.[1] ?? '').split(' ').map(Number);
		let pos = xref - original.length + section.indexOf('stream\n') + 'stream\n'.length;
		for (let i = 0; i < index.length; i += 2) {
			for (let k = 0; k < index[i + 1]; k++, pos += 7) {
				expect(update[pos]).toBe(1);
				rows.push({ num: index[i] + k, offset: ((update[pos + 1] << 24) | (update[pos + 2] << 16) | (update[pos + 3] << 8) | update[pos + 4]) >>> 0 });
			}
		}
	}
	expect(rows.length).toBeGreaterThan(0);
	for (const { num, offset } of rows) expect(at(offset, 20)).toMatch(new RegExp(`^${num} 0 obj\\n`));
	return rows.length;
}
