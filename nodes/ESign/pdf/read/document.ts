import type { Decryptor } from './crypt';
import { openEncryption } from './crypt';
import { decodeFilters } from './filters';
import type { DecodeReport } from './filters';
import { Lexer, Tok } from './lexer';
import { PdfDict, PdfError, PdfRef, PdfStream, isName, isNumber, numberOf } from './objects';
import type { PdfObject } from './objects';
import { Parser } from './parser';
import { orElse } from '../recover';
import type { XrefTable } from './xref';
import { objectStartsAt, readXref, scanXref } from './xref';
import { DEFAULT_LIMITS, FORM_CACHE_BYTES, MAX_NESTING, MAX_OBJECT_STREAM_ENTRIES, MAX_REF_HOPS } from '../limits';
import type { PdfLimits } from '../limits';

// The tunable limits live with the others in limits.ts; exported here too, where the reader's callers open a document.
export { DEFAULT_LIMITS } from '../limits';
export type { PdfLimits } from '../limits';

interface ObjectStream {
	data: Uint8Array;
	offsets: number[];
	first: number;
	/** the object number of each entry, in order */
	numbers: number[];
}

/** Random access to a PDF's objects: the cross-reference table, object streams, decryption and stream data. */
export class PdfDocument {
	private readonly cache = new Map<number, PdfObject>();
	/** Object streams being read or read, of the current table (a rebuild starts a new map, see objectStream). */
	private objectStreams = new Map<number, Promise<ObjectStream>>();
	/** Decoded Form XObjects by reference, of the current table (a rebuild starts afresh), within FORM_CACHE_BYTES. */
	private forms = new Map<string, Uint8Array>();
	private formBytes = 0;
	/** Streams decoded, and whether their Flate data ran to its end (decodedWhole). */
	private readonly wholeness = new WeakMap<PdfStream, boolean>();
	private decryptor: Decryptor | undefined;
	private decoded = 0;
	interpreted = 0;

	private constructor(
		readonly data: Uint8Array,
		public xref: XrefTable,
		readonly limits: PdfLimits,
	) {}

	static async open(data: Uint8Array, limits: PdfLimits = DEFAULT_LIMITS): Promise<PdfDocument> {
		if (!isPdfHeader(data)) throw new PdfError('notPdf', 'the file is not a PDF (it does not start with "%PDF-")');
		const doc = new PdfDocument(data, { entries: new Map(), trailer: new PdfDict(), recovered: false }, limits);
		// A damaged chain is rebuilt below; a limit stops the read.
		let table: XrefTable | undefined = await orElse(
			readXref(data, (stream) => doc.decodeRaw(stream, stream.raw)),
			undefined,
		);
		if (!table || !(table.trailer.get('Root') instanceof PdfRef) || !doc.tableLooksRight(table)) {
			table = scanXref(data);
		}
		doc.xref = table;
		if (table.recovered) await doc.indexObjectStreams();
		const encrypt = await doc.resolve(table.trailer.get('Encrypt'));
		if (encrypt instanceof PdfDict) {
			const id = await doc.resolve(table.trailer.get('ID'));
			const first = Array.isArray(id) && id[0] instanceof Uint8Array ? id[0] : new Uint8Array(0);
			doc.decryptor = openEncryption(encrypt, first);
			doc.cache.clear(); // objects read before decryption was known (none but /Encrypt, which is never encrypted)
		}
		return doc;
	}

	/**
	 * A table whose first entries do not point at their objects is rebuilt (a file edited by hand, or truncated), and
	 * so is one that does not name the catalog (a /Prev that skipped the section holding it).
	 */
	private tableLooksRight(table: XrefTable): boolean {
		const root = table.trailer.get('Root');
		if (root instanceof PdfRef && !table.entries.has(root.num)) return false;
		let checked = 0;
		for (const [num, entry] of table.entries) {
			if (entry.type !== 1) continue;
			if (!objectStartsAt(this.data, entry.offset, num)) return false;
			if (++checked >= 8) break;
		}
		return true;
	}

	private async rebuild(): Promise<void> {
		const trailer = this.xref.trailer;
		this.xref = scanXref(this.data);
		if (!(this.xref.trailer.get('Root') instanceof PdfRef)) this.xref.trailer = trailer;
		this.cache.clear();
		this.objectStreams = new Map();
		this.forms = new Map();
		this.formBytes = 0;
		await this.indexObjectStreams();
	}

	/** After a scan: objects inside object streams that no direct object overrides. */
	private async indexObjectStreams(): Promise<void> {
		for (const [num, entry] of [...this.xref.entries]) {
			if (entry.type !== 1) continue;
			// A damaged object or object stream is left out of the rebuilt table; a limit stops the read.
			const object = await orElse(this.fetchNum(num), undefined);
			if (!(object instanceof PdfStream) || !isName(object.dict.get('Type'), 'ObjStm')) continue;
			const stream = await orElse(this.objectStream(num), undefined);
			stream?.offsets.forEach((_, index) => {
				const inner = stream.numbers[index];
				if (!this.xref.entries.has(inner)) this.xref.entries.set(inner, { type: 2, stream: num, index });
			});
		}
		if (!(this.xref.trailer.get('Root') instanceof PdfRef)) {
			// No trailer survived: the catalog is the object whose /Type is /Catalog.
			for (const [num] of this.xref.entries) {
				const object = await orElse(this.fetchNum(num), undefined);
				if (object instanceof PdfDict && isName(object.get('Type'), 'Catalog')) {
					this.xref.trailer = this.xref.trailer.with('Root', new PdfRef(num, 0));
					break;
				}
			}
		}
	}

	async fetch(ref: PdfRef): Promise<PdfObject> {
		return this.fetchNum(ref.num);
	}

	private async fetchNum(num: number): Promise<PdfObject> {
		const cached = this.cache.get(num);
		if (cached !== undefined) return cached;
		const entry = this.xref.entries.get(num);
		if (!entry) return null;
		let object: PdfObject;
		if (entry.type === 2) {
			const stream = await this.objectStream(entry.stream);
			const offset = stream.offsets[entry.index];
			if (offset === undefined) return null;
			const lexer = new Lexer(stream.data, stream.first + offset);
			object = new Parser(lexer, undefined).getObject() ?? null;
		} else {
			if (!objectStartsAt(this.data, entry.offset, num)) {
				if (this.xref.recovered) return null;
				await this.rebuild();
				return this.fetchNum(num);
			}
			const lexer = new Lexer(this.data, entry.offset);
			lexer.next();
			lexer.next();
			lexer.next();
			object = new Parser(lexer, (ref) => this.directLength(ref)).getObject() ?? null;
			if (object instanceof PdfStream) object.ref = new PdfRef(num, entry.gen);
			if (this.decryptor) object = this.decryptStrings(object, num, entry.gen, 0);
		}
		this.cache.set(num, object);
		return object;
	}

	/** A stream's /Length that is an indirect object at a plain offset (no object stream: that would need I/O). */
	private directLength(ref: PdfRef): number | undefined {
		const entry = this.xref.entries.get(ref.num);
		if (!entry || entry.type !== 1) return undefined;
		const lexer = new Lexer(this.data, entry.offset);
		lexer.next();
		lexer.next();
		if (lexer.next() !== Tok.Keyword || lexer.value !== 'obj') return undefined;
		return lexer.nextNumber();
	}

	private decryptStrings(object: PdfObject, num: number, gen: number, depth: number): PdfObject {
		const decryptor = this.decryptor as Decryptor;
		if (depth > MAX_NESTING) return object; // the parser nests no deeper
		if (object instanceof Uint8Array) return decryptor.string(object, num, gen);
		if (Array.isArray(object)) return object.map((item) => this.decryptStrings(item, num, gen, depth + 1));
		const dict = object instanceof PdfStream ? object.dict : object instanceof PdfDict ? object : undefined;
		if (!dict) return object;
		// A new dictionary (dictionaries do not change once built); a stream keeps its bytes, decrypted when decoded.
		const plain = new PdfDict([...dict.entries()].map(([key, value]) => [key, this.decryptStrings(value, num, gen, depth + 1)]));
		return object instanceof PdfStream ? new PdfStream(plain, object.source, object.start, object.length, object.ref) : plain;
	}

	private objectStream(num: number): Promise<ObjectStream> {
		// The map of the table this read starts with: a rebuild set off inside the read (its entry was wrong) reads the
		// stream again into the new table's map, instead of waiting for this read, which waits for the rebuild.
		const streams = this.objectStreams;
		let pending = streams.get(num);
		if (!pending) {
			// An object stream is an object at an offset (7.5.7); one listed inside an object stream would be read
			// through itself (or through another that lists it back).
			if (this.xref.entries.get(num)?.type === 2) return Promise.reject(new PdfError('damaged', `object stream ${num} is listed inside an object stream`));
			pending = (async () => {
				const stream = await this.fetchNum(num);
				if (!(stream instanceof PdfStream)) throw new PdfError('damaged', `object stream ${num} is missing`);
				const data = await this.streamData(stream, true);
				const count = Math.min(numberOf(stream.dict, 'N', 0), MAX_OBJECT_STREAM_ENTRIES);
				const first = numberOf(stream.dict, 'First', 0);
				const lexer = new Lexer(data, 0, Math.min(first, data.length));
				const numbers: number[] = [];
				const offsets: number[] = [];
				for (let i = 0; i < count; i++) {
					const inner = lexer.nextNumber();
					const offset = inner === undefined ? undefined : lexer.nextNumber();
					if (inner === undefined || offset === undefined) break;
					numbers.push(inner);
					offsets.push(offset);
				}
				return { data, offsets, first, numbers };
			})();
			streams.set(num, pending);
		}
		return pending;
	}

	/**
	 * Follows references (a bounded number of hops: a chain of references that loops resolves to null). `plain`: for
	 * an object stream's own dictionary, which may not name objects inside object streams (it would wait for itself).
	 */
	async resolve(value: PdfObject | undefined, plain = false): Promise<PdfObject | undefined> {
		let current = value;
		for (let hops = 0; current instanceof PdfRef; hops++) {
			if (hops >= MAX_REF_HOPS) return null;
			if (plain && this.xref.entries.get(current.num)?.type === 2) throw new PdfError('damaged', 'an object stream names an object inside an object stream');
			current = await this.fetch(current);
		}
		return current;
	}

	async get(dict: PdfDict | undefined, key: string): Promise<PdfObject | undefined> {
		return dict ? this.resolve(dict.get(key)) : undefined;
	}

	/** A dictionary's number entry, direct or by reference, or `fallback` when it is missing or not a number. */
	async number<F extends number | undefined>(dict: PdfDict | undefined, key: string, fallback: F): Promise<number | F> {
		const value = await this.get(dict, key);
		return isNumber(value) ? value : fallback;
	}

	async dict(dict: PdfDict | undefined, key: string): Promise<PdfDict | undefined> {
		const value = await this.get(dict, key);
		return value instanceof PdfDict ? value : value instanceof PdfStream ? value.dict : undefined;
	}

	/** A stream's decoded bytes: decrypted, then through its filters, within the limits. */
	async streamData(stream: PdfStream, plain = false): Promise<Uint8Array> {
		let raw = stream.raw;
		if (this.decryptor && stream.ref && !isName(stream.dict.get('Type'), 'XRef')) {
			raw = this.decryptor.stream(raw, stream.ref.num, stream.ref.gen);
		}
		return this.decodeRaw(stream, raw, plain);
	}

	/** A Form XObject's decoded content: decoded once per document while the cache has room, then reused. */
	async formData(stream: PdfStream): Promise<Uint8Array> {
		const key = stream.ref?.key;
		const cached = key === undefined ? undefined : this.forms.get(key);
		if (cached) return cached;
		const data = await this.streamData(stream);
		if (key !== undefined && this.formBytes + data.length <= FORM_CACHE_BYTES) {
			this.forms.set(key, data);
			this.formBytes += data.length;
		}
		return data;
	}

	private async decodeRaw(stream: PdfStream, raw: Uint8Array, plain = false): Promise<Uint8Array> {
		const resolve = (value: PdfObject | undefined) => this.resolve(value, plain);
		const filter = await resolve(stream.dict.get('Filter') ?? stream.dict.get('F'));
		const parms = await resolve(stream.dict.get('DecodeParms') ?? stream.dict.get('DP'));
		const resolvedParms = Array.isArray(parms) ? await Promise.all(parms.map(resolve)) : parms;
		const filters = Array.isArray(filter) ? await Promise.all(filter.map(resolve)) : filter;
		const cap = Math.min(this.limits.streamBytes, this.limits.totalBytes - this.decoded);
		if (cap <= 0) throw new PdfError('limit', `the PDF's streams expand to more than ${Math.round(this.limits.totalBytes / 1048576)} MB in all; the reader stops there`);
		const report: DecodeReport = { cut: false };
		const out = await decodeFilters(raw, filters as PdfObject, resolvedParms as PdfObject, cap, report);
		this.decoded += out.length;
		this.wholeness.set(stream, !report.cut);
		return out;
	}

	/**
	 * Whether a stream's data decoded to its end. The reader keeps what a damaged Flate stream gives (as viewers do);
	 * a writer must not write that cut-off content back as the whole. Known from the stream's read, else decoded now.
	 */
	async decodedWhole(stream: PdfStream): Promise<boolean> {
		if (!this.wholeness.has(stream)) await this.streamData(stream);
		return this.wholeness.get(stream) === true;
	}

	get rootRef(): PdfObject | undefined {
		return this.xref.trailer.get('Root');
	}
}

/** "%PDF-" within the first 1024 bytes (some producers put junk before it, and readers accept that). */
export function isPdfHeader(data: Uint8Array): boolean {
	const head = String.fromCharCode(...data.subarray(0, 1024));
	return head.includes('%PDF-');
}
