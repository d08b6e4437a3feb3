/**
 * Deflate for the streams the tag remover writes (RFC 1951, in the zlib wrapping of RFC 1950 that /FlateDecode
 * reads): a page's content is a few KB of operators, and the platform's CompressionStream costs more to set up and
 * drive than to compress one (a quarter of a millisecond each, on the main thread, for every page). Greedy LZ77 over
 * a 32 KB window with short hash chains, then per block the cheapest of stored, fixed and dynamic Huffman codes.
 * Synchronous and linear in the input: at most MAX_CHAIN candidates per position.
 */

const WINDOW = 32768;
const MAX_HASH_BITS = 15;
const MIN_MATCH = 3;
/** Bytes hashed to find candidates: four (fewer false candidates than three: faster, and smaller output on content
 * streams); a match still counts from three bytes on. */
const HASHED = 4;
const MAX_MATCH = 258;
/** Candidates compared per position: content streams repeat short operator runs, found in the first few. */
const MAX_CHAIN = 8;
/** A match this long is taken at once (no longer one looked for). */
const GOOD_MATCH = 32;
/** A match up to this long has all its positions hashed (the next repeats start inside it); a longer one only its
 * end: hashing every position of long runs cost more time than their matches saved bytes. */
const INSERT_ALL = 8;
/** Symbols per block: a new block's codes follow the content's changing statistics (images' data, then text). */
const BLOCK_SYMBOLS = 16383;
const END_OF_BLOCK = 256;

// Length and distance codes (RFC 1951, 3.2.5): base values and extra bits.
const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/** The order code-length code lengths are sent in (3.2.7). */
const CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** Length (3 … 258) → its code's index (0 … 28). */
const LENGTH_CODE = new Uint8Array(MAX_MATCH + 1);
for (let code = 0; code < 29; code++) {
	const end = code === 28 ? MAX_MATCH + 1 : LENGTH_BASE[code + 1];
	for (let length = LENGTH_BASE[code]; length < end; length++) LENGTH_CODE[length] = code;
}
LENGTH_CODE[MAX_MATCH] = 28;
/** Distance − 1 → code, for distances up to 256; past that, (distance − 1) >> 7 indexes the second half. */
const DIST_CODE = new Uint8Array(512);
for (let code = 0; code < 30; code++) {
	const end = code === 29 ? WINDOW + 1 : DIST_BASE[code + 1];
	for (let d = DIST_BASE[code]; d < end; d++) {
		if (d <= 256) DIST_CODE[d - 1] = code;
		else DIST_CODE[256 + ((d - 1) >> 7)] = code;
	}
}

/** zlib-wrapped deflate of `data` (a Deflater of its own). */
export function deflateSync(data: Uint8Array): Uint8Array {
	return new Deflater().deflate(data);
}

/** The fixed Huffman codes' lengths (3.2.6). */
const FIXED_LIT = new Uint8Array(288).fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288);
const FIXED_DIST = new Uint8Array(30).fill(5);

/**
 * A deflater whose tables are reused from stream to stream (a removal deflates every page it rewrites: allocating
 * them for each would cost more than the compression). Not shared between callers: it is synchronous and each
 * TagRemover makes its own.
 */
export class Deflater {
	private head = new Int32Array(0);
	private prev = new Int32Array(0);
	private readonly lits = new Uint16Array(BLOCK_SYMBOLS); // a literal or a match's length (≥ 3), by symbol
	private readonly dists = new Uint16Array(BLOCK_SYMBOLS); // 0 for a literal
	private readonly litFreq = new Uint32Array(286);
	private readonly distFreq = new Uint32Array(30);
	private out = new BitWriter(0);

	/** zlib-wrapped deflate of `data`. */
	deflate(data: Uint8Array): Uint8Array {
		const n = data.length;
		const out = this.out.reset(n + (n >> 4) + 64);
		out.bytes(0x78, 0x9c); // 32 KB window, default level (RFC 1950: a header that is a multiple of 31)
		// Tables sized to the input (a page's content is a few KB), up to the window.
		const bits = Math.min(MAX_HASH_BITS, Math.max(8, Math.ceil(Math.log2(n + 1))));
		if (this.head.length < 1 << bits) {
			this.head = new Int32Array(1 << bits);
			this.prev = new Int32Array(Math.min(WINDOW, 1 << bits));
		}
		const head = this.head;
		head.fill(-1, 0, 1 << bits);
		const prev = this.prev;
		const mask = Math.min(WINDOW, 1 << bits) - 1;
		const shift = 32 - bits;
		const { lits, dists, litFreq, distFreq } = this;
		litFreq.fill(0);
		distFreq.fill(0);
		let symbols = 0;
		let blockStart = 0;
		let i = 0;
		while (i < n) {
			let bestLength = 0;
			let bestDistance = 0;
			if (i + HASHED <= n) {
				const h = Math.imul(data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24), 0x9e3779b1) >>> shift;
				let candidate = head[h];
				prev[i & mask] = candidate;
				head[h] = i;
				const limit = n - i < MAX_MATCH ? n - i : MAX_MATCH;
				for (let chain = MAX_CHAIN; candidate >= 0 && i - candidate <= WINDOW && chain > 0; chain--) {
					if (data[candidate + bestLength] === data[i + bestLength] && data[candidate] === data[i]) {
						let length = 1;
						while (length < limit && data[candidate + length] === data[i + length]) length++;
						if (length > bestLength) {
							bestLength = length;
							bestDistance = i - candidate;
							if (length >= GOOD_MATCH || length === limit) break;
						}
					}
					const next = prev[candidate & mask];
					// A slot of the ring overwritten by a later position points forward: the chain ends there.
					if (next >= candidate) break;
					candidate = next;
				}
			}
			if (bestLength >= MIN_MATCH) {
				lits[symbols] = bestLength;
				dists[symbols++] = bestDistance;
				litFreq[257 + LENGTH_CODE[bestLength]]++;
				distFreq[bestDistance <= 256 ? DIST_CODE[bestDistance - 1] : DIST_CODE[256 + ((bestDistance - 1) >> 7)]]++;
				const end = i + bestLength;
				const from = bestLength <= INSERT_ALL ? i + 1 : end - 1;
				const stop = end + HASHED <= n ? end : n - HASHED + 1;
				for (let k = from; k < stop; k++) {
					const hk = Math.imul(data[k] | (data[k + 1] << 8) | (data[k + 2] << 16) | (data[k + 3] << 24), 0x9e3779b1) >>> shift;
					prev[k & mask] = head[hk];
					head[hk] = k;
				}
				i = end;
			} else {
				lits[symbols] = data[i];
				dists[symbols++] = 0;
				litFreq[data[i]]++;
				i++;
			}
			if (symbols === BLOCK_SYMBOLS && i < n) {
				litFreq[END_OF_BLOCK]++;
				writeBlock(out, data, blockStart, i, lits, dists, symbols, litFreq, distFreq, false);
				litFreq.fill(0);
				distFreq.fill(0);
				symbols = 0;
				blockStart = i;
			}
		}
		litFreq[END_OF_BLOCK]++;
		writeBlock(out, data, blockStart, n, lits, dists, symbols, litFreq, distFreq, true);
		out.align();
		const adler = adler32(data);
		out.bytes(adler >>> 24, (adler >>> 16) & 255, (adler >>> 8) & 255, adler & 255);
		return out.result();
	}
}

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

/** One block, as whichever of stored, fixed or dynamic codes takes fewest bits. */
function writeBlock(out: BitWriter, data: Uint8Array, start: number, end: number, lits: Uint16Array, dists: Uint16Array, count: number, litFreq: Uint32Array, distFreq: Uint32Array, last: boolean) {
	const litLengths = codeLengths(litFreq, 15);
	const distLengths = codeLengths(distFreq, 15);
	const header = dynamicHeader(litLengths, distLengths);
	const extraBits = (freq: Uint32Array, base: number, extra: number[]) => {
		let bits = 0;
		for (let k = 0; k < extra.length; k++) bits += freq[base + k] * extra[k];
		return bits;
	};
	const extras = extraBits(litFreq, 257, LENGTH_EXTRA) + extraBits(distFreq, 0, DIST_EXTRA);
	const dynamicBits = 3 + header.bits + cost(litFreq, litLengths) + cost(distFreq, distLengths) + extras;
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
	if (dynamic) header.write(out);
	const litCodes = codes(lit);
	const distCodes = codes(dist);
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

/**
 * Huffman code lengths for `freq`, none longer than `limit`: a Huffman tree, built again from flattened counts
 * while it is too deep (a true Huffman tree is always a complete code, which inflaters require). At least two
 * symbols get a code, as zlib does, so no code is a lone one-bit code.
 */
function codeLengths(freq: Uint32Array, limit: number): Uint8Array {
	const counts = COUNTS.subarray(0, freq.length);
	counts.set(freq);
	let used = 0;
	for (let s = 0; s < counts.length; s++) if (counts[s]) used++;
	for (let s = 0; used < 2; s++) {
		if (counts[s] === 0) {
			counts[s] = 1;
			used++;
		}
	}
	for (;;) {
		const lengths = huffmanLengths(counts, used);
		let max = 0;
		for (let s = 0; s < lengths.length; s++) if (lengths[s] > max) max = lengths[s];
		if (max <= limit) return lengths;
		for (let s = 0; s < counts.length; s++) if (counts[s]) counts[s] = (counts[s] >> 1) | 1;
	}
}

// Scratch for the trees (at most 286 symbols): reused, as building a block's three trees is otherwise mostly
// allocation. Safe to share: the deflater is synchronous.
const COUNTS = new Uint32Array(286);
const KEYS = new Float64Array(286);
const WEIGHT = new Float64Array(2 * 286);
const PARENT = new Int32Array(2 * 286);
const DEPTH = new Uint16Array(2 * 286);

/** Depths of a Huffman tree over the `used` nonzero counts (two queues over the leaves sorted by count). */
function huffmanLengths(counts: Uint32Array, used: number): Uint8Array {
	// Sorted as numbers: count above, symbol below (a block's counts stay below 2^22, symbols below 2^9).
	const keys = KEYS.subarray(0, used);
	for (let s = 0, k = 0; s < counts.length; s++) if (counts[s]) keys[k++] = counts[s] * 512 + s;
	keys.sort();
	const m = used;
	// Nodes 0 … m−1 are the leaves; m … 2m−2 the merged nodes, made in order of weight.
	const weight = WEIGHT;
	const parent = PARENT;
	for (let k = 0; k < m; k++) weight[k] = Math.floor(keys[k] / 512);
	let leaf = 0;
	let merged = m;
	for (let made = m; made < 2 * m - 1; made++) {
		const a = leaf < m && (merged >= made || weight[leaf] <= weight[merged]) ? leaf++ : merged++;
		const b = leaf < m && (merged >= made || weight[leaf] <= weight[merged]) ? leaf++ : merged++;
		weight[made] = weight[a] + weight[b];
		parent[a] = made;
		parent[b] = made;
	}
	const depth = DEPTH;
	depth[2 * m - 2] = 0;
	for (let k = 2 * m - 3; k >= 0; k--) depth[k] = depth[parent[k]] + 1;
	const lengths = new Uint8Array(counts.length);
	for (let k = 0; k < m; k++) lengths[keys[k] % 512] = depth[k];
	return lengths;
}

/** Canonical codes for `lengths` (3.2.2), bit-reversed: deflate sends Huffman codes from their first bit. */
function codes(lengths: Uint8Array): Uint16Array {
	const count = new Uint16Array(16);
	for (const length of lengths) count[length]++;
	count[0] = 0;
	const next = new Uint16Array(16);
	for (let bits = 1, code = 0; bits < 16; bits++) {
		code = (code + count[bits - 1]) << 1;
		next[bits] = code;
	}
	const out = new Uint16Array(lengths.length);
	for (let s = 0; s < lengths.length; s++) {
		const length = lengths[s];
		if (!length) continue;
		let code = next[length]++;
		let reversed = 0;
		for (let k = 0; k < length; k++) {
			reversed = (reversed << 1) | (code & 1);
			code >>= 1;
		}
		out[s] = reversed;
	}
	return out;
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
class BitWriter {
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
