import type { Box, TextLine } from '../pdf';
import { boxOf } from '../pdf';
import { fold, foldText } from './fold';
import { braceSpans } from './tags';

/**
 * Anchors: a text already in the document that a field is placed next to. Both the anchor and the page's text are
 * folded (fold.ts: case, white-space runs, typographic quotes and dashes, ligatures, full-width forms), so "Tenant's"
 * finds "Tenant’s" and "efficiency" finds "eﬃciency" drawn as one glyph. A match inside a longer word does not count
 * ("Date" is not found in "Update"), where the anchor's own ends are letters or digits, and neither does one inside
 * a text tag.
 */

/** Letters, digits and the accents that continue them (folding takes "é" apart into "e" and its accent). */
const WORD = /[\p{L}\p{N}\p{M}]/u;

export interface AnchorMatch {
	page: number;
	box: Box;
}

/** Whether the character of `text` that ends just before `at` (or starts at `at`) is part of a word. */
const wordBefore = (text: string, at: number) => at > 0 && WORD.test(String.fromCodePoint(text.codePointAt(at >= 2 && (text.charCodeAt(at - 1) & 0xfc00) === 0xdc00 ? at - 2 : at - 1) as number));
const wordAt = (text: string, at: number) => at < text.length && WORD.test(String.fromCodePoint(text.codePointAt(at) as number));

/** The anchor as matching sees it: folded, one space for any run of white-space, trimmed; '' when nothing is left. */
export const normaliseAnchor = (anchor: string) => foldText(anchor);

/** Every occurrence of each anchor on a page's lines, in reading order of the content, keyed by normaliseAnchor. */
export function findAnchors(lines: TextLine[], page: number, anchors: string[]): Map<string, AnchorMatch[]> {
	const found = new Map<string, AnchorMatch[]>();
	for (const anchor of anchors) {
		const wanted = normaliseAnchor(anchor);
		if (wanted) found.set(wanted, []);
	}
	if (!found.size) return found;
	const wanted = [...found].map(([text, matches]) => ({ text, matches, wordStart: wordAt(text, 0), wordEnd: wordBefore(text, text.length) }));
	for (const line of lines) {
		// Each line is folded once, whatever the number of anchors.
		const { text, from } = fold(line.text);
		// Text inside a tag ({{signature:1}}) is the tag's, not the document's: "Signature:" is not found there (braces
		// as tags.ts reads them, mail-merge text such as {{client_name}} too).
		const tags = braceSpans(line.text);
		for (const { text: anchor, matches, wordStart, wordEnd } of wanted) {
			// Tags and matches both run left to right: the only tag a match can overlap is the first that ends after it starts.
			let tag = 0;
			for (let at = text.indexOf(anchor); at >= 0; at = text.indexOf(anchor, at + 1)) {
				const end = at + anchor.length;
				// The match in the line's own text: from its first folded unit's source to past its last one's.
				const start = from[at];
				const stop = from[end - 1] + 1;
				while (tag < tags.length && tags[tag][1] <= start) tag++;
				if (tag < tags.length && tags[tag][0] < stop) continue;
				if (wordStart && wordBefore(text, at)) continue;
				if (wordEnd && wordAt(text, end)) continue;
				// A ligature matched in part ("fi" of "ﬃ") still gives its whole glyph: boxes are per glyph.
				matches.push({ page, box: boxOf(line, start, stop) });
			}
		}
	}
	return found;
}

/** Every occurrence of one anchor on a page's lines, in reading order of the content. */
export const findAnchor = (lines: TextLine[], page: number, anchor: string): AnchorMatch[] =>
	findAnchors(lines, page, [anchor]).get(normaliseAnchor(anchor)) ?? [];
