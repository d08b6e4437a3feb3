import { FOLD_CACHE_CHARS } from '../pdf';

/**
 * Text folded for matching as people type it: the user's anchor and the page's text go through the same folding,
 * so they compare equal when they read the same. Per character:
 * - typographic quotes and dashes read as straight ones (‘ ’ ‚ ‛ ′ → ', “ ” „ ‟ ″ → ", ‐ ‑ ‒ – — ― − → -);
 * - every Unicode space (no-break, thin, ideographic…) is a space, and a run of them is one space;
 * - soft hyphens and zero-width characters are dropped (they show nothing, or nothing a reader types);
 * - compatibility forms are taken apart (NFKD: the ligature "ﬃ" is "ffi", a full-width "Ｆ" is "F", "é" is "e" and
 *   its accent, so a precomposed and a composed accent read alike);
 * - case is folded (lower case of upper case: "ß" is "ss", a final "ς" is "σ").
 * `from` maps each folded UTF-16 unit back to the unit of the source it came from, so a match's glyphs are known.
 */

export interface Folded {
	text: string;
	/** per UTF-16 unit of `text`: the index in the source of the character it came from */
	from: number[];
}

const QUOTES = "\u2018\u2019\u201A\u201B\u2032"; // ‘ ’ ‚ ‛ ′
const DOUBLE_QUOTES = '\u201C\u201D\u201E\u201F\u2033'; // “ ” „ ‟ ″
const DASHES = '\u2010\u2011\u2012\u2013\u2014\u2015\u2212'; // ‐ ‑ ‒ – — ― −
const DROPPED = '\u00AD\u200B\u200C\u200D\u2060\uFEFF';

/** Characters folded by rule before (and after) the Unicode folding. */
const RULES = new Map<number, string>();
for (const [chars, to] of [
	[QUOTES, "'"],
	[DOUBLE_QUOTES, '"'],
	[DASHES, '-'],
	[DROPPED, ''],
] as const) {
	for (const char of chars) RULES.set(char.charCodeAt(0), to);
}

const SPACE = 32;
// JavaScript's white-space: ASCII's, and U+00A0, U+1680, U+2000–200A, U+2028, U+2029, U+202F, U+205F, U+3000 (and
// U+FEFF, dropped above as a zero-width character).
const WHITE = /\s/;

/** One step of the folding of one character: rules, then NFKD and case, then the rules on what that gave. */
function step(char: string): string {
	const rule = RULES.get(char.codePointAt(0) as number);
	if (rule !== undefined) return rule;
	if (WHITE.test(char)) return ' ';
	const decomposed = char.normalize('NFKD');
	// A spacing accent (´ ¨) comes apart into a space and a combining accent: it stays the character it is.
	if (decomposed.length > 1 && WHITE.test(decomposed)) return char.toUpperCase().toLowerCase();
	let out = '';
	for (const part of decomposed.toUpperCase().toLowerCase().normalize('NFKD')) out += RULES.get(part.codePointAt(0) as number) ?? part;
	return out;
}

/** A character's folded form, folded again until it no longer changes (so folding folded text changes nothing). */
function foldChar(char: string): string {
	let folded = char;
	for (let round = 0; round < 4; round++) {
		let next = '';
		for (const part of folded) next += step(part);
		if (next === folded) break;
		folded = next;
	}
	return folded;
}

// Folded forms, worked out once per character: the ASCII ones now, the others on first sight. The cache outlives
// the document (it is the process's), so it is bounded: past FOLD_CACHE_CHARS characters (pdf/limits.ts, with every
// bound; a file of every character there is) the others are folded each time they are seen.
const ASCII: string[] = [];
for (let code = 0; code < 128; code++) ASCII.push(foldChar(String.fromCharCode(code)));
const CACHE = new Map<number, string>();

function folded(code: number, char: () => string): string {
	let out = CACHE.get(code);
	if (out === undefined) {
		out = foldChar(char());
		if (CACHE.size < FOLD_CACHE_CHARS) CACHE.set(code, out);
	}
	return out;
}

/** Folds `source`; white-space runs become one space, none at the start or the end. */
export function fold(source: string): Folded {
	let text = '';
	const from: number[] = [];
	// A space waits until a character follows it (so none ends the text), and comes from the run's first unit.
	let spaceAt = -1;
	for (let i = 0; i < source.length; i++) {
		const at = i;
		const code = source.charCodeAt(i);
		let out: string;
		if (code < 128) out = ASCII[code];
		else if (code >= 0xd800 && code < 0xdc00 && i + 1 < source.length && (source.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
			const point = source.codePointAt(i) as number;
			out = folded(point, () => String.fromCodePoint(point));
			i++;
		} else out = folded(code, () => source[at]);
		if (out.length === 1 && out.charCodeAt(0) === SPACE) {
			if (spaceAt < 0 && text.length) spaceAt = at;
			continue;
		}
		if (!out.length) continue;
		if (spaceAt >= 0) {
			text += ' ';
			from.push(spaceAt);
			spaceAt = -1;
		}
		text += out;
		for (let k = 0; k < out.length; k++) from.push(at);
	}
	return { text, from };
}

/** The folded form of a text alone (an anchor as the user typed it). */
export const foldText = (source: string): string => fold(source).text;
