import { hexInto, isWhite } from './chars';
import { PdfError } from './objects';

/**
 * The filters other than Flate (ISO 32000-1, 7.4.2–7.4.5): ASCIIHex, ASCII85, RunLength and LZW. Their output
 * grows in a byte buffer up to `cap` bytes, then stops with a PdfError "limit" (a decompression bomb).
 */

export function tooLarge(cap: number): PdfError {
	return new PdfError(
		'limit',
		`a stream in the PDF expands to more than ${Math.round(cap / 1048576)} MB when unpacked; the reader stops there (the file may be a decompression bomb)`,
	);
}

/** Bytes written one at a time into a buffer that doubles (a number[] would take 8 bytes of heap a byte). */
class Output {
	private data: Uint8Array;
	length = 0;

	constructor(private readonly cap: number) {
		this.data = new Uint8Array(Math.max(0, Math.min(4096, cap)));
	}

	push(byte: number): void {
		if (this.length === this.data.length) {
			if (this.length >= this.cap) throw tooLarge(this.cap);
			const grown = new Uint8Array(Math.min(this.data.length * 2, this.cap));
			grown.set(this.data);
			this.data = grown;
		}
		this.data[this.length++] = byte;
	}

	get bytes(): Uint8Array {
		return this.data.subarray(0, this.length);
	}
}

export function asciiHex(input: Uint8Array): Uint8Array {
	const end = input.indexOf(62); // '>' ends the data
	const out = new Uint8Array((input.length + 1) >> 1);
	return out.subarray(0, hexInto(input, 0, end < 0 ? input.length : end, out, 0));
}

export function ascii85(input: Uint8Array, cap: number): Uint8Array {
	const out = new Output(cap);
	const group: number[] = [];
	let i = input[0] === 60 && input[1] === 126 ? 2 : 0;
	const flush = (count: number) => {
		let value = 0;
		for (let k = 0; k < 5; k++) value = value * 85 + (k < group.length ? group[k] : 84);
		for (let k = 0; k < count - 1; k++) out.push((value >>> (24 - 8 * k)) & 0xff);
	};
	for (; i < input.length; i++) {
		const c = input[i];
		if (c === 126) break;
		if (isWhite(c)) continue;
		if (c === 122 && group.length === 0) for (let k = 0; k < 4; k++) out.push(0);
		else if (c >= 33 && c <= 117) {
			group.push(c - 33);
			if (group.length === 5) {
				flush(5);
				group.length = 0;
			}
		}
	}
	if (group.length > 1) flush(group.length);
	return out.bytes;
}

export function runLength(input: Uint8Array, cap: number): Uint8Array {
	const out = new Output(cap);
	for (let i = 0; i < input.length; ) {
		const n = input[i++];
		if (n === 128) break;
		if (n < 128) {
			for (let k = 0; k <= n && i < input.length; k++) out.push(input[i++]);
		} else {
			const byte = input[i++];
			for (let k = 0; k < 257 - n; k++) out.push(byte);
		}
	}
	return out.bytes;
}

/**
 * LZW with the table as prefix codes and last bytes (each entry is an earlier entry plus one byte), so the table
 * takes 4,096 small records whatever the strings' lengths.
 */
export function lzw(input: Uint8Array, earlyChange: number, cap: number): Uint8Array {
	const out = new Output(cap);
	const prefix = new Int16Array(4096);
	const last = new Uint8Array(4096);
	const first = new Uint8Array(4096);
	const size = new Uint16Array(4096);
	for (let code = 0; code < 256; code++) {
		last[code] = code;
		first[code] = code;
		size[code] = 1;
	}
	const stack = new Uint8Array(4096);
	const write = (code: number) => {
		const n = size[code];
		for (let k = n - 1, c = code; k >= 0; k--, c = prefix[c]) stack[k] = last[c];
		for (let k = 0; k < n; k++) out.push(stack[k]);
	};
	let length = 258;
	let bits = 9;
	let buffer = 0;
	let count = 0;
	let previous = -1;
	for (let i = 0; i < input.length; i++) {
		buffer = (buffer << 8) | input[i];
		count += 8;
		while (count >= bits) {
			const code = (buffer >>> (count - bits)) & ((1 << bits) - 1);
			count -= bits;
			if (code === 256) {
				length = 258;
				bits = 9;
				previous = -1;
				continue;
			}
			if (code === 257) return out.bytes;
			const known = code < 256 || (code > 257 && code < length);
			if (!known && (previous < 0 || code !== length)) return out.bytes;
			// The entry this code adds: the previous string plus the first byte of this one (of itself when new).
			if (previous >= 0 && length < 4096) {
				prefix[length] = previous;
				last[length] = known ? first[code] : first[previous];
				first[length] = first[previous];
				size[length] = size[previous] + 1;
				length++;
			}
			write(code);
			previous = code;
			const next = length + earlyChange;
			bits = next >= 2048 ? 12 : next >= 1024 ? 11 : next >= 512 ? 10 : 9;
		}
		buffer &= (1 << count) - 1;
	}
	return out.bytes;
}
