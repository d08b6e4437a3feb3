'use strict';
/**
 * Advance widths of the standard 14 fonts from Adobe's AFM files as pdf-lib ships them (@pdf-lib/standard-fonts,
 * a dependency of the pdf-lib dev dependency): an independent source for the reader's built-in metrics.
 */
const { Font, FontNames } = require('@pdf-lib/standard-fonts');

const NAMES = {
	Helvetica: FontNames.Helvetica,
	'Helvetica-Bold': FontNames.HelveticaBold,
	'Helvetica-Oblique': FontNames.HelveticaOblique,
	'Times-Roman': FontNames.TimesRoman,
	'Times-Bold': FontNames.TimesRomanBold,
	'Times-Italic': FontNames.TimesRomanItalic,
	Courier: FontNames.Courier,
	Symbol: FontNames.Symbol,
};

/** The width (1/1000 em) of a glyph name in a standard font, e.g. afmWidth('Helvetica', 'A') → 667. */
function afmWidth(font, glyph) {
	return Font.load(NAMES[font]).getWidthOfGlyph(glyph);
}

module.exports = { afmWidth };
