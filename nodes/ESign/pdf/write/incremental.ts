import { Lexer, Tok } from '../read/lexer';
import { PdfDict, PdfError, PdfName, isNumber } from '../read/objects';
import type { PdfObject } from '../read/objects';
import { formatObject } from './serialize';
import { lastStartxref } from '../read/xref';
import { joinBytes } from '../bytes';

const encoder = new TextEncoder();

/** A change to a page's dictionary, applied on top of what the rest of the update made of it. */
export type PageEdit = (page: PdfDict) => PdfDict;

/** Objects for an update that take their numbers from it (`allocate`), and edits of pages by reference key. */
export type Additions = (allocate: () => number) => Promise<{ objects: UpdateObject[]; pages: Map<string, PageEdit> }>;

/**
 * An incremental update (ISO 32000-1, 7.5.6): the original bytes unchanged in front, then the new or redefined
 * objects, a cross-reference section of the same kind as the file's last one (a classic table, or an xref stream for
 * a file whose last section is a stream; a hybrid file's last section is a classic table), and a trailer with /Prev.
 */

export interface UpdateObject {
	num: number;
	gen: number;
	/** a dictionary or other direct object; with `stream`, the stream's dictionary (its /Length is set here) */
	value: PdfObject;
	/** the stream's bytes, already encoded as the dictionary's /Filter says */
	stream?: Uint8Array;
}

/** Where the last cross-reference section is (the offset the last "startxref" names) and its kind. */
export function lastSection(data: Uint8Array): { offset: number; stream: boolean } {
	const offset = lastStartxref(data);
	if (offset !== undefined && offset >= 0 && offset < data.length) {
		const lexer = new Lexer(data, offset);
		const tok = lexer.next();
		if (tok === Tok.Keyword && lexer.value === 'xref') return { offset, stream: false };
		if (tok === Tok.Number) return { offset, stream: true };
	}
	throw new PdfError('damaged', 'the PDF\'s last "startxref" does not point at a cross-reference section');
}

/** The first object number free for new objects: past the trailer's /Size and every number the file lists. */
export function firstFreeNumber(trailer: PdfDict, listed: Iterable<number>): number {
	const size = trailer.get('Size');
	let next = isNumber(size) ? Math.floor(size) : 1;
	for (const num of listed) if (num >= next) next = num + 1;
	return Math.max(next, 1);
}

/**
 * The update alone (`objects`, then the cross-reference section and trailer), as its pieces in order, written to
 * follow `original` (its offsets count from the original's first byte): the streams' data are the objects' own
 * arrays and the original is not copied, so the update is never held twice. `trailer` is the file's (its /Root,
 * /Info and /ID are kept); `size`: the first free object number after the new objects.
 */
export function updateOf(original: Uint8Array, trailer: PdfDict, objects: UpdateObject[], size: number): Uint8Array[] {
	return updateChunks(original, trailer, objects, size);
}

const lengthOf = (pieces: Uint8Array[]) => pieces.reduce((n, piece) => n + piece.length, 0);

/** A rewrite's upload as its parts: the original unchanged, then (when the file changed) the update. */
export interface UploadParts {
	/** the original bytes: the very object the reader was given, never a copy */
	original: Uint8Array;
	/** the incremental update's pieces in order, to follow `original` (undefined: the file is unchanged, the upload is
	 * the original) */
	update?: Uint8Array[];
	/** the upload's length: the original's plus the update's */
	length: number;
	/**
	 * The whole upload in one buffer (the original itself when unchanged), joined on first access and kept: for tests
	 * and scripts. It copies the original: the node's upload path uses the parts.
	 */
	readonly bytes: Uint8Array;
}

/**
 * What a removal answers (tags: tagRemover.ts; form widgets: widgetRemoval.ts; both in one update): the upload as its
 * parts, and what was removed or left with why.
 */
export interface Removal extends UploadParts {
	/** false: no update, the upload is the original */
	changed: boolean;
	/** why nothing was written for the whole file (encrypted, signed, damaged …), in plain words */
	reason?: string;
	/** tags whose glyphs are no longer drawn, or widgets no page lists any more */
	removed: number;
	/** what was left in place, each with why (`text`: the tag, or the field's name) */
	skipped: Array<{ page: number; text: string; reason: string }>;
}

/**
 * `fields` with the upload's parts (`original`, `update`, `length`) and `bytes`, a getter that joins them on first
 * access. `bytes` is not enumerable: a spread or a JSON of the result does not join the file.
 */
export function withParts<T extends object>(fields: T, original: Uint8Array, update?: Uint8Array[]): T & UploadParts {
	let whole: Uint8Array | undefined;
	const out = Object.assign(fields, { original, update, length: original.length + (update ? lengthOf(update) : 0) });
	return Object.defineProperty(out, 'bytes', { enumerable: false, configurable: true, get: () => (whole ??= update ? joinBytes([original, ...update]) : original) }) as T & UploadParts;
}

/** The update's pieces, in order: the text between two streams' data encoded as one piece. */
function updateChunks(original: Uint8Array, trailer: PdfDict, objects: UpdateObject[], size: number): Uint8Array[] {
	const last = lastSection(original);
	const chunks: Uint8Array[] = [];
	let at = original.length;
	let text = '';
	// The text is ASCII (serialize.ts): a char is a byte, so its length counts the offset.
	const put = (chunk: Uint8Array | string) => {
		if (typeof chunk === 'string') text += chunk;
		else {
			if (text) chunks.push(encoder.encode(text));
			text = '';
			chunks.push(chunk);
		}
		at += chunk.length;
	};
	// The original may end without an end-of-line after %%EOF: the first object must start on its own line.
	put('\n');
	const offsets = new Map<number, { offset: number; gen: number }>();
	for (const object of objects) {
		offsets.set(object.num, { offset: at, gen: object.gen });
		if (object.stream && object.value instanceof PdfDict) {
			put(`${object.num} ${object.gen} obj\n${formatObject(object.value.with('Length', object.stream.length))}\nstream\n`);
			put(object.stream);
			put('\nendstream\nendobj\n');
		} else put(`${object.num} ${object.gen} obj\n${formatObject(object.value)}\nendobj\n`);
	}
	const kept: [string, PdfObject][] = [];
	for (const key of ['Root', 'Info', 'ID']) {
		const value = trailer.get(key);
		if (value !== undefined) kept.push([key, value]);
	}
	const tail = new PdfDict([...kept, ['Prev', last.offset]]);
	const xrefAt = at;
	if (last.stream) {
		// The xref stream lists itself too; rows of type 1, a 4-byte offset and a 2-byte generation, uncompressed.
		const self = size;
		offsets.set(self, { offset: xrefAt, gen: 0 });
		const { index, rows } = sections(offsets);
		const data = new Uint8Array(rows.length * 7);
		rows.forEach(([, entry], i) => {
			const o = entry.offset;
			data.set([1, (o >>> 24) & 255, (o >>> 16) & 255, (o >>> 8) & 255, o & 255, (entry.gen >> 8) & 255, entry.gen & 255], i * 7);
		});
		const stream = new PdfDict([...tail.entries(), ['Type', PdfName.of('XRef')], ['Size', self + 1], ['W', [1, 4, 2]], ['Index', index], ['Length', data.length]]);
		put(`${self} 0 obj\n${formatObject(stream)}\nstream\n`);
		put(data);
		put('\nendstream\nendobj\n');
	} else {
		const { index, rows } = sections(offsets);
		let table = 'xref\n';
		let row = 0;
		for (let i = 0; i < index.length; i += 2) {
			table += `${index[i]} ${index[i + 1]}\n`;
			for (let k = 0; k < index[i + 1]; k++, row++) {
				const entry = rows[row][1];
				table += `${String(entry.offset).padStart(10, '0')} ${String(entry.gen).padStart(5, '0')} n\r\n`;
			}
		}
		put(`${table}trailer\n${formatObject(tail.with('Size', size))}\n`);
	}
	put(`startxref\n${xrefAt}\n%%EOF\n`);
	chunks.push(encoder.encode(text));
	return chunks;
}

/** Subsections of consecutive object numbers: [first, count, …] and the rows in that order. */
function sections(offsets: Map<number, { offset: number; gen: number }>) {
	const rows = [...offsets].sort((a, b) => a[0] - b[0]);
	const index: number[] = [];
	for (const [num] of rows) {
		const n = index.length;
		if (n && index[n - 2] + index[n - 1] === num) index[n - 1]++;
		else index.push(num, 1);
	}
	return { index, rows };
}
