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
	const file = await eSignApiRequest.call(this, 'GET', `/documents/${documentId}/file`, {
		...requestOptions,
		expect: ['content'],
	});
	const { filename, type } = file as DocumentFile;
	const bytes = decodeDocumentFile(file as DocumentFile);
	if (!bytes) {
		const where = requestOptions.itemIndex === undefined ? '' : `Item ${requestOptions.itemIndex}: `;
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
