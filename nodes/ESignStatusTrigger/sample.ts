import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_PER_PAGE, eSignApiRequest } from '../shared/transport';
import type { PollOptions } from './common';
import { ANY_CHANGE, NEW_DOCUMENT, POLL_REQUEST, attachFiles, documentReader } from './common';
import { SIGNER_EVENTS, readSigners } from './signers';

/** Documents a signer has acted on are past sent; a few reads find a sample without walking the site. */
const SIGNED_STATUSES = ['viewed', 'completed', 'declined'];
const MAX_SAMPLE_READS = 5;

function noMatch(context: IPollFunctions): NodeOperationError {
	return new NodeOperationError(context.getNode(), 'No document on the site matches the chosen events and options yet', {
		description: 'Create or change a matching document on the site, then fetch a test event again.',
	});
}

/** The first page of GET /documents (newest first), of one status or all. */
async function newestDocuments(this: IPollFunctions, status: string | undefined, search: string): Promise<IDataObject[]> {
	const qs: IDataObject = { page: 1, per_page: MAX_PER_PAGE };
	if (status) qs.status = status;
	if (search) qs.search = search;
	return (await eSignApiRequest.call(this, 'GET', '/documents', { ...POLL_REQUEST, qs, expect: 'list' })) as IDataObject[];
}

/** "Fetch Test Event": the newest matching document, as the event it would be reported as. */
export async function sampleEvent(
	this: IPollFunctions,
	events: string[],
	options: PollOptions,
	search: string,
): Promise<INodeExecutionData[][]> {
	if (events.every((event) => SIGNER_EVENTS.includes(event))) return await sampleSignerEvent.call(this, events, search);
	const scope = Array.isArray(options.statusScope) ? options.statusScope : [];
	const wanted = events.includes(ANY_CHANGE) || events.includes(NEW_DOCUMENT)
		? []
		: events.map((event) => event.replace(/^document\./, ''));
	const statuses = scope.length > 0 ? scope.filter((s) => wanted.length === 0 || wanted.includes(s)) : wanted;
	const docs = await newestDocuments.call(this, statuses.length === 1 ? statuses[0] : undefined, search);
	const doc = docs.find((d) => statuses.length === 0 || statuses.includes(String(d.status)));
	if (!doc) throw noMatch(this);
	const status = String(doc.status ?? '');
	const event = events.includes(NEW_DOCUMENT) && !events.includes(ANY_CHANGE) ? NEW_DOCUMENT : `document.${status}`;
	const items: INodeExecutionData[] = [
		{ json: { event, document: doc, previousStatus: null, detectedAt: new Date().toISOString() } },
	];
	await attachFiles.call(this, items, options);
	return [items];
}

/** "Fetch Test Event" with only signer events: the newest signer who did one of them, as it would be reported. */
async function sampleSignerEvent(this: IPollFunctions, events: string[], search: string): Promise<INodeExecutionData[][]> {
	const docs = await newestDocuments.call(this, undefined, search);
	const ids = docs
		.filter((doc) => SIGNED_STATUSES.includes(String(doc.status)))
		.slice(0, MAX_SAMPLE_READS)
		.map((doc) => String(doc.id));
	const warn = (message: string) => this.logger.warn(`eSign Status Trigger "${this.getNode().name}": ${message}`);
	const { changes } = await readSigners(documentReader(this, search), ids, undefined, { emitExisting: true, warn });
	const found = changes.find((change) => events.includes(`signer.${change.status}`));
	if (!found) throw noMatch(this);
	const { document, signer, status } = found;
	return [[{ json: { event: `signer.${status}`, document, signer, previousStatus: null, detectedAt: new Date().toISOString() } }]];
}
