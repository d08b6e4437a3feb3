import { FileEnds } from './fileType';

// GET /documents/{id}/file answers the file as base64 JSON, read here without ever holding it whole.

/** The members of the answer besides the content. */
export interface DocumentFile {
	filename?: string;
	type?: string;
	encoding?: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
const BASE64_TEXT = /^[A-Za-z0-9+/=\s]*$/;
/** Base64 characters decoded at a time by FileAnswerReader (a multiple of 4, well under V8's 128 KB). */
const PIECE = 32 * 1024;

/**
 * Reads a GET /documents/{id}/file answer as it arrives (the package's one reader of it: an answer read
 * whole is fed to it as one chunk). `content(source)` yields the decoded bytes of the top-level "content"
 * string (base64, PHP's "\/" allowed) while the other members are collected into `meta`; a "content"
 * nested in another member is part of that member's value. Members may come in any order. When the answer
 * is not such a JSON object (cut off, other escapes, not base64, text after the end) the generator stops
 * and `problem` says why. Only the first and last bytes of the file are kept (to recognise its type), so a
 * large file is never in memory whole.
 */
export class FileAnswerReader {
	meta: DocumentFile & Record<string, unknown> = {};
	problem: string | undefined;
	hasContent = false;
	/** The decoded file's size and ends (to recognise its type). */
	file = new FileEnds();

	/**
	 * Decodes `carry` + `text` in pieces of at most PIECE characters, yielding whole base64 quads and
	 * returning the rest (under 4 characters). Small pieces keep every temporary string in V8's young
	 * generation: strings of a megabyte go to the large-object space, which only a full GC frees, and a
	 * 20 MB download then held ~100 MB of dead strings at its peak.
	 */
	private *decode(carry: string, text: string, final: boolean): Generator<Buffer, string> {
		let rest = carry;
		for (let at = 0; at < text.length || (final && rest.length); at += PIECE) {
			let piece = rest + text.slice(at, at + PIECE);
			if (/\s/.test(piece)) piece = piece.replace(/\s+/g, '');
			const whole = final && at + PIECE >= text.length ? piece.length : piece.length - (piece.length % 4);
			rest = piece.slice(whole);
			if (whole > 0) {
				const bytes = Buffer.from(piece.slice(0, whole), 'base64');
				if (bytes.length) {
					this.file.add(bytes);
					yield bytes;
				}
			}
			if (final && at + PIECE >= text.length) break;
		}
		return rest;
	}

	async *content(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
		type State = 'start' | 'key' | 'keyText' | 'colon' | 'value' | 'afterValue' | 'content' | 'other' | 'end';
		let state: State = 'start';
		let key = '';
		let text = Buffer.alloc(0); // a member name, or another member's value, as raw JSON bytes
		let members = 0;
		let inString = false;
		let escaped = false;
		let depth = 0;
		let carry = '';
		let unicode: string | undefined;
		const fail = (problem: string) => {
			this.problem = problem;
		};
		for await (const chunk of source) {
			let i = 0;
			while (i < chunk.length) {
				const byte = chunk[i];
				if (state === 'content') {
					if (unicode !== undefined) {
						// \uXXXX: the four hex digits, possibly split across chunks.
						unicode += String.fromCharCode(byte);
						i++;
						if (unicode.length === 4) {
							const char = String.fromCharCode(parseInt(unicode, 16));
							if (!/^[0-9a-fA-F]{4}$/.test(unicode) || !BASE64_TEXT.test(char)) return fail('the file content is not base64');
							carry += char;
							unicode = undefined;
						}
						continue;
					}
					if (escaped) {
						escaped = false;
						if (byte === SLASH) carry += '/';
						else if (byte === 0x75) unicode = '';
						else if (byte !== 0x6e && byte !== 0x72 && byte !== 0x74) return fail('the file content holds an escape that base64 does not need');
						i++;
						continue;
					}
					let stop = i;
					while (stop < chunk.length && chunk[stop] !== QUOTE && chunk[stop] !== BACKSLASH) stop++;
					const run = chunk.toString('latin1', i, stop);
					if (!BASE64_TEXT.test(run)) return fail('the file content is not base64');
					i = stop;
					carry += run;
					const ends = i < chunk.length && chunk[i] === QUOTE;
					// Decoded in pieces of PIECE characters (PHP escapes every "/", so runs are short).
					if (ends || carry.length >= PIECE) carry = yield* this.decode('', carry, ends);
					if (i < chunk.length) {
						if (chunk[i] === BACKSLASH) escaped = true;
						else {
							if (carry.length) return fail('the file content is not base64');
							this.hasContent = true;
							state = 'afterValue';
						}
						i++;
					}
					continue;
				}
				if (state === 'keyText' || state === 'other') {
					// A member name or another member's value: short, copied whole and parsed at its end.
					let end = i;
					let done = false;
					for (; end < chunk.length && !done; end++) {
						const b = chunk[end];
						if (inString) {
							if (escaped) escaped = false;
							else if (b === BACKSLASH) escaped = true;
							else if (b === QUOTE) {
								inString = false;
								if (state === 'keyText') done = true;
							}
						} else if (b === QUOTE) inString = true;
						else if (b === 0x7b || b === 0x5b) depth++;
						else if (b === 0x7d || b === 0x5d || (b === 0x2c && depth === 0)) {
							if (depth === 0) {
								done = true;
								end--; // the delimiter is read in the 'afterValue' state
							} else depth--;
						}
					}
					text = Buffer.concat([text, chunk.subarray(i, end)]);
					if (text.length > 1 << 20) return fail('a member other than the content is over 1 MB');
					i = end;
					if (done) {
						let value: unknown;
						try {
							value = JSON.parse(text.toString('utf8')) as unknown;
						} catch {
							return fail(state === 'keyText' ? 'a member name is not valid JSON' : `the member "${key}" is not valid JSON`);
						}
						text = Buffer.alloc(0);
						if (state === 'keyText') {
							key = String(value);
							state = 'colon';
						} else {
							this.meta[key] = value;
							state = 'afterValue';
						}
					}
					continue;
				}
				if (isSpace(byte)) {
					i++;
					continue;
				}
				if (state === 'start') {
					if (byte !== 0x7b) return fail('it is not a JSON object');
					state = 'key';
				} else if (state === 'key') {
					if (byte === 0x7d && members === 0) state = 'end';
					else if (byte !== QUOTE) return fail('a member name was expected');
					else {
						state = 'keyText';
						inString = false;
						escaped = false;
						depth = 0;
						continue; // the opening quote is read in the 'keyText' state
					}
				} else if (state === 'colon') {
					if (byte !== 0x3a) return fail('":" was expected after a member name');
					state = 'value';
				} else if (state === 'value') {
					members++;
					if (key === 'content' && byte === QUOTE) {
						if (this.hasContent) return fail('"content" appears twice');
						state = 'content';
						escaped = false;
					} else {
						state = 'other';
						inString = false;
						escaped = false;
						depth = 0;
						continue; // the value's first byte is read in the 'other' state
					}
				} else if (state === 'afterValue') {
					if (byte === 0x2c) state = 'key';
					else if (byte === 0x7d) state = 'end';
					else return fail('"," or "}" was expected after a member');
				} else {
					return fail('there is more after the JSON object');
				}
				i++;
			}
		}
		if (state !== 'end') fail('it ends before the JSON object does (cut off)');
	}
}
