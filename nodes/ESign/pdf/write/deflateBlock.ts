import { codeLengths, codes } from './huffman';

/**
 * One deflate block written (RFC 1951, 3.2): the symbols deflate.ts found, as whichever of stored, fixed or dynamic
 * Huffman codes takes fewest bits, and the bit writer they go through.
 */

export const WINDOW = 32768;
export const MAX_MATCH = 258;
export const END_OF_BLOCK = 256;

// Length and distance codes (RFC 1951, 3.2.5): base values and extra bits.
const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/** The order code-length code lengths are sent in (3.2.7). */
const CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** Length (3 … 258) → its code's index (0 … 28). */
export const LENGTH_CODE = new Uint8Array(MAX_MATCH + 1);
for (let code = 0; code < 29; code++) {
	const end = code === 28 ? MAX_MATCH + 1 : LENGTH_BASE[code + 1];
	for (let length = LENGTH_BASE[code]; length < end; length++) LENGTH_CODE[length] = code;
}
LENGTH_CODE[MAX_MATCH] = 28;
/** Distance − 1 → code, for distances up to 256; past that, (distance − 1) >> 7 indexes the second half. */
export const DIST_CODE = new Uint8Array(512);
for (let code = 0; code < 30; code++) {
	const end = code === 29 ? WINDOW + 1 : DIST_BASE[code + 1];
	for (let d = DIST_BASE[code]; d < end; d++) {
		if (d <= 256) DIST_CODE[d - 1] = code;
		else DIST_CODE[256 + ((d - 1) >> 7)] = code;
	}
}

/** The fixed Huffman codes' lengths (3.2.6). */
const FIXED_LIT = new Uint8Array(288).fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288);
const FIXED_DIST = new Uint8Array(30).fill(5);

const FIXED_LIT_CODES = codes(FIXED_LIT);
const FIXED_DIST_CODES = codes(FIXED_DIST);
/** Symbols up to which a block is not given a dynamic code. */
const SMALL_BLOCK = 256;

/** One block, as whichever of stored, fixed or dynamic codes takes fewest bits. */
export function writeBlock(out: BitWriter, data: Uint8Array, start: number, end: number, lits: Uint16Array, dists: Uint16Array, count: number, litFreq: Uint32Array, distFreq: Uint32Array, last: boolean) {
	// A block of few symbols (an edit's new bytes and a page's last operators) gets fixed codes or none: a dynamic
	// code's header alone is some 60 bytes, and making it costs as much as a block of thousands of symbols.
	const small = count <= SMALL_BLOCK;
	const litLengths = small ? FIXED_LIT : codeLengths(litFreq, 15);
	const distLengths = small ? FIXED_DIST : codeLengths(distFreq, 15);
	const header = small ? undefined : dynamicHeader(litLengths, distLengths);
	const extraBits = (freq: Uint32Array, base: number, extra: number[]) => {
		let bits = 0;
		for (let k = 0; k < extra.length; k++) bits += freq[base + k] * extra[k];
		return bits;
	};
	const extras = extraBits(litFreq, 257, LENGTH_EXTRA) + extraBits(distFreq, 0, DIST_EXTRA);
	const dynamicBits = header ? 3 + header.bits + cost(litFreq, litLengths) + cost(distFreq, distLengths) + extras : Infinity;
	const fixedBits = 3 + cost(litFreq, FIXED_LIT) + cost(distFreq, FIXED_DIST) + extras;
	const storedBytes = end - start;
	// A stored block: up to 65,535 bytes each, byte-aligned after its 3 header bits.
	const storedBits = storedBytes <= 65535 ? 3 + 7 + 32 + storedBytes * 8 : Infinity;
	if (storedBits <= fixedBits && storedBits <= dynamicBits) {
		out.bits(last ? 1 : 0, 3);
		out.align();
		out.bytes(storedBytes & 255, storedBytes >> 8, ~storedBytes & 255, (~storedBytes >> 8) & 255);
		out.copy(data, start, end);
		return;
	}
	const dynamic = dynamicBits < fixedBits;
	out.bits((last ? 1 : 0) | ((dynamic ? 2 : 1) << 1), 3);
	const lit = dynamic ? litLengths : FIXED_LIT;
	const dist = dynamic ? distLengths : FIXED_DIST;
	if (dynamic) header?.write(out);
	const litCodes = dynamic ? codes(lit) : FIXED_LIT_CODES;
	const distCodes = dynamic ? codes(dist) : FIXED_DIST_CODES;
	// The symbols' bits packed here with the writer's state in locals (this loop is most of the output's cost): at
	// most 16 bits pending before each field of at most 15, so the accumulator stays below 2^31.
	const buf = out.room(count * 6 + 8); // a symbol is at most 15 + 5 + 15 + 13 bits
	let at = out.at;
	let acc = out.acc;
	let pending = out.count;
	for (let s = 0; s < count; s++) {
		const distance = dists[s];
		const value = lits[s];
		if (distance === 0) {
			acc |= litCodes[value] << pending;
			pending += lit[value];
		} else {
			const lc = LENGTH_CODE[value];
			acc |= litCodes[257 + lc] << pending;
			pending += lit[257 + lc];
			if (pending >= 16) {
				buf[at++] = acc & 255;
				buf[at++] = (acc >>> 8) & 255;
				acc >>>= 16;
				pending -= 16;
			}
			if (LENGTH_EXTRA[lc]) {
				acc |= (value - LENGTH_BASE[lc]) << pending;
				pending += LENGTH_EXTRA[lc];
			}
			const dc = distance <= 256 ? DIST_CODE[distance - 1] : DIST_CODE[256 + ((distance - 1) >> 7)];
			if (pending >= 16) {
				buf[at++] = acc & 255;
				buf[at++] = (acc >>> 8) & 255;
				acc >>>= 16;
				pending -= 16;
			}
			acc |= distCodes[dc] << pending;
			pending += dist[dc];
			if (pending >= 16) {
				buf[at++] = acc & 255;
				buf[at++] = (acc >>> 8) & 255;
				acc >>>= 16;
				pending -= 16;
			}
			if (DIST_EXTRA[dc]) {
				acc |= (distance - DIST_BASE[dc]) << pending;
				pending += DIST_EXTRA[dc];
			}
		}
		if (pending >= 16) {
			buf[at++] = acc & 255;
			buf[at++] = (acc >>> 8) & 255;
			acc >>>= 16;
			pending -= 16;
		}
	}
	out.at = at;
	out.acc = acc;
	out.count = pending;
	out.bits(litCodes[END_OF_BLOCK], lit[END_OF_BLOCK]);
}

function cost(freq: Uint32Array, lengths: Uint8Array): number {
	let bits = 0;
	for (let k = 0; k < freq.length; k++) bits += freq[k] * lengths[k];
	return bits;
}

/** A dynamic block's header (3.2.7): the code lengths, run-length coded, in a Huffman code of their own. */
function dynamicHeader(litLengths: Uint8Array, distLengths: Uint8Array) {
	let hlit = 286;
	while (hlit > 257 && litLengths[hlit - 1] === 0) hlit--;
	let hdist = 30;
	while (hdist > 1 && distLengths[hdist - 1] === 0) hdist--;
	const all = new Uint8Array(hlit + hdist);
	all.set(litLengths.subarray(0, hlit));
	all.set(distLengths.subarray(0, hdist), hlit);
	// Runs: [symbol, extra value] pairs; 16 repeats the previous length 3–6 times, 17 and 18 give 3–10 and 11–138 zeros.
	const runs: number[] = [];
	const clFreq = new Uint32Array(19);
	for (let k = 0; k < all.length; ) {
		const length = all[k];
		let run = 1;
		while (k + run < all.length && all[k + run] === length) run++;
		k += run;
		if (length === 0) {
			while (run >= 11) {
				const take = Math.min(run, 138);
				runs.push(18, take - 11);
				clFreq[18]++;
				run -= take;
			}
			if (run >= 3) {
				runs.push(17, run - 3);
				clFreq[17]++;
				run = 0;
			}
		} else {
			runs.push(length, 0);
			clFreq[length]++;
			run--;
			while (run >= 3) {
				const take = Math.min(run, 6);
				runs.push(16, take - 3);
				clFreq[16]++;
				run -= take;
			}
		}
		for (; run > 0; run--) {
			runs.push(length, 0);
			clFreq[length]++;
		}
	}
	const clLengths = codeLengths(clFreq, 7);
	let hclen = 19;
	while (hclen > 4 && clLengths[CL_ORDER[hclen - 1]] === 0) hclen--;
	const extra = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7];
	let bits = 5 + 5 + 4 + 3 * hclen;
	for (let k = 0; k < runs.length; k += 2) bits += clLengths[runs[k]] + extra[runs[k]];
	return {
		bits,
		write(out: BitWriter) {
			out.bits(hlit - 257, 5);
			out.bits(hdist - 1, 5);
			out.bits(hclen - 4, 4);
			for (let k = 0; k < hclen; k++) out.bits(clLengths[CL_ORDER[k]], 3);
			const clCodes = codes(clLengths);
			for (let k = 0; k < runs.length; k += 2) {
				const symbol = runs[k];
				out.bits(clCodes[symbol], clLengths[symbol]);
				if (extra[symbol]) out.bits(runs[k + 1], extra[symbol]);
			}
		},
	};
}

/** Bits packed from each byte's lowest bit up (RFC 1951, 3.1.1), into a buffer that grows as needed. */
export class BitWriter {
	private buf: Uint8Array;
	/** bytes written */
	at = 0;
	/** bits not yet written, from the lowest up, and how many */
	acc = 0;
	count = 0;

	constructor(size: number) {
		this.buf = new Uint8Array(size);
	}

	/** Empty, with room for `size` bytes (the buffer kept when it is large enough). */
	reset(size: number): this {
		if (this.buf.length < size) this.buf = new Uint8Array(size);
		this.at = 0;
		this.acc = 0;
		this.count = 0;
		return this;
	}

	/** Its buffer let go (reset() makes one again). */
	release(): void {
		this.buf = new Uint8Array(0);
		this.reset(0);
	}

	bits(value: number, count: number): void {
		this.acc |= value << this.count;
		this.count += count;
		while (this.count >= 8) {
			this.byte(this.acc & 255);
			this.acc >>>= 8;
			this.count -= 8;
		}
	}

	align(): void {
		if (this.count > 0) this.byte(this.acc & 255);
		this.acc = 0;
		this.count = 0;
	}

	bytes(...values: number[]): void {
		for (const value of values) this.byte(value);
	}

	/** Bit `i` of what is written (counted from the first byte's lowest) set to 0. */
	clearBit(i: number): void {
		if (i >> 3 < this.at) this.buf[i >> 3] &= ~(1 << (i & 7));
		else this.acc &= ~(1 << (i - this.at * 8));
	}

	copy(data: Uint8Array, start: number, end: number): void {
		this.room(end - start).set(data.subarray(start, end), this.at);
		this.at += end - start;
	}

	result(): Uint8Array {
		return this.buf.slice(0, this.at);
	}

	private byte(value: number): void {
		if (this.at === this.buf.length) this.room(1);
		this.buf[this.at++] = value;
	}

	/** The buffer, with room for `more` bytes after what is written. */
	room(more: number): Uint8Array {
		if (this.at + more <= this.buf.length) return this.buf;
		const grown = new Uint8Array(Math.max(this.buf.length * 2, this.at + more));
		grown.set(this.buf.subarray(0, this.at));
		this.buf = grown;
		return grown;
	}
}
