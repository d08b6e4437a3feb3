import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ESignRequestOptions } from '../../shared/transport';
import { checkNonNegativeNumber, checkPositiveNumber } from './validation';

/** Reads a resource locator (or plain) id parameter and insists on a whole number. */
export function getIdParameter(this: IExecuteFunctions, name: string, i: number, label: string): string {
	const raw = this.getNodeParameter(name, i, '', { extractValue: true }) as string | number;
	const value = String(raw ?? '').trim();
	if (!/^[0-9]+$/.test(value) || value === '0') {
		throw new NodeOperationError(
			this.getNode(),
			`Item ${i}: "${label}" must be a ${label.toLowerCase()} ID (a whole number), got "${value}"`,
			{ itemIndex: i, description: `Pick the ${label.toLowerCase()} from the list or give its numeric ID.` },
		);
	}
	return value;
}

/**
 * An id taken from a site's answer, as a path segment: only a positive whole number (a string id
 * like "12" or a JSON integer). Anything else (e.g. "../stats", 0, 1.5) gives undefined.
 */
export function idFromAnswer(value: unknown): string | undefined {
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	return /^[1-9][0-9]{0,15}$/.test(text) ? text : undefined;
}

export function getDocumentId(this: IExecuteFunctions, i: number): string {
	return getIdParameter.call(this, 'documentId', i, 'Document');
}

export function getTemplateId(this: IExecuteFunctions, i: number): string {
	return getIdParameter.call(this, 'templateId', i, 'Template');
}

/** Request Options collection → transport options, tied to the item for error reporting. */
export function getRequestOptions(this: IExecuteFunctions, i: number): ESignRequestOptions {
	const options = this.getNodeParameter('requestOptions', i, {}) as IDataObject;
	const result: ESignRequestOptions = { itemIndex: i };
	if (options.maxRateLimitWait !== undefined) {
		result.maxRateLimitWait = checkNonNegativeNumber.call(this, i, 'Max Rate Limit Wait (Seconds)', options.maxRateLimitWait);
	}
	// 0 would mean "no time limit" to the HTTP layer: a hung site would hold the workflow forever.
	if (options.timeout !== undefined) result.timeout = checkPositiveNumber.call(this, i, 'Timeout (Seconds)', options.timeout);
	return result;
}

export function toExecutionData(data: IDataObject | IDataObject[]): INodeExecutionData[] {
	return (Array.isArray(data) ? data : [data]).map((json) => ({ json }));
}

export function isValidEmail(email: string): boolean {
	return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
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

export function fileStem(fileName: string): string {
	const base = fileName.split(/[\\/]/).pop() ?? fileName;
	const dot = base.lastIndexOf('.');
	return dot > 0 ? base.slice(0, dot) : base;
}

/** Binary file → multipart body for POST /documents/upload. */
export function uploadForm(buffer: Buffer, fileName: string, mimeType: string, title?: string): FormData {
	const form = new FormData();
	form.append('file', new Blob([new Uint8Array(buffer)], { type: mimeType }), fileName);
	if (title) form.append('title', title);
	return form;
}

/** The non-empty trimmed text values of `keys` in a collection, for a request body. */
export function pickText(collection: IDataObject, keys: string[]): IDataObject {
	const picked: IDataObject = {};
	for (const key of keys) {
		const value = typeof collection[key] === 'string' ? (collection[key] as string).trim() : '';
		if (value) picked[key] = value;
	}
	return picked;
}
