/**
 * Huffman codes for deflate (RFC 1951, 3.2.2): code lengths no longer than a limit, and the canonical codes they give.
 */

/**
 * Huffman code lengths for `freq`, none longer than `limit`: a Huffman tree, built again from flattened counts
 * while it is too deep (a true Huffman tree is always a complete code, which inflaters require). At least two
 * symbols get a code, as zlib does, so no code is a lone one-bit code.
 */
export function codeLengths(freq: Uint32Array, limit: number): Uint8Array {
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
export function codes(lengths: Uint8Array): Uint16Array {
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
