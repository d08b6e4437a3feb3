// recompress.ts: a rewritten content stream deflated from its original's own stream (its bits copied up to the first
// edit, its LZ77 parse written again after it; called as the node calls it, for a stream whose trailer holds data's
// Adler-32: recompressAsNode). The originals are zlib's
// own streams (every level and strategy, small windows), the Deflater's, and streams written here symbol by symbol
// (codes longer than the decoder's 10-bit table, a lone distance code, none at all, a distance of 32 768). Every
// output is inflated by Node's zlib and compared with the edited bytes; anything recompress cannot follow must give
// undefined (the caller deflates afresh), never a stream of other bytes, and leave the Deflater usable.
import { adler32 } from '../../../nodes/ESign/pdf/write/adler32';
import { Deflater } from '../../../nodes/ESign/pdf/write/deflate';
import { applyEdits, splicesOf } from '../../../nodes/ESign/pdf/write/opRewrite';
import type { Splice } from '../../../nodes/ESign/pdf/write/recompress';
import { recompress } from '../../../nodes/ESign/pdf/write/recompress';
import { trailerAdler } from '../../../nodes/ESign/pdf/write/safety';
import type { ZlibOptions } from '../../support/deflateTrace';
import { firstDifference, inflate, inflated, inflatePrefix, traceBlocks, zlibDeflate } from '../../support/deflateTrace';
import { readPdfFixture } from '../../support/pdfjs';
import { mulberry32 } from '../../support/prng';

/**
 * recompress as the node calls it: only for a stream whose trailer holds the Adler-32 of `data` (streamEdit.ts's
 * wholeFlate, safety.ts's trailerAdler: the page's decoding is whole), with that checksum.
 */
function recompressAsNode(deflater: Deflater, raw: Uint8Array, data: Uint8Array, splices: readonly Splice[], edited: Uint8Array): Uint8Array | undefined {
	const adler = trailerAdler(raw, data);
	return adler === undefined ? undefined : recompress(deflater, { raw, data, adler }, splices, edited);
}

const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

function randomBytes(length: number, seed: number, alphabet = 256): Uint8Array {
	const r = mulberry32(seed);
	const out = new Uint8Array(length);
	for (let i = 0; i < length; i++) out[i] = Math.floor(r() * alphabet);
	return out;
}

const WORDS = ['Some', 'words', 'Signature', 'Date', 'Name', 'Agreement', 'Party', 'hereby', 'terms', '{{sign_1}}', '[[date]]'];

/** A page's content stream: operator lines such as `BT /F1 10 Tf 72 700 Td (Some words) Tj ET`. */
function contentStream(length: number, seed: number): Uint8Array {
	const r = mulberry32(seed);
	const pick = <T>(list: T[]) => list[Math.floor(r() * list.length)];
	let text = '';
	for (let k = 0; text.length < length; k++) {
		const x = 72 + Math.floor(r() * 400);
		const y = 700 - Math.floor(r() * 650);
		text += `BT /F${1 + Math.floor(r() * 3)} ${9 + Math.floor(r() * 4)} Tf ${x} ${y} Td (${pick(WORDS)} ${pick(WORDS)}) Tj ET\n`;
		if (r() < 0.15) text += `q 0.5 0 0 0.5 ${x} ${y} cm /Im${k % 7} Do Q\n`;
		if (r() < 0.1) text += `0.${Math.floor(r() * 10)} g ${x} ${y} 120 14 re f\n`;
	}
	return bytes(text.slice(0, length));
}

/** Runs of one byte (matches at distance 1 overlapping themselves), with short phrases between. */
function runs(length: number, seed: number): Uint8Array {
	const r = mulberry32(seed);
	const out = new Uint8Array(length);
	for (let at = 0; at < length; ) {
		const size = Math.min(length - at, 1 + Math.floor(r() ** 2 * 2000));
		if (r() < 0.7) out.fill(Math.floor(r() * 4) * 32, at, at + size);
		else for (let k = 0; k < size; k++) out[at + k] = 48 + (k % 7);
		at += size;
	}
	return out;
}

/** `data` with each splice's [start, end) replaced by its new bytes. */
function applySplices(data: Uint8Array, splices: ReadonlyArray<Splice & { bytes: Uint8Array }>): Uint8Array {
	const out = new Uint8Array(data.length + splices.reduce((n, s) => n + s.length - (s.end - s.start), 0));
	let from = 0;
	let at = 0;
	for (const s of splices) {
		out.set(data.subarray(from, s.start), at);
		at += s.start - from;
		out.set(s.bytes, at);
		at += s.length;
		from = s.end;
	}
	out.set(data.subarray(from), at);
	return out;
}

/** New bytes for a splice: an operator line (repeating the content around), noise, or a copy of some of `data`. */
function newBytes(r: () => number, length: number, data: Uint8Array): Uint8Array {
	const kind = Math.floor(r() * 3);
	if (kind === 0) return contentStream(length, Math.floor(r() * 1e9));
	if (kind === 1 || data.length === 0) return randomBytes(length, Math.floor(r() * 1e9));
	const out = new Uint8Array(length);
	const from = Math.floor(r() * data.length);
	for (let k = 0; k < length; k++) out[k] = data[(from + k) % data.length];
	return out;
}

/** Seeded sorted non-overlapping splices over n bytes: often adjacent, empty (old range or new bytes), at 0 or at n. */
function randomSplices(r: () => number, data: Uint8Array, count: number, maxOld: number, maxNew: number) {
	const n = data.length;
	const splices: Array<Splice & { bytes: Uint8Array }> = [];
	let pos = r() < 0.2 ? 0 : Math.floor(r() * (n + 1));
	for (let k = 0; k < count && pos <= n; k++) {
		const gap = r() < 0.3 ? 0 : Math.floor(r() ** 2 * (n - pos + 1));
		const start = Math.min(n, pos + gap);
		const old = r() < 0.25 ? 0 : r() < 0.1 ? n - start : Math.floor(r() * Math.min(maxOld, n - start + 1));
		const length = r() < 0.25 ? 0 : Math.floor(r() * maxNew);
		const end = start + old;
		splices.push({ start, end, length, bytes: newBytes(r, length, data) });
		pos = end;
	}
	return splices;
}

/** recompress's output, which must not be undefined and must inflate to `edited`. Returns it. */
function recompressed(deflater: Deflater, raw: Uint8Array, data: Uint8Array, splices: readonly Splice[], edited: Uint8Array, label: unknown = ''): Uint8Array {
	const out = recompressAsNode(deflater, raw, data, splices, edited);
	expect([label, out === undefined]).toEqual([label, false]);
	const back = inflated(out as Uint8Array);
	expect([label, back.error, firstDifference(back.data, edited)]).toEqual([label, '', -1]);
	return out as Uint8Array;
}

/** recompress's output where it may refuse: undefined, or a stream zlib inflates to `edited`. Whether it refused. */
function refusedOrRight(deflater: Deflater, raw: Uint8Array, data: Uint8Array, splices: readonly Splice[], edited: Uint8Array, label: unknown): boolean {
	const out = recompressAsNode(deflater, raw, data, splices, edited);
	if (out === undefined) return true;
	const back = inflated(out);
	expect([label, back.error, firstDifference(back.data, edited)]).toEqual([label, '', -1]);
	return false;
}

/** After a refusal: the same Deflater recompresses a valid stream, and deflates, correctly. */
function stillWorks(deflater: Deflater) {
	const data = contentStream(3000, 99);
	const raw = zlibDeflate(data, { level: 6 });
	const splices = [{ start: 1000, end: 1040, length: 5, bytes: bytes('() Tj') }];
	recompressed(deflater, raw, data, splices, applySplices(data, splices), 'reuse');
	expect(firstDifference(inflate(deflater.deflate(data)), data)).toBe(-1);
}

// ── Streams written symbol by symbol (RFC 1951): codes and distances zlib itself does not write ──

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
const FIXED_LIT = [...Array(144).fill(8), ...Array(112).fill(9), ...Array(24).fill(7), ...Array(8).fill(8)];
const FIXED_DIST = Array(30).fill(5);

/** Bits from each byte's lowest up; Huffman codes from their highest bit (3.1.1). */
class BitSink {
	readonly out: number[] = [];
	private acc = 0;
	private n = 0;

	bits(value: number, count: number): void {
		for (let i = 0; i < count; i++) {
			this.acc |= ((value >> i) & 1) << this.n;
			if (++this.n === 8) this.align();
		}
	}

	code(code: number, length: number): void {
		for (let i = length - 1; i >= 0; i--) this.bits((code >> i) & 1, 1);
	}

	align(): void {
		if (this.n) this.out.push(this.acc);
		this.acc = 0;
		this.n = 0;
	}
}

/** The canonical codes of code lengths (3.2.2). */
function canonical(lengths: number[]): number[] {
	const count = Array(16).fill(0);
	for (const l of lengths) if (l) count[l]++;
	const next = Array(16).fill(0);
	for (let l = 2; l < 16; l++) next[l] = (next[l - 1] + count[l - 1]) << 1;
	return lengths.map((l) => (l ? next[l]++ : 0));
}

type Symbol = number | [length: number, distance: number];

/**
 * One block of `symbols` (bytes, or [length, distance]) in fixed codes or in the dynamic code of these lengths;
 * `reserved`: as block type 3, with no code lengths sent (the symbols in the code of the block before, if it was
 * these lengths).
 */
function writeBlock(sink: BitSink, final: boolean, litLengths: number[] | 'fixed', distLengths: number[], symbols: Symbol[], reserved = false): void {
	const fixed = litLengths === 'fixed';
	const lit = fixed ? FIXED_LIT : litLengths;
	const dist = fixed ? FIXED_DIST : distLengths;
	sink.bits(final ? 1 : 0, 1);
	sink.bits(reserved ? 3 : fixed ? 1 : 2, 2);
	if (!fixed && !reserved) {
		// The code lengths themselves in a 4-bit code for 0 … 15 (no repeat codes): HCLEN = 19.
		sink.bits(lit.length - 257, 5);
		sink.bits(dist.length - 1, 5);
		sink.bits(15, 4);
		for (const symbol of CL_ORDER) sink.bits(symbol < 16 ? 4 : 0, 3);
		for (const l of [...lit, ...dist]) sink.code(l, 4);
	}
	const litCodes = canonical(lit);
	const distCodes = canonical(dist);
	const put = (codes: number[], lengths: number[], symbol: number) => {
		if (!lengths[symbol]) throw new Error(`symbol ${symbol} has no code`);
		sink.code(codes[symbol], lengths[symbol]);
	};
	for (const s of symbols) {
		if (typeof s === 'number') {
			put(litCodes, lit, s);
			continue;
		}
		const [length, distance] = s;
		const lc = length === 258 ? 28 : LENGTH_BASE.findIndex((base, k) => length >= base && length < LENGTH_BASE[k + 1]);
		put(litCodes, lit, 257 + lc);
		sink.bits(length - LENGTH_BASE[lc], LENGTH_EXTRA[lc]);
		const dc = DIST_BASE.findIndex((base, k) => distance >= base && (k === 29 || distance < DIST_BASE[k + 1]));
		put(distCodes, dist, dc);
		sink.bits(distance - DIST_BASE[dc], DIST_EXTRA[dc]);
	}
	put(litCodes, lit, 256);
}

/** The bytes symbols decode to. */
function decode(symbols: Symbol[]): Uint8Array {
	const out: number[] = [];
	for (const s of symbols) {
		if (typeof s === 'number') out.push(s);
		else for (let k = 0; k < s[0]; k++) out.push(out[out.length - s[1]]);
	}
	return Uint8Array.from(out);
}

/** A zlib stream of the given blocks (each written by `write`), with the Adler-32 of `data`. */
function zlibOf(data: Uint8Array, write: (sink: BitSink) => void): Uint8Array {
	const sink = new BitSink();
	write(sink);
	sink.align();
	const adler = adler32(data);
	return Uint8Array.from([0x78, 0x01, ...sink.out, adler >>> 24, (adler >>> 16) & 255, (adler >>> 8) & 255, adler & 255]);
}

/** Symbols over the given literals, lengths and distance codes, weighted, every one valid at its position. */
function randomSymbols(r: () => number, count: number, literals: number[], lengths: number[], distCodes: number[]): Symbol[] {
	const symbols: Symbol[] = [];
	let made = 0;
	for (let k = 0; k < count; k++) {
		const dc = distCodes.length ? distCodes[Math.floor(r() * distCodes.length)] : -1;
		const distance = dc < 0 ? 0 : DIST_BASE[dc] + Math.floor(r() * 2 ** DIST_EXTRA[dc]);
		if (dc >= 0 && distance <= made && r() < 0.4) {
			const length = lengths[Math.floor(r() * lengths.length)];
			symbols.push([length, distance]);
			made += length;
		} else {
			symbols.push(literals[Math.floor(r() * literals.length)]);
			made++;
		}
	}
	return symbols;
}

// ── zlib's own streams ──

const ZLIB_VARIANTS: ZlibOptions[] = [
	{ level: 0 },
	{ level: 1 },
	{ level: 6 },
	{ level: 9 },
	{ level: 6, strategy: 'fixed' },
	{ level: 9, strategy: 'huffman' },
	{ level: 6, strategy: 'rle' },
	{ level: 6, strategy: 'filtered' },
	...[9, 10, 11, 12, 13, 14, 15].map((windowBits) => ({ level: 9, windowBits })),
	{ level: 6, memLevel: 1 },
	{ level: 9, memLevel: 9 },
	{ level: 1, windowBits: 9, memLevel: 1 },
];

const INPUTS: Array<[string, Uint8Array]> = [
	['empty', new Uint8Array(0)],
	['one byte', bytes('q')],
	['a content line', bytes('BT /F1 10 Tf 72 700 Td (Some words) Tj ET\n')],
	['content 5 KB', contentStream(5000, 1)],
	['content 80 KB', contentStream(80000, 2)],
	['random 3 KB', randomBytes(3000, 3)],
	['random 70 KB', randomBytes(70000, 4)],
	['runs 20 KB', runs(20000, 5)],
	['one byte × 100 000', new Uint8Array(100000).fill(0x20)],
	['a 20 000-byte phrase × 4 (distances of 20 000)', (() => {
		const phrase = randomBytes(20000, 6);
		const out = new Uint8Array(80000);
		for (let k = 0; k < 4; k++) out.set(phrase, k * 20000);
		return out;
	})()],
];

describe('no splices: the original parse written again inflates to the data', () => {
	test.each(INPUTS.map(([name, data]) => [name, data] as const))('%s, every zlib variant', (_, data) => {
		const deflater = new Deflater();
		for (const options of ZLIB_VARIANTS) {
			const raw = zlibDeflate(data, options);
			recompressed(deflater, raw, data, [], data, options);
		}
	});

	test('zlib reached the paths named: stored, fixed and dynamic blocks, several blocks, small windows, long distances', () => {
		const types = (data: Uint8Array, options: ZlibOptions) => traceBlocks(zlibDeflate(data, options)).blocks;
		expect(new Set(types(contentStream(5000, 1), { level: 0 }).map((b) => b.type))).toEqual(new Set(['stored']));
		expect(new Set(types(contentStream(5000, 1), { level: 6, strategy: 'fixed' }).map((b) => b.type))).toEqual(new Set(['fixed']));
		expect(types(contentStream(80000, 2), { level: 6, memLevel: 1 }).filter((b) => b.type === 'dynamic').length).toBeGreaterThanOrEqual(2);
		expect(types(randomBytes(70000, 4), { level: 0 }).length).toBeGreaterThanOrEqual(2);
		const phrase = INPUTS[INPUTS.length - 1][1];
		expect(Math.max(...types(phrase, { level: 9 }).map((b) => b.maxDistance))).toBe(20000);
		expect(Math.max(...types(phrase, { level: 9, windowBits: 9 }).map((b) => b.maxDistance))).toBeLessThanOrEqual(512);
		const runBlocks = types(new Uint8Array(100000).fill(0x20), { level: 6, strategy: 'rle' });
		expect(runBlocks.every((b) => b.maxDistance <= 1)).toBe(true);
	});

	test("the Deflater's own streams (stored, fixed, dynamic blocks; a distance of exactly 32 768)", () => {
		const deflater = new Deflater();
		const noise = randomBytes(32768, 7);
		const at32768 = new Uint8Array(32768 + 2000);
		at32768.set(noise);
		at32768.set(noise.subarray(0, 2000), 32768);
		for (const data of [...INPUTS.map(([, d]) => d), at32768]) recompressed(deflater, new Deflater().deflate(data), data, [], data);
		const raw = new Deflater().deflate(at32768);
		expect(Math.max(...traceBlocks(raw).blocks.map((b) => b.maxDistance))).toBe(32768);
		expect(Math.max(...traceBlocks(recompressed(deflater, raw, at32768, [], at32768)).blocks.map((b) => b.maxDistance))).toBe(32768);
	});
});

describe('splices', () => {
	const data = contentStream(6000, 10);
	const raw = zlibDeflate(data, { level: 6 });
	const n = data.length;
	const deflater = new Deflater();
	const spliced = (list: Array<[start: number, end: number, text: string]>) => {
		const splices = list.map(([start, end, text]) => ({ start, end, length: text.length, bytes: bytes(text) }));
		return recompressed(deflater, raw, data, splices, applySplices(data, splices), list);
	};

	test('at the start, at the very end, covering the end, over everything', () => {
		spliced([[0, 0, 'q ']]);
		spliced([[0, 40, '']]);
		spliced([[0, 40, 'BT /F1 10 Tf 72 700 Td (Some words) Tj ET']]);
		spliced([[n, n, '\nQ']]);
		spliced([[n - 30, n, '']]);
		spliced([[n - 30, n, ' () Tj ET']]);
		spliced([[0, n, '']]);
		spliced([[0, n, 'BT ET']]);
		spliced([[0, 0, 'q '], [n, n, ' Q']]);
	});

	test('adjacent splices, empty old ranges, deletions, several at one position', () => {
		spliced([[100, 200, 'x'], [200, 300, 'yy'], [300, 300, 'zzz'], [300, 400, '']]);
		spliced([[500, 500, 'inserted'], [500, 500, ' and again'], [500, 510, '']]);
		spliced([[10, 20, ''], [30, 40, ''], [50, 60, ''], [n - 1, n, ''], [n, n, '']]);
		spliced([[2000, 2000, '']]);
		spliced([[2000, 2100, '']]);
	});

	test('the data made much longer or much shorter', () => {
		const long = contentStream(50000, 11);
		const splice = { start: 3000, end: 3000, length: long.length, bytes: long };
		recompressed(deflater, raw, data, [splice], applySplices(data, [splice]));
		const cut = [{ start: 100, end: n - 100, length: 3, bytes: bytes('BT ') }];
		const out = recompressed(deflater, raw, data, cut, applySplices(data, cut));
		// the original's bits up to the cut (its first block's code tables with them: 232 bytes when measured), then 103
		expect(out.length).toBeLessThan(300);
	});

	test('the edits applyEdits and splicesOf make (operators replaced on lines of their own)', () => {
		const text = String.fromCharCode(...data);
		const edits: Array<{ start: number; end: number; text: string }> = [];
		for (const m of text.matchAll(/\((Signature|Date) [^)]*\) Tj/g)) edits.push({ start: m.index, end: m.index + m[0].length, text: m[1] === 'Date' ? '() Tj' : '' });
		expect(edits.length).toBeGreaterThan(10);
		const edited = applyEdits(data, edits);
		recompressed(deflater, raw, data, splicesOf(edits), edited);
		// a few tags on a page, as a removal finds them: about as small as the producer's stream
		const few = edits.filter((_, k) => k % 8 === 0);
		expect(few.length).toBeGreaterThanOrEqual(2);
		const out = recompressed(deflater, raw, data, splicesOf(few), applyEdits(data, few));
		// (the first at a tenth of the stream: the rest written again with a code of its own, 1.10 × when measured)
		expect(out.length).toBeLessThan(raw.length * 1.15);
	});

	test('matches whose source lies before a splice get their new distance; across a splice, literals', () => {
		// a 400-byte random phrase twice, 100 random bytes between: the second copy is two matches 500 back (258 + 142)
		const phrase = randomBytes(400, 12);
		const twice = new Uint8Array(900);
		twice.set(phrase);
		twice.set(randomBytes(100, 13), 400);
		twice.set(phrase, 500);
		// written here so the matches start exactly at 500 and 758 (zlib's parse may take a literal first)
		const symbols: Symbol[] = [...twice.subarray(0, 500), [258, 500], [142, 500]];
		const original = zlibOf(twice, (sink) => writeBlock(sink, true, 'fixed', [], symbols));
		expect(firstDifference(inflate(original), twice)).toBe(-1);
		// [splices, whether the copy is still all matches (else some of it is literals)]
		const cases: Array<[Array<[number, number, string]>, boolean]> = [
			[[[450, 450, 'x'.repeat(77)]], true], // between source and target: moved
			[[[420, 480, '']], true], // a deletion between them: moved nearer
			[[[420, 500, '']], true], // a deletion ending where the target starts
			[[[450, 500, 'xyz']], true], // replaced up to the target's start
			[[[400, 500, '']], true], // the gap removed: the source ends at the splice's start, the target starts at its end
			[[[0, 0, 'q '], [450, 460, 'Q'], [900, 900, 'at the end']], true],
			[[[200, 210, 'BT ET']], false], // inside the first match's source: its bytes as literals
			[[[600, 600, 'inside the target']], false],
		];
		for (const [list, matched] of cases) {
			const splices = list.map(([start, end, text]) => ({ start, end, length: text.length, bytes: bytes(text) }));
			const out = recompressed(deflater, original, twice, splices, applySplices(twice, splices), list);
			const added = splices.reduce((sum, sp) => sum + sp.length, 0);
			const size = out.length - 500 - added;
			expect([list, matched ? size < 60 : size > 150]).toEqual([list, true]);
		}
	});

	test('a moved distance past 32 768 is written as literals; at exactly 32 768 still a match', () => {
		// 16 000 random bytes twice: zlib matches the second copy 16 000 back; the splice between grows that.
		const copy = randomBytes(16000, 14);
		const twice = new Uint8Array(32000);
		twice.set(copy);
		twice.set(copy, 16000);
		const original = zlibDeflate(twice, { level: 9 });
		expect(original.length).toBeLessThan(16000 + 1000);
		const sizes = [16768, 16769, 40000].map((length) => {
			const splices = [{ start: 16000, end: 16000, length, bytes: randomBytes(length, length) }];
			const out = recompressed(deflater, original, twice, splices, applySplices(twice, splices), length);
			return { out, maxDistance: Math.max(...traceBlocks(out).blocks.map((b) => b.maxDistance)) };
		});
		expect(sizes[0].maxDistance).toBe(32768);
		expect(sizes[0].out.length).toBeLessThan(16000 + 16768 + 1000);
		expect(sizes[1].maxDistance).toBeLessThanOrEqual(32768);
		expect(sizes[1].out.length).toBeGreaterThan(2 * 16000 + 16769);
		expect(sizes[2].out.length).toBeGreaterThan(2 * 16000 + 40000);
		// a deletion: the distance shrinks
		const cut = [{ start: 15000, end: 15500, length: 0, bytes: new Uint8Array(0) }];
		expect(recompressed(deflater, original, twice, cut, applySplices(twice, cut)).length).toBeLessThan(16000 + 1000);
	});

	test('a stream written with a match of 258 at distance 32 768 (past zlib’s own reach), spliced around it', () => {
		const r = mulberry32(15);
		const symbols: Symbol[] = [];
		for (let k = 0; k < 32768; k++) symbols.push(Math.floor(r() * 256));
		symbols.push([258, 32768], [258, 32768], [3, 1]);
		const far = decode(symbols);
		const original = zlibOf(far, (sink) => writeBlock(sink, true, 'fixed', [], symbols));
		expect(firstDifference(inflate(original), far)).toBe(-1);
		for (const list of [[], [[33000, 33000, 'tail']], [[100, 100, 'x']], [[100, 101, '']], [[0, 10, '']]] as Array<Array<[number, number, string]>>) {
			const splices = list.map(([start, end, text]) => ({ start, end, length: text.length, bytes: bytes(text) }));
			recompressed(deflater, original, far, splices, applySplices(far, splices), list);
		}
	});

	test('seeded random splices: 300 cases over zlib variants and inputs', () => {
		const r = mulberry32(2025);
		const reused = new Deflater();
		let refused = 0;
		for (let k = 0; k < 300; k++) {
			const big = r() < 0.04;
			const length = Math.floor(big ? 40000 + r() * 40000 : r() ** 2 * 5000);
			const kind = Math.floor(r() * 4);
			const seed = 5000 + k;
			const input = kind <= 1 ? contentStream(length, seed) : kind === 2 ? runs(length, seed) : randomBytes(length, seed, r() < 0.5 ? 256 : 4);
			const options = ZLIB_VARIANTS[Math.floor(r() * ZLIB_VARIANTS.length)];
			const original = zlibDeflate(input, options);
			const splices = randomSplices(r, input, Math.floor(r() * 7), big ? 3000 : 300, r() < 0.1 ? 5000 : 200);
			const edited = applySplices(input, splices);
			const out = recompressAsNode(reused, original, input, splices, edited);
			if (out === undefined) refused++;
			const back = out ? inflated(out) : { data: new Uint8Array(0), error: 'undefined' };
			const label = { k, length, kind, options, splices: splices.map(({ start, end, length: l }) => [start, end, l]) };
			expect([label, back.error, firstDifference(back.data, edited)]).toEqual([label, '', -1]);
		}
		expect(refused).toBe(0);
	});
});

describe('the decoder on code lengths zlib rarely or never writes', () => {
	test('zlib’s dynamic codes longer than 10 bits (Fibonacci symbol counts, Huffman only): the bit-at-a-time path', () => {
		const r = mulberry32(16);
		const fib = [1, 1];
		while (fib.length < 22) fib.push(fib[fib.length - 1] + fib[fib.length - 2]);
		const list: number[] = [];
		fib.forEach((count, k) => {
			for (let q = 0; q < count; q++) list.push(40 + k);
		});
		for (let k = list.length - 1; k > 0; k--) {
			const j = Math.floor(r() * (k + 1));
			[list[k], list[j]] = [list[j], list[k]];
		}
		const data = Uint8Array.from(list);
		const raw = zlibDeflate(data, { level: 9, strategy: 'huffman' });
		const { blocks } = traceBlocks(raw);
		// some literal whose code is longer than 10 bits is used
		expect(blocks.some((b) => (b.litLengths ?? []).some((l, s) => l > 10 && (b.litCounts ?? [])[s] > 0))).toBe(true);
		const deflater = new Deflater();
		recompressed(deflater, raw, data, [], data);
		const splices = [{ start: 5, end: 500, length: 3, bytes: bytes('abc') }, { start: 9000, end: 9000, length: 2, bytes: bytes('zz') }];
		recompressed(deflater, raw, data, splices, applySplices(data, splices));
	});

	test('literal, length and distance codes of 11 to 15 bits, written here (complete codes of lengths 1 … 15)', () => {
		// 16 symbols with lengths 1, 2, … 13, 14, 15, 15: a complete code, three of them past the 10-bit table
		const ladder = [...Array.from({ length: 13 }, (_, k) => k + 1), 14, 15, 15];
		const lit = Array(286).fill(0);
		const literals = Array.from({ length: 12 }, (_, k) => 97 + k);
		// the longest codes: a literal, the end of block and two lengths
		const order = [...literals.slice(0, 11), 257 + 3, 257 + 9, literals[11], 256, 257 + 28];
		order.forEach((symbol, k) => (lit[symbol] = ladder[k]));
		const dist = Array(30).fill(0);
		for (let dc = 0; dc < 16; dc++) dist[dc] = ladder[dc];
		const r = mulberry32(17);
		// the rare (long-coded) symbols often: each block uses all of them
		const symbols = randomSymbols(r, 3000, literals, [6, 13, 14, 258], Array.from({ length: 16 }, (_, k) => k));
		const data = decode(symbols);
		const half = 1500;
		const raw = zlibOf(data, (sink) => {
			writeBlock(sink, false, lit, dist, symbols.slice(0, half));
			writeBlock(sink, true, lit, dist, symbols.slice(half));
		});
		expect(firstDifference(inflate(raw), data)).toBe(-1);
		const used = traceBlocks(raw).blocks[0];
		expect(used.litCounts?.[256 + 1 + 28]).toBeGreaterThan(0);
		expect(used.litCounts?.[literals[11]]).toBeGreaterThan(0);
		expect((used.distCounts ?? []).slice(13, 16).every((c) => c > 0)).toBe(true);
		const deflater = new Deflater();
		recompressed(deflater, raw, data, [], data);
		const r2 = mulberry32(18);
		for (let k = 0; k < 30; k++) {
			const splices = randomSplices(r2, data, 1 + Math.floor(r2() * 4), 200, 50);
			recompressed(deflater, raw, data, splices, applySplices(data, splices), k);
		}
	});

	test('a single distance code (an incomplete code, as zlib allows), and a block with no distance codes at all', () => {
		const r = mulberry32(19);
		const lit = Array(286).fill(0);
		const literals = [32, 66, 84, 69];
		for (const s of literals) lit[s] = 3;
		lit[256] = 3;
		lit[257 + 0] = 3; // length 3
		lit[257 + 10] = 3; // 15 … 16
		lit[257 + 28] = 3; // 258
		const lone = Array(5).fill(0);
		lone[4] = 1; // distances 5 … 6 only: one code of one bit
		const withMatches = randomSymbols(r, 800, literals, [3, 15, 16, 258], [4]);
		const none = [0]; // HDIST 1, its length 0: no distance code
		const literalsOnly = randomSymbols(r, 500, literals, [], []);
		const deflater = new Deflater();
		for (const [dist, symbols] of [[lone, withMatches], [none, literalsOnly]] as const) {
			const data = decode(symbols);
			const raw = zlibOf(data, (sink) => writeBlock(sink, true, lit, [...dist], symbols));
			expect(firstDifference(inflate(raw), data)).toBe(-1);
			recompressed(deflater, raw, data, [], data);
			const splices = [{ start: 100, end: 120, length: 4, bytes: bytes('BT E') }, { start: data.length, end: data.length, length: 1, bytes: bytes('\n') }];
			recompressed(deflater, raw, data, splices, applySplices(data, splices));
		}
	});

	test('an incomplete code zlib refuses is refused too (its bits would be copied as they are)', () => {
		const r = mulberry32(23);
		const literals = [32, 66, 84, 69];
		const deflater = new Deflater();
		// five literal/length codes of three bits (5/8 of the code space), and a complete one with two distance
		// codes of two bits (half of it): zlib takes neither; a lone one-bit distance code it does take (above)
		const incompleteLit = Array(286).fill(0);
		for (const s of [...literals, 256]) incompleteLit[s] = 3;
		const completeLit = Array(286).fill(0);
		for (const s of [...literals, 256, 257, 258]) completeLit[s] = 3;
		completeLit[259] = 3;
		const twoOfFour = [2, 2, 0, 0, 0];
		for (const [lit, dist, lengths, codes] of [
			[incompleteLit, [1], [], [] as number[]],
			[completeLit, twoOfFour, [3, 4], [0, 1]],
		] as const) {
			const symbols = randomSymbols(r, 300, literals, [...lengths], [...codes]);
			const data = decode(symbols);
			const raw = zlibOf(data, (sink) => writeBlock(sink, true, [...lit], [...dist], symbols));
			expect(() => inflate(raw)).toThrow();
			expect(recompressAsNode(deflater, raw, data, [], data)).toBeUndefined();
			expect(recompressAsNode(deflater, raw, data, [{ start: 10, end: 20, length: 0 }], applySplices(data, [{ start: 10, end: 20, length: 0, bytes: new Uint8Array(0) }]))).toBeUndefined();
		}
		stillWorks(deflater);
	});

	test('zlib’s streams with no matches (Huffman only on noise) and a single distance in use (runs, RLE)', () => {
		const deflater = new Deflater();
		for (const [data, options] of [
			[randomBytes(5000, 20, 20), { level: 9, strategy: 'huffman' }],
			[runs(5000, 21), { level: 6, strategy: 'rle' }],
		] as const) {
			const raw = zlibDeflate(data, options);
			expect(traceBlocks(raw).blocks.some((b) => b.type === 'dynamic')).toBe(true);
			recompressed(deflater, raw, data, [], data);
			const splices = [{ start: 2500, end: 2600, length: 0, bytes: new Uint8Array(0) }];
			recompressed(deflater, raw, data, splices, applySplices(data, splices));
		}
	});
});

describe('refusals: undefined, never another stream, and the Deflater still works after', () => {
	const data = contentStream(4000, 30);
	const raw = zlibDeflate(data, { level: 6 });
	const deflater = new Deflater();
	const refused = (candidate: Uint8Array, d = data, label: unknown = '') => {
		expect([label, recompressAsNode(deflater, candidate, d, [], d) === undefined]).toEqual([label, true]);
		stillWorks(deflater);
	};

	test('not a zlib stream: another method, a window past 32 KB, a bad check, a preset dictionary, too short', () => {
		const withHeader = (cmf: number, flg: number) => Uint8Array.from([cmf, flg, ...raw.subarray(2)]);
		const check = (cmf: number, flg: number) => (flg & ~31) | (31 - ((cmf * 256 + (flg & ~31)) % 31)) % 31;
		refused(withHeader(0x77, check(0x77, 0x9c)), data, 'CM 7');
		refused(withHeader(0x88, check(0x88, 0x9c)), data, 'CINFO 8');
		refused(withHeader(0x78, 0x9d), data, 'bad check');
		refused(withHeader(0x78, check(0x78, 0xbc)), data, 'FDICT set (check valid)');
		const dictionary = contentStream(500, 31);
		const withDictionary = zlibDeflate(data, { level: 6, dictionary });
		expect(withDictionary[1] & 0x20).toBe(0x20);
		refused(withDictionary, data, "zlib's FDICT stream");
		refused(raw.subarray(2), data, 'no header');
		refused(new Uint8Array(0), new Uint8Array(0), 'empty');
		refused(Uint8Array.from([0x78, 0x9c, 0x03, 0x00]), new Uint8Array(0), 'no trailer');
		// a header zlib accepts with a smaller window is read (windowBits 9 … 15)
		recompressed(deflater, withHeader(0x18, check(0x18, 0x9c)), data, [], data);
	});

	test('cut short anywhere before its last block ends (and the Adler-32 not needed to say so)', () => {
		for (const original of [raw, zlibDeflate(data, { level: 0 }), zlibDeflate(data, { level: 6, strategy: 'fixed' }), zlibDeflate(new Uint8Array(0))]) {
			const end = traceBlocks(original).trailerAt;
			const cuts = new Set([0, 1, 2, 3, 4, 5, 6, end - 2, end - 1]);
			for (let cut = 7; cut < end; cut += Math.max(1, Math.floor(end / 60))) cuts.add(cut);
			for (const cut of cuts) if (cut >= 0 && cut < end) expect([cut, recompressAsNode(deflater, original.subarray(0, cut), data, [], data)]).toEqual([cut, undefined]);
			stillWorks(deflater);
			// cut inside the trailer: the data is all there, so a stream that inflates to it, or undefined
			const d = original.length > 20 ? data : new Uint8Array(0);
			for (let cut = end; cut <= original.length; cut++) refusedOrRight(deflater, original.subarray(0, cut), d, [], d, cut);
		}
	});

	test('data that is not what the stream decodes to: one byte altered, one more, one fewer', () => {
		const r = mulberry32(32);
		for (const original of [raw, zlibDeflate(data, { level: 0 }), zlibDeflate(data, { level: 9, strategy: 'huffman' })]) {
			for (let k = 0; k < 20; k++) {
				const altered = data.slice();
				const at = k === 0 ? 0 : k === 1 ? data.length - 1 : Math.floor(r() * data.length);
				altered[at] ^= 1 + Math.floor(r() * 255);
				refused(original, altered, { altered: at });
				// inside a splice's old range too (bytes the edit drops: the stream still does not decode to them)
				const splices = [{ start: Math.max(0, at - 5), end: Math.min(data.length, at + 5), length: 2, bytes: bytes('BT') }];
				expect(recompressAsNode(deflater, original, altered, splices, applySplices(altered, splices))).toBeUndefined();
			}
			refused(original, Uint8Array.from([...data, 0x0a]), 'one more');
			refused(original, data.subarray(0, data.length - 1), 'one fewer');
			refused(original, data.subarray(1), 'first byte missing');
		}
	});

	test('block type 3, after a valid block too', () => {
		const reserved = zlibOf(new Uint8Array(0), (sink) => sink.bits(1 | (3 << 1), 3));
		refused(reserved, new Uint8Array(0), 'alone');
		const symbols = Array.from(bytes('BT /F1 10 Tf ET'));
		const first = decode(symbols);
		const after = zlibOf(first, (sink) => {
			writeBlock(sink, false, 'fixed', [], symbols);
			sink.bits(1 | (3 << 1), 3);
		});
		refused(after, first, 'after a fixed block');
		// after a dynamic block (all bytes 9 bits, the end of block and length 3 two bits: a complete code), followed
		// by symbols in that block's code (as if type 3 were "the same code again")
		const lit = Array(286).fill(0);
		for (let b = 0; b < 256; b++) lit[b] = 9;
		lit[256] = 2;
		lit[257] = 2;
		const dynamic = decode([...symbols, ...symbols]);
		const again = zlibOf(dynamic, (sink) => {
			writeBlock(sink, false, lit, [1], symbols);
			writeBlock(sink, true, lit, [1], symbols, true);
		});
		expect(() => inflate(again)).toThrow(/invalid block type/);
		refused(again, dynamic, 'after a dynamic block, in its code');
		// fixed length codes 286, 287 and distance codes 30, 31 (written by hand: in the fixed code, never valid)
		for (const [lit, dist] of [[286, -1], [287, -1], [257, 30], [257, 31]]) {
			const bad = zlibOf(first, (sink) => {
				sink.bits(1 | (1 << 1), 3);
				for (const b of symbols) sink.code(b < 144 ? 0x30 + b : 0x190 + b - 144, b < 144 ? 8 : 9);
				sink.code(0xc0 + lit - 280, 8);
				if (dist >= 0) sink.code(dist, 5);
				sink.bits(0, 20);
			});
			refused(bad, first, { lit, dist });
		}
	});

	test('a dynamic block with more than 286 literal/length codes or 30 distance codes, or an over-subscribed code', () => {
		const symbols = Array.from(bytes('BT /F1 10 Tf 72 700 Td (Some words) Tj ET'));
		const plain = decode(symbols);
		const lit = (count: number) => Array.from({ length: count }, (_, s) => (s < 256 ? 9 : s < 258 ? 2 : 0));
		// (the valid one, then each fault: zlib refuses each too)
		const stream = (litLengths: number[], distLengths: number[]) => zlibOf(plain, (sink) => writeBlock(sink, true, litLengths, distLengths, symbols));
		recompressed(deflater, stream(lit(286), [1]), plain, [], plain);
		const faults: Array<[string, Uint8Array]> = [
			['HLIT 287', stream(lit(287), [1])],
			['HLIT 288', stream(lit(288), [1])],
			['HDIST 31', stream(lit(286), [...Array(30).fill(0), 1])],
			['HDIST 32', stream(lit(286), [...Array(31).fill(0), 1])],
			['distance code over-subscribed', stream(lit(286), [1, 1, 1])],
			['literal code over-subscribed', stream(lit(286).map((l, s) => (s === 300 ? 0 : s === 65 ? 8 : l)), [1])],
		];
		for (const [name, raw] of faults) {
			expect([name, inflated(raw).error === '']).toEqual([name, false]);
			refused(raw, plain, name);
		}
	});

	test('a stored block whose NLEN is not the complement of LEN', () => {
		for (const at of [0, 1, 2, 3]) {
			const stored = zlibDeflate(data, { level: 0 });
			// the first block's LEN and NLEN follow the 3-bit header's byte
			stored[3 + at] ^= at < 2 ? 0 : 0x10;
			if (at < 2) stored[5] ^= 0x01;
			expect([at, inflated(stored).error === '']).toEqual([at, false]);
			refused(stored, data, { at });
		}
	});

	test('data one byte longer than the stream decodes to, with a splice at the end that could cover the gap', () => {
		const longer = Uint8Array.from([...data, 0x0a]);
		const splices = [{ start: longer.length, end: longer.length, length: 2, bytes: bytes('Q\n') }];
		expect(recompressAsNode(deflater, raw, longer, splices, applySplices(longer, splices))).toBeUndefined();
		const shorter = data.subarray(0, data.length - 1);
		const cut = [{ start: shorter.length - 10, end: shorter.length, length: 0, bytes: new Uint8Array(0) }];
		expect(recompressAsNode(deflater, raw, shorter, cut, applySplices(shorter, cut))).toBeUndefined();
		stillWorks(deflater);
	});

	test('corrupted at random bit positions: every output inflates to the edited bytes, most are refused', () => {
		const r = mulberry32(33);
		const originals = [raw, zlibDeflate(data, { level: 0 }), zlibDeflate(data, { level: 6, strategy: 'fixed' }), zlibDeflate(contentStream(1500, 34), { level: 9, windowBits: 9 })];
		let refusals = 0;
		let trials = 0;
		for (const original of originals) {
			const d = inflate(original);
			for (let k = 0; k < 150; k++) {
				const corrupt = original.slice();
				const flips = 1 + Math.floor(r() * 3);
				for (let f = 0; f < flips; f++) {
					const bit = Math.floor(r() * (corrupt.length - 4) * 8);
					corrupt[bit >> 3] ^= 1 << (bit & 7);
				}
				const splices = r() < 0.5 ? [] : [{ start: 100, end: 150, length: 4, bytes: bytes('BT E') }];
				const edited = applySplices(d, splices);
				trials++;
				if (refusedOrRight(deflater, corrupt, d, splices, edited, { k, flips })) refusals++;
			}
		}
		expect(refusals).toBeGreaterThan(trials / 2);
		stillWorks(deflater);
	});
});

describe('blocks of the output', () => {
	test('16 383 symbols make one block, not a full one and an empty one; 16 384 make two', () => {
		const deflater = new Deflater();
		for (const [length, blocks] of [[16383, 1], [16384, 2], [3 * 16383, 3]]) {
			const data = randomBytes(length, length);
			// an empty splice at the start: every symbol written again by the Deflater (none copied)
			const out = recompressed(deflater, zlibDeflate(data, { level: 0 }), data, [{ start: 0, end: 0, length: 0 }], data, length);
			expect([length, traceBlocks(out).blocks.length]).toEqual([length, blocks]);
		}
	});
});

describe('size on the 300-page contract', () => {
	test('recompress with no splices: at most 1 % over the producer’s streams, smaller than a fresh deflate', () => {
		const pdf = new Uint8Array(readPdfFixture('contract-300-pages.pdf').bytes ?? []);
		const text = Buffer.from(pdf).toString('latin1');
		const deflater = new Deflater();
		let rawTotal = 0;
		let recompressedTotal = 0;
		let deflatedTotal = 0;
		let streams = 0;
		for (const m of text.matchAll(/stream\r?\n/g)) {
			const start = m.index + m[0].length;
			const end = text.indexOf('endstream', start);
			let prefix: { data: Uint8Array; length: number };
			try {
				prefix = inflatePrefix(pdf.subarray(start, end));
			} catch {
				continue;
			}
			// page content: the text-showing operators (this producer writes `<…>Tj` and `[…]TJ`)
			if (!/\bT[jJ]\b|[>\])]T[jJ]/.test(Buffer.from(prefix.data).toString('latin1'))) continue;
			const raw = pdf.subarray(start, start + prefix.length);
			streams++;
			rawTotal += raw.length;
			recompressedTotal += recompressed(deflater, raw, prefix.data, [], prefix.data, streams).length;
			deflatedTotal += deflater.deflate(prefix.data).length;
		}
		expect(streams).toBeGreaterThanOrEqual(300);
		expect(recompressedTotal).toBeLessThanOrEqual(rawTotal * 1.01);
		expect(recompressedTotal).toBeLessThan(deflatedTotal);
	});
});
