import { PdfDict, PdfError, PdfName, PdfRef, PdfStream } from '../read/objects';
import type { PdfObject } from '../read/objects';
import { MAX_WRITE_NESTING } from '../limits';

/**
 * PDF objects back to bytes (ISO 32000-1, 7.3), for the incremental update the tag remover writes. Everything is
 * written as ASCII: strings in hex, names with #xx escapes, so the output never depends on a text encoding.
 */

const HEX = '0123456789ABCDEF';

/**
 * A number as PDF writes it (no exponent), reading back as the very same value: a redefined page's box or matrix
 * must mean what the original said, however small or large (a fuzzed MediaBox of height 1e-7 written as 0 made a
 * page whose text was off it readable). The shortest decimal that round-trips, with an exponent spelled out.
 */
export function formatNumber(value: number): string {
	if (!Number.isFinite(value)) throw new PdfError('unsupported', 'a number to write is not finite');
	if (Object.is(value, -0)) return '0';
	const text = String(value);
	const e = text.indexOf('e');
	if (e < 0) return text;
	const sign = text.startsWith('-') ? '-' : '';
	const mantissa = text.slice(sign.length, e);
	const exponent = Number(text.slice(e + 1));
	const point = mantissa.indexOf('.');
	const digits = mantissa.replace('.', '');
	// Where the decimal point falls in `digits` once the exponent is applied.
	const at = (point < 0 ? mantissa.length : point) + exponent;
	if (at <= 0) return `${sign}0.${'0'.repeat(-at)}${digits}`;
	if (at >= digits.length) return `${sign}${digits}${'0'.repeat(at - digits.length)}`;
	return `${sign}${digits.slice(0, at)}.${digits.slice(at)}`;
}

export function hexString(bytes: Uint8Array): string {
	let out = '<';
	for (const byte of bytes) out += HEX[byte >> 4] + HEX[byte & 15];
	return out + '>';
}

/** A name: regular characters as they are, anything else (delimiters, #, white space, non-ASCII) as #xx. */
export function formatName(name: string): string {
	let out = '/';
	for (let i = 0; i < name.length; i++) {
		const c = name.charCodeAt(i) & 0xff;
		const plain = c > 0x20 && c < 0x7f && !'#()<>[]{}/%'.includes(name[i]);
		out += plain ? name[i] : `#${HEX[c >> 4]}${HEX[c & 15]}`;
	}
	return out;
}

/** A direct object as PDF syntax (a stream is written by `streamObject`, never inside another object). */
export function formatObject(value: PdfObject | undefined, depth = 0): string {
	if (depth > MAX_WRITE_NESTING) throw new PdfError('limit', `an object to write is nested more than ${MAX_WRITE_NESTING} deep`);
	if (value === null || value === undefined) return 'null';
	if (typeof value === 'boolean') return value ? 'true' : 'false';
	if (typeof value === 'number') return formatNumber(value);
	if (value instanceof Uint8Array) return hexString(value);
	if (value instanceof PdfName) return formatName(value.name);
	if (value instanceof PdfRef) return `${value.num} ${value.gen} R`;
	if (Array.isArray(value)) return `[${value.map((item) => formatObject(item, depth + 1)).join(' ')}]`;
	if (value instanceof PdfDict) {
		let out = '<<';
		for (const [key, item] of value.entries()) out += `${formatName(key)} ${formatObject(item, depth + 1)}`;
		return out + '>>';
	}
	if (value instanceof PdfStream) throw new PdfError('unsupported', 'a stream cannot be written inside another object');
	return 'null';
}
