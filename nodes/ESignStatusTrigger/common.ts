import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { attachDocumentFile } from '../shared/documentFile';
import type { ESignRequestOptions, Expectation } from '../shared/transport';
import { DEFAULT_TIMEOUT_SECONDS, eSignApiGetIfFound } from '../shared/transport';
import type { ReadDocument } from './signers';

/** A poll ends on a 429 instead of waiting: the next poll picks up from the last good state. */
export const POLL_REQUEST: ESignRequestOptions = { maxRateLimitWait: 0, timeout: DEFAULT_TIMEOUT_SECONDS };

/** Full Rescan Every N Polls when the option is not set: the option's default and the poll's. */
export const DEFAULT_RESCAN_EVERY = 60;

export const NEW_DOCUMENT = 'document.created';
export const ANY_CHANGE = '*';

export interface PollOptions {
	search?: string;
	statusScope?: string[];
	emitExisting?: boolean;
	rescanEvery?: number;
	downloadDocument?: boolean;
	binaryPropertyName?: string;
}

function titleMatches(doc: IDataObject, search: string): boolean {
	return !search || String(doc.title ?? '').toLowerCase().includes(search.toLowerCase());
}

const hasSigners = (doc: IDataObject) =>
	Array.isArray(doc.signers) && doc.signers.every((s) => typeof s === 'object' && s !== null && !Array.isArray(s));

/**
 * GET /documents/{id}; undefined when deleted, or renamed out of the search (no longer watched). By default
 * its signers must be there: the one read that says who viewed, signed or declined. Readers sharing `seen`
 * (the answers of this poll) read a document once: detection's read by id also serves the signer read.
 */
export function documentReader(
	context: IPollFunctions,
	search: string,
	expect: Expectation = ['signers[]'],
	seen?: Map<string, IDataObject>,
): ReadDocument {
	return async (id: string) => {
		let doc = seen?.get(id);
		if (!doc || (expect !== 'object' && !hasSigners(doc))) {
			doc = (await eSignApiGetIfFound.call(context, `/documents/${id}`, { ...POLL_REQUEST, expect })) as IDataObject | undefined;
			if (doc) seen?.set(id, doc);
		}
		return doc && titleMatches(doc, search) ? doc : undefined;
	};
}

/** Download Document: the signed file on each completed document's item (the shared trigger download). */
export async function attachFiles(this: IPollFunctions, items: INodeExecutionData[], options: PollOptions): Promise<void> {
	if (options.downloadDocument !== true) return;
	for (const item of items) {
		if (item.json.event !== 'document.completed') continue;
		await attachDocumentFile.call(this, item, (item.json.document as IDataObject).id, options as IDataObject);
	}
}
