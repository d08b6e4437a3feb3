// Adler-32 (RFC 1950): the checksum a zlib stream ends with, and how two parts' sums make the whole's.

/** Adler-32 (RFC 1950, 8.2). */
export function adler32(data: Uint8Array): number {
	let a = 1;
	let b = 0;
	for (let i = 0; i < data.length; ) {
		// Sums of up to 5552 bytes fit before the modulo (RFC 1950's NMAX).
		const stop = Math.min(data.length, i + 5552);
		for (; i < stop; i++) {
			a += data[i];
			b += a;
		}
		a %= 65521;
		b %= 65521;
	}
	return ((b << 16) | a) >>> 0;
}

const BASE = 65521;

/** The Adler-32 of A then B, from A's, B's and B's length (zlib's adler32_combine). */
export function adler32Combine(first: number, second: number, secondLength: number): number {
	const rem = secondLength % BASE;
	const a1 = first & 0xffff;
	const a = (a1 + (second & 0xffff) + BASE - 1) % BASE;
	const b = ((first >>> 16) + (second >>> 16) + ((rem * a1) % BASE) + BASE - rem) % BASE;
	return ((b << 16) | a) >>> 0;
}

/** The Adler-32 of A, from that of A then B, B's, and B's length: adler32Combine solved for A's. */
export function adler32Before(whole: number, second: number, secondLength: number): number {
	const rem = secondLength % BASE;
	const a1 = ((whole & 0xffff) - (second & 0xffff) + 1 + 2 * BASE) % BASE;
	const b = ((whole >>> 16) - (second >>> 16) - ((rem * a1) % BASE) + rem + 2 * BASE) % BASE;
	return ((b << 16) | a1) >>> 0;
}
