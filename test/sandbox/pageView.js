'use strict';
/**
 * The page as displayed: the doubles' reading of the spec's "top-left origin" for field coordinates (the spec shows
 * no rotated or cropped page). The visible area is the CropBox (default the MediaBox; both inherited through the
 * page tree; the CropBox intersected with the MediaBox), turned clockwise by the page's /Rotate (inherited; a
 * multiple of 90, normalised to 0, 90, 180 or 270; any other value counts as 0), with the origin at the displayed
 * top-left corner: what pdf.js's page.getViewport({scale: 1}) and a viewer show. The WordPress plugin's pdf.php
 * (esign_pdf_view) reads pages the same way.
 */

const { PDFArray, PDFNumber } = require('pdf-lib');

/** /Rotate as pdf.js reads it: 0, 90, 180 or 270. */
function normaliseRotation(value) {
	if (!Number.isInteger(value) || value % 90 !== 0) return 0;
	return ((value % 360) + 360) % 360;
}

/** A box [llx lly urx ury] in any corner order as {x, y, width, height} (lower-left corner); null when not a box of area. */
function asRect(numbers) {
	if (!numbers || numbers.length !== 4 || !numbers.every(Number.isFinite)) return null;
	const [x0, x1] = numbers[0] <= numbers[2] ? [numbers[0], numbers[2]] : [numbers[2], numbers[0]];
	const [y0, y1] = numbers[1] <= numbers[3] ? [numbers[1], numbers[3]] : [numbers[3], numbers[1]];
	return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

/**
 * The displayed page from its boxes (arrays of 4 numbers or null) and /Rotate: {x, y, width, height} of the visible
 * area in user space (the CropBox within the MediaBox; the MediaBox when they do not overlap, as pdf.js), its
 * `rotation`, and the displayed `displayWidth` × `displayHeight` (swapped on a 90 or 270 page).
 */
function viewOf({ mediaBox, cropBox, rotate }) {
	const media = asRect(mediaBox) ?? { x: 0, y: 0, width: 612, height: 792 };
	let view = media;
	const crop = asRect(cropBox);
	if (crop) {
		const inside = asRect([
			Math.max(crop.x, media.x), Math.max(crop.y, media.y),
			Math.min(crop.x + crop.width, media.x + media.width), Math.min(crop.y + crop.height, media.y + media.height),
		]);
		if (inside && (inside.x > media.x || inside.y > media.y || inside.width < media.width || inside.height < media.height)) view = inside;
	}
	const rotation = normaliseRotation(rotate);
	const turned = rotation === 90 || rotation === 270;
	return { ...view, rotation, displayWidth: turned ? view.height : view.width, displayHeight: turned ? view.width : view.height };
}

/** An inherited entry of a pdf-lib page as numbers (an array's items, or one number); null when absent or not numbers. */
function numbersOf(read) {
	try {
		const value = read();
		if (value instanceof PDFNumber) return [value.asNumber()];
		return value instanceof PDFArray ? value.asArray().map((_, i) => value.lookup(i, PDFNumber).asNumber()) : null;
	} catch {
		return null;
	}
}

/** viewOf for a pdf-lib page (its inherited MediaBox, CropBox and Rotate). */
function pageView(page) {
	const { node } = page;
	const rotate = numbersOf(() => node.Rotate());
	return viewOf({ mediaBox: numbersOf(() => node.MediaBox()), cropBox: numbersOf(() => node.CropBox()), rotate: rotate ? rotate[0] : 0 });
}

/**
 * The matrix [a b c d e f] from the displayed page with a bottom-left origin (x' = displayed X, y' = displayHeight -
 * displayed Y) to user space. For a displayed point (X, Y) on view [x0 y0 x1 y1] it gives
 *   0: (x0 + X, y1 - Y)   90: (x0 + Y, y0 + X)   180: (x1 - X, y0 + Y)   270: (x1 - Y, y1 - X),
 * so a field's box (X, Y, width, height) is an axis-aligned rectangle in user space too (width and height swap on a
 * 90 or 270 page), and what is drawn through it reads upright on the displayed page.
 */
function displayToUser(view) {
	const { x, y, width, height } = view;
	switch (view.rotation) {
		case 90: return [0, 1, -1, 0, x + width, y];
		case 180: return [-1, 0, 0, -1, x + width, y + height];
		case 270: return [0, -1, 1, 0, x, y + height];
		default: return [1, 0, 0, 1, x, y];
	}
}

module.exports = { pageView, displayToUser };
