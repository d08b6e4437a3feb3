import { MAX_INTERNED_NAMES } from '../limits';

/**
 * The PDF object model of the reader: what the parser builds and the rest reads. Strings stay bytes (their
 * meaning depends on the font or on PDFDocEncoding); names are interned, so they compare by identity.
 */

export class PdfName {
	private static readonly table = new Map<string, PdfName>();

	private constructor(readonly name: string) {}

	static of(name: string): PdfName {
		let known = PdfName.table.get(name);
		if (!known) {
			// Bounded: names come from the file, and a hostile file could otherwise grow the table without end.
			if (PdfName.table.size > MAX_INTERNED_NAMES) return new PdfName(name);
			known = new PdfName(name);
			PdfName.table.set(name, known);
		}
		return known;
	}
}

export class PdfRef {
	constructor(
		readonly num: number,
		readonly gen: number,
	) {}

	get key(): string {
		return `${this.num} ${this.gen}`;
	}
}

/**
 * A dictionary, unchangeable once built (issue 43): parsed objects are cached and shared, so a writer that changed
 * one in place would change what every later read sees. The writer derives new ones with `with`/`without`.
 */
export class PdfDict {
	private readonly map: Map<string, PdfObject>;

	/** From entries in order; a repeated key keeps its first place and its last value (as the parser reads it). */
	constructor(entries: Iterable<readonly [string, PdfObject]> = []) {
		this.map = new Map(entries);
	}

	get(key: string): PdfObject | undefined {
		return this.map.get(key);
	}

	has(key: string): boolean {
		return this.map.has(key);
	}

	/** The entries in the file's order. */
	entries(): IterableIterator<[string, PdfObject]> {
		return this.map.entries();
	}

	/** A new dictionary with `key` set: an existing key keeps its place (the writer keeps the file's order), a new one goes last. */
	with(key: string, value: PdfObject): PdfDict {
		const out = new PdfDict(this.map);
		out.map.set(key, value);
		return out;
	}

	/** A new dictionary without `keys`, the others in their order. */
	without(...keys: string[]): PdfDict {
		return new PdfDict([...this.map].filter(([key]) => !keys.includes(key)));
	}
}

/** A stream's dictionary and where its raw (still encoded) bytes are in the file or in a decoded buffer. */
export class PdfStream {
	constructor(
		readonly dict: PdfDict,
		readonly source: Uint8Array,
		readonly start: number,
		readonly length: number,
		/** The indirect object holding the stream (decryption keys and cycle checks use it). */
		public ref?: PdfRef,
	) {}

	get raw(): Uint8Array {
		return this.source.subarray(this.start, this.start + this.length);
	}
}

export type PdfObject = null | boolean | number | Uint8Array | PdfName | PdfRef | PdfDict | PdfStream | PdfObject[];

/** Why a file could not be read; `kind` lets the node phrase the advice, `message` is already plain words. */
export type PdfErrorKind = 'notPdf' | 'damaged' | 'encrypted' | 'limit' | 'unsupported';

export class PdfError extends Error {
	constructor(
		readonly kind: PdfErrorKind,
		message: string,
	) {
		super(message);
		this.name = 'PdfError';
	}
}

export const isName = (value: unknown, name?: string): value is PdfName =>
	value instanceof PdfName && (name === undefined || value.name === name);

export const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A dictionary's number entry (a direct number), or `fallback`. */
export function numberOf(dict: PdfDict | undefined, key: string, fallback: number): number {
	const value = dict?.get(key);
	return isNumber(value) ? value : fallback;
}
