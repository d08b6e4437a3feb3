import { ENCODINGS } from './encodings';
import { MAX_TYPE1_ENCODING_ENTRIES } from '../limits';

/**
 * The built-in encoding of an embedded Type 1 font program (a FontFile stream; Adobe Type 1 Font Format, 2.3): the
 * cleartext part's `/Encoding`, either `StandardEncoding` or an array filled by `dup <code> /<name> put`. pdfTeX
 * writes TeX's fonts this way with no /Encoding in the PDF, so the ligatures and accents only have names here.
 * Only the cleartext is read (the /Length1 bytes, or up to `eexec`); the encrypted glyph programs never are.
 */

/** Glyph names by code, at most 256 entries, or undefined when the cleartext sets no encoding. */
export type BuiltInEncoding = Array<string | undefined>;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0x00;
const isDelimiter = (b: number) => b === 0x2f || b === 0x5b || b === 0x5d || b === 0x7b || b === 0x7d || b === 0x28 || b === 0x25;

/** The cleartext of a Type 1 program: a PFB's first segment, else the /Length1 bytes (the whole when unknown). */
function cleartext(data: Uint8Array, length1: number | undefined): Uint8Array {
	if (data.length >= 6 && data[0] === 0x80 && data[1] === 0x01) {
		const size = data[2] | (data[3] << 8) | (data[4] << 16) | (data[5] << 24);
		return data.subarray(6, 6 + Math.max(0, Math.min(size >>> 0, data.length - 6)));
	}
	const end = length1 !== undefined && length1 > 0 && length1 <= data.length ? length1 : data.length;
	return data.subarray(0, end);
}

/** Where `word` starts in `bytes` from `from`, or -1 (a plain search: the cleartext is ASCII). */
function indexOf(bytes: Uint8Array, word: string, from: number): number {
	const first = word.charCodeAt(0);
	outer: for (let i = bytes.indexOf(first, from); i >= 0 && i + word.length <= bytes.length; i = bytes.indexOf(first, i + 1)) {
		for (let k = 1; k < word.length; k++) if (bytes[i + k] !== word.charCodeAt(k)) continue outer;
		return i;
	}
	return -1;
}

/** The PostScript tokens from `start`, one at a time: names keep their '/', comments and strings are skipped. */
function* tokens(bytes: Uint8Array, start: number): Generator<string> {
	let i = start;
	while (i < bytes.length) {
		const b = bytes[i];
		if (isSpace(b)) {
			i++;
		} else if (b === 0x25) {
			while (i < bytes.length && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++; // a comment
		} else if (b === 0x28) {
			// A string: no encoding entry holds one; skipped whole, nesting counted, so a name inside is not read.
			let depth = 0;
			for (; i < bytes.length; i++) {
				if (bytes[i] === 0x5c) i++;
				else if (bytes[i] === 0x28) depth++;
				else if (bytes[i] === 0x29 && --depth === 0) break;
			}
			i++;
		} else if (b === 0x5b || b === 0x5d || b === 0x7b || b === 0x7d) {
			i++;
			yield String.fromCharCode(b);
		} else {
			const from = i;
			i++;
			while (i < bytes.length && !isSpace(bytes[i]) && !isDelimiter(bytes[i])) i++;
			yield String.fromCharCode(...bytes.subarray(from, Math.min(i, from + 128)));
		}
	}
}

/**
 * The built-in encoding of a Type 1 program's bytes (the FontFile stream's data; `length1` its /Length1), or undefined
 * when it has none that names glyphs. Never throws: a program that cannot be read leaves the font as it was.
 */
export function type1BuiltInEncoding(data: Uint8Array, length1?: number): BuiltInEncoding | undefined {
	const text = cleartext(data, length1);
	const eexec = indexOf(text, 'eexec', 0);
	const clear = eexec >= 0 ? text.subarray(0, eexec) : text;
	if (indexOf(clear, '/Encoding', 0) < 0) return undefined; // most programs answer here, without a token read
	const names: BuiltInEncoding = new Array(256).fill(undefined);
	let entries = 0;
	let found = false;
	let first = false;
	// dup <code> /<name> put: the last three tokens are kept to recognise the pattern when `put` comes.
	let before3 = '';
	let before2 = '';
	let before1 = '';
	// Tokens, not bytes: an "/Encoding" inside a string (a /Notice) or a comment is not the entry.
	for (const token of tokens(clear, 0)) {
		if (!found) {
			found = token === '/Encoding';
			first = found;
			continue;
		}
		if (first) {
			if (token === 'StandardEncoding') return ENCODINGS.StandardEncoding.slice();
			first = false;
		}
		if (token === 'put' && before3 === 'dup' && before1.startsWith('/')) {
			const code = Number(before2);
			if (Number.isInteger(code) && code >= 0 && code < 256 && before1.length > 1) names[code] = before1.slice(1);
			if (++entries >= MAX_TYPE1_ENCODING_ENTRIES) break;
		} else if (token === 'def' || token === 'readonly') {
			break; // the array is complete
		}
		before3 = before2;
		before2 = before1;
		before1 = token;
	}
	return entries ? names : undefined;
}
