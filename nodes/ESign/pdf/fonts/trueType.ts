import fontNames from './fontNames.json';
import { textOfGlyphName } from './glyphList';
import { PdfError } from '../read/objects';
import { attempt } from '../recover';

/**
 * What a TrueType program (FontFile2) says about its glyphs: the `cmap` table (formats 0, 4, 6 and 12; the (3,0)
 * symbol subtable with its 0xF000 offsets, (1,0) and (3,1)) takes a code to a glyph, the `post` table (formats 1, 2,
 * 3) names the glyph, and (3,1)/(3,10) read backwards give a glyph its Unicode. Every offset and count is checked
 * against the data: 65,535 subtables or segments cost no more than the bytes that hold them.
 */

let mac: string[] | undefined;
const macName = (index: number) => (mac ??= fontNames.mac.split(' '))[index];

const damaged = (what: string) => new PdfError('damaged', `a TrueType font program's ${what} runs past its end`);

function u16(data: Uint8Array, at: number, what: string): number {
	if (at < 0 || at + 2 > data.length) throw damaged(what);
	return (data[at] << 8) | data[at + 1];
}

function u32(data: Uint8Array, at: number, what: string): number {
	if (at < 0 || at + 4 > data.length) throw damaged(what);
	return data[at] * 0x1000000 + ((data[at + 1] << 16) | (data[at + 2] << 8) | data[at + 3]);
}

/** The program's tables by tag, each a view of its bytes (a table past the end is left out). */
function tables(data: Uint8Array): Map<string, Uint8Array> {
	const out = new Map<string, Uint8Array>();
	const count = u16(data, 4, 'table directory');
	for (let i = 0; i < count && 12 + i * 16 + 16 <= data.length; i++) {
		const entry = 12 + i * 16;
		const tag = String.fromCharCode(...data.subarray(entry, entry + 4));
		const offset = u32(data, entry + 8, 'table directory');
		const length = u32(data, entry + 12, 'table directory');
		if (offset + length <= data.length && !out.has(tag)) out.set(tag, data.subarray(offset, offset + length));
	}
	return out;
}

type Lookup = (code: number) => number;

/** A cmap subtable as code → glyph id (0 for none). */
function subtable(cmap: Uint8Array, at: number): Lookup | undefined {
	const format = u16(cmap, at, 'cmap table');
	if (format === 0) {
		if (at + 6 + 256 > cmap.length) throw damaged('cmap table');
		return (code) => (code < 256 ? cmap[at + 6 + code] : 0);
	}
	if (format === 6) {
		const first = u16(cmap, at + 6, 'cmap table');
		const count = u16(cmap, at + 8, 'cmap table');
		return (code) => (code >= first && code < first + count ? u16(cmap, at + 10 + (code - first) * 2, 'cmap table') : 0);
	}
	if (format === 4) {
		const segments = u16(cmap, at + 6, 'cmap table') >> 1;
		const ends = at + 14;
		const starts = ends + segments * 2 + 2;
		const deltas = starts + segments * 2;
		const ranges = deltas + segments * 2;
		if (ranges + segments * 2 > cmap.length) throw damaged('cmap table');
		return (code) => {
			// Binary search on the end codes (sorted in a sound font; in a broken one this finds nothing, never loops).
			let low = 0;
			let high = segments - 1;
			while (low < high) {
				const mid = (low + high) >> 1;
				if (u16(cmap, ends + mid * 2, 'cmap table') < code) low = mid + 1;
				else high = mid;
			}
			if (segments === 0 || u16(cmap, ends + low * 2, 'cmap table') < code) return 0;
			const start = u16(cmap, starts + low * 2, 'cmap table');
			if (code < start) return 0;
			const delta = u16(cmap, deltas + low * 2, 'cmap table');
			const range = u16(cmap, ranges + low * 2, 'cmap table');
			if (range === 0) return (code + delta) & 0xffff;
			const glyphAt = ranges + low * 2 + range + (code - start) * 2;
			if (glyphAt + 2 > cmap.length) return 0;
			const glyph = u16(cmap, glyphAt, 'cmap table');
			return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
		};
	}
	if (format === 12) {
		const groups = Math.min(u32(cmap, at + 12, 'cmap table'), Math.floor((cmap.length - at - 16) / 12));
		return (code) => {
			let low = 0;
			let high = groups - 1;
			while (low <= high) {
				const mid = (low + high) >> 1;
				const group = at + 16 + mid * 12;
				const start = u32(cmap, group, 'cmap table');
				const end = u32(cmap, group + 4, 'cmap table');
				if (code < start) high = mid - 1;
				else if (code > end) low = mid + 1;
				else return (u32(cmap, group + 8, 'cmap table') + code - start) % 65536;
			}
			return 0;
		};
	}
	return undefined;
}

/** The cmap's subtables by "platform,encoding" (the first of each; at most as many as the table has room for). */
function cmaps(cmap: Uint8Array): Map<string, Lookup> {
	const out = new Map<string, Lookup>();
	const count = Math.min(u16(cmap, 2, 'cmap table'), Math.floor((cmap.length - 4) / 8));
	for (let i = 0; i < count; i++) {
		const key = `${u16(cmap, 4 + i * 8, 'cmap table')},${u16(cmap, 6 + i * 8, 'cmap table')}`;
		if (out.has(key) || !['3,0', '1,0', '3,1', '3,10'].includes(key)) continue;
		const lookup = subtable(cmap, u32(cmap, 8 + i * 8, 'cmap table'));
		if (lookup) out.set(key, lookup);
	}
	return out;
}

/** Glyph names by glyph id from a `post` table (format 1: the Macintosh order; 2: indexes and Pascal strings). */
export function postNames(post: Uint8Array): Array<string | undefined> {
	const format = u32(post, 0, 'post table');
	if (format === 0x10000) return fontNames.mac.split(' ');
	if (format !== 0x20000) return [];
	const glyphs = u16(post, 32, 'post table');
	if (34 + glyphs * 2 > post.length) throw damaged('post table');
	// The Pascal strings after the indexes, each found once; an index past the last string names nothing.
	const strings: string[] = [];
	for (let at = 34 + glyphs * 2; at < post.length; ) {
		const length = post[at];
		if (at + 1 + length > post.length) break;
		strings.push(String.fromCharCode(...post.subarray(at + 1, at + 1 + length)));
		at += 1 + length;
	}
	const names: Array<string | undefined> = [];
	for (let gid = 0; gid < glyphs; gid++) {
		const index = u16(post, 34 + gid * 2, 'post table');
		names.push(index < 258 ? macName(index) : strings[index - 258]);
	}
	return names;
}

/** A program's glyph ids' Unicode text from its (3,1) or (3,10) subtable, for the codes of a symbolic font. */
function unicodeByGlyph(lookups: Map<string, Lookup>, wanted: Set<number>): Map<number, string> {
	const out = new Map<number, string>();
	const unicode = lookups.get('3,1') ?? lookups.get('3,10');
	if (!unicode || wanted.size === 0) return out;
	// Walk the BMP once (65,536 lookups, each a binary search): enough for the simple fonts this serves.
	for (let u = 0x20; u < 0x10000 && out.size < wanted.size; u++) {
		if (u >= 0xd800 && u <= 0xf8ff) continue; // surrogates and the private use area say nothing
		const gid = unicode(u);
		if (gid && wanted.has(gid) && !out.has(gid)) out.set(gid, String.fromCharCode(u));
	}
	return out;
}

/**
 * Text by code (0–255) for a symbolic simple TrueType font without an encoding in the PDF: the code through the
 * (3,0) subtable (code, then 0xF000 + code, as Windows symbol fonts store it), the (1,0) or the (3,1) one, then the glyph's
 * `post` name, else its Unicode from the (3,1) subtable. Undefined when the program cannot be read.
 */
function symbolicText(data: Uint8Array): Array<string | undefined> | undefined {
	const found = tables(data);
	const cmap = found.get('cmap');
	if (!cmap) return undefined;
	const lookups = cmaps(cmap);
	const symbol = lookups.get('3,0');
	const mac10 = lookups.get('1,0');
	const unicode = lookups.get('3,1');
	// (3,0) first, as Windows symbol fonts store codes (often at 0xF000 + code); then (1,0); then the code read as
	// Unicode in (3,1).
	const glyphOf = (code: number) =>
		symbol ? symbol(code) || symbol(0xf000 + code) || symbol(0xf100 + code) || symbol(0xf200 + code) : (mac10 ?? unicode)?.(code) ?? 0;
	const post = found.get('post');
	const names = post ? postNames(post) : [];
	const glyphs = Array.from({ length: 256 }, (_, code) => glyphOf(code));
	const unnamed = new Set(glyphs.filter((gid) => gid && !(names[gid] && textOfGlyphName(names[gid] as string))));
	const byGlyph = unicodeByGlyph(lookups, unnamed);
	const text = glyphs.map((gid) => (gid ? ((names[gid] && textOfGlyphName(names[gid] as string)) ?? byGlyph.get(gid)) : undefined));
	return text.some((t) => t !== undefined) ? text : undefined;
}

/**
 * Text by glyph id for a CIDFontType2 program without a ToUnicode map: the glyph's Unicode from the (3,1) or (3,10)
 * subtable read backwards (the lowest code point that reaches it), else its `post` name. Undefined when the program
 * says nothing about any glyph or cannot be read.
 */
function glyphText(data: Uint8Array): ((gid: number) => string | undefined) | undefined {
	const found = tables(data);
	const cmap = found.get('cmap');
	const post = found.get('post');
	// A damaged post table: the cmap may still say enough.
	const names: Array<string | undefined> = post ? attempt(() => postNames(post), []) : [];
	const unicode = cmap ? (cmaps(cmap).get('3,1') ?? cmaps(cmap).get('3,10')) : undefined;
	const byGlyph = new Map<number, string>();
	// The BMP walked once (65,536 lookups, each a binary search), outside the surrogates and the private use area.
	if (unicode) {
		for (let u = 0x20; u < 0x10000; u++) {
			if (u >= 0xd800 && u <= 0xf8ff) continue;
			const gid = unicode(u);
			if (gid && !byGlyph.has(gid)) byGlyph.set(gid, String.fromCharCode(u));
		}
	}
	if (!byGlyph.size && !names.some((name) => name && name !== '.notdef')) return undefined;
	return (gid) => byGlyph.get(gid) ?? (names[gid] ? textOfGlyphName(names[gid] as string) : undefined);
}

/** Text by code of a symbolic simple TrueType font (see symbolicText), or undefined when the program is damaged. */
export function trueTypeSymbolicText(data: Uint8Array): Array<string | undefined> | undefined {
	return attempt(() => symbolicText(data), undefined);
}

/** Text by glyph id of a CIDFontType2 program (see glyphText), or undefined when the program is damaged. */
export function trueTypeGlyphText(data: Uint8Array): ((gid: number) => string | undefined) | undefined {
	return attempt(() => glyphText(data), undefined);
}
