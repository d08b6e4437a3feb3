import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { FileAnswerReader } from './fileAnswer';
import { detectFileType } from './fileType';
import type { ESignReadOptions } from './transport';
import { DEFAULT_TIMEOUT_SECONDS, eSignApiGetStream } from './transport';
import { idFromAnswer, isPlainObject } from './values';

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
	requestOptions: ESignReadOptions = {},
	fileName?: string,
): Promise<DownloadedDocument> {
	const answer = await eSignApiGetStream.call(this, `/documents/${documentId}/file`, requestOptions);
	// Decoded as it arrives and handed to n8n piece by piece: in filesystem mode (n8n's default) the file
	// goes to disk as it comes and is never in memory whole. Its name and type are in the answer, often
	// after the content, so they are set on the stored file's entry afterwards.
	const reader = new FileAnswerReader();
	const binary = await storeFile.call(this, reader.content(answer.chunks));
	checkFileAnswer.call(this, reader, documentId, requestOptions.itemIndex);
	const { meta } = reader;
	const detected = detectFileType(reader.file.ends);
	const name = fileName?.trim() || (typeof meta.filename === 'string' && meta.filename.trim()) || `document-${documentId}.${detected?.extension ?? 'bin'}`;
	const mimeType = (typeof meta.type === 'string' && meta.type.trim()) || detected?.mimeType || 'application/octet-stream';
	const base = name.split(/[\\/]/).pop() || name;
	const extension = /\.([^.]+)$/.exec(base)?.[1];
	Object.assign(binary, { fileName: base, mimeType, fileExtension: extension ?? binary.fileExtension, fileType: fileTypeOf(mimeType) });
	return { binary, fileName: base, mimeType, size: reader.file.size };
}

/**
 * GET /documents/{id}/file → the file's bytes in memory, for reading it (Replace All's text tags and page sizes).
 * Through the same streamed answer reader as the download, so a broken answer is refused the same way.
 */
export async function readDocumentBytes(
	this: IExecuteFunctions,
	documentId: string,
	requestOptions: ESignReadOptions = {},
): Promise<{ bytes: Buffer; fileName: string }> {
	const answer = await eSignApiGetStream.call(this, `/documents/${documentId}/file`, requestOptions);
	const reader = new FileAnswerReader();
	const bytes = await collect(reader.content(answer.chunks));
	checkFileAnswer.call(this, reader, documentId, requestOptions.itemIndex);
	const name = typeof reader.meta.filename === 'string' && reader.meta.filename.trim() ? reader.meta.filename.trim() : `document-${documentId}`;
	return { bytes, fileName: name.split(/[\\/]/).pop() || name };
}

/** What both reads refuse in a file answer once its content is consumed: a broken answer, no content, not base64. */
function checkFileAnswer(this: IExecuteFunctions | IWebhookFunctions | IPollFunctions, reader: FileAnswerReader, documentId: string, itemIndex?: number): void {
	const notJson = (problem: string) =>
		new NodeOperationError(this.getNode(), `The site's answer for the file of document ${documentId} is not the eSign API's JSON (${problem})`, {
			itemIndex,
			description: 'A plugin, cache or proxy may have changed or cut off the answer. Open the site\'s error log, or try again.',
		});
	if (reader.problem) throw notJson(reader.problem);
	if (!reader.hasContent) throw new NodeOperationError(this.getNode(), `The site returned no file content for document ${documentId}`, { itemIndex });
	const { encoding } = reader.meta;
	if (encoding !== undefined && String(encoding).toLowerCase() !== 'base64') throw notJson(`the encoding is ${String(encoding)}, not base64`);
}

/**
 * Hands n8n the decoded pieces as an async iterable. n8n's filesystem store writes it as it comes (Node's
 * writeFile takes any async iterable); its in-memory, S3 and Azure stores take only a Buffer or a Node
 * stream, refuse the iterable before reading any of it, and would read a stream whole into memory anyway:
 * for them the pieces are collected into one Buffer, the same memory.
 */
async function storeFile(this: IExecuteFunctions | IWebhookFunctions | IPollFunctions, decoded: AsyncIterable<Buffer>): Promise<IBinaryData> {
	let started = false;
	const pieces: AsyncIterable<Buffer> = {
		async *[Symbol.asyncIterator]() {
			started = true;
			yield* decoded;
		},
	};
	const mimeType = 'application/octet-stream';
	// prepareBinaryData is typed Buffer | Readable; what it does with other values is the store's (above).
	const streamed = await this.helpers.prepareBinaryData(pieces as unknown as Buffer, undefined, mimeType).catch((cause: unknown) => {
		if (started) throw cause; // the answer broke off while it was read: not a refusal
		return undefined;
	});
	return streamed ?? (await this.helpers.prepareBinaryData(await collect(decoded), undefined, mimeType));
}

/** The decoded file in memory, for the stores that hold it whole anyway. */
async function collect(pieces: AsyncIterable<Buffer>): Promise<Buffer> {
	const all: Buffer[] = [];
	for await (const piece of pieces) all.push(piece);
	return Buffer.concat(all);
}

/** Both triggers' Download Document: patient enough for a slow site, without holding a run long on a 429. */
const TRIGGER_DOWNLOAD: ESignReadOptions = { timeout: DEFAULT_TIMEOUT_SECONDS, maxRateLimitWait: 5 };

/**
 * A trigger's Download Document (both triggers): the file of `documentId` added to the item under the option
 * Binary Property, or the reason in `json.downloadError`. Never throws: a genuine event is never turned into a
 * failure by its file. No id (an event about no document) means no download and no error.
 */
export async function attachDocumentFile(
	this: IExecuteFunctions | IPollFunctions,
	item: INodeExecutionData,
	documentId: unknown,
	options: IDataObject,
	idLabel = 'document id',
): Promise<void> {
	if (documentId === undefined || documentId === null) return;
	// Only a positive whole number goes into the request path.
	const id = idFromAnswer(documentId);
	if (!id) {
		item.json.downloadError = `${idLabel} (${JSON.stringify(documentId)}) is not a positive whole number, so nothing was downloaded.`;
		return;
	}
	const property = typeof options.binaryPropertyName === 'string' && options.binaryPropertyName.trim() !== '' ? options.binaryPropertyName.trim() : 'data';
	try {
		const file = await downloadDocument.call(this, id, TRIGGER_DOWNLOAD);
		item.binary = { ...(item.binary ?? {}), [property]: file.binary };
	} catch (error) {
		item.json.downloadError = downloadErrorText(error);
	}
}

/** What a failed download leaves on the trigger's item (downloadError): the message and its advice. */
export function downloadErrorText(error: unknown): string {
	if (isPlainObject(error) || error instanceof Error) {
		const { message, description } = error as { message?: unknown; description?: unknown };
		const text = typeof message === 'string' && message ? message : 'Download failed';
		return typeof description === 'string' && description ? `${text}: ${description}` : text;
	}
	return String(error);
}

/** n8n's file type groups for the binary entry (what the binary data view uses). */
function fileTypeOf(mimeType: string): IBinaryData['fileType'] {
	if (mimeType === 'application/pdf') return 'pdf';
	if (mimeType.startsWith('image/')) return 'image';
	if (mimeType.startsWith('text/')) return 'text';
	if (mimeType === 'application/json') return 'json';
	return undefined;
}
