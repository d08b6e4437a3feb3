import { adler32 } from './adler32';
import type { PdfDocument } from '../read/document';
import { MAX_SIGNATURE_CHECK_DEPTH, MAX_SIGNATURE_CHECK_FIELDS } from '../limits';
import { PdfDict, PdfRef, PdfStream, isName, isNumber } from '../read/objects';
import type { PdfObject } from '../read/objects';
import type { Original } from './recompress';

/**
 * Whether an incremental update is safe for a file, and for a stream whose content the update rewrites. An
 * encrypted file would need its new objects encrypted; a signed file would show its signature as changed; a file
 * whose cross-reference the reader rebuilt has offsets an update's /Prev would point into wrongly.
 */

/** Why the file must go up unchanged, or undefined when an update is safe. */
export async function updateBlocker(doc: PdfDocument): Promise<string | undefined> {
	if (doc.xref.trailer.get('Encrypt') !== undefined) return 'the PDF is encrypted, and this node does not write encrypted files';
	if (doc.xref.recovered) return 'the PDF is damaged (its cross-reference table had to be rebuilt), so an update could not be appended safely';
	const catalog = await doc.resolve(doc.rootRef);
	if (!(catalog instanceof PdfDict)) return 'the PDF has no document catalog';
	if ((await doc.get(catalog, 'Perms')) instanceof PdfDict) return 'the PDF carries a certification or usage-rights signature (/Perms), which any change would break';
	const form = await doc.dict(catalog, 'AcroForm');
	const flags = await doc.get(form, 'SigFlags');
	if (isNumber(flags) && (flags & 3) !== 0) return 'the PDF is digitally signed (its form says so), and any change would show the signature as changed';
	if (await hasSignedField(doc, await doc.get(form, 'Fields'))) return 'the PDF is digitally signed, and any change would show the signature as changed';
	return undefined;
}

/** A /Sig field with a value anywhere in the field tree (bounded; a tree that loops is read once per node). */
async function hasSignedField(doc: PdfDocument, fields: PdfObject | undefined): Promise<boolean> {
	const seen = new Set<string>();
	let count = 0;
	const visit = async (list: PdfObject | undefined, depth: number): Promise<boolean> => {
		if (!Array.isArray(list) || depth > MAX_SIGNATURE_CHECK_DEPTH) return false;
		for (const entry of list) {
			if (++count > MAX_SIGNATURE_CHECK_FIELDS) return false;
			if (entry instanceof PdfRef) {
				if (seen.has(entry.key)) continue;
				seen.add(entry.key);
			}
			const field = await doc.resolve(entry);
			if (!(field instanceof PdfDict)) continue;
			const value = await doc.get(field, 'V');
			if (isName(await doc.get(field, 'FT'), 'Sig') && value !== undefined && value !== null) return true;
			if (await visit(await doc.get(field, 'Kids'), depth + 1)) return true;
		}
		return false;
	};
	return visit(await doc.resolve(fields), 0);
}

/**
 * Whether a content stream decoded to its end. The reader keeps what a damaged Flate stream gives (as viewers do);
 * rewriting it would write the cut-off content as the whole. Other filters end where their data ends. A zlib stream
 * whose decoding is known is asked wholeFlate() first (no second inflate); this inflates it again.
 */
export async function decodesFully(doc: PdfDocument, stream: PdfStream): Promise<boolean> {
	const filter = await doc.resolve(stream.dict.get('Filter'));
	const first = Array.isArray(filter) ? await doc.resolve(filter[0]) : filter;
	if (!isName(first, 'FlateDecode') && !isName(first, 'Fl')) return true;
	if (await inflates(stream.raw, 'deflate')) return true;
	return inflates(stream.raw, 'deflate-raw');
}

/**
 * The stream as recompress.ts takes it, when it is a zlib stream and nothing else (no other filter, no predictor, no
 * file) whose trailer holds the Adler-32 of `data`, its decoding: a zlib stream ends with the checksum of all its data
 * (RFC 1950), so a match there says data is its whole decoding without inflating it again. Undefined otherwise.
 */
export async function wholeFlate(doc: PdfDocument, stream: PdfStream, data: Uint8Array): Promise<Original | undefined> {
	const dict = stream.dict;
	if (dict.get('DecodeParms') !== undefined || dict.get('DP') !== undefined || dict.get('F') !== undefined) return undefined;
	let filter = await doc.resolve(dict.get('Filter'));
	if (Array.isArray(filter) && filter.length === 1) filter = await doc.resolve(filter[0]);
	if (!isName(filter, 'FlateDecode') && !isName(filter, 'Fl')) return undefined;
	const raw = stream.raw;
	const adler = trailerAdler(raw, data);
	return adler === undefined ? undefined : { raw, data, adler };
}

/** The Adler-32 of `data` when it is among the last bytes of `raw` (an end-of-line or two may follow it). */
export function trailerAdler(raw: Uint8Array, data: Uint8Array): number | undefined {
	const sum = adler32(data);
	const want = [sum >>> 24, (sum >>> 16) & 255, (sum >>> 8) & 255, sum & 255];
	for (let end = raw.length; end >= Math.max(4, raw.length - 8); end--) {
		if (raw[end - 4] === want[0] && raw[end - 3] === want[1] && raw[end - 2] === want[2] && raw[end - 1] === want[3]) return sum;
	}
	return undefined;
}

async function inflates(raw: Uint8Array, format: 'deflate' | 'deflate-raw'): Promise<boolean> {
	const reader = new Blob([raw as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream(format)).getReader();
	try {
		for (;;) if ((await reader.read()).done) return true;
	} catch (error) {
		// Bytes after the end of the data (an end-of-line counted in /Length) are not damage: the content is whole.
		return error instanceof Error && /trailing junk/i.test(error.message);
	}
}
