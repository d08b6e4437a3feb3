import type { IBinaryData, IExecuteFunctions, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ESignRequestOptions, JsonStream } from './transport';
import { eSignApiRequest } from './transport';

/** GET /documents/{id}/file answers the file as base64 JSON. */
export interface DocumentFile {
	content?: string;
	filename?: string;
	type?: string;
	encoding?: string;
}

/** The file's bytes, or undefined when the answer holds no content. */
export function decodeDocumentFile(file: DocumentFile | undefined): Buffer | undefined {
	if (typeof file?.content !== 'string') return undefined;
	const base64 = !file.encoding || file.encoding.toLowerCase() === 'base64';
	return Buffer.from(file.content, base64 ? 'base64' : 'utf8');
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
/** Base64 characters decoded per step (a multiple of 4): bounds the temporary strings. */
const DECODE_STEP = 1 << 20;

/** Where the top-level "content" string's characters start and end, or undefined. */
function contentSpan(answer: Buffer): { start: number; end: number } | undefined {
	const key = Buffer.from('"content"');
	for (let at = answer.indexOf(key); at !== -1; at = answer.indexOf(key, at + 1)) {
		let before = at - 1;
		while (before >= 0 && isSpace(answer[before])) before--;
		// A key follows { or , — anything else is the text inside some other string.
		if (before < 0 || (answer[before] !== 0x7b && answer[before] !== 0x2c)) continue;
		let i = at + key.length;
		while (isSpace(answer[i])) i++;
		if (answer[i++] !== 0x3a) return undefined;
		while (isSpace(answer[i])) i++;
		if (answer[i] !== QUOTE) return undefined;
		const end = answer.indexOf(QUOTE, i + 1);
		return end === -1 ? undefined : { start: i + 1, end };
	}
	return undefined;
}

/**
 * Decodes base64 characters [start, end) of `answer` into bytes without building the text as one string.
 * JSON may escape "/" as "\/" (PHP does); any other escape means this is not plain base64: undefined.
 */
function decodeBase64Span(answer: Buffer, start: number, end: number): Buffer | undefined {
	const out = Buffer.allocUnsafe(Math.ceil(((end - start) * 3) / 4));
	const pending = Buffer.allocUnsafe(DECODE_STEP);
	let fill = 0;
	let written = 0;
	const flush = () => {
		written += out.write(pending.toString('latin1', 0, fill), written, 'base64');
		fill = 0;
	};
	for (let i = start; i < end; ) {
		let stop = answer.indexOf(BACKSLASH, i);
		if (stop === -1 || stop > end) stop = end;
		while (i < stop) {
			const n = Math.min(stop - i, DECODE_STEP - fill);
			answer.copy(pending, fill, i, i + n);
			fill += n;
			i += n;
			if (fill === DECODE_STEP) flush();
		}
		if (stop < end) {
			if (answer[stop + 1] !== SLASH) return undefined;
			i = stop + 1; // the "/" itself is copied with the next run
		}
	}
	if (fill > 0) flush();
	return out.subarray(0, written);
}

/**
 * Reads a GET /documents/{id}/file answer given as raw bytes: the base64 content decoded piece by piece,
 * the other members parsed from the answer without it. Falls back to parsing it whole when the content
 * is not a plain base64 string. Undefined when the bytes are not JSON at all.
 */
export function readFileAnswer(answer: Buffer): { meta: DocumentFile; bytes?: Buffer } | undefined {
	const span = contentSpan(answer);
	if (span) {
		let meta: unknown;
		try {
			meta = JSON.parse(answer.toString('utf8', 0, span.start) + answer.toString('utf8', span.end));
		} catch {
			meta = undefined;
		}
		const file = meta as DocumentFile | undefined;
		const base64 = !file?.encoding || String(file.encoding).toLowerCase() === 'base64';
		if (file && typeof file === 'object' && base64) {
			const bytes = decodeBase64Span(answer, span.start, span.end);
			if (bytes) return { meta: file, bytes };
		}
	}
	try {
		const whole = JSON.parse(answer.toString('utf8')) as DocumentFile;
		return { meta: whole, bytes: decodeDocumentFile(whole) };
	} catch {
		return undefined;
	}
}

const BASE64_TEXT = /^[A-Za-z0-9+/=\s]*$/;
/** Base64 characters decoded at a time by FileAnswerReader (a multiple of 4, well under V8's 128 KB). */
const PIECE = 32 * 1024;

/**
 * Reads a GET /documents/{id}/file answer as it arrives: `content(source)` yields the decoded bytes of the
 * top-level "content" string (base64, PHP's "\/" allowed) while the other members are collected into
 * `meta`. Members may come in any order. When the answer is not such a JSON object (cut off, other escapes,
 * not base64, text after the end) the generator stops and `problem` says why. Only the first and last bytes
 * of the file are kept (to recognise its type), so a large file is never in memory whole.
 */
export class FileAnswerReader {
	meta: DocumentFile & Record<string, unknown> = {};
	problem: string | undefined;
	hasContent = false;
	size = 0;
	head = Buffer.alloc(0);
	tail = Buffer.alloc(0);

	private remember(bytes: Buffer): void {
		if (this.head.length < 16) this.head = Buffer.concat([this.head, bytes.subarray(0, 16 - this.head.length)]);
		// A copy of the last KB only: a view would keep each decoded piece alive.
		this.tail = Buffer.from(bytes.length >= 1024 ? bytes.subarray(bytes.length - 1024) : Buffer.concat([this.tail, bytes]).subarray(-1024));
		this.size += bytes.length;
	}

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
					this.remember(bytes);
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

export interface DetectedFile {
	extension: 'pdf' | 'png' | 'jpg';
	mimeType: string;
}

/** The API accepts PDF, PNG and JPG; recognise them by content, not by name. */
export function detectFileType(buffer: Buffer): DetectedFile | undefined {
	if (buffer.length >= 5 && buffer.subarray(0, 5).toString('latin1') === '%PDF-') {
		// A real PDF ends with %%EOF (within its last KB); a file that only starts like one is refused.
		const tail = buffer.subarray(Math.max(0, buffer.length - 1024)).toString('latin1');
		return /^%PDF-\d\.\d/.test(buffer.subarray(0, 8).toString('latin1')) && tail.includes('%%EOF')
			? { extension: 'pdf', mimeType: 'application/pdf' }
			: undefined;
	}
	if (
		buffer.length >= 8 &&
		buffer.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
	) {
		return { extension: 'png', mimeType: 'image/png' };
	}
	if (buffer.length >= 3 && buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[2] === 0xff) {
		return { extension: 'jpg', mimeType: 'image/jpeg' };
	}
	return undefined;
}

export interface DownloadedDocument {
	binary: IBinaryData;
	fileName: string;
	mimeType: string;
	size: number;
}

/**
 * GET /documents/{id}/file → n8n binary data. The one download of the package (action and trigger), so
 * both name files alike: the site's filename, else `document-<id>.<ext>` with the extension and media type
 * recognised from the bytes (application/octet-stream when they are not PDF, PNG or JPG).
 */
export async function downloadDocument(
	this: IExecuteFunctions | IWebhookFunctions | IPollFunctions,
	documentId: string,
	requestOptions: ESignRequestOptions = {},
	fileName?: string,
): Promise<DownloadedDocument> {
	const answer = await eSignApiRequest.call(this, 'GET', `/documents/${documentId}/file`, {
		...requestOptions,
		expect: ['content'],
		streamJsonBody: true,
	});
	const where = requestOptions.itemIndex === undefined ? '' : `Item ${requestOptions.itemIndex}: `;
	const notJson = (problem: string) =>
		new NodeOperationError(this.getNode(), `${where}the site's answer for the file of document ${documentId} is not the eSign API's JSON (${problem})`, {
			itemIndex: requestOptions.itemIndex,
			description: 'A plugin, cache or proxy may have changed or cut off the answer. Open the site\'s error log, or try again.',
		});
	const noContent = () =>
		new NodeOperationError(this.getNode(), `${where}the site returned no file content for document ${documentId}`, {
			itemIndex: requestOptions.itemIndex,
		});
	const named = (meta: DocumentFile, detected: DetectedFile | undefined) => ({
		name: fileName?.trim() || (typeof meta.filename === 'string' && meta.filename.trim()) || `document-${documentId}.${detected?.extension ?? 'bin'}`,
		mimeType: (typeof meta.type === 'string' && meta.type.trim()) || detected?.mimeType || 'application/octet-stream',
	});

	if (isJsonStream(answer)) {
		// Decoded as it arrives and handed to n8n as a stream: in filesystem mode the file goes to disk in
		// pieces and is never in memory whole. Its name and type are in the answer, often after the content,
		// so they are set on the stored file's entry afterwards.
		const reader = new FileAnswerReader();
		const binary = await this.helpers.prepareBinaryData(answer.toReadable(reader.content(answer.chunks)) as Buffer, undefined, 'application/octet-stream');
		const encoding = reader.meta.encoding;
		if (reader.problem) throw notJson(reader.problem);
		if (!reader.hasContent) throw noContent();
		if (encoding !== undefined && String(encoding).toLowerCase() !== 'base64') throw notJson(`the encoding is ${String(encoding)}, not base64`);
		const { name, mimeType } = named(reader.meta, detectFromEnds(reader));
		const base = name.split(/[\\/]/).pop() || name;
		const extension = /\.([^.]+)$/.exec(base)?.[1];
		Object.assign(binary, { fileName: base, mimeType, fileExtension: extension ?? binary.fileExtension, fileType: fileTypeOf(mimeType) });
		return { binary, fileName: base, mimeType, size: reader.size };
	}

	// Raw bytes for a JSON object, or a parsed object if the transport fell back.
	const read = Buffer.isBuffer(answer)
		? readFileAnswer(answer)
		: { meta: answer as DocumentFile, bytes: decodeDocumentFile(answer as DocumentFile) };
	if (!read) throw notJson('it does not parse');
	const bytes = read.bytes;
	if (!bytes) throw noContent();
	const { name, mimeType } = named(read.meta, detectFileType(bytes));
	const binary = await this.helpers.prepareBinaryData(bytes, name, mimeType);
	return { binary, fileName: name, mimeType, size: bytes.length };
}

const isJsonStream = (value: unknown): value is JsonStream =>
	typeof value === 'object' && value !== null && 'chunks' in value && typeof (value as JsonStream).toReadable === 'function';

/** The type from the first bytes and the last KB: all detectFileType looks at. */
function detectFromEnds(reader: FileAnswerReader): DetectedFile | undefined {
	return detectFileType(reader.size <= reader.head.length ? reader.head : Buffer.concat([reader.head, reader.tail]));
}

/** n8n's file type groups for the binary entry (what the binary data view uses). */
function fileTypeOf(mimeType: string): IBinaryData['fileType'] {
	if (mimeType === 'application/pdf') return 'pdf';
	if (mimeType.startsWith('image/')) return 'image';
	if (mimeType.startsWith('text/')) return 'text';
	if (mimeType === 'application/json') return 'json';
	return undefined;
}
