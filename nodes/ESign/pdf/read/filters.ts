import { joinBytes } from '../bytes';
import { ascii85, asciiHex, lzw, runLength, tooLarge } from './decoders';
import { PdfDict, PdfError, isName, numberOf } from './objects';
import type { PdfObject } from './objects';
import { MAX_PREDICTOR_COLUMNS } from '../limits';

/**
 * Stream filters (ISO 32000-1, 7.4). Flate goes through the Web platform's DecompressionStream (no Node module:
 * the community-node rules refuse zlib); the others are small enough to write (decoders.ts). Image-only filters
 * (DCT, JPX, CCITT, JBIG2) are never needed to read text and are refused. Every decoder stops at `cap` bytes.
 */

const ABBREVIATIONS: Record<string, string> = {
	AHx: 'ASCIIHexDecode',
	A85: 'ASCII85Decode',
	LZW: 'LZWDecode',
	Fl: 'FlateDecode',
	RL: 'RunLengthDecode',
	CCF: 'CCITTFaxDecode',
	DCT: 'DCTDecode',
};

/** What a decode says besides its bytes: whether Flate data ended before its end (damaged or truncated). */
export interface DecodeReport {
	cut: boolean;
}

async function decompress(input: Uint8Array, format: 'deflate' | 'deflate-raw', cap: number) {
	const stream = new DecompressionStream(format);
	const writer = stream.writable.getWriter();
	// The write resolves as the reader drains (back-pressure), so memory stays near the cap even for a bomb.
	writer.write(input as Uint8Array<ArrayBuffer>).catch(() => undefined);
	writer.close().catch(() => undefined);
	const reader = stream.readable.getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	let overCap = false;
	let cut = false;
	try {
		for (;;) {
			const { value, done } = await reader.read();
			if (done) break;
			total += value.length;
			if (total > cap) {
				overCap = true;
				break;
			}
			chunks.push(value);
		}
	} catch (error) {
		// Damaged or truncated data: keep what was decoded, as PDF readers do. The platform's decoder is the only thing
		// that throws here (a TypeError for bad data: a property of the file, not a bug). Bytes after the end of the
		// data (an end-of-line counted in /Length) are no damage: the decoding is whole. (Read by its message, not by
		// instanceof: the platform's error may come from another realm than this code's Error.)
		cut = !/trailing junk/i.test(String((error as { message?: unknown } | undefined)?.message));
	}
	if (overCap) {
		await reader.cancel().catch(() => undefined);
		throw tooLarge(cap);
	}
	return { data: joinBytes(chunks), cut };
}

/** Flate data decoded (zlib, or raw deflate as some producers write it); `report.cut` set when it ended early. */
export async function inflate(input: Uint8Array, cap: number, report?: DecodeReport): Promise<Uint8Array> {
	const first = await decompress(input, 'deflate', cap);
	let out = first;
	// Some producers write raw deflate data without the zlib header. (decompress keeps what damaged data gave; its
	// only error is the cap's, which stops the read.)
	if (first.cut && !first.data.length) {
		const raw = await decompress(input, 'deflate-raw', cap);
		if (raw.data.length) out = raw;
	}
	if (report && out.cut) report.cut = true;
	return out.data;
}

/** PNG (10–15) and TIFF (2) predictors of Flate and LZW data (7.4.4.4). */
function unpredict(data: Uint8Array, parms: PdfDict | undefined): Uint8Array {
	const predictor = numberOf(parms, 'Predictor', 1);
	if (predictor <= 1) return data;
	const colors = Math.max(1, Math.min(32, numberOf(parms, 'Colors', 1) || 1));
	const bpc = Math.max(1, Math.min(16, numberOf(parms, 'BitsPerComponent', 8) || 8));
	const columns = Math.max(1, Math.min(MAX_PREDICTOR_COLUMNS, numberOf(parms, 'Columns', 1) || 1));
	const bpp = Math.max(1, (colors * bpc + 7) >> 3);
	const rowLength = (colors * bpc * columns + 7) >> 3;
	if (predictor === 2) {
		if (bpc !== 8) return data;
		const out = Uint8Array.from(data);
		for (let row = 0; row + rowLength <= out.length; row += rowLength) {
			for (let i = bpp; i < rowLength; i++) out[row + i] = (out[row + i] + out[row + i - bpp]) & 0xff;
		}
		return out;
	}
	const rows = Math.floor(data.length / (rowLength + 1));
	const out = new Uint8Array(rows * rowLength);
	for (let r = 0; r < rows; r++) {
		const type = data[r * (rowLength + 1)];
		const src = r * (rowLength + 1) + 1;
		const dst = r * rowLength;
		for (let i = 0; i < rowLength; i++) {
			const raw = data[src + i];
			const left = i >= bpp ? out[dst + i - bpp] : 0;
			const up = r > 0 ? out[dst - rowLength + i] : 0;
			const upLeft = r > 0 && i >= bpp ? out[dst - rowLength + i - bpp] : 0;
			let value = raw;
			if (type === 1) value = raw + left;
			else if (type === 2) value = raw + up;
			else if (type === 3) value = raw + ((left + up) >> 1);
			else if (type === 4) {
				const p = left + up - upLeft;
				const pa = Math.abs(p - left);
				const pb = Math.abs(p - up);
				const pc = Math.abs(p - upLeft);
				value = raw + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
			}
			out[dst + i] = value & 0xff;
		}
	}
	return out;
}

const list = (value: PdfObject | undefined): PdfObject[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

/**
 * Applies a stream's filters. `filter` and `parms` are already resolved (names, dictionaries). `cap` bounds every
 * step's output; `report` hears of Flate data cut short.
 */
export async function decodeFilters(data: Uint8Array, filter: PdfObject | undefined, parms: PdfObject | undefined, cap: number, report?: DecodeReport): Promise<Uint8Array> {
	const filters = list(filter);
	const parmList = list(parms);
	let out = data;
	for (let i = 0; i < filters.length; i++) {
		const entry = filters[i];
		const rawName = isName(entry) ? entry.name : undefined;
		if (rawName === undefined) throw new PdfError('damaged', 'a stream names a filter that is not a name');
		const name = ABBREVIATIONS[rawName] ?? rawName;
		const parm = parmList[i];
		const p = parm instanceof PdfDict ? parm : undefined;
		switch (name) {
			case 'FlateDecode':
				out = unpredict(await inflate(out, cap, report), p);
				break;
			case 'LZWDecode':
				out = unpredict(lzw(out, numberOf(p, 'EarlyChange', 1), cap), p);
				break;
			case 'ASCIIHexDecode':
				out = asciiHex(out);
				break;
			case 'ASCII85Decode':
				out = ascii85(out, cap);
				break;
			case 'RunLengthDecode':
				out = runLength(out, cap);
				break;
			case 'Crypt':
				break; // Identity crypt filter; the security handler decrypts before the filters
			default:
				throw new PdfError('unsupported', `a stream the text needs uses the ${rawName} filter, which is for images`);
		}
		if (out.length > cap) throw tooLarge(cap);
	}
	return out;
}
