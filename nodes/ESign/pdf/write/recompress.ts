import { adler32, adler32Before, adler32Combine } from './adler32';
import type { Deflater } from './deflate';
import { Edits } from './spliceEdits';
import { BitReader, DIST_BASE, DIST_EXTRA, FAST_MASK, HuffmanCode, LENGTH_BASE, LENGTH_EXTRA, fixedCodes } from './inflateBits';

/**
 * A rewritten content stream deflated from its original's own: the original zlib stream is decoded symbol by symbol
 * (RFC 1951). Up to the first edited operator (on a page, most of it: tags sit in its signature block, drawn last)
 * its bits are copied as they are, the block they end in closed with its own end code; after that every literal
 * and match goes to the deflater's blocks as it is (a match whose source an edit moved gets its new distance), and
 * an edit's new bytes are searched against the KB before them. The LZ77 search over the page, most of a deflate's
 * time, is not done again, and the output is about as small as the producer's own compression.
 * Anything unexpected (another wrapping, a preset dictionary, a symbol that does not make the decoded bytes, data
 * after the last block cut short) gives undefined: the caller deflates the new bytes afresh.
 */

/** One edit in old and new bytes: [start, end) of the original became `length` bytes at start + (the shift so far). */
export interface Splice {
	start: number;
	end: number;
	length: number;
}

/** A zlib stream, its whole decoding and that decoding's Adler-32 (the stream's trailer, checked against it). */
export interface Original {
	raw: Uint8Array;
	data: Uint8Array;
	adler: number;
}

/**
 * zlib-wrapped deflate of `edited`, the bytes the original's data became by `splices` (sorted, not overlapping),
 * reusing the original's own stream. Undefined when its raw does not decode to exactly its data.
 */
export function recompress(deflater: Deflater, { raw, data, adler }: Original, splices: readonly Splice[], edited: Uint8Array): Uint8Array | undefined {
	if (raw.length < 6) return undefined;
	const cmf = raw[0];
	const flg = raw[1];
	// Deflate with at most a 32 KB window, a valid check, no preset dictionary (RFC 1950, 2.2).
	if ((cmf & 15) !== 8 || cmf >> 4 > 7 || ((cmf << 8) | flg) % 31 !== 0 || flg & 0x20) return undefined;
	deflater.begin(edited);
	const cut = splices.length ? splices[0].start : data.length;
	let parsed: boolean;
	try {
		parsed = parse(READER.reset(raw, 2), data, cut, EDITS.reset(deflater, data, splices), deflater);
	} finally {
		// The stream's buffers are not held by the shared reader and state past this call, whatever happened.
		READER.reset(NOTHING, 0);
		EDITS.reset(undefined, NOTHING, []);
	}
	if (!parsed) {
		deflater.cancel();
		return undefined;
	}
	// The deflater checked every symbol after the cut against `edited` (a parse that was not data's gives undefined
	// there); the bits before it are the original's own, which decode to data's first bytes whatever this reader is.
	// The checksum: the first bytes' from data's (known), with the new bytes after them; not a pass over all of it.
	const before = adler32Before(adler, adler32(data.subarray(cut)), data.length - cut);
	return deflater.end(adler32Combine(before, adler32(edited.subarray(cut)), edited.length - cut));
}

/**
 * Decodes raw's symbols (after its 2-byte header). Those that make the bytes before `cut` (the first edit's start)
 * are only counted, and their bits go out as they are; from the first symbol that reaches the cut on, each goes to
 * `edits`. False at anything not a whole stream of `data`: each literal is compared with its byte, and each match
 * copied with the bytes it copies, here before the cut (the bits copied decode to exactly data's first bytes, even
 * if raw were not data's stream) and by the deflater or `edits` after it.
 */
function parse(reader: BitReader, data: Uint8Array, cut: number, edits: Edits, deflater: Deflater): boolean {
	const n = data.length;
	const raw = reader.raw;
	const [lit, dist] = TABLES;
	let p = 0;
	let copying = true;
	// The copy ends at `bit`: inside a block (`code`: its own end code closes it), or at a block's start or end.
	// `header`: where the block's header is, its first bit the "last block" mark, taken off when set (more follows).
	const stop = (bit: number, header: number, final: number, code?: HuffmanCode) => {
		deflater.copyBits(raw, bit, final ? header : -1, p);
		if (code) deflater.bits(code.eob, code.eobLength);
		copying = false;
	};
	for (let final = 0; !final; ) {
		const header = reader.position();
		final = reader.bits(1);
		const type = reader.bits(2);
		if (type === 0) {
			const at = reader.alignedByte();
			if (at + 4 > raw.length) return false;
			const length = raw[at] | (raw[at + 1] << 8);
			if ((raw[at + 2] | (raw[at + 3] << 8)) !== (~length & 0xffff) || at + 4 + length > raw.length || p + length > n) return false;
			for (let i = 0; i < length; i++) if (raw[at + 4 + i] !== data[p + i]) return false;
			if (copying && p + length > cut) stop(header, header, 0);
			if (copying) p += length;
			else for (let i = 0; i < length; i++) edits.literal(p++);
			reader.at = at + 4 + length;
			if (copying && final) stop(reader.position(), header, final);
			continue;
		}
		if (type === 3) return false;
		const litCode = type === 1 ? fixedCodes()[0] : lit;
		const distCode = type === 1 ? fixedCodes()[1] : dist;
		if (type === 2 && !reader.dynamicCodes(lit, dist)) return false;
		const litFast = litCode.fast;
		const distFast = distCode.fast;
		// The block's symbols, with the reader's state in locals (the hot loop); a field is at most 16 bits, and
		// at least 16 are held before each.
		let { buf, count, at } = reader;
		const size = raw.length;
		for (;;) {
			const symbolBit = at * 8 - count;
			while (count < 16) {
				buf |= (at < size ? raw[at] : 0) << count;
				at++;
				count += 8;
			}
			let symbol = litFast[buf & FAST_MASK];
			if (symbol > 0) {
				buf >>= symbol & 15;
				count -= symbol & 15;
				symbol >>= 4;
			} else {
				if (symbol < 0) return false;
				Object.assign(reader, { buf, count, at });
				symbol = reader.slow(litCode);
				({ buf, count, at } = reader);
			}
			if (symbol < 256) {
				if (symbol < 0 || p >= n || data[p] !== symbol) return false;
				if (copying) {
					if (p < cut) {
						p++;
						continue;
					}
					stop(symbolBit, header, final, litCode);
				}
				edits.literal(p++);
				continue;
			}
			if (symbol === 256) break;
			const code = symbol - 257;
			if (code >= 29) return false;
			while (count < 16) {
				buf |= (at < size ? raw[at] : 0) << count;
				at++;
				count += 8;
			}
			const length = LENGTH_BASE[code] + (buf & ((1 << LENGTH_EXTRA[code]) - 1));
			buf >>= LENGTH_EXTRA[code];
			count -= LENGTH_EXTRA[code];
			while (count < 16) {
				buf |= (at < size ? raw[at] : 0) << count;
				at++;
				count += 8;
			}
			let dcode = distFast[buf & FAST_MASK];
			if (dcode > 0) {
				buf >>= dcode & 15;
				count -= dcode & 15;
				dcode >>= 4;
			} else {
				if (dcode < 0) return false;
				Object.assign(reader, { buf, count, at });
				dcode = reader.slow(distCode);
				({ buf, count, at } = reader);
			}
			if (dcode < 0 || dcode >= 30) return false;
			while (count < 16) {
				buf |= (at < size ? raw[at] : 0) << count;
				at++;
				count += 8;
			}
			const distance = DIST_BASE[dcode] + (buf & ((1 << DIST_EXTRA[dcode]) - 1));
			buf >>= DIST_EXTRA[dcode];
			count -= DIST_EXTRA[dcode];
			if (distance > p || p + length > n) return false;
			if (copying) {
				if (p + length <= cut) {
					for (let i = p; i < p + length; i++) if (data[i] !== data[i - distance]) return false;
					p += length;
					continue;
				}
				stop(symbolBit, header, final, litCode);
			}
			if (!edits.match(p, length, distance)) return false;
			p += length;
		}
		Object.assign(reader, { buf, count, at });
		if (reader.overrun()) return false;
		// The whole stream before the cut (an edit at its very end): its last block is not the last any more.
		if (copying && final) stop(reader.position(), header, final);
	}
	if (p !== n || reader.overrun()) return false;
	edits.finish();
	return true;
}

/**
 * parse() is synchronous, so one of each serves every call: a dynamic block's codes (rebuilt for each block), the bit
 * reader and the splices' state (reset for each stream, emptied after it). Objects made per stream would each be
 * garbage by the next full collection, and V8 then drops their shapes, and with them the optimized code of every
 * function that saw them (its `--trace-deopt`: "embedded weak objects cleared"): the next removal ran interpreted
 * again. With these kept, the 300 pages' recompress after a forced GC: 29–35 ms → 17–20 ms.
 */
const TABLES = [new HuffmanCode(), new HuffmanCode()];
const NOTHING = new Uint8Array(0);
const READER = new BitReader(NOTHING, 0);
const EDITS = new Edits();
