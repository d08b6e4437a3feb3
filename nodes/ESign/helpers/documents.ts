import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { randomBytes } from 'crypto';

import type { ESignRequestOptions } from '../../shared/transport';
import { eSignApiRequest } from '../../shared/transport';
import { FileEnds, detectFileType } from '../../shared/fileType';
import type { RewrittenFile } from './tagRemoval';
import { fileStem, uploadForm } from './utils';

/**
 * Reads the item's binary through n8n's helpers (works in memory, filesystem and S3 modes),
 * refuses anything that is not PDF/PNG/JPG before any request, and uploads it. `rewritten`: the file to upload
 * instead (tags or form fields removed), as its parts: the original, then the update, joined only into the body.
 */
export async function uploadBinary(
	this: IExecuteFunctions,
	i: number,
	binaryPropertyName: string,
	title: string,
	requestOptions: ESignRequestOptions,
	rewritten?: RewrittenFile,
): Promise<IDataObject> {
	const binaryData = this.helpers.assertBinaryData(i, binaryPropertyName);
	// Stored binary data (filesystem, S3) is read as a stream, twice: once to check it, once to send it. A rewritten
	// file (tags removed) is already in memory, and goes up under the binary's own file name.
	const stored = binaryData.id && !rewritten ? await scanStoredBinary.call(this, binaryData.id) : undefined;
	const buffer = stored || rewritten ? undefined : await this.helpers.getBinaryDataBuffer(i, binaryPropertyName);
	const ends = stored ? stored.ends : rewritten ? endsOf([rewritten.original, ...rewritten.update]) : (buffer as Buffer);
	const detected = detectFileType(ends);
	const shownName = binaryData.fileName ?? binaryPropertyName;
	if (!detected) {
		const looksLikePdf = ends.subarray(0, 5).toString('latin1') === '%PDF-';
		throw new NodeOperationError(
			this.getNode(),
			looksLikePdf
				? `The file in binary field "${binaryPropertyName}" (${shownName}) starts like a PDF but is not a complete PDF (no %%EOF at its end)`
				: `The file in binary field "${binaryPropertyName}" (${shownName}, ${binaryData.mimeType}) is not a PDF, PNG or JPG`,
			{
				itemIndex: i,
				description:
					'eSign accepts PDF, PNG and JPG files only, recognised by their content. Convert the file first (e.g. to PDF).',
			},
		);
	}
	let fileName = binaryData.fileName ?? `document.${detected.extension}`;
	if (!/\.[A-Za-z0-9]+$/.test(fileName)) fileName += `.${detected.extension}`;
	const documentTitle = title.trim() || fileStem(fileName);
	const id = binaryData.id;
	if (stored && id) {
		const body = streamedUploadForm(stored.size, fileName, detected.mimeType, documentTitle);
		const helpers = this.helpers;
		return (await eSignApiRequest.call(this, 'POST', '/documents/upload', {
			...requestOptions,
			expect: ['id'],
			streamBody: {
				contentType: body.contentType,
				length: body.length,
				fileBytes: stored.size,
				fields: { title: documentTitle, 'file (file name)': fileName },
				// The stored file read afresh for every attempt, framed by the multipart head and tail: the
				// stream n8n hands over composes that itself (a Node stream is what the HTTP layer sends).
				open: async () =>
					(await helpers.getBinaryStream(id)).compose(async function* (file: AsyncIterable<Buffer>) {
						yield body.head;
						yield* file;
						yield body.tail;
					}),
			},
		})) as IDataObject;
	}
	// A rewritten file goes up as its parts, copied once into the body (never joined into one buffer first).
	const file = rewritten ? [rewritten.original, ...rewritten.update] : (buffer ?? (await this.helpers.getBinaryDataBuffer(i, binaryPropertyName)));
	return (await eSignApiRequest.call(this, 'POST', '/documents/upload', {
		...requestOptions,
		expect: ['id'],
		body: uploadForm(file, fileName, detected.mimeType, documentTitle),
	})) as IDataObject;
}

/** First bytes and last KB of a file held in parts (all detectFileType needs), the parts not copied. */
function endsOf(parts: Uint8Array[]): Buffer {
	const file = new FileEnds();
	for (const part of parts) if (part.length) file.add(Buffer.from(part.buffer, part.byteOffset, part.length));
	return file.ends;
}

/** Size, first bytes and last KB of stored binary data (all detectFileType needs), read as a stream. */
async function scanStoredBinary(this: IExecuteFunctions, id: string) {
	const stream = await this.helpers.getBinaryStream(id);
	const file = new FileEnds();
	for await (const piece of stream) file.add(piece as Buffer);
	return { size: file.size, ends: file.ends };
}

/** The multipart body around the file for a streamed upload: the same fields a FormData would send. */
function streamedUploadForm(fileBytes: number, fileName: string, mimeType: string, title: string) {
	const boundary = `----n8nESign${randomBytes(12).toString('hex')}`;
	// As browsers do (HTML's multipart rules): quotes and line breaks in a name are percent-encoded.
	const quoted = (text: string) => text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
	const head = Buffer.from(
		(title ? `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${title}\r\n` : '') +
			`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(fileName)}"\r\nContent-Type: ${mimeType}\r\n\r\n`,
		'utf8',
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
	return { contentType: `multipart/form-data; boundary=${boundary}`, length: head.length + fileBytes + tail.length, head, tail };
}
