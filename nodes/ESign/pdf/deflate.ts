import { BitWriter, DIST_CODE, END_OF_BLOCK, LENGTH_CODE, MAX_MATCH, WINDOW, writeBlock } from './deflateBlock';

/**
 * Deflate for the streams the tag remover writes (RFC 1951, in the zlib wrapping of RFC 1950 that /FlateDecode
 * reads): a page's content is a few KB of operators, and the platform's CompressionStream costs more to set up and
 * drive than to compress one (a quarter of a millisecond each, on the main thread, for every page). Greedy LZ77 over
 * a 32 KB window with short hash chains, then per block the cheapest of stored, fixed and dynamic Huffman codes.
 * Synchronous and linear in the input: at most MAX_CHAIN candidates per position.
 */

/** Hash table entries, and the chain ring's, at most 2^13 (32 KB each): a removal holds its deflater while the
 * pages are read; larger tables found no more on page content (the 300-page contract: 533,939 bytes against
 * 533,934 with 2^15), only on streams of hundreds of KB (5 % more). */
const MAX_HASH_BITS = 13;
const MIN_MATCH = 3;
/** Bytes hashed to find candidates: four (fewer false candidates than three: faster, and smaller output on content
 * streams); a match still counts from three bytes on. */
const HASHED = 4;
/** Candidates compared per position: content streams repeat short operator runs, found in the first few. */
const MAX_CHAIN = 8;
/** A match this long is taken at once (no longer one looked for). */
const GOOD_MATCH = 32;
/** A match up to this long has all its positions hashed (the next repeats start inside it); a longer one only its
 * end: hashing every position of long runs cost more time than their matches saved bytes. */
const INSERT_ALL = 8;
/** Symbols per block: a new block's codes follow the content's changing statistics (images' data, then text). */
const BLOCK_SYMBOLS = 16383;

/** zlib-wrapped deflate of `data` (a Deflater of its own). */
export function deflateSync(data: Uint8Array): Uint8Array {
	return new Deflater().deflate(data);
}

/**
 * A deflater whose tables are reused from stream to stream (a removal deflates every page it rewrites: allocating
 * them for each would cost more than the compression). Not shared between callers: it is synchronous and each
 * TagRemover makes its own.
 */
export class Deflater {
	private head = new Int32Array(0);
	private prev = new Int32Array(0);
	// A block's symbols: a literal or a match's length (≥ 3), and 0 or the match's distance. Sized to the inputs seen
	// (a block has no more symbols than bytes), up to a block's.
	private lits = new Uint16Array(0);
	private dists = new Uint16Array(0);
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
		if (this.lits.length < Math.min(BLOCK_SYMBOLS, n)) {
			this.lits = new Uint16Array(Math.min(BLOCK_SYMBOLS, n));
			this.dists = new Uint16Array(Math.min(BLOCK_SYMBOLS, n));
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
