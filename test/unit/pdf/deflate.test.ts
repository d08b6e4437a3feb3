// The deflate encoder the tag remover writes content streams with (nodes/ESign/pdf/write/deflate.ts): every output read
// back by an independent inflater (Node's zlib, through test/support/deflateTrace.js), and by a block reader written
// from RFC 1951 there, which shows what each block holds: so a test proves its input reached the path it names (a
// stored block, several dynamic blocks, a distance of 32 768, a length limit) instead of assuming it.
import { adler32 } from '../../../nodes/ESign/pdf/write/adler32';
import { Deflater, deflateSync } from '../../../nodes/ESign/pdf/write/deflate';
import { firstDifference, huffmanDepth, inflated, traceBlocks } from '../../support/deflateTrace';
import { mulberry32 } from '../../support/prng';

const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

/** Adler-32 by RFC 1950's definition (8.2), one modulo per byte: independent of the encoder's batching. */
function adlerByDefinition(data: Uint8Array): number {
	let a = 1;
	let b = 0;
	for (const byte of data) {
		a = (a + byte) % 65521;
		b = (b + a) % 65521;
	}
	return b * 65536 + a;
}

/**
 * Deflates `data` and checks the zlib wrapping (RFC 1950: CM 8, a window of at most 32 KB, no preset dictionary,
 * CMF·256 + FLG a multiple of 31, the Adler-32 of the data last, big-endian) and that zlib inflates it to `data`.
 * Returns the stream.
 */
function roundTrip(data: Uint8Array, deflater?: Deflater): Uint8Array {
	const z = deflater ? deflater.deflate(data) : deflateSync(data);
	expect(z.length).toBeGreaterThanOrEqual(2 + 2 + 4);
	const [cmf, flg] = z;
	expect(cmf & 15).toBe(8);
	expect(cmf >> 4).toBeLessThanOrEqual(7);
	expect((cmf * 256 + flg) % 31).toBe(0);
	expect(flg & 0x20).toBe(0);
	const trailer = ((z[z.length - 4] << 24) | (z[z.length - 3] << 16) | (z[z.length - 2] << 8) | z[z.length - 1]) >>> 0;
	expect(trailer).toBe(adlerByDefinition(data));
	const back = inflated(z);
	expect(back.error).toBe('');
	expect(firstDifference(back.data, data)).toBe(-1);
	return z;
}

/** `roundTrip`, then the blocks as the RFC 1951 reader sees them (which must decode to `data` too, ending where the trailer starts). */
function blocksOf(data: Uint8Array) {
	const z = roundTrip(data);
	const trace = traceBlocks(z);
	expect(firstDifference(trace.data, data)).toBe(-1);
	expect(trace.end - trace.trailerAt).toBe(4);
	return { z, blocks: trace.blocks };
}

/** Seeded bytes: uniform over `alphabet` values from `base`. */
function randomBytes(length: number, seed: number, alphabet = 256, base = 0): Uint8Array {
	const r = mulberry32(seed);
	const out = new Uint8Array(length);
	for (let i = 0; i < length; i++) out[i] = base + Math.floor(r() * alphabet);
	return out;
}

/** A page's content stream: text-showing operators with varying numbers and strings, as the tag remover writes them. */
function contentStream(lines: number, seed: number): Uint8Array {
	const r = mulberry32(seed);
	const words = ['Hello', 'Signature', 'Date', 'Name', 'Agreement', 'Party', 'hereby', 'terms'];
	let text = '';
	for (let k = 0; k < lines; k++) {
		const x = 72 + Math.floor(r() * 400);
		const y = 700 - Math.floor(r() * 650);
		const size = 9 + Math.floor(r() * 4);
		text += `BT /F${1 + Math.floor(r() * 3)} ${size} Tf ${x} ${y} Td (${words[Math.floor(r() * words.length)]} ${k}) Tj ET\n`;
		if (r() < 0.2) text += `q 0.5 0 0 0.5 ${x} ${y} cm /Im${k % 7} Do Q\n`;
	}
	return bytes(text);
}

/** Bytes of mixed structure for the fuzz loop: text, runs, noise, and copies of earlier bytes from near and far. */
function mixed(length: number, seed: number): Uint8Array {
	const r = mulberry32(seed);
	const out = new Uint8Array(length);
	let at = 0;
	while (at < length) {
		const kind = Math.floor(r() * 5);
		const size = Math.min(length - at, 1 + Math.floor(r() ** 2 * 3000));
		if (kind === 0) out.set(contentStream(1 + (size >> 5), seed + at).subarray(0, size), at);
		else if (kind === 1) out.fill(Math.floor(r() * 256), at, at + size);
		else if (kind === 2) out.set(randomBytes(size, seed * 7 + at, 1 + Math.floor(r() * 256)), at);
		else if (at > 0) {
			// A copy from up to 40 000 bytes back (past the window too), overlapping itself when the distance is short.
			const distance = 1 + Math.floor(r() ** 3 * Math.min(at, 40000));
			for (let k = 0; k < size; k++) out[at + k] = out[at + k - distance];
		}
		at += size;
	}
	return out;
}

describe('adler32', () => {
	test('known values: empty → 1, "a" → 0x00620062, "Wikipedia" → 0x11E60398', () => {
		expect(adler32(new Uint8Array(0))).toBe(1);
		expect(adler32(bytes('a'))).toBe(0x00620062);
		expect(adler32(bytes('Wikipedia'))).toBe(0x11e60398);
	});

	test('equals the definition past its batching of 5552 bytes (all 0xFF, the largest sums) and on random data', () => {
		for (const data of [new Uint8Array(5552).fill(255), new Uint8Array(5553).fill(255), new Uint8Array(100000).fill(255), randomBytes(70001, 3)]) {
			expect(adler32(data)).toBe(adlerByDefinition(data));
		}
	});
});

describe('deflateSync round trips through zlib', () => {
	test('empty input, 1 byte, 2 and 3 bytes, 4 and 5 bytes', () => {
		for (const text of ['', 'A', '\0', '\xff', 'ab', 'aa', 'abc', 'aaa', 'aaaa', 'abab', 'aaaaa', 'ababa']) roundTrip(bytes(text));
	});

	test('all 256 byte values, ascending, then twice over, then descending', () => {
		const all = Uint8Array.from({ length: 256 }, (_, i) => i);
		roundTrip(all);
		const twice = new Uint8Array(512);
		twice.set(all);
		twice.set(all, 256);
		const { blocks } = blocksOf(twice);
		expect(blocks.some((b) => (b.litCounts ?? []).slice(257).some((c) => c > 0))).toBe(true); // the repeat was matched
		roundTrip(all.slice().reverse());
	});

	test('runs: matches of exactly 258 and 259 bytes, and one byte ×100 000 (long matches at distance 1)', () => {
		for (const length of [257, 258, 259, 260, 261, 262, 516, 517, 518]) roundTrip(new Uint8Array(length).fill(0x41));
		// 258 bytes repeated after a different byte: one match of exactly 258 at distance 259, then of 259 (258 + a literal).
		for (const length of [258, 259]) {
			const phrase = randomBytes(length, length);
			const data = new Uint8Array(2 * length + 1);
			data.set(phrase);
			data[length] = 7;
			data.set(phrase, length + 1);
			roundTrip(data);
		}
		const { z } = blocksOf(new Uint8Array(100000).fill(0x20));
		expect(z.length).toBeLessThan(300);
	});

	test('text-like content: a content stream round-trips and shrinks to at most 40 % (dynamic codes, not stored)', () => {
		const data = contentStream(400, 1);
		expect(data.length).toBeGreaterThan(15000);
		const { z, blocks } = blocksOf(data);
		expect(z.length).toBeLessThanOrEqual(0.4 * data.length);
		expect(blocks.map((b) => b.type)).toEqual(['dynamic']);
		// a short page (a few hundred bytes) is compressed too
		const short = contentStream(8, 2);
		expect(roundTrip(short).length).toBeLessThan(short.length);
	});

	test('seeded random data over a small alphabet round-trips and shrinks', () => {
		for (const [length, alphabet] of [[1000, 2], [20000, 4], [70000, 16]]) {
			const data = randomBytes(length, length, alphabet, 97);
			expect(roundTrip(data).length).toBeLessThan(length);
		}
	});

	test('incompressible data is stored: only stored blocks, at most 5 bytes a block of 16 383 and 6 of wrapping over the input', () => {
		for (const length of [1, 100, 16383, 16384, 65535, 65536, 100000]) {
			const data = randomBytes(length, 11 + length);
			const { z, blocks } = blocksOf(data);
			// (a block ends every 16 383 symbols: the few bytes left after the last full one may go in fixed codes)
			if (length >= 100) expect(blocks.filter((b) => b.bytes >= 100).every((b) => b.type === 'stored')).toBe(true);
			expect(z.length).toBeLessThanOrEqual(length + 6 + 5 * Math.max(1, Math.ceil(length / 16383)));
		}
	});

	test('past the 32 KB window: a repeat at distance 32 768 is matched, one at 32 769 is not, and the window slides', () => {
		const noise = randomBytes(32769, 5);
		const at32768 = new Uint8Array(32768 + 2000);
		at32768.set(noise.subarray(0, 32768));
		at32768.set(noise.subarray(0, 2000), 32768);
		const near = blocksOf(at32768);
		expect(Math.max(...near.blocks.map((b) => b.maxDistance))).toBe(32768);
		expect(near.z.length).toBeLessThan(32768 + 500);

		const at32769 = new Uint8Array(32769 + 2000);
		at32769.set(noise);
		at32769.set(noise.subarray(0, 2000), 32769);
		const far = blocksOf(at32769);
		expect(Math.max(...far.blocks.map((b) => b.maxDistance))).toBeLessThanOrEqual(32768);

		// 200 KB of a 20 000-byte phrase repeated (each repeat within the window, the ring's slots reused many times
		// over), then a 40 000-byte one (its repeats beyond the window).
		const phrase = randomBytes(20000, 6);
		const long = randomBytes(40000, 7);
		const data = new Uint8Array(200000 + 120000);
		for (let k = 0; k < 10; k++) data.set(phrase, k * 20000);
		for (let k = 0; k < 3; k++) data.set(long, 200000 + k * 40000);
		const { z, blocks } = blocksOf(data);
		expect(Math.max(...blocks.map((b) => b.maxDistance))).toBe(20000);
		expect(z.length).toBeLessThan(20000 + 120000 + 4000);
	});

	test('more than 16 383 symbols: several blocks, each decoded on its own code, all but the last not final', () => {
		const data = contentStream(6000, 3);
		const { blocks } = blocksOf(data);
		expect(blocks.filter((b) => b.type === 'dynamic').length).toBeGreaterThanOrEqual(2);
		expect(blocks.map((b) => b.final)).toEqual(blocks.map((_, k) => k === blocks.length - 1));
		// incompressible stretches between text: stored and dynamic blocks alternate in one stream
		const parts = [contentStream(1500, 4), randomBytes(40000, 8), contentStream(1500, 5), randomBytes(5000, 9)];
		const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
		parts.reduce((at, p) => (joined.set(p, at), at + p.length), 0);
		const types = new Set(blocksOf(joined).blocks.map((b) => b.type));
		expect(types.has('stored') && types.has('dynamic')).toBe(true);
	});

	test('a seeded fuzz loop: 300 inputs of mixed structure, 0 to 200 KB (mostly small)', () => {
		const r = mulberry32(2024);
		for (let k = 0; k < 300; k++) {
			// nineteen in twenty up to 4 KB (a page), one in twenty up to 200 KB
			const length = Math.floor(r() < 0.95 ? r() ** 2 * 4000 : r() * 200000);
			const data = mixed(length, 1000 + k);
			const back = inflated(deflateSync(data));
			// the input named in a failure: mixed(length, seed)
			expect({ length, seed: 1000 + k, error: back.error, differs: firstDifference(back.data, data) }).toEqual({ length, seed: 1000 + k, error: '', differs: -1 });
		}
	});
});

describe('Huffman code length limits', () => {
	/**
	 * Runs of one byte (4 … 258 long) between separator bytes: most separators common (1 … 199), a few rare ones
	 * (200 + k, Fibonacci-many times each). What reaches the coder depends on the matcher, so the tests below read
	 * the blocks to see which limit an input really needed.
	 */
	function skewed(runs: number, seed: number, rare: number): Uint8Array {
		const r = mulberry32(seed);
		const lengthBase = [4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227];
		const fib = [1, 1];
		while (fib.length < rare) fib.push(fib[fib.length - 1] + fib[fib.length - 2]);
		const separators: number[] = [];
		fib.forEach((count, k) => {
			for (let q = 0; q < count; q++) separators.push(200 + k);
		});
		while (separators.length < runs) separators.push(1 + Math.floor(r() * 199));
		for (let k = separators.length - 1; k > 0; k--) {
			const j = Math.floor(r() * (k + 1));
			[separators[k], separators[j]] = [separators[j], separators[k]];
		}
		const out: number[] = [];
		for (const s of separators) {
			const length = lengthBase[Math.floor(r() * lengthBase.length)];
			for (let q = 0; q < length; q++) out.push(0);
			out.push(s);
		}
		return Uint8Array.from(out);
	}

	test('the code-length code is cut to 7 bits where an unlimited tree would be deeper (zlib accepts it)', () => {
		const data = skewed(3000, 2, 10);
		const { blocks } = blocksOf(data);
		const dynamic = blocks.filter((b) => b.type === 'dynamic');
		expect(dynamic.some((b) => huffmanDepth(b.clCounts ?? []) > 7)).toBe(true);
		for (const b of dynamic) expect(Math.max(...(b.clLengths ?? []))).toBeLessThanOrEqual(7);
	});

	test('Fibonacci-distributed symbol counts: every code at most 15 bits, complete, and zlib accepts it', () => {
		// Literal bytes with Fibonacci counts (1, 1, 2, 3, … 1597), shuffled: the matcher takes much of them, so the
		// check is on what the blocks hold.
		const r = mulberry32(17);
		const fib = [1, 1];
		while (fib.length < 17) fib.push(fib[fib.length - 1] + fib[fib.length - 2]);
		const list: number[] = [];
		fib.forEach((count, k) => {
			for (let q = 0; q < count; q++) list.push(k * 15);
		});
		for (let k = list.length - 1; k > 0; k--) {
			const j = Math.floor(r() * (k + 1));
			[list[k], list[j]] = [list[j], list[k]];
		}
		for (const data of [Uint8Array.from(list), skewed(6000, 1, 14)]) {
			const { blocks } = blocksOf(data);
			for (const b of blocks.filter((x) => x.type === 'dynamic')) {
				for (const lengths of [b.litLengths ?? [], b.distLengths ?? []]) {
					expect(Math.max(...lengths)).toBeLessThanOrEqual(15);
					// Kraft: a complete code (zlib refuses an incomplete one of more than one symbol)
					const kraft = lengths.reduce((sum, l) => sum + (l ? 2 ** (15 - l) : 0), 0);
					expect(kraft).toBe(2 ** 15);
				}
			}
		}
	});
});

describe('Deflater reuse', () => {
	test('one Deflater over inputs big, small, big, empty: the same bytes as a fresh one each time', () => {
		const deflater = new Deflater();
		const inputs = [
			mixed(100000, 1),
			contentStream(10, 2),
			new Uint8Array(0),
			mixed(40000, 3),
			bytes('BT /F1 11 Tf 72 700 Td (Hello) Tj ET'),
			mixed(600, 4),
			randomBytes(70000, 5),
			mixed(100000, 1),
			contentStream(2000, 6),
			mixed(3000, 7),
		];
		inputs.forEach((data, k) => {
			const reused = roundTrip(data, deflater);
			expect([k, firstDifference(reused, deflateSync(data))]).toEqual([k, -1]);
		});
	});

	test('release() lets the tables and the output buffer go; the next streams come out as from a fresh Deflater', () => {
		const deflater = new Deflater();
		const held = () => {
			const d = deflater as unknown as { head: Int32Array; prev: Int32Array; lits: Uint16Array; dists: Uint16Array; out: { buf: Uint8Array } };
			return d.head.length + d.prev.length + d.lits.length + d.dists.length + d.out.buf.length;
		};
		const inputs = [mixed(100000, 1), contentStream(10, 2), randomBytes(70000, 5), new Uint8Array(0), contentStream(2000, 6)];
		inputs.forEach((data, k) => {
			roundTrip(mixed(50000, 9), deflater);
			expect(held()).toBeGreaterThan(0);
			deflater.release();
			expect(held()).toBe(0);
			expect([k, firstDifference(roundTrip(data, deflater), deflateSync(data))]).toEqual([k, -1]);
		});
	});
});
