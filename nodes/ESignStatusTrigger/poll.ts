import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { downloadDocument, downloadErrorText } from '../shared/documentFile';
import type { ESignRequestOptions } from '../shared/transport';
import { MAX_PER_PAGE, eSignApiGetIfFound, eSignApiGetPage, eSignApiRequest } from '../shared/transport';
import type { Change, StatusApi } from './detect';
import { PAGE_SIZE, detectChanges, listAll, recordState } from './detect';
import type { OpenStatus, PollState } from './state';
import { boundTracked, readState, writeState } from './state';

/** A poll ends on a 429 instead of waiting: the next poll picks up from the last good state. */
const POLL_REQUEST: ESignRequestOptions = { maxRateLimitWait: 0, timeout: 30 };

export const NEW_DOCUMENT = 'document.created';
export const ANY_CHANGE = '*';

interface PollOptions {
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

/** The three reads detection needs, through the package's transport. */
function statusApi(context: IPollFunctions, search: string): StatusApi {
	return {
		async stats() {
			return (await eSignApiRequest.call(context, 'GET', '/stats', { ...POLL_REQUEST, expect: ['total'] })) as IDataObject;
		},
		async listPage(page: number, status?: OpenStatus) {
			const qs: IDataObject = { page, per_page: PAGE_SIZE };
			if (status) qs.status = status;
			if (search) qs.search = search;
			return await eSignApiGetPage.call(context, '/documents', { ...POLL_REQUEST, qs });
		},
		async get(id: string) {
			const doc = (await eSignApiGetIfFound.call(context, `/documents/${id}`, { ...POLL_REQUEST, expect: 'object' })) as
				| IDataObject
				| undefined;
			// Deleted, or renamed out of the search: no longer what this trigger watches.
			return doc && titleMatches(doc, search) ? doc : undefined;
		},
	};
}

/** One poll (or, in manual mode, the test event): reads, compares with the stored state, emits. */
export async function pollOnce(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const events = this.getNodeParameter('events', []) as string[];
	const options = this.getNodeParameter('options', {}) as PollOptions;
	const search = typeof options.search === 'string' ? options.search.trim() : '';
	const rescanEvery = Number(options.rescanEvery ?? 60);
	if (!Number.isInteger(rescanEvery) || rescanEvery < 0) {
		throw new NodeOperationError(this.getNode(), 'Options › Full Rescan Every N Polls must be a whole number, 0 or more', {
			description: `It is ${JSON.stringify(options.rescanEvery)}.`,
		});
	}
	if (events.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Choose at least one event under Events');
	}
	const api = statusApi(this, search);

	if (this.getMode() === 'manual') return await sampleEvent.call(this, events, options, search);

	const data = this.getWorkflowStaticData('node');
	const { state: stored, problem } = readState(data);
	if (problem) {
		this.logger.warn(`eSign Status Trigger "${this.getNode().name}": its stored state was reset because ${problem}. Changes since the last good poll are not reported.`);
	}

	if (!stored) {
		// First poll (or after a reset): record what exists; emit it only when asked to.
		const all = options.emitExisting === true && !problem ? await listAll(api) : undefined;
		const state = await recordState(api, all);
		keep.call(this, data, state);
		if (!all) return null;
		const changes: Change[] = all
			.filter((doc) => doc.id !== undefined)
			.map((doc) => ({ id: String(doc.id), document: doc, previousStatus: null, status: String(doc.status ?? ''), isNew: true }));
		return await emit.call(this, changes, events, options);
	}

	const rescan = rescanEvery > 0 && (stored.polls + 1) % rescanEvery === 0;
	// The state is written only once every request of the poll has succeeded: a failed poll
	// (429, 5xx, network) leaves the last good state, and the next poll repeats the comparison.
	const { state, changes } = await detectChanges(api, stored, rescan);
	const output = await emit.call(this, changes, events, options);
	keep.call(this, data, state);
	return output;
}

function keep(this: IPollFunctions, data: IDataObject, state: PollState): void {
	const dropped = boundTracked(state.open);
	if (dropped > 0) {
		this.logger.warn(
			`eSign Status Trigger "${this.getNode().name}": more open documents than it can remember; the ${dropped} oldest are no longer watched.`,
		);
	}
	writeState(data, state);
}

/** The events a change stands for, given the chosen events and scope. */
function eventsFor(change: Change, events: string[], scope: string[]): string[] {
	if (scope.length > 0 && !scope.includes(change.status)) return [];
	const any = events.includes(ANY_CHANGE);
	const out: string[] = [];
	if (change.isNew && events.includes(NEW_DOCUMENT)) out.push(NEW_DOCUMENT);
	// A new document already past draft went through that status change since the last poll.
	if (!change.isNew || change.status !== 'draft') {
		const name = `document.${change.status}`;
		if (any || events.includes(name)) out.push(name);
	}
	return out;
}

async function emit(
	this: IPollFunctions,
	changes: Change[],
	events: string[],
	options: PollOptions,
): Promise<INodeExecutionData[][] | null> {
	const scope = Array.isArray(options.statusScope) ? options.statusScope : [];
	const detectedAt = new Date().toISOString();
	const items: INodeExecutionData[] = [];
	for (const change of changes) {
		for (const event of eventsFor(change, events, scope)) {
			items.push({
				json: { event, document: change.document, previousStatus: change.previousStatus, detectedAt },
			});
		}
	}
	if (items.length === 0) return null;
	await attachFiles.call(this, items, options);
	return [items];
}

async function attachFiles(this: IPollFunctions, items: INodeExecutionData[], options: PollOptions): Promise<void> {
	if (options.downloadDocument !== true) return;
	const property = options.binaryPropertyName?.trim() || 'data';
	for (const item of items) {
		const doc = item.json.document as IDataObject;
		if (doc.status !== 'completed' || item.json.event === NEW_DOCUMENT) continue;
		try {
			const file = await downloadDocument.call(this, String(doc.id), { ...POLL_REQUEST, maxRateLimitWait: 5 });
			item.binary = { [property]: file.binary };
		} catch (error) {
			item.json.downloadError = downloadErrorText(error);
		}
	}
}

/** "Fetch Test Event": the newest matching document, as the event it would be reported as. */
async function sampleEvent(
	this: IPollFunctions,
	events: string[],
	options: PollOptions,
	search: string,
): Promise<INodeExecutionData[][]> {
	const scope = Array.isArray(options.statusScope) ? options.statusScope : [];
	const wanted = events.includes(ANY_CHANGE) || events.includes(NEW_DOCUMENT)
		? []
		: events.map((event) => event.replace(/^document\./, ''));
	const statuses = scope.length > 0 ? scope.filter((s) => wanted.length === 0 || wanted.includes(s)) : wanted;
	const qs: IDataObject = { page: 1, per_page: MAX_PER_PAGE };
	if (statuses.length === 1) qs.status = statuses[0];
	if (search) qs.search = search;
	const docs = (await eSignApiRequest.call(this, 'GET', '/documents', { ...POLL_REQUEST, qs, expect: 'list' })) as IDataObject[];
	const doc = docs.find((d) => statuses.length === 0 || statuses.includes(String(d.status)));
	if (!doc) {
		throw new NodeOperationError(this.getNode(), 'No document on the site matches the chosen events and options yet', {
			description: 'Create or change a matching document on the site, then fetch a test event again.',
		});
	}
	const status = String(doc.status ?? '');
	const event = events.includes(NEW_DOCUMENT) && !events.includes(ANY_CHANGE) ? NEW_DOCUMENT : `document.${status}`;
	const items: INodeExecutionData[] = [
		{ json: { event, document: doc, previousStatus: null, detectedAt: new Date().toISOString() } },
	];
	await attachFiles.call(this, items, options);
	return [items];
}
