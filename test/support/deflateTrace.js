'use strict';
/**
 * For the deflate encoder's tests (nodes/ESign/pdf/write/deflate.ts): Node's zlib as the independent inflater, and a
 * small reader of a zlib stream's deflate blocks written here from RFC 1951 (it decodes them too, so it sees what
 * each block holds): per block its type, the code lengths sent, and how often each symbol was used. The tests use
 * it to prove an input really reached a path (a stored block, several dynamic blocks, a length limit).
 * A .js helper, so the lint's ban on Node built-ins in .ts files does not apply.
 */
const zlib = require('node:zlib');

/** zlib's inflate of a zlib-wrapped stream (throws on any error: bad header, incomplete code, wrong Adler-32). */
const inflate = (data) => new Uint8Array(zlib.inflateSync(Buffer.from(data.buffer, data.byteOffset, data.byteLength)));

/** zlib's inflate of a zlib stream followed by other bytes (a PDF stream's EOL): the data, and the stream's own length. */
function inflatePrefix(data) {
	const { buffer, engine } = zlib.inflateSync(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { info: true });
	return { data: new Uint8Array(buffer), length: engine.bytesWritten };
}

const STRATEGIES = {
	default: zlib.constants.Z_DEFAULT_STRATEGY,
	filtered: zlib.constants.Z_FILTERED,
	huffman: zlib.constants.Z_HUFFMAN_ONLY,
	rle: zlib.constants.Z_RLE,
	fixed: zlib.constants.Z_FIXED,
};

/**
 * zlib's own deflate (zlib-wrapped) of `data`, with its level (0 … 9), strategy (by name), windowBits (9 … 15) and
 * memLevel (1 … 9), and a preset dictionary if any: the producers' streams recompress.ts reads (nodes/ESign/pdf/write/recompress.ts).
 */
function zlibDeflate(data, options = {}) {
	const { strategy = 'default', ...rest } = options;
	const input = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
	return new Uint8Array(zlib.deflateSync(input, { ...rest, strategy: STRATEGIES[strategy] }));
}

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** A decoding table: for each length, the symbols in canonical order (RFC 1951 3.2.2). */
function decoder(lengths) {
	const byLength = Array.from({ length: 16 }, () => []);
	lengths.forEach((length, symbol) => length && byLength[length].push(symbol));
	return byLength;
}

/**
 * The blocks of a zlib stream: [{ type: 'stored' | 'fixed' | 'dynamic', final, bytes (decoded), litLengths,
 * distLengths, clLengths, clCounts (code-length symbols sent), litCounts, distCounts, maxDistance }], and the
 * decoded data. Throws on anything malformed.
 */
function traceBlocks(stream) {
	let pos = 2;
	let bit = 0;
	const readBit = () => {
		if (pos >= stream.length) throw new Error('deflate data runs past the end');
		const b = (stream[pos] >> bit) & 1;
		if (++bit === 8) {
			bit = 0;
			pos++;
		}
		return b;
	};
	const readBits = (n) => {
		let v = 0;
		for (let k = 0; k < n; k++) v |= readBit() << k;
		return v;
	};
	const readSymbol = (table) => {
		let code = 0;
		let first = 0;
		for (let length = 1; length < 16; length++) {
			code |= readBit();
			const count = table[length].length;
			if (code - first < count) return table[length][code - first];
			first = (first + count) << 1;
			code <<= 1;
		}
		throw new Error('no such Huffman code');
	};
	const out = [];
	const blocks = [];
	for (let final = 0; !final; ) {
		final = readBit();
		const btype = readBits(2);
		const block = { type: ['stored', 'fixed', 'dynamic', 'reserved'][btype], final: !!final, bytes: 0, maxDistance: 0 };
		blocks.push(block);
		const start = out.length;
		if (btype === 0) {
			if (bit) {
				bit = 0;
				pos++;
			}
			const len = stream[pos] | (stream[pos + 1] << 8);
			const nlen = stream[pos + 2] | (stream[pos + 3] << 8);
			if ((len ^ 0xffff) !== nlen) throw new Error(`stored block: LEN ${len} and NLEN ${nlen} disagree`);
			pos += 4;
			if (pos + len > stream.length) throw new Error('stored block runs past the end');
			for (let k = 0; k < len; k++) out.push(stream[pos + k]);
			pos += len;
		} else if (btype === 1 || btype === 2) {
			let litLengths;
			let distLengths;
			if (btype === 1) {
				litLengths = [...Array(144).fill(8), ...Array(112).fill(9), ...Array(24).fill(7), ...Array(8).fill(8)];
				distLengths = Array(30).fill(5);
			} else {
				const hlit = readBits(5) + 257;
				const hdist = readBits(5) + 1;
				const hclen = readBits(4) + 4;
				const clLengths = Array(19).fill(0);
				for (let k = 0; k < hclen; k++) clLengths[CL_ORDER[k]] = readBits(3);
				const clTable = decoder(clLengths);
				const clCounts = Array(19).fill(0);
				const all = [];
				while (all.length < hlit + hdist) {
					const symbol = readSymbol(clTable);
					clCounts[symbol]++;
					if (symbol < 16) all.push(symbol);
					else if (symbol === 16) {
						if (!all.length) throw new Error('repeat with no previous length');
						const previous = all[all.length - 1];
						for (let r = 3 + readBits(2); r > 0; r--) all.push(previous);
					} else for (let r = symbol === 17 ? 3 + readBits(3) : 11 + readBits(7); r > 0; r--) all.push(0);
				}
				if (all.length !== hlit + hdist) throw new Error('code lengths overrun HLIT + HDIST');
				litLengths = all.slice(0, hlit);
				distLengths = all.slice(hlit);
				Object.assign(block, { clLengths, clCounts });
			}
			Object.assign(block, { litLengths, distLengths, litCounts: Array(litLengths.length).fill(0), distCounts: Array(distLengths.length).fill(0) });
			const litTable = decoder(litLengths);
			const distTable = decoder(distLengths);
			for (;;) {
				const symbol = readSymbol(litTable);
				block.litCounts[symbol]++;
				if (symbol < 256) out.push(symbol);
				else if (symbol === 256) break;
				else {
					const lc = symbol - 257;
					if (lc > 28) throw new Error(`length symbol ${symbol}`);
					const length = LENGTH_BASE[lc] + readBits(LENGTH_EXTRA[lc]);
					const dc = readSymbol(distTable);
					if (dc > 29) throw new Error(`distance symbol ${dc}`);
					block.distCounts[dc]++;
					const distance = DIST_BASE[dc] + readBits(DIST_EXTRA[dc]);
					if (distance > out.length || distance > 32768) throw new Error(`distance ${distance} too far back`);
					block.maxDistance = Math.max(block.maxDistance, distance);
					for (let k = 0; k < length; k++) out.push(out[out.length - distance]);
				}
			}
		} else throw new Error('reserved block type');
		block.bytes = out.length - start;
	}
	if (bit) pos++;
	return { blocks, data: Uint8Array.from(out), trailerAt: pos, end: stream.length };
}

/**
 * The longest code an unlimited Huffman tree gives these counts (zero counts left out; at least two symbols coded,
 * as deflate encoders do): what a length limit must cut down. Plain and slow: merges the two lightest each time.
 */
function huffmanDepth(counts) {
	const nodes = counts.filter((c) => c > 0).map((weight) => ({ weight, depth: 0 }));
	while (nodes.length < 2) nodes.push({ weight: 1, depth: 0 });
	while (nodes.length > 1) {
		nodes.sort((a, b) => a.weight - b.weight || a.depth - b.depth);
		const [a, b] = nodes.splice(0, 2);
		nodes.push({ weight: a.weight + b.weight, depth: Math.max(a.depth, b.depth) + 1 });
	}
	return nodes[0].depth;
}

/** zlib's inflate of `z`, or its error as text (so that a refused stream fails an assertion, naming zlib's reason). */
function inflated(z) {
	try {
		return { data: inflate(z), error: '' };
	} catch (failure) {
		return { data: new Uint8Array(0), error: String(failure) };
	}
}

/** The first index where two byte arrays differ (-1: none; the shorter one's length if one is a prefix). */
function firstDifference(actual, expected) {
	const n = Math.min(actual.length, expected.length);
	for (let i = 0; i < n; i++) if (actual[i] !== expected[i]) return i;
	return actual.length === expected.length ? -1 : n;
}

module.exports = { inflate, inflated, firstDifference, inflatePrefix, zlibDeflate, traceBlocks, huffmanDepth };
