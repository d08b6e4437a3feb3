import type { Box, TextLine } from './layout';
import { boxOf } from './layout';

/**
 * Anchors: a text already in the document that a field is placed next to. Matching ignores case and treats any
 * run of white-space as one space; a match inside a longer word does not count ("Date" is not found in
 * "Update"), where the anchor's own ends are letters or digits, and neither does one inside a text tag.
 */

const WORD = /[\p{L}\p{N}]/u;

export interface AnchorMatch {
	page: number;
	box: Box;
}

/** The line's text with white-space runs as one space, lower-cased, and where each character came from. */
function normalise(line: TextLine): { text: string; from: number[] } {
	let text = '';
	const from: number[] = [];
	let space = false;
	for (let i = 0; i < line.text.length; i++) {
		const c = line.text[i];
		if (/\s/.test(c)) {
			space = text.length > 0;
			continue;
		}
		if (space) {
			text += ' ';
			from.push(i - 1);
			space = false;
		}
		text += c.toLowerCase();
		from.push(i);
	}
	return { text, from };
}

export const normaliseAnchor = (anchor: string) => anchor.trim().replace(/\s+/g, ' ').toLowerCase();

/** Every occurrence of each anchor on a page's lines, in reading order of the content, keyed by normaliseAnchor. */
export function findAnchors(lines: TextLine[], page: number, anchors: string[]): Map<string, AnchorMatch[]> {
	const found = new Map<string, AnchorMatch[]>();
	for (const anchor of anchors) {
		const wanted = normaliseAnchor(anchor);
		if (wanted) found.set(wanted, []);
	}
	if (!found.size) return found;
	for (const line of lines) {
		// Each line is normalised once, whatever the number of anchors.
		const { text, from } = normalise(line);
		// Text inside a tag ({{signature:1}}) is the tag's, not the document's: "Signature:" is not found there.
		const tags = [...text.matchAll(/\{ ?\{[^{}]*\} ?\}/g)].map((m) => [m.index, m.index + m[0].length]);
		for (const [wanted, matches] of found) {
			const wordStart = WORD.test(wanted[0]);
			const wordEnd = WORD.test(wanted[wanted.length - 1]);
			// Tags and matches both run left to right: the only tag a match can overlap is the first that ends after it starts.
			let tag = 0;
			for (let at = text.indexOf(wanted); at >= 0; at = text.indexOf(wanted, at + 1)) {
				const end = at + wanted.length;
				while (tag < tags.length && tags[tag][1] <= at) tag++;
				if (tag < tags.length && tags[tag][0] < end) continue;
				if (wordStart && at > 0 && WORD.test(text[at - 1])) continue;
				if (wordEnd && end < text.length && WORD.test(text[end])) continue;
				matches.push({ page, box: boxOf(line, from[at], from[end - 1] + 1) });
			}
		}
	}
	return found;
}

/** Every occurrence of one anchor on a page's lines, in reading order of the content. */
export const findAnchor = (lines: TextLine[], page: number, anchor: string): AnchorMatch[] =>
	findAnchors(lines, page, [anchor]).get(normaliseAnchor(anchor)) ?? [];
