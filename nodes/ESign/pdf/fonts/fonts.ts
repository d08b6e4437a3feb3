import { CMap } from './cmap';
import { cidText } from './cidUnicode';
import type { PdfDocument } from '../read/document';
import { ENCODINGS, unicodeOfName } from './encodings';
import { cidFontText, programEncoding } from './fontProgram';
import { symbolBuiltIn } from './glyphList';
import { PdfDict, PdfName, PdfStream, isName, isNumber } from '../read/objects';
import type { PdfObject } from '../read/objects';
import { orElse } from '../recover';
import standardFonts from './standardFonts.json';
import { MAX_CID_RANGE, MAX_CID_WIDTHS, MAX_FONT_NUMBERS, MAX_GLYPH_CACHE } from '../limits';

/**
 * Fonts as text needs them: how a string splits into character codes, each code's advance width and its Unicode
 * text. Widths come from /Widths and /W (or the standard fonts' metrics); text from ToUnicode, then the encoding's
 * glyph names (9.10.2), where the PDF names no base encoding the font program's own (fontProgram.ts; read only
 * then, as pdf.js does), the symbolic standard fonts' built-in ones; ligatures come out as their letters.
 */

export interface Glyph {
	/** advance in text space (the width divided by 1000, or scaled by a Type 3 font's matrix) */
	width: number;
	text: string;
	/** a single-byte code 32, which word spacing applies to (9.3.3) */
	wordSpace: boolean;
	/** the code's length in bytes (where the next glyph's code starts: the tag remover edits codes in place) */
	bytes: number;
}

export interface PdfFont {
	/** Calls `each` for every glyph of a string, in order (no arrays: this runs for every glyph of a document). */
	decode(bytes: Uint8Array, each: (glyph: Glyph) => void): void;
	vertical: boolean;
}


/**
 * The Latin ligatures U+FB00–FB06 as their letters, as pdf.js's text content gives them ("ﬁ" → "fi"): a user
 * types the letters, and anchors are matched on them. The glyph stays one glyph (layout maps each unit to it).
 */
const LIGATURES = ['ff', 'fi', 'fl', 'ffi', 'ffl', '\u017ft', 'st'];

export function expandLigatures(text: string): string {
	if (text.length !== 1) return text.replace(/[\ufb00-\ufb06]/g, (char) => LIGATURES[char.charCodeAt(0) - 0xfb00]);
	const code = text.charCodeAt(0);
	return code >= 0xfb00 && code <= 0xfb06 ? LIGATURES[code - 0xfb00] : text;
}

const STANDARD = standardFonts as unknown as Record<string, Record<string, number> | number[] | string>;

/** The standard font a BaseFont names (Arial is Helvetica's metric twin, as readers treat it), if any. */
export function standardFontName(baseFont: string): string | undefined {
	const name = baseFont.replace(/^[A-Z]{6}\+/, '').replace(/[\s_]/g, '');
	if (Object.hasOwn(STANDARD, name)) return name;
	const lower = name.toLowerCase();
	const bold = /bold|black|heavy/.test(lower);
	const italic = /italic|oblique/.test(lower);
	if (/^(arial|helvetica|liberationsans|nimbussans)/.test(lower)) return `Helvetica${bold ? (italic ? '-BoldOblique' : '-Bold') : italic ? '-Oblique' : ''}`;
	if (/^(times|liberationserif|nimbusrom)/.test(lower)) return bold ? (italic ? 'Times-BoldItalic' : 'Times-Bold') : italic ? 'Times-Italic' : 'Times-Roman';
	if (/^(courier|liberationmono|nimbusmon)/.test(lower)) return 'Courier';
	if (lower.startsWith('symbol')) return 'Symbol';
	if (lower.startsWith('zapfdingbats')) return 'ZapfDingbats';
	return undefined;
}

function standardWidths(name: string | undefined): ((code: number, glyph: string | undefined) => number | undefined) | undefined {
	if (!name) return undefined;
	if (name.startsWith('Courier')) return () => 600;
	let table = STANDARD[name];
	if (typeof table === 'string') table = STANDARD[table];
	if (Array.isArray(table)) {
		const byCode = table;
		return (code) => byCode[code];
	}
	const byName = table as Record<string, number>;
	return (_code, glyph) => (glyph && Object.hasOwn(byName, glyph) ? byName[glyph] : undefined);
}

async function numbers(doc: PdfDocument, value: PdfObject | undefined): Promise<Array<number | undefined>> {
	const list = await doc.resolve(value);
	if (!Array.isArray(list)) return [];
	const out: Array<number | undefined> = [];
	for (const item of list.slice(0, MAX_FONT_NUMBERS)) {
		const n = await doc.resolve(item);
		out.push(isNumber(n) ? n : undefined);
	}
	return out;
}

async function toUnicodeOf(doc: PdfDocument, dict: PdfDict): Promise<CMap | undefined> {
	const stream = await doc.resolve(dict.get('ToUnicode'));
	if (!(stream instanceof PdfStream)) return undefined;
	// A damaged ToUnicode: the encoding's names still give text. One that maps nothing counts as none (pdf.js's
	// rule): the encoding, a program or a CID collection gives text.
	const map = await orElse(
		doc.streamData(stream).then((data) => CMap.parse(data, true)),
		undefined,
	);
	return map?.empty ? undefined : map;
}

/**
 * The encoding a simple font without a base encoding starts from, as pdf.js chooses it (9.6.5): Standard; WinAnsi
 * for a TrueType font not flagged nonsymbolic; MacRoman for a symbolic one (flag 4), or, not embedded, Symbol's own
 * (`builtIn`, text by code), none for ZapfDingbats (pdf.js's text gives its codes as themselves: no name of its
 * encoding is in the glyph list) or WinAnsi for Wingdings. A TrueType font flagged both ways whose /Differences say
 * something is read as nonsymbolic.
 */
function defaultEncoding(subtype: string, flags: number, differences: boolean, embedded: boolean, baseFont: string): { names?: Array<string | undefined>; symbolic: boolean; builtIn?: boolean } {
	const nonsymbolic = (flags & 32) !== 0;
	const symbolic = (flags & 4) !== 0 && !(subtype === 'TrueType' && nonsymbolic && differences);
	const standard = standardFontName(baseFont);
	const symbolName = /Symbol|Dingbats|Wingdings/i.test(baseFont);
	if (!symbolic && !symbolName) return { names: subtype === 'TrueType' && !nonsymbolic ? ENCODINGS.WinAnsiEncoding : ENCODINGS.StandardEncoding, symbolic };
	if (!embedded) {
		if (standard === 'Symbol' || /Symbol/i.test(baseFont)) return { symbolic: true, builtIn: true };
		if (standard === 'ZapfDingbats' || /Dingbats/i.test(baseFont)) return { symbolic: true };
		if (/Wingdings/i.test(baseFont)) return { names: ENCODINGS.WinAnsiEncoding, symbolic: true };
	}
	return { names: ENCODINGS.MacRomanEncoding, symbolic: true };
}

async function simpleFont(doc: PdfDocument, dict: PdfDict, subtype: string): Promise<PdfFont> {
	const descriptor = await doc.dict(dict, 'FontDescriptor');
	const baseFont = await doc.get(dict, 'BaseFont');
	const base = isName(baseFont) ? baseFont.name : '';
	const flags = await doc.number(descriptor, 'Flags', 0);
	// Base encoding, then Differences.
	const encodingValue = await doc.get(dict, 'Encoding');
	let baseEncoding: string | undefined;
	let differences: PdfObject[] = [];
	if (isName(encodingValue)) baseEncoding = encodingValue.name;
	else if (encodingValue instanceof PdfDict) {
		const b = await doc.get(encodingValue, 'BaseEncoding');
		if (isName(b)) baseEncoding = b.name;
		const d = await doc.get(encodingValue, 'Differences');
		if (Array.isArray(d)) differences = d;
	}
	const standard = standardFontName(base);
	// Names come from the file: only the table's own entries are encodings (not "constructor" or "toString").
	const known = baseEncoding !== undefined && Object.hasOwn(ENCODINGS, baseEncoding) ? ENCODINGS[baseEncoding] : undefined;
	const embedded = ['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor?.get(key) !== undefined);
	const implicit = known ? undefined : defaultEncoding(subtype, flags, differences.length > 0, embedded, base);
	// A copy: Differences are written into it.
	const glyphNames: Array<string | undefined> = (known ?? implicit?.names ?? new Array(256).fill(undefined)).slice();
	let code = 0;
	const differ = new Set<number>();
	for (const item of differences) {
		const resolved = await doc.resolve(item);
		if (isNumber(resolved)) code = resolved;
		else if (resolved instanceof PdfName && code >= 0 && code < 256) {
			differ.add(code);
			glyphNames[code++] = resolved.name;
		}
	}
	const toUnicode = await toUnicodeOf(doc, dict);
	// No ToUnicode and no base encoding: the font program's own encoding gives the names Differences do not.
	let programText: Array<string | undefined> | undefined;
	if (!toUnicode && !known) {
		const program = await programEncoding(doc, descriptor);
		program?.names?.forEach((name, c) => {
			if (name && name !== '.notdef' && !differ.has(c) && unicodeOfName(name) !== undefined) glyphNames[c] = name;
		});
		// A TrueType program gives text for a symbolic font only (a non-symbolic one is read through its names).
		if (implicit?.symbolic) programText = program?.text;
	}
	// Symbol, not embedded: its built-in encoding.
	if (!toUnicode && !known && implicit?.builtIn) programText = symbolBuiltIn();
	// Widths: /Widths from FirstChar, else the standard font's metrics, else MissingWidth.
	const firstChar = await doc.number(dict, 'FirstChar', 0);
	const widths = await numbers(doc, dict.get('Widths'));
	const missing = await doc.number(descriptor, 'MissingWidth', 0);
	const metrics = widths.length ? undefined : standardWidths(standard);
	let scale = 0.001;
	if (subtype === 'Type3') {
		const matrix = await numbers(doc, dict.get('FontMatrix'));
		scale = isNumber(matrix[0]) ? matrix[0] : 0.001;
	}
	const table: Glyph[] = [];
	for (let c = 0; c < 256; c++) {
		const glyph = glyphNames[c];
		let width = widths.length ? widths[c - firstChar] : metrics?.(c, glyph);
		if (!isNumber(width)) width = missing;
		let text = toUnicode?.unicode(c);
		if (text === undefined && !differ.has(c)) text = programText?.[c];
		if (text === undefined && glyph) text = unicodeOfName(glyph);
		// Nothing names it: the code as its own character, as pdf.js reads it, except the control codes.
		if (text === undefined) text = (c >= 32 && c < 127) || c >= 160 ? String.fromCharCode(c) : '\ufffd';
		table.push({ width: width * scale, text: expandLigatures(text), wordSpace: c === 32, bytes: 1 });
	}
	return {
		vertical: false,
		decode: (bytes, each) => {
			for (let k = 0; k < bytes.length; k++) each(table[bytes[k]]);
		},
	};
}

async function compositeFont(doc: PdfDocument, dict: PdfDict): Promise<PdfFont> {
	const encoding = await doc.resolve(dict.get('Encoding'));
	let cmap: CMap;
	if (encoding instanceof PdfStream) {
		// A damaged embedded CMap reads as Identity-H.
		cmap = await orElse(
			doc.streamData(encoding).then((data) => CMap.parse(data, false)),
			CMap.identity(),
		);
	} else cmap = CMap.identity(isName(encoding) && encoding.name.endsWith('-V'));
	const descendants = await doc.resolve(dict.get('DescendantFonts'));
	const cidFont = Array.isArray(descendants) ? await doc.resolve(descendants[0]) : undefined;
	const cid = cidFont instanceof PdfDict ? cidFont : new PdfDict();
	const defaultWidth = await doc.number(cid, 'DW', 1000);
	const widths = new Map<number, number>();
	const w = await doc.resolve(cid.get('W'));
	if (Array.isArray(w)) {
		// Bounded by the widths written, not the map's size: ranges over the same CIDs again and again add nothing to it.
		let written = 0;
		for (let i = 0; i < w.length && written < MAX_CID_WIDTHS; ) {
			const first = await doc.resolve(w[i]);
			const next = await doc.resolve(w[i + 1]);
			if (!isNumber(first)) break;
			if (Array.isArray(next)) {
				for (let k = 0; k < next.length && written < MAX_CID_WIDTHS; k++, written++) {
					const value = await doc.resolve(next[k]);
					if (isNumber(value)) widths.set(first + k, value);
				}
				i += 2;
			} else {
				const width = await doc.resolve(w[i + 2]);
				if (isNumber(next) && isNumber(width)) {
					for (let c = first; c <= next && c - first < MAX_CID_RANGE && written < MAX_CID_WIDTHS; c++, written++) widths.set(c, width);
				}
				i += 3;
			}
		}
	}
	const toUnicode = await toUnicodeOf(doc, dict);
	// No ToUnicode: a CID of Adobe's CJK collections has known text (an identity or embedded CMap gives the CID; a
	// named one this reader does not hold would not).
	let byCid: ((cid: number) => string | undefined) | undefined;
	if (!toUnicode && (encoding instanceof PdfStream || isName(encoding, 'Identity-H') || isName(encoding, 'Identity-V'))) {
		const info = await doc.dict(cid, 'CIDSystemInfo');
		const registry = await doc.get(info, 'Registry');
		const ordering = await doc.get(info, 'Ordering');
		if (registry instanceof Uint8Array && ordering instanceof Uint8Array) byCid = await cidText(String.fromCharCode(...registry), String.fromCharCode(...ordering));
		// Else an embedded TrueType program's own cmap or post names the glyph (pdf.js reads the code itself there).
		byCid ??= await cidFontText(doc, cid);
	}
	const vertical = cmap.vertical;
	// One glyph object per code, made on first use (a CJK font has many codes, a document uses few).
	const known = new Map<number, Glyph>();
	const glyphOf = (code: number, length: number): Glyph => {
		const key = code * 8 + length;
		let glyph = known.get(key);
		if (!glyph) {
			const width = vertical ? 1000 : widths.get(cmap.cid(code)) ?? defaultWidth;
			const text = toUnicode ? toUnicode.unicode(code) : byCid?.(cmap.cid(code));
			glyph = { width: width / 1000, text: expandLigatures(text ?? '\ufffd'), wordSpace: length === 1 && code === 32, bytes: length };
			if (known.size < MAX_GLYPH_CACHE) known.set(key, glyph);
		}
		return glyph;
	};
	return {
		vertical,
		decode: (bytes, each) => {
			if (cmap.identity) {
				for (let k = 0; k + 1 < bytes.length; k += 2) each(glyphOf((bytes[k] << 8) | bytes[k + 1], 2));
				return;
			}
			cmap.codes(bytes, (code, length) => each(glyphOf(code, length)));
		},
	};
}

/** A font dictionary as a font; cached per document by the caller. */
export async function loadFont(doc: PdfDocument, dict: PdfDict): Promise<PdfFont> {
	const subtype = await doc.get(dict, 'Subtype');
	if (isName(subtype, 'Type0')) return compositeFont(doc, dict);
	return simpleFont(doc, dict, isName(subtype) ? subtype.name : 'Type1');
}
