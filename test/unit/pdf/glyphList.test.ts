// Glyph names to text (nodes/ESign/pdf/fonts/glyphList.ts): the Adobe Glyph List (glyphList.json, made by
// scripts/make-glyph-list.mjs from AGL 2.0), the name forms producers write instead, and the Symbol font's built-in
// encoding. ZapfDingbats' names (a1 …) name no text, as in pdf.js's text content.
import { symbolBuiltIn, textOfGlyphName } from '../../../nodes/ESign/pdf/fonts/glyphList';

describe('glyph names', () => {
	it.each([
		['A', 'A'],
		['Gamma', 'Γ'],
		['afii10017', 'А'],
		['dotlessi', 'ı'],
		['ffi', '\ufb03'],
		['Scaron', 'Š'],
		['arrowright', '→'],
		['dalethatafpatah', '\u05d3\u05b2'], // an AGL name for two characters
	])('the list: %s → %s', (name, text) => {
		expect(textOfGlyphName(name)).toBe(text);
	});

	it.each([
		['uni0416', 'Ж'],
		['uni00410042', 'AB'],
		['u1F600', '\u{1F600}'],
		['f_f_i', 'ffi'],
		['A.sc', 'A'],
		['G41', 'A'], // Gxx: hex
		['g0041', 'A'], // gXXXX: hex
		['C65', 'A'], // Cdd: decimal
		['c097', 'a'],
	])('name forms: %s → %s', (name, text) => {
		expect(textOfGlyphName(name)).toBe(text);
	});

	it.each(['.notdef', 'a71', 'glyph123', 'uniD800', 'u110000', 'g41', 'C1234', 'x'.repeat(300), 'constructor', '__proto__'])('%s names no text', (name) => {
		expect(textOfGlyphName(name)).toBeUndefined();
	});

	it('the Symbol font\'s built-in encoding', () => {
		const symbol = symbolBuiltIn();
		expect([0x20, 0x41, 0x61, 0xa5].map((code) => symbol[code])).toEqual([' ', 'Α', 'α', '∞']);
		expect(symbol[0x80]).toBeUndefined();
	});
});
