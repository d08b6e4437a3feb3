import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ESignRequestOptions } from '../../shared/transport';
import { idFromInput } from '../../shared/values';
import { checkNonNegativeNumber, checkPositiveNumber } from './validation';

/** Reads a resource locator (or plain) id parameter: an id by the one rule of idFromInput (shared/values.ts). */
export function getIdParameter(this: IExecuteFunctions, name: string, i: number, label: string): string {
	const raw = this.getNodeParameter(name, i, '', { extractValue: true }) as string | number;
	const id = idFromInput(raw);
	if (id === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`"${label}" must be a ${label.toLowerCase()} ID (a whole number), got "${String(raw ?? '').trim()}"`,
			{ itemIndex: i, description: `Pick the ${label.toLowerCase()} from the list or give its numeric ID.` },
		);
	}
	return id;
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

export function fileStem(fileName: string): string {
	const base = fileName.split(/[\\/]/).pop() ?? fileName;
	const dot = base.lastIndexOf('.');
	return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * Binary file → multipart body for POST /documents/upload. `file`: the file, or its parts in order (a rewritten PDF:
 * the original, then the update). The Blob copies them once; each part is handed over as a view of its own bytes.
 */
export function uploadForm(file: Uint8Array | Uint8Array[], fileName: string, mimeType: string, title?: string): FormData {
	const form = new FormData();
	form.append('file', new Blob((Array.isArray(file) ? file : [file]).map(blobPart), { type: mimeType }), fileName);
	if (title) form.append('title', title);
	return form;
}

/**
 * The same bytes as a Uint8Array over an ArrayBuffer, as Blob's typing asks (TypeScript 5.9: a Buffer's or a plain
 * Uint8Array's backing store is ArrayBufferLike, which may be shared): a view, not a copy.
 */
const blobPart = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);

/** The non-empty trimmed text values of `keys` in a collection, for a request body. */
export function pickText(collection: IDataObject, keys: string[]): IDataObject {
	const picked: IDataObject = {};
	for (const key of keys) {
		const value = typeof collection[key] === 'string' ? (collection[key] as string).trim() : '';
		if (value) picked[key] = value;
	}
	return picked;
}
