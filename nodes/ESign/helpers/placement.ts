import type { AnchorMatch } from '../textTags/anchors';
import type { Box, PageSize } from '../pdf';

/**
 * Where fields go when the PDF says so: next to an anchor text, or on a text tag; and whether a field fits on its
 * page. Pure geometry on the displayed page (points, top-left origin), shared by Create and Send and Replace All.
 */

export const ANCHOR_POSITIONS = ['after', 'below', 'over', 'above'] as const;
export type AnchorPosition = (typeof ANCHOR_POSITIONS)[number];

export interface Placed {
	page: number;
	x: number;
	y: number;
}

/** Points to 1/100 pt: what fields are sent and messages say. */
export const round = (n: number) => Math.round(n * 100) / 100;

/**
 * A field of `width` × `height` beside the anchor's box: after it (on its line: left edge at the text's end,
 * bottom on the text's bottom), below it, over it (bottom-left corners together) or above it; then moved by the
 * offsets (right and down).
 */
export function besideAnchor(match: AnchorMatch, position: AnchorPosition, width: number, height: number, offsetX: number, offsetY: number): Placed {
	const box = match.box;
	let x = box.left;
	let y = box.bottom - height;
	if (position === 'after') x = box.right;
	else if (position === 'below') y = box.bottom;
	else if (position === 'above') y = box.top - height;
	return { page: match.page, x: round(x + offsetX), y: round(y + offsetY) };
}

/** Which matches a row asks for: occurrence n (from 1), or every one with 0. */
export function chosenMatches(matches: AnchorMatch[], occurrence: number): AnchorMatch[] {
	if (occurrence === 0) return matches;
	return matches[occurrence - 1] ? [matches[occurrence - 1]] : [];
}

/** A tag's field: the tag's own box (a checkbox: a square of the tag's height at its left), or the type's default
 * size with its bottom-left corner on the tag's. */
export function onTag(box: Box, page: number, type: string, size: 'tag' | 'default', defaults: { width: number; height: number }) {
	const height = box.bottom - box.top;
	if (size === 'default') {
		return { page, x: round(box.left), y: round(box.bottom - defaults.height), width: defaults.width, height: defaults.height };
	}
	const width = type === 'checkbox' ? height : box.right - box.left;
	return { page, x: round(box.left), y: round(box.top), width: round(width), height: round(height) };
}

/** How a field sits on its page: on it, partly past an edge (by how much), wholly off it, or on no page at all. */
export function fit(pages: PageSize[], page: number, x: number, y: number, width: number, height: number): { problem?: string; wholly?: boolean } {
	const size = pages[page - 1];
	if (!size) return { problem: `page ${page} does not exist: the PDF has ${pages.length} page${pages.length === 1 ? '' : 's'}`, wholly: true };
	const tolerance = 0.5; // rounding in the PDF's numbers and in ours
	const dims = `page ${page} is ${round(size.width)} × ${round(size.height)} pt`;
	if (x >= size.width || y >= size.height || x + width <= 0 || y + height <= 0) {
		return { problem: `it is off page ${page} (at x ${round(x)}, y ${round(y)}; ${dims})`, wholly: true };
	}
	const past: string[] = [];
	if (x + width > size.width + tolerance) past.push(`the right edge by ${round(x + width - size.width)} pt`);
	if (y + height > size.height + tolerance) past.push(`the bottom edge by ${round(y + height - size.height)} pt`);
	if (x < -tolerance) past.push(`the left edge by ${round(-x)} pt`);
	if (y < -tolerance) past.push(`the top edge by ${round(-y)} pt`);
	return past.length ? { problem: `it runs past ${past.join(' and ')} (${dims})`, wholly: false } : {};
}
