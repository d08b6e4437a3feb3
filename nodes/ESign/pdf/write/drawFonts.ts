import type { PdfDocument } from '../read/document';
import { CMap } from '../fonts/cmap';
import { loadFont } from '../fonts/fonts';
import { PdfDict, PdfName, PdfRef, PdfStream } from '../read/objects';
import type { PdfObject } from '../read/objects';
import { encode, missingCharacters, widthOf } from './standardText';

/**
 * The fonts a fill draws a value in. The standard 14 for the characters they hold (nothing embedded, every reader has
 * them); for any other character, a font the PDF already carries (a form field's /DA font, a data tag's own font),
 * when its ToUnicode maps a code to every character of the value: a subset font maps only the glyphs it holds, so a
 * character it maps is one it can draw. Never a "?" or a blank: a value no font can draw is refused, naming the
 * characters.
 */

export interface DrawFont {
	/** what the fill's /Font dictionary holds for it: a standard font's dictionary, or the PDF's own font object */
	resource: PdfObject;
	/** one resource name per font: 'std Helvetica' or 'pdf 12 0' */
	key: string;
	/** the characters of `text` it cannot draw */
	missing(text: string): string[];
	/** `text` as the font's codes (call missing first: a character it lacks is skipped) */
	encode(text: string): Uint8Array;
	/** `text`'s width at `size` points */
	width(text: string, size: number): number;
}

/** A standard 14 font, in WinAnsiEncoding (ZapfDingbats: its own codes). */
export function standardFont(name: string): DrawFont {
	const resource = new PdfDict([
		['Type', PdfName.of('Font')],
		['Subtype', PdfName.of('Type1')],
		['BaseFont', PdfName.of(name)],
		...(name === 'ZapfDingbats' ? [] : ([['Encoding', PdfName.of('WinAnsiEncoding')]] as Array<[string, PdfObject]>)),
	]);
	return { resource, key: `std ${name}`, missing: missingCharacters, encode, width: (text, size) => widthOf(text, name, size) };
}

/** Codes a font is searched for: every one-byte code, and every two-byte code of a composite font. */
const TWO_BYTE_CODES = 0x10000;

/**
 * A font of the PDF (`entry`: its reference or dictionary) as a font to draw with, from its ToUnicode read backwards;
 * undefined when it has no ToUnicode (its characters are then not known to be in it). `key`: one per font object.
 */
export async function carriedFont(doc: PdfDocument, entry: PdfObject | undefined, key: string): Promise<DrawFont | undefined> {
	const dict = await doc.resolve(entry);
	const stream = dict instanceof PdfDict ? await doc.get(dict, 'ToUnicode') : undefined;
	if (!(dict instanceof PdfDict) || !(stream instanceof PdfStream)) return undefined;
	// Only the codes ToUnicode maps: a subset font's other codes may decode to letters (through its encoding) that
	// its program does not hold, and would draw blank.
	const toUnicode = CMap.parse(await doc.streamData(stream), true);
	const font = await loadFont(doc, dict);
	if (font.vertical) return undefined; // a value is drawn along its line
	const composite = (await doc.get(dict, 'Subtype')) instanceof PdfName && ((await doc.get(dict, 'Subtype')) as PdfName).name === 'Type0';
	const codes = new Map<string, { bytes: number[]; width: number }>();
	const learn = (bytes: number[]) => {
		const code = bytes.length === 2 ? (bytes[0] << 8) | bytes[1] : bytes[0];
		if (toUnicode.unicode(code) === undefined) return;
		let found: { text: string; width: number; length: number } | undefined;
		let count = 0;
		font.decode(Uint8Array.from(bytes), (glyph) => {
			count++;
			found = { text: glyph.text, width: glyph.width, length: glyph.bytes };
		});
		if (count !== 1 || !found || found.length !== bytes.length) return;
		// One character (after ligatures): the code draws it, if the map has it; the first code found wins.
		const chars = [...found.text];
		if (chars.length === 1 && found.text !== '\ufffd' && !codes.has(found.text)) codes.set(found.text, { bytes, width: found.width });
	};
	if (composite) for (let code = 0; code < TWO_BYTE_CODES; code++) learn([code >> 8, code & 255]);
	else for (let code = 0; code < 256; code++) learn([code]);
	if (!codes.size) return undefined;
	return {
		resource: entry as PdfObject,
		key,
		missing: (text) => [...new Set([...text].filter((char) => char !== '\n' && char !== '\r' && !codes.has(char === '\t' ? ' ' : char)))],
		encode: (text) => Uint8Array.from([...text].flatMap((char) => codes.get(char === '\t' ? ' ' : char)?.bytes ?? [])),
		width: (text, size) => [...text].reduce((sum, char) => sum + (codes.get(char)?.width ?? 0), 0) * size,
	};
}

/** One key per font object: its reference, or (a dictionary written inline) the dictionary itself. */
export function fontKey(entry: PdfObject, inline: (dict: PdfObject) => number): string {
	return entry instanceof PdfRef ? `pdf ${entry.key}` : `pdf inline ${inline(entry)}`;
}
