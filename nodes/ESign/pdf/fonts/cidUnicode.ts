import { CID_UNICODE_DATA } from './cidUnicodeData';
import { ascii85 } from '../read/decoders';
import { inflate } from '../read/filters';
import { MAX_COLLECTION_BYTES, MAX_COLLECTION_CIDS, MAX_EXTRA_CODE_POINTS } from '../limits';

/**
 * The Unicode text of a CID in one of Adobe's four CJK character collections (Adobe-Japan1, -GB1, -CNS1, -Korea1),
 * for a composite font without a ToUnicode map (ISO 32000-1 9.10.2), as pdf.js reads one through Adobe's
 * Adobe-<Ordering>-UCS2 CMaps. The tables (cidUnicodeData.ts, made by scripts/make-cid-unicode.mjs from those
 * CMaps) are packed; a collection's table is unpacked once per process, on the first font that needs it, so a
 * document without such a font costs nothing.
 */

export type CidText = (cid: number) => string | undefined;

const ORDERINGS = ['Japan1', 'GB1', 'CNS1', 'Korea1'];

const tables = new Map<string, Promise<CidText>>();

/** The varints of the generator's format (see scripts/make-cid-unicode.mjs) as a CID → text lookup. */
export function readTable(bytes: Uint8Array): CidText {
	let at = 0;
	const varint = () => {
		let value = 0;
		// At most 4 bytes (28 bits): code points end at 0x10FFFF; a longer one is data this module did not write.
		for (let shift = 1; at < bytes.length && shift <= 128 ** 3; shift *= 128) {
			const byte = bytes[at++];
			value += (byte & 127) * shift;
			if (byte < 128) break;
		}
		return value;
	};
	const first = new Int32Array(MAX_COLLECTION_CIDS);
	const more = new Map<number, string>();
	let previous = 0;
	let count = 0;
	for (; at < bytes.length && count < MAX_COLLECTION_CIDS; count++) {
		const value = varint();
		if (value === 0) continue;
		const step = Math.floor((value - 1) / 2);
		const point = previous + 1 + (step % 2 ? -(step + 1) / 2 : step / 2);
		previous = point;
		if (point > 0 && point <= 0x10ffff) first[count] = point;
		if ((value - 1) % 2) {
			const extra: number[] = [];
			// A count past the data ends with it (each code point takes a byte at least).
			for (let k = varint(); k > 0 && at < bytes.length; k--) {
				const next = varint();
				if (extra.length < MAX_EXTRA_CODE_POINTS && next > 0 && next <= 0x10ffff) extra.push(next);
			}
			if (first[count]) more.set(count, String.fromCodePoint(first[count], ...extra));
		}
	}
	return (cid) => {
		if (!Number.isInteger(cid) || cid < 0 || cid >= count || !first[cid]) return undefined;
		return more.get(cid) ?? String.fromCodePoint(first[cid]);
	};
}

async function unpack(packed: string): Promise<CidText> {
	const chars = new Uint8Array(packed.length);
	for (let i = 0; i < packed.length; i++) chars[i] = packed.charCodeAt(i);
	return readTable(await inflate(ascii85(chars, MAX_COLLECTION_BYTES), MAX_COLLECTION_BYTES));
}

/**
 * The CID → text map of a font whose CIDSystemInfo names `registry` and `ordering`: undefined unless Adobe and one
 * of the four collections (Adobe-Identity and the rest have no text by CID).
 */
export async function cidText(registry: string, ordering: string): Promise<CidText | undefined> {
	if (registry !== 'Adobe' || !ORDERINGS.includes(ordering)) return undefined;
	let table = tables.get(ordering);
	if (!table) {
		table = unpack(CID_UNICODE_DATA[ordering]);
		tables.set(ordering, table);
	}
	return await table;
}
