import fontNames from './fontNames.json';
import { ENCODINGS } from './encodings';
import { PdfError } from '../read/objects';
import { attempt } from '../recover';
import type { BuiltInEncoding } from './type1Program';

/**
 * The built-in encoding of a CFF font program (FontFile3 /Type1C; Adobe TN 5176): the header, the Name, Top DICT and
 * String INDEXes, the charset (glyph → name; formats 0, 1, 2 or the predefined ISOAdobe) and the encoding (code →
 * glyph; formats 0 and 1 with supplements, or the predefined Standard). xdvipdfmx and Ghostscript write Type 1
 * fonts this way. Every offset and count is checked against the data: nothing is read past its end, and a count
 * can make no more work than the bytes it claims.
 */

let standard: string[] | undefined;
const standardString = (sid: number): string | undefined => (standard ??= fontNames.cff.split(' '))[sid];

const damaged = (what: string) => new PdfError('damaged', `a CFF font program's ${what} runs past its end`);

/** An unsigned big-endian number of `size` bytes (1–4) at `at`, within the data. */
function card(data: Uint8Array, at: number, size: number, what: string): number {
	if (at < 0 || at + size > data.length) throw damaged(what);
	let n = 0;
	for (let k = 0; k < size; k++) n = n * 256 + data[at + k];
	return n;
}

interface Index {
	count: number;
	/** the bytes of item `i` */
	item(i: number): Uint8Array;
	/** where the data after the INDEX starts */
	end: number;
}

function readIndex(data: Uint8Array, at: number, what: string): Index {
	const count = card(data, at, 2, what);
	if (count === 0) return { count, item: () => new Uint8Array(0), end: at + 2 };
	const offSize = card(data, at + 2, 1, what);
	if (offSize < 1 || offSize > 4) throw new PdfError('damaged', `a CFF font program's ${what} has offsets of ${offSize} bytes`);
	const offsets = at + 3;
	const base = offsets + (count + 1) * offSize - 1; // offsets count from 1
	const offset = (i: number) => card(data, offsets + i * offSize, offSize, what);
	const last = offset(count);
	if (last < 1 || base + last > data.length) throw damaged(what);
	return {
		count,
		end: base + last,
		item: (i) => {
			const start = offset(i);
			const stop = offset(i + 1);
			if (start < 1 || stop < start || stop > last) throw damaged(what);
			return data.subarray(base + start, base + stop);
		},
	};
}

/** A DICT's operators and their operands (12 x operators as 1200 + x); reals are read and their value dropped. */
function readDict(dict: Uint8Array): Map<number, number[]> {
	const entries = new Map<number, number[]>();
	let operands: number[] = [];
	for (let i = 0; i < dict.length; ) {
		const b = dict[i];
		if (b <= 21) {
			const op = b === 12 ? 1200 + card(dict, i + 1, 1, 'Top DICT') : b;
			i += b === 12 ? 2 : 1;
			entries.set(op, operands);
			operands = [];
			continue;
		}
		let value: number;
		if (b === 28) [value, i] = [(card(dict, i + 1, 2, 'Top DICT') << 16) >> 16, i + 3];
		else if (b === 29) [value, i] = [card(dict, i + 1, 4, 'Top DICT') | 0, i + 5];
		else if (b === 30) {
			// A real: nibbles up to an 0xf one; the entries read here are integers.
			i++;
			while (i < dict.length && (dict[i] & 0x0f) !== 0x0f && (dict[i] & 0xf0) !== 0xf0) i++;
			[value, i] = [0, i + 1];
		} else if (b >= 32 && b <= 246) [value, i] = [b - 139, i + 1];
		else if (b >= 247 && b <= 250) [value, i] = [(b - 247) * 256 + card(dict, i + 1, 1, 'Top DICT') + 108, i + 2];
		else if (b >= 251 && b <= 254) [value, i] = [-(b - 251) * 256 - card(dict, i + 1, 1, 'Top DICT') - 108, i + 2];
		else throw new PdfError('damaged', `a CFF font program's Top DICT holds the reserved byte ${b}`);
		if (operands.length < 48) operands.push(value); // the specification's operand stack limit
	}
	return entries;
}

/** The glyph names by glyph id (SIDs through the standard strings and the String INDEX). */
function readCharset(data: Uint8Array, offset: number, glyphs: number, name: (sid: number) => string | undefined): Array<string | undefined> {
	const names: Array<string | undefined> = new Array(glyphs).fill(undefined);
	if (glyphs > 0) names[0] = '.notdef';
	if (offset === 0) {
		for (let gid = 1; gid < glyphs && gid < 229; gid++) names[gid] = standardString(gid); // ISOAdobe: SID = gid
		return names;
	}
	if (offset === 1 || offset === 2) return names; // the Expert charsets: names no text comes from
	const format = card(data, offset, 1, 'charset');
	let at = offset + 1;
	let gid = 1;
	if (format === 0) {
		for (; gid < glyphs; gid++, at += 2) names[gid] = name(card(data, at, 2, 'charset'));
		return names;
	}
	if (format !== 1 && format !== 2) throw new PdfError('damaged', `a CFF font program's charset has the unknown format ${format}`);
	// Ranges until every glyph is named: each names at least one, so the loop ends within `glyphs` rounds.
	while (gid < glyphs) {
		const first = card(data, at, 2, 'charset');
		const left = card(data, at + 2, format === 1 ? 1 : 2, 'charset');
		at += format === 1 ? 3 : 4;
		for (let k = 0; k <= left && gid < glyphs; k++) names[gid++] = name(first + k);
	}
	return names;
}

/** Glyph names by code from the encoding at `offset` (0: Standard; 1: Expert, which gives no text). */
function readEncoding(data: Uint8Array, offset: number, glyphNames: Array<string | undefined>, name: (sid: number) => string | undefined): BuiltInEncoding | undefined {
	const codes: BuiltInEncoding = new Array(256).fill(undefined);
	if (offset === 0) {
		const present = new Set(glyphNames);
		ENCODINGS.StandardEncoding.forEach((glyph, code) => {
			if (glyph && present.has(glyph)) codes[code] = glyph;
		});
		return codes;
	}
	if (offset === 1) return undefined;
	const format = card(data, offset, 1, 'encoding');
	let at = offset + 1;
	let gid = 1;
	if ((format & 0x7f) === 0) {
		const count = card(data, at, 1, 'encoding');
		for (let k = 0; k < count; k++, gid++) {
			const code = card(data, at + 1 + k, 1, 'encoding');
			if (gid < glyphNames.length) codes[code] = glyphNames[gid];
		}
		at += 1 + count;
	} else if ((format & 0x7f) === 1) {
		const ranges = card(data, at, 1, 'encoding');
		for (let r = 0; r < ranges; r++) {
			const first = card(data, at + 1 + r * 2, 1, 'encoding');
			const left = card(data, at + 2 + r * 2, 1, 'encoding');
			for (let code = first; code <= first + left && code < 256; code++, gid++) if (gid < glyphNames.length) codes[code] = glyphNames[gid];
		}
		at += 1 + ranges * 2;
	} else throw new PdfError('damaged', `a CFF font program's encoding has the unknown format ${format & 0x7f}`);
	if (format & 0x80) {
		const supplements = card(data, at, 1, 'encoding');
		for (let k = 0; k < supplements; k++) codes[card(data, at + 1 + k * 3, 1, 'encoding')] = name(card(data, at + 2 + k * 3, 2, 'encoding'));
	}
	return codes;
}

/** The parts of a CFF program text needs: glyph names by glyph id, the built-in encoding, whether CID-keyed. */
export interface CffFont {
	glyphNames: Array<string | undefined>;
	encoding: BuiltInEncoding | undefined;
	cidKeyed: boolean;
}

/** Reads a CFF program's first font; throws a PdfError ('damaged') when its structure does not hold. */
export function parseCff(data: Uint8Array): CffFont {
	const headerSize = card(data, 2, 1, 'header');
	const names = readIndex(data, headerSize, 'Name INDEX');
	const topDicts = readIndex(data, names.end, 'Top DICT INDEX');
	const strings = readIndex(data, topDicts.end, 'String INDEX');
	if (topDicts.count < 1) throw new PdfError('damaged', 'a CFF font program has no Top DICT');
	const top = readDict(topDicts.item(0));
	const cidKeyed = top.has(1230); // ROS
	const charStrings = top.get(17)?.[0];
	if (charStrings === undefined || charStrings <= 0) throw new PdfError('damaged', 'a CFF font program has no CharStrings');
	const glyphs = readIndex(data, charStrings, 'CharStrings INDEX').count;
	const name = (sid: number): string | undefined => {
		if (sid < 391) return standardString(sid);
		if (sid - 391 >= strings.count) return undefined;
		return String.fromCharCode(...strings.item(sid - 391).subarray(0, 127));
	};
	const charsetOffset = top.get(15)?.[0] ?? 0;
	// A CID-keyed font's charset holds CIDs, not names: kept as numbers' text is no use to text, so left unnamed.
	const glyphNames = cidKeyed ? new Array<string | undefined>(glyphs).fill(undefined) : readCharset(data, charsetOffset, glyphs, name);
	const encoding = cidKeyed ? undefined : readEncoding(data, top.get(16)?.[0] ?? 0, glyphNames, name);
	return { glyphNames, encoding, cidKeyed };
}

/** A CFF program's built-in encoding, or undefined when it has none or cannot be read (the font then stays as it was). */
export function cffBuiltInEncoding(data: Uint8Array): BuiltInEncoding | undefined {
	return attempt(() => parseCff(data).encoding, undefined);
}
