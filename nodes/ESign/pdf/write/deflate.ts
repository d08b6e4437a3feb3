import { adler32 } from './adler32';
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
 * them for each would cost more than the compression). Synchronous: a stream's begin() … end() never waits, so
 * callers can share one (SHARED_DEFLATER).
 */
export class Deflater {
	private head = new Int32Array(0);
	private prev = new Int32Array(0);
	// A block's symbols: a literal or a match's length (≥ 3), and 0 or the match's distance. Grown as symbols come
	// (full()), up to a block's.
	private lits = new Uint16Array(0);
	private dists = new Uint16Array(0);
	private readonly litFreq = new Uint32Array(286);
	private readonly distFreq = new Uint32Array(30);
	private out = new BitWriter(0);
	/** begin() … end(): the data the symbols make, symbols in the block, bytes they make so far, the block's start */
	private sink = EMPTY_SINK;

	/** zlib-wrapped deflate of `data`. */
	deflate(data: Uint8Array): Uint8Array {
		this.begin(data);
		this.search(data.length, 0);
		return this.end() as Uint8Array;
	}

	/**
	 * Greedy LZ77 over the sink's data from where it stands up to `to`: matches end by `to`, and are looked for among
	 * those bytes and the `window` bytes before them (a deflate: all of it; recompress.ts: an edit's new bytes, with
	 * the content just before them, where the names and numbers they repeat are).
	 */
	search(to: number, window: number): void {
		const sink = this.sink;
		const data = sink.data;
		const n = data.length;
		const from = sink.at;
		const first = Math.max(0, from - window);
		// Tables sized to the bytes searched (a page's content is a few KB), up to the window.
		const bits = Math.min(MAX_HASH_BITS, Math.max(8, Math.ceil(Math.log2(to - first + 1))));
		if (this.head.length < 1 << bits) {
			this.head = new Int32Array(1 << bits);
			this.prev = new Int32Array(Math.min(WINDOW, 1 << bits));
		}
		const head = this.head;
		head.fill(-1, 0, 1 << bits);
		const prev = this.prev;
		const mask = Math.min(WINDOW, 1 << bits) - 1;
		const shift = 32 - bits;
		for (let k = first; k < from && k + HASHED <= n; k++) {
			const hk = Math.imul(data[k] | (data[k + 1] << 8) | (data[k + 2] << 16) | (data[k + 3] << 24), 0x9e3779b1) >>> shift;
			prev[k & mask] = head[hk];
			head[hk] = k;
		}
		const { litFreq, distFreq } = this;
		let { lits, dists } = this;
		let symbols = sink.symbols;
		let i = from;
		while (i < to) {
			if (symbols === lits.length) {
				sink.symbols = symbols;
				sink.at = i;
				this.full();
				({ lits, dists } = this);
				symbols = sink.symbols;
			}
			let bestLength = 0;
			let bestDistance = 0;
			if (i + HASHED <= n) {
				const h = Math.imul(data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24), 0x9e3779b1) >>> shift;
				let candidate = head[h];
				prev[i & mask] = candidate;
				head[h] = i;
				const limit = to - i < MAX_MATCH ? to - i : MAX_MATCH;
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
				const inserted = bestLength <= INSERT_ALL ? i + 1 : end - 1;
				const stop = end + HASHED <= n ? end : n - HASHED + 1;
				for (let k = inserted; k < stop; k++) {
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
		}
		sink.symbols = symbols;
		sink.at = to;
	}

	/**
	 * Symbols found elsewhere (recompress.ts: another stream's own), written as blocks of this deflater's codes:
	 * `begin(data)` with the bytes they decode to (a stored block copies from them), then `literal` and `match` in
	 * order, then `end()` for the zlib stream.
	 */
	begin(data: Uint8Array): void {
		const n = data.length;
		this.out.reset(n + (n >> 4) + 64).bytes(0x78, 0x9c);
		this.litFreq.fill(0);
		this.distFreq.fill(0);
		this.sink = { data, symbols: 0, at: 0, blockStart: 0, ok: true };
	}

	// Each symbol is checked against the data it must make (a byte, or a copy of bytes already made): what end()
	// returns decodes to exactly `data`, whatever went wrong where the symbols came from.
	literal(byte: number): void {
		const sink = this.sink;
		if (sink.symbols === this.lits.length) this.full();
		if (sink.data[sink.at] !== byte) sink.ok = false;
		this.lits[sink.symbols] = byte;
		this.dists[sink.symbols++] = 0;
		this.litFreq[byte]++;
		sink.at++;
	}

	/** A match: `length` (3 … 258) bytes copied from `distance` (1 … 32,768) back. */
	match(length: number, distance: number): void {
		const sink = this.sink;
		if (sink.symbols === this.lits.length) this.full();
		const { data, at } = sink;
		if (distance > at || at + length > data.length) sink.ok = false;
		else for (let i = 0; i < length; i++) if (data[at + i] !== data[at - distance + i]) sink.ok = false;
		this.lits[sink.symbols] = length;
		this.dists[sink.symbols++] = distance;
		this.litFreq[257 + LENGTH_CODE[length]]++;
		this.distFreq[distance <= 256 ? DIST_CODE[distance - 1] : DIST_CODE[256 + ((distance - 1) >> 7)]]++;
		sink.at += length;
	}

	/** The zlib stream of the symbols given since begin(); undefined when they do not make exactly its data.
	 * `adler`: the data's Adler-32 when the caller has it. */
	end(adler?: number): Uint8Array | undefined {
		const { data, at, ok } = this.sink;
		if (!ok || at !== data.length) {
			this.sink = EMPTY_SINK;
			return undefined;
		}
		this.sinkBlock(true);
		this.sink = EMPTY_SINK;
		return this.trailer(data, adler);
	}

	/**
	 * Right after begin(): a zlib stream's own bits up to `end` (from its third byte: both have two bytes of header,
	 * so a bit keeps its position), bit `clear` (≥ 0) set to 0; they make the data's first `bytes`.
	 */
	copyBits(raw: Uint8Array, end: number, clear: number, bytes: number): void {
		const out = this.out;
		out.copy(raw, 2, end >> 3);
		if (end & 7) out.bits(raw[end >> 3] & ((1 << (end & 7)) - 1), end & 7);
		if (clear >= 0) out.clearBit(clear);
		this.sink.at = this.sink.blockStart = bytes;
	}

	bits(value: number, count: number): void {
		this.out.bits(value, count);
	}

	/** begin() given up: its data let go. */
	cancel(): void {
		this.sink = EMPTY_SINK;
	}

	/** Its tables and output buffer let go (made again, sized to the input, by the next stream). */
	release(): void {
		this.sink = EMPTY_SINK;
		this.head = new Int32Array(0);
		this.prev = new Int32Array(0);
		this.lits = new Uint16Array(0);
		this.dists = new Uint16Array(0);
		this.out.release();
	}

	/**
	 * No room for another symbol: the arrays grown while a block may hold more (they are sized to what the streams
	 * need: a page recompress.ts copies up to its end makes a few hundred), else the block written. A full block is
	 * written only when more follows (the last one is end()'s): no empty block after a full one.
	 */
	private full(): void {
		const length = this.lits.length;
		if (length < BLOCK_SYMBOLS) {
			const size = Math.min(BLOCK_SYMBOLS, Math.max(256, length * 2));
			const lits = new Uint16Array(size);
			const dists = new Uint16Array(size);
			lits.set(this.lits);
			dists.set(this.dists);
			this.lits = lits;
			this.dists = dists;
		} else this.sinkBlock(false);
	}

	private sinkBlock(last: boolean): void {
		const sink = this.sink;
		this.block(sink.data, sink.blockStart, sink.at, sink.symbols, last);
		sink.symbols = 0;
		sink.blockStart = sink.at;
	}

	private block(data: Uint8Array, start: number, end: number, symbols: number, last: boolean): void {
		this.litFreq[END_OF_BLOCK]++;
		writeBlock(this.out, data, start, end, this.lits, this.dists, symbols, this.litFreq, this.distFreq, last);
		this.litFreq.fill(0);
		this.distFreq.fill(0);
	}

	private trailer(data: Uint8Array, adler = adler32(data)): Uint8Array {
		const out = this.out;
		out.align();
		out.bytes(adler >>> 24, (adler >>> 16) & 255, (adler >>> 8) & 255, adler & 255);
		return out.result();
	}
}

const EMPTY_SINK: { data: Uint8Array; symbols: number; at: number; blockStart: number; ok: boolean } = { data: new Uint8Array(0), symbols: 0, at: 0, blockStart: 0, ok: false };

/**
 * The deflater tag removals share: one instance outlives them all, so that V8 keeps its shape across full garbage
 * collections. A Deflater made per removal was garbage at the next one, which dropped its shape and the optimized
 * code of every function that had seen it (`--trace-deopt`: "embedded weak objects cleared"): each removal after a
 * full GC compressed its first pages interpreted. A removal calls release() when its upload is written.
 */
export const SHARED_DEFLATER = new Deflater();
