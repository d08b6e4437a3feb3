import type { IBinaryData, IExecuteFunctions, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ESignRequestOptions } from './transport';
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
		rawJsonBody: true,
	});
	// Raw bytes for a JSON object (the usual case); a parsed object only if the transport fell back.
	const read = Buffer.isBuffer(answer)
		? readFileAnswer(answer)
		: { meta: answer as DocumentFile, bytes: decodeDocumentFile(answer as DocumentFile) };
	const where = requestOptions.itemIndex === undefined ? '' : `Item ${requestOptions.itemIndex}: `;
	if (!read) {
		throw new NodeOperationError(this.getNode(), `${where}the site's answer for the file of document ${documentId} is not the eSign API's JSON`, {
			itemIndex: requestOptions.itemIndex,
			description: 'It starts and ends like a JSON object but does not parse: a plugin, cache or proxy may have changed it.',
		});
	}
	const { filename, type } = read.meta;
	const bytes = read.bytes;
	if (!bytes) {
		throw new NodeOperationError(this.getNode(), `${where}the site returned no file content for document ${documentId}`, {
			itemIndex: requestOptions.itemIndex,
		});
	}
	const detected = detectFileType(bytes);
	const name = fileName?.trim() || (typeof filename === 'string' && filename.trim()) || `document-${documentId}.${detected?.extension ?? 'bin'}`;
	const mimeType = (typeof type === 'string' && type.trim()) || detected?.mimeType || 'application/octet-stream';
	const binary = await this.helpers.prepareBinaryData(bytes, name, mimeType);
	return { binary, fileName: name, mimeType, size: bytes.length };
}
