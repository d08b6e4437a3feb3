import data from './glyphList.json';
import { MAX_GLYPH_NAME_CHARS } from '../limits';

/**
 * Glyph names to text as viewers read them: the Adobe Glyph List (glyphList.json, made by scripts/make-glyph-list.mjs),
 * then the name forms producers write instead of list names (uniXXXX, uXXXX[XX], ligatures joined by '_', suffixes
 * after '.', and names that are a code: Gxx, gXXXX, Cdd), and the standard Symbol font's built-in encoding.
 */

let byName: Map<string, string> | undefined;

/** The list, parsed on first use (most documents carry ToUnicode maps and never need it). */
function list(): Map<string, string> {
	if (byName) return byName;
	byName = new Map();
	const parts = data.names.split(' ');
	for (let i = 0; i + 1 < parts.length; i += 2) {
		byName.set(parts[i], String.fromCodePoint(...parts[i + 1].split('+').map((hex) => parseInt(hex, 16))));
	}
	return byName;
}

const fromCode = (code: number): string | undefined =>
	Number.isInteger(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : undefined;

/** Text of a glyph name the list does not hold: the forms of the AGL specification, then code-like names. */
function fromForm(name: string): string | undefined {
	let match = /^uni((?:[0-9A-F]{4})+)$/.exec(name);
	if (match) {
		const units = (match[1].match(/.{4}/g) as string[]).map((u) => parseInt(u, 16));
		return units.every((u) => u < 0xd800 || u > 0xdfff) ? String.fromCharCode(...units) : undefined;
	}
	match = /^u([0-9A-F]{4,6})$/.exec(name);
	if (match) return fromCode(parseInt(match[1], 16));
	// Names that carry a code (subsetters' habits), read as pdf.js reads them: Gxx and gXXXX in hex, Cdd and Cddd
	// (or cdd) in decimal.
	match = /^(?:G([0-9A-Fa-f]{2})|g([0-9A-Fa-f]{4}))$/.exec(name);
	if (match) return fromCode(parseInt(match[1] ?? match[2], 16));
	match = /^[Cc](\d{2,3})$/.exec(name);
	if (match) return fromCode(Number(match[1]));
	return undefined;
}

/** Unicode text of a glyph name, or undefined when the name says nothing (".notdef", "glyph123"). */
export function textOfGlyphName(name: string): string | undefined {
	if (name.length > MAX_GLYPH_NAME_CHARS) return undefined;
	const known = list().get(name);
	if (known !== undefined) return known;
	const dot = name.indexOf('.');
	if (dot > 0) return textOfGlyphName(name.slice(0, dot));
	if (dot === 0) return undefined;
	if (name.includes('_')) {
		const parts = name.split('_').map(textOfGlyphName);
		return parts.every((p) => p !== undefined) ? parts.join('') : undefined;
	}
	return fromForm(name);
}

/** The built-in encoding of the standard Symbol font as text by code (undefined for a code the font leaves empty). */
export function symbolBuiltIn(): Array<string | undefined> {
	return data.Symbol.split(' ').map((hex) => (hex ? String.fromCodePoint(parseInt(hex, 16)) : undefined));
}
