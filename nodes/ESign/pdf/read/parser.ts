import { wordAt } from './chars';
import { Lexer, Tok, isWhite } from './lexer';
import { PdfDict, PdfError, PdfName, PdfRef, PdfStream, isNumber } from './objects';
import type { PdfObject } from './objects';
import { MAX_NESTING } from '../limits';


const ENDSTREAM = 'endstream';

/** Where "endstream" starts, searching from `from`; -1 when absent. */
export function findEndstream(data: Uint8Array, from: number, end = data.length): number {
	for (let pos = from; pos + ENDSTREAM.length <= end; pos++) {
		if (data[pos] === 101 /* e */ && wordAt(data, pos, ENDSTREAM)) return pos;
	}
	return -1;
}

/**
 * Builds objects from tokens. `lengthOf` resolves an indirect /Length; a length that does not end at
 * "endstream" is replaced by a search for it, as readers do with damaged files.
 */
export class Parser {
	private tok: Tok = Tok.EOF;
	private peeked = false;

	constructor(
		readonly lexer: Lexer,
		private readonly lengthOf?: (ref: PdfRef) => number | undefined,
		private readonly allowRefs = true,
	) {}

	private nextTok(): Tok {
		if (this.peeked) {
			this.peeked = false;
			return this.tok;
		}
		this.tok = this.lexer.next();
		return this.tok;
	}

	/** The next object; `undefined` at the end of the data or at a keyword that is not an object. */
	getObject(depth = 0): PdfObject | undefined {
		if (depth > MAX_NESTING) throw new PdfError('damaged', `objects in the file are nested more than ${MAX_NESTING} deep`);
		const lexer = this.lexer;
		const tok = this.nextTok();
		switch (tok) {
			case Tok.Number:
				return this.maybeRef(lexer.value as number);
			case Tok.String:
				return lexer.value as Uint8Array;
			case Tok.Name:
				return PdfName.of(lexer.value as string);
			case Tok.ArrayStart: {
				const items: PdfObject[] = [];
				for (;;) {
					const t = this.nextTok();
					if (t === Tok.ArrayEnd || t === Tok.EOF) break;
					this.peeked = true;
					const item = this.getObject(depth + 1);
					if (item === undefined) {
						// A keyword inside an array (damage, or "endobj" of a truncated array) ends it.
						if (this.tok === Tok.Keyword) this.peeked = true;
						break;
					}
					items.push(item);
				}
				return items;
			}
			case Tok.DictStart:
				return this.dictionary(depth);
			case Tok.Keyword: {
				const word = lexer.value as string;
				if (word === 'true') return true;
				if (word === 'false') return false;
				if (word === 'null') return null;
				return undefined;
			}
			default:
				return undefined;
		}
	}

	/** The keyword the last `getObject` stopped at (undefined when it stopped at something else). */
	get lastKeyword(): string | undefined {
		return this.tok === Tok.Keyword ? (this.lexer.value as string) : undefined;
	}

	private maybeRef(first: number): PdfObject {
		if (!this.allowRefs || !Number.isInteger(first) || first < 0) return first;
		const lexer = this.lexer;
		const save = lexer.pos;
		if (lexer.next() === Tok.Number) {
			const gen = lexer.value as number;
			if (Number.isInteger(gen) && gen >= 0 && lexer.next() === Tok.Keyword && lexer.value === 'R') return new PdfRef(first, gen);
		}
		lexer.pos = save;
		return first;
	}

	private dictionary(depth: number): PdfObject {
		// Entries first, the dictionary built once from them (it cannot change afterwards).
		const entries: [string, PdfObject][] = [];
		for (;;) {
			const t = this.nextTok();
			if (t === Tok.DictEnd || t === Tok.EOF) break;
			if (t !== Tok.Name) {
				if (t === Tok.Keyword) {
					// A keyword in key position: a truncated dictionary ("endobj", "stream"). Give it back.
					this.peeked = true;
					break;
				}
				continue; // a stray value where a key belongs: skipped, as readers do
			}
			const key = this.lexer.value as string;
			const value = this.getObject(depth + 1);
			if (value === undefined) {
				if (this.tok === Tok.DictEnd) break;
				if (this.tok === Tok.Keyword) {
					this.peeked = true;
					break;
				}
				continue;
			}
			entries.push([key, value]);
		}
		const dict = new PdfDict(entries);
		if (this.allowRefs) {
			const lexer = this.lexer;
			const save = lexer.pos;
			if (!this.peeked && lexer.next() === Tok.Keyword && lexer.value === 'stream') return this.stream(dict);
			if (this.peeked && this.tok === Tok.Keyword && lexer.value === 'stream') {
				this.peeked = false;
				return this.stream(dict);
			}
			if (!this.peeked) lexer.pos = save;
		}
		return dict;
	}

	private stream(dict: PdfDict): PdfStream {
		const lexer = this.lexer;
		const data = lexer.data;
		let start = lexer.pos;
		// "stream" is followed by CRLF or LF (a lone CR happens in broken files).
		if (data[start] === 13) start++;
		if (data[start] === 10) start++;
		let length: number | undefined;
		const raw = dict.get('Length');
		if (isNumber(raw)) length = raw;
		else if (raw instanceof PdfRef && this.lengthOf) length = this.lengthOf(raw);
		if (!(length !== undefined && Number.isInteger(length) && length >= 0 && this.endsAt(start + length))) {
			const found = findEndstream(data, start, lexer.end);
			if (found < 0) throw new PdfError('damaged', 'a stream in the file has no end ("endstream" missing)');
			let stop = found;
			if (data[stop - 1] === 10) stop--;
			if (data[stop - 1] === 13) stop--;
			length = stop - start;
		}
		lexer.pos = start + length;
		const after = lexer.next();
		if (!(after === Tok.Keyword && lexer.value === 'endstream')) lexer.pos = start + length;
		return new PdfStream(dict, data, start, length);
	}

	private endsAt(pos: number): boolean {
		const data = this.lexer.data;
		if (pos > this.lexer.end) return false;
		while (pos < this.lexer.end && isWhite(data[pos])) pos++;
		return wordAt(data, pos, ENDSTREAM);
	}
}
