'use strict';
/**
 * Small PDFs for the tests of text tags, anchor texts and page sizes, written with pdf-lib (a dev dependency):
 * pages of any size and rotation with lines of Helvetica at given places. The committed fixtures of real producers
 * (test/fixtures/pdf) are what the reader is held to; these are for the node's behaviour around it.
 */
const { PDFDocument, StandardFonts, degrees } = require('pdf-lib');

const LETTER = [612, 792];
const A4 = [595.28, 841.89];

/**
 * pages: [{ size: [w, h] (default Letter), rotate (degrees), lines: [{ text, x, y, size }] }] where x, y are the
 * baseline start in PDF user space (bottom-left origin), size the font size (default 12).
 */
async function makePdf(pages) {
	const pdf = await PDFDocument.create();
	const font = await pdf.embedFont(StandardFonts.Helvetica);
	for (const spec of pages) {
		const page = pdf.addPage(spec.size ?? LETTER);
		if (spec.rotate) page.setRotation(degrees(spec.rotate));
		for (const line of spec.lines ?? []) page.drawText(line.text, { x: line.x, y: line.y, size: line.size ?? 12, font });
	}
	return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

/** The advance width of `text` in Helvetica at `size` (for expected boxes). */
async function helveticaWidth(text, size) {
	const pdf = await PDFDocument.create();
	const font = await pdf.embedFont(StandardFonts.Helvetica);
	return font.widthOfTextAtSize(text, size);
}

module.exports = { makePdf, helveticaWidth, LETTER, A4 };
