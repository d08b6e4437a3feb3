/**
 * Reading a deflate stream (RFC 1951) for recompress.ts: the bit reader, a block's Huffman codes and their decoding
 * tables. Decoding only: recompress.ts turns the symbols into a new stream's, and never makes the bytes itself.
 */

/** Codes up to this many bits are decoded by one table lookup; longer ones (rare by their very length) a bit at a time. */
export const FAST = 10;
export const FAST_MASK = (1 << FAST) - 1;

export const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
export const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
export const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
export const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/** The order code-length code lengths are sent in (3.2.7). */
const CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** A block's code, as decoding tables. */
export class HuffmanCode {
	/** by the next FAST bits: symbol << 4 | code length; 0: a longer code; −1: no code starts so */
	readonly fast = new Int32Array(1 << FAST);
	readonly counts = new Uint16Array(16);
	/** the symbols in canonical order */
	readonly sorted = new Uint16Array(288);
	/** the end-of-block symbol's code (bits reversed, as a bit writer sends them) and its length */
	eob = 0;
	eobLength = 0;

	/**
	 * The canonical code of `lengths` (3.2.2); false where zlib's inflate refuses it too (recompress.ts copies bits
	 * this reader accepted: zlib must read them alike): over-subscribed, or incomplete unless a lone code of one bit
	 * (zlib writes a lone distance code so), and never for the code-length code. A bit pattern it lacks decodes as −1.
	 */
	build(lengths: Uint8Array, n: number, codeLengths = false): boolean {
		const { fast, counts, sorted } = this;
		counts.fill(0);
		for (let s = 0; s < n; s++) counts[lengths[s]]++;
		counts[0] = 0;
		let left = 1;
		let max = 0;
		for (let length = 1; length <= 15; length++) {
			left = (left << 1) - counts[length];
			if (left < 0) return false;
			if (counts[length]) max = length;
		}
		if (max > 0 && left > 0 && (codeLengths || max !== 1)) return false;
		const offsets = OFFSETS;
		offsets[1] = 0;
		for (let length = 1; length < 15; length++) offsets[length + 1] = offsets[length] + counts[length];
		for (let s = 0; s < n; s++) if (lengths[s]) sorted[offsets[lengths[s]]++] = s;
		fast.fill(-1);
		this.eobLength = 0;
		let code = 0;
		let index = 0;
		for (let length = 1; length <= 15; length++) {
			for (let c = counts[length]; c > 0; c--, code++, index++) {
				// Deflate sends a code's bits from its highest down: the table is indexed by them reversed.
				if (sorted[index] === 256) {
					this.eob = reversed(code, length);
					this.eobLength = length;
				}
				if (length <= FAST) {
					const entry = (sorted[index] << 4) | length;
					for (let i = REVERSED[code << (FAST - length)]; i <= FAST_MASK; i += 1 << length) fast[i] = entry;
				} else fast[REVERSED[code >> (length - FAST)]] = 0;
			}
			code <<= 1;
		}
		return true;
	}
}

function reversed(code: number, length: number): number {
	let r = 0;
	for (let b = 0; b < length; b++) r |= ((code >> b) & 1) << (length - 1 - b);
	return r;
}

const OFFSETS = new Uint16Array(16);
/** FAST-bit values with their bits in reverse order. */
const REVERSED = new Uint16Array(1 << FAST);
for (let v = 0; v <= FAST_MASK; v++) {
	let r = 0;
	for (let b = 0; b < FAST; b++) r |= ((v >> b) & 1) << (FAST - 1 - b);
	REVERSED[v] = r;
}

let fixed: [HuffmanCode, HuffmanCode] | undefined;
// A dynamic header's code lengths and code-length code: read synchronously, so one of each serves every reader.
const LENGTHS = new Uint8Array(286 + 30);
const CL_CODE = new HuffmanCode();

/** The fixed codes (3.2.6), made once. */
export function fixedCodes(): [HuffmanCode, HuffmanCode] {
	if (!fixed) {
		fixed = [new HuffmanCode(), new HuffmanCode()];
		fixed[0].build(new Uint8Array(288).fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288), 288);
		// All 32 five-bit codes, as zlib's table has them (30 and 31 are no distance: parse() refuses them).
		fixed[1].build(new Uint8Array(32).fill(5), 32);
	}
	return fixed;
}

/**
 * Bits of a deflate stream, from each byte's lowest up (3.1.1). At most 23 bits are held (a small integer); a
 * field is at most 16 bits. Bytes past the end read as zeros, and overrun() says so. recompress.ts copies the
 * fields into locals for a block's symbols.
 */
export class BitReader {
	buf = 0;
	count = 0;

	constructor(
		public raw: Uint8Array,
		public at: number,
	) {}

	/** Reading `raw` from byte `at` (recompress.ts keeps one reader for every stream). */
	reset(raw: Uint8Array, at: number): this {
		this.raw = raw;
		this.at = at;
		this.buf = 0;
		this.count = 0;
		return this;
	}

	/** The next bit's position in raw (bits from the start). */
	position(): number {
		return this.at * 8 - this.count;
	}

	overrun(): boolean {
		return this.at - (this.count >> 3) > this.raw.length;
	}

	bits(count: number): number {
		this.fill();
		const value = this.buf & ((1 << count) - 1);
		this.buf >>= count;
		this.count -= count;
		return value;
	}

	/** Drops the bits up to a byte boundary and those held: the position of that byte. */
	alignedByte(): number {
		this.at -= this.count >> 3;
		this.buf = 0;
		this.count = 0;
		return this.at;
	}

	/** A symbol of `code`, or −1 for a bit pattern it has no code for. */
	decode(code: HuffmanCode): number {
		this.fill();
		const entry = code.fast[this.buf & FAST_MASK];
		if (entry > 0) {
			const length = entry & 15;
			this.buf >>= length;
			this.count -= length;
			return entry >> 4;
		}
		return entry < 0 ? -1 : this.slow(code);
	}

	/** A code longer than FAST bits: canonical decoding a bit at a time (3.2.2). */
	slow(code: HuffmanCode): number {
		this.fill();
		let value = 0;
		let first = 0;
		let index = 0;
		for (let length = 1; length <= 15; length++) {
			value |= (this.buf >> (length - 1)) & 1;
			const count = code.counts[length];
			if (value - first < count) {
				this.buf >>= length;
				this.count -= length;
				return code.sorted[index + value - first];
			}
			index += count;
			first = (first + count) << 1;
			value <<= 1;
		}
		return -1;
	}

	/** A dynamic block's header (3.2.7) into `lit` and `dist`; false when its codes are not valid. */
	dynamicCodes(lit: HuffmanCode, dist: HuffmanCode): boolean {
		const lits = this.bits(5) + 257;
		const dists = this.bits(5) + 1;
		const lengthCodes = this.bits(4) + 4;
		if (lits > 286 || dists > 30) return false;
		const lengths = LENGTHS;
		lengths.fill(0, 0, 19);
		for (let i = 0; i < lengthCodes; i++) lengths[CL_ORDER[i]] = this.bits(3);
		if (!CL_CODE.build(lengths, 19, true)) return false;
		lengths.fill(0);
		for (let i = 0; i < lits + dists; ) {
			const symbol = this.decode(CL_CODE);
			if (symbol < 0) return false;
			if (symbol < 16) {
				lengths[i++] = symbol;
				continue;
			}
			let repeat: number;
			let value = 0;
			if (symbol === 16) {
				if (i === 0) return false;
				value = lengths[i - 1];
				repeat = 3 + this.bits(2);
			} else repeat = symbol === 17 ? 3 + this.bits(3) : 11 + this.bits(7);
			if (i + repeat > lits + dists) return false;
			lengths.fill(value, i, i + repeat);
			i += repeat;
		}
		if (lengths[256] === 0) return false;
		return lit.build(lengths, lits) && dist.build(lengths.subarray(lits, lits + dists), dists);
	}

	/** At least 16 bits held. */
	fill(): void {
		const raw = this.raw;
		while (this.count < 16) {
			this.buf |= (this.at < raw.length ? raw[this.at] : 0) << this.count;
			this.at++;
			this.count += 8;
		}
	}
}
