import { CLASS, HEX, hexInto } from './chars';
import { PdfError } from './objects';
import { MAX_KEYWORDS, MAX_NAME_BYTES } from '../limits';

export { isRegular, isWhite } from './chars';

/** Token kinds of PDF syntax (ISO 32000-1, 7.2 and 7.3). */
export const enum Tok {
	EOF,
	Number,
	String,
	Name,
	Keyword,
	ArrayStart,
	ArrayEnd,
	DictStart,
	DictEnd,
	BraceOpen,
	BraceClose,
}

/** Keywords of 1 to 3 bytes by their bytes (bounded: a hostile file could use every combination). */
const KEYWORDS = new Map<number, string>();

/** Reads tokens from bytes; `value` holds the last token's number, bytes (strings) or text (names, keywords). */
export class Lexer {
	value: number | Uint8Array | string = 0;
	/**
	 * Content streams: hex strings are decoded into this shared buffer and handed out as views, valid until
	 * `release()` (called once per operator). Real content has hundreds of thousands of short strings, and an
	 * allocation each was the reader's largest cost.
	 */
	private shared = false;
	private scratch: Uint8Array | undefined;
	private scratchUsed = 0;

	constructor(
		readonly data: Uint8Array,
		public pos = 0,
		readonly end = data.length,
	) {}

	/** Hands hex strings out of a shared buffer (content streams; see `scratch`). */
	useScratch(): void {
		this.shared = true; // the buffer itself is made by the first hex string (many streams have none)
	}

	/** The strings handed out so far are no longer used. */
	release(): void {
		this.scratchUsed = 0;
	}

	skipWhite(): void {
		const { data, end } = this;
		let pos = this.pos;
		while (pos < end) {
			const c = data[pos];
			if (CLASS[c] === 1) pos++;
			else if (c === 37 /* % */) {
				while (pos < end && data[pos] !== 10 && data[pos] !== 13) pos++;
			} else break;
		}
		this.pos = pos;
	}

	/** The next token as a number, or undefined when it is something else (the token is read either way). */
	nextNumber(): number | undefined {
		return this.next() === Tok.Number ? (this.value as number) : undefined;
	}

	next(): Tok {
		const { data, end } = this;
		this.skipWhite();
		// A stray ")" is skipped like white space, in a loop: a file of them must not grow the stack.
		while (this.pos < end && data[this.pos] === 41) {
			this.pos++;
			this.skipWhite();
		}
		if (this.pos >= end) return Tok.EOF;
		const c = data[this.pos];
		switch (c) {
			case 40 /* ( */:
				this.pos++;
				this.value = this.literalString();
				return Tok.String;
			case 60 /* < */:
				if (data[this.pos + 1] === 60) {
					this.pos += 2;
					return Tok.DictStart;
				}
				this.pos++;
				this.value = this.hexString();
				return Tok.String;
			case 62 /* > */:
				this.pos += data[this.pos + 1] === 62 ? 2 : 1;
				return Tok.DictEnd;
			case 91:
				this.pos++;
				return Tok.ArrayStart;
			case 93:
				this.pos++;
				return Tok.ArrayEnd;
			case 123:
				this.pos++;
				return Tok.BraceOpen;
			case 125:
				this.pos++;
				return Tok.BraceClose;
			case 47 /* / */:
				this.pos++;
				this.value = this.name();
				return Tok.Name;
		}
		if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) {
			const number = this.number();
			if (number !== undefined) {
				this.value = number;
				return Tok.Number;
			}
		}
		const start = this.pos;
		let pos = start;
		while (pos < end && CLASS[data[pos]] === 0) pos++;
		this.pos = pos;
		// Keywords are short; a long run of regular bytes is garbage, cut so it cannot cost a huge string. Operators
		// (1 to 3 bytes) come from a table, not a new string each time: content is mostly operators and numbers.
		const length = Math.min(pos - start, 64);
		if (length <= 3) {
			const key = (length << 24) | (data[start] << 16) | (length > 1 ? data[start + 1] << 8 : 0) | (length > 2 ? data[start + 2] : 0);
			let word = KEYWORDS.get(key);
			if (word === undefined) {
				word = String.fromCharCode(...data.subarray(start, start + length));
				if (KEYWORDS.size < MAX_KEYWORDS) KEYWORDS.set(key, word);
			}
			this.value = word;
		} else this.value = String.fromCharCode(...data.subarray(start, start + length));
		return Tok.Keyword;
	}

	/** A number, or undefined (position unchanged) when the bytes are not one (e.g. a lone "-"). */
	private number(): number | undefined {
		const { data, end } = this;
		let pos = this.pos;
		let sign = 1;
		// Producers write "--5" or "+-5"; readers take the last sign.
		while (pos < end && (data[pos] === 45 || data[pos] === 43)) {
			sign = data[pos] === 45 ? -1 : 1;
			pos++;
		}
		// The digits as one integer and the count after the point: m / 10^k is then the double nearest the decimal (one
		// rounding), as every other reader parses it; summing digit × 0.1^i rounds at each step, and a number the tag
		// remover writes again (a Tf's size) came out one unit in the last place away from the file's.
		const start = pos;
		let mantissa = 0;
		let digits = 0;
		let fraction = 0;
		while (pos < end && data[pos] >= 48 && data[pos] <= 57) {
			mantissa = mantissa * 10 + (data[pos++] - 48);
			digits++;
		}
		if (data[pos] === 46) {
			pos++;
			while (pos < end && data[pos] >= 48 && data[pos] <= 57) {
				mantissa = mantissa * 10 + (data[pos++] - 48);
				digits++;
				fraction++;
			}
		}
		const value = mantissa <= Number.MAX_SAFE_INTEGER && fraction < POWERS_OF_TEN.length ? mantissa / POWERS_OF_TEN[fraction] : parseDecimal(data, start, pos);
		// "5-3" and "1.2.3" happen in broken files: the rest is skipped as part of the number, as readers do.
		while (pos < end && CLASS[data[pos]] === 0 && ((data[pos] >= 48 && data[pos] <= 57) || data[pos] === 45 || data[pos] === 46)) pos++;
		if (!digits) return undefined;
		this.pos = pos;
		return sign * value;
	}

	private name(): string {
		const { data, end } = this;
		let pos = this.pos;
		let text = '';
		let plainStart = pos;
		while (pos < end && CLASS[data[pos]] === 0) {
			if (data[pos] === 35 /* # */ && HEX[data[pos + 1]] >= 0 && HEX[data[pos + 2]] >= 0) {
				text += String.fromCharCode(...data.subarray(plainStart, pos), HEX[data[pos + 1]] * 16 + HEX[data[pos + 2]]);
				pos += 3;
				plainStart = pos;
			} else pos++;
			if (pos - this.pos > MAX_NAME_BYTES) throw new PdfError('damaged', `a name in the file is longer than ${MAX_NAME_BYTES.toLocaleString('en-US')} bytes`);
		}
		text += String.fromCharCode(...data.subarray(plainStart, pos));
		this.pos = pos;
		return text;
	}

	private literalString(): Uint8Array {
		const { data, end } = this;
		let pos = this.pos;
		// Fast path: no escapes and no carriage returns, so the bytes are the string.
		let depth = 1;
		let simple = true;
		let scan = pos;
		for (; scan < end; scan++) {
			const c = data[scan];
			if (c === 92 || c === 13) {
				simple = false;
				break;
			}
			if (c === 40) depth++;
			else if (c === 41 && --depth === 0) break;
		}
		if (simple) {
			this.pos = Math.min(scan + 1, end);
			return data.subarray(pos, Math.min(scan, end));
		}
		// The string ends where a parenthesis closes the first one (an escaped byte never counts): its bytes are at
		// most that many, so the output is one typed array (a number[] would take 8 bytes of heap a byte).
		for (; scan < end; scan++) {
			const c = data[scan];
			if (c === 92) scan++;
			else if (c === 40) depth++;
			else if (c === 41 && --depth === 0) break;
		}
		const out = new Uint8Array(Math.min(scan, end) - pos);
		let n = 0;
		depth = 1;
		while (pos < end) {
			let c = data[pos++];
			if (c === 40) depth++;
			else if (c === 41) {
				if (--depth === 0) break;
			} else if (c === 13) {
				if (data[pos] === 10) pos++;
				c = 10;
			} else if (c === 92) {
				c = data[pos++];
				switch (c) {
					case 110: c = 10; break;
					case 114: c = 13; break;
					case 116: c = 9; break;
					case 98: c = 8; break;
					case 102: c = 12; break;
					case 13:
						if (data[pos] === 10) pos++;
						continue;
					case 10:
						continue;
					default:
						if (c >= 48 && c <= 55) {
							let octal = c - 48;
							for (let k = 0; k < 2 && data[pos] >= 48 && data[pos] <= 55; k++) octal = octal * 8 + (data[pos++] - 48);
							c = octal & 0xff;
						} else if (c === undefined) continue;
				}
			}
			out[n++] = c;
		}
		this.pos = pos;
		return out.subarray(0, n);
	}

	private hexString(): Uint8Array {
		const { data, end } = this;
		const pos = this.pos;
		let stop = pos;
		while (stop < end && data[stop] !== 62) stop++;
		const size = (stop - pos + 1) >> 1;
		let out: Uint8Array;
		let n = 0;
		if (this.shared) {
			this.scratch ??= new Uint8Array(Math.max(256, size * 2));
			if (this.scratchUsed + size > this.scratch.length) {
				// Views handed out keep the old buffer alive; a new one serves the rest.
				this.scratch = new Uint8Array(Math.max(this.scratch.length * 2, size * 2));
				this.scratchUsed = 0;
			}
			out = this.scratch;
			n = this.scratchUsed;
		} else out = new Uint8Array(size);
		const first = n;
		n = hexInto(data, pos, stop, out, n);
		this.pos = Math.min(stop + 1, end);
		if (this.shared) this.scratchUsed = n;
		return out.subarray(first, n);
	}
}

/** 10^0 … 10^22: each exactly a double, so a division by one is a single rounding. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** Digits and one point, too many for the fast path: the platform's correctly rounded parse, on at most 400 of them
 * (more cannot change a double). */
function parseDecimal(data: Uint8Array, start: number, end: number): number {
	let text = '';
	for (let i = start; i < end && text.length < 400; i++) text += String.fromCharCode(data[i]);
	const point = text.indexOf('.');
	// Cut short in the integer part, the number is at least that large: the digits left out are counted as zeros.
	if (end - start > 400 && point < 0) return Number(text) * 10 ** Math.min(400, end - start - 400);
	return Number(text.endsWith('.') ? text.slice(0, -1) || '0' : text.startsWith('.') ? `0${text}` : text);
}
