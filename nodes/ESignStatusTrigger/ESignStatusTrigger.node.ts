import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { downloadDocument } from '../shared/documentFile';
import type { ESignRequestOptions } from '../shared/transport';
import { MAX_PER_PAGE, eSignApiGetIfFound, eSignApiGetPage, eSignApiRequest, forgetSiteAccess } from '../shared/transport';
import type { Change, StatusApi } from './detect';
import { PAGE_SIZE, detectChanges, listAll, recordState } from './detect';
import type { OpenStatus, PollState } from './state';
import { ALL_STATUSES, boundTracked, readState, writeState } from './state';

/** A poll ends on a 429 instead of waiting: the next poll picks up from the last good state. */
const POLL_REQUEST: ESignRequestOptions = { maxRateLimitWait: 0, timeout: 30 };

const NEW_DOCUMENT = 'document.created';
const ANY_CHANGE = '*';

interface PollOptions {
	search?: string;
	statusScope?: string[];
	emitExisting?: boolean;
	rescanEvery?: number;
	downloadDocument?: boolean;
	binaryPropertyName?: string;
}

function errorText(error: unknown): string {
	const { message, description } = (error ?? {}) as { message?: unknown; description?: unknown };
	const text = typeof message === 'string' && message ? message : 'Download failed';
	return typeof description === 'string' && description ? `${text}: ${description}` : text;
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

export class ESignStatusTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'eSign Status Trigger',
		name: 'eSignStatusTrigger',
		icon: { light: 'file:../../icons/esign.svg', dark: 'file:../../icons/esign.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ ($parameter["events"] || []).join(", ") }}',
		description:
			'Starts the workflow when a document changes status on the eSign site, by polling (for n8n instances the site cannot reach)',
		defaults: {
			name: 'eSign Status Trigger',
		},
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'eSignApi',
				required: true,
			},
		],
		properties: [
			{
				displayName:
					'Polls the site for status changes; no webhook needed. A poll where nothing changed costs one request (GET /stats). Prefer the webhook-based eSign Trigger when the site can reach this n8n.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['document.completed'],
				description: 'Which status changes start the workflow. Each change is reported once.',
				options: [
					{
						name: 'Any Status Change',
						value: ANY_CHANGE,
						description: 'Every status change of a document, including a move back to draft',
					},
					{
						name: 'Document Completed',
						value: 'document.completed',
						description: 'Every signer has signed',
					},
					{
						name: 'Document Declined',
						value: 'document.declined',
						description: 'A signer declined',
					},
					{
						name: 'Document Expired',
						value: 'document.expired',
						description: 'The document expired before everyone signed',
					},
					{
						name: 'Document Sent',
						value: 'document.sent',
						description: 'The document was sent to its signers',
					},
					{
						name: 'Document Viewed',
						value: 'document.viewed',
						description: 'A signer opened the document',
					},
					{
						name: 'New Document',
						value: NEW_DOCUMENT,
						description: 'A document was created (upload, create or from a template)',
					},
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Binary Property',
						name: 'binaryPropertyName',
						type: 'string',
						default: 'data',
						displayOptions: { show: { downloadDocument: [true] } },
						description: 'Name of the binary property to put the downloaded document in',
					},
					{
						displayName: 'Download Document',
						name: 'downloadDocument',
						type: 'boolean',
						default: false,
						description:
							'Whether to attach the signed PDF as binary data to completed documents. If the download fails, the event is still emitted, with the error in "downloadError".',
					},
					{
						displayName: 'Emit Existing',
						name: 'emitExisting',
						type: 'boolean',
						default: false,
						description:
							'Whether the first poll after activation emits the documents that exist already (as if each were new). Off: the first poll only records the current state.',
					},
					{
						displayName: 'Full Rescan Every N Polls',
						name: 'rescanEvery',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 60,
						description:
							'Reads the lists of open documents every N polls even when /stats shows no change, to catch changes that cancel out in the counts (e.g. two documents swapping draft and sent). 0 = never.',
					},
					{
						displayName: 'Search',
						name: 'search',
						type: 'string',
						default: '',
						description: 'Only documents whose title contains this text (the API\'s search)',
					},
					{
						displayName: 'Status Scope',
						name: 'statusScope',
						type: 'multiOptions',
						default: [],
						description: 'Only report documents whose new status is one of these. Empty = any status.',
						options: ALL_STATUSES.map((status) => ({
							name: status.charAt(0).toUpperCase() + status.slice(1),
							value: status,
						})),
					},
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		try {
			return await pollOnce.call(this);
		} finally {
			forgetSiteAccess.call(this);
		}
	}
}

async function pollOnce(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
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
			item.json.downloadError = errorText(error);
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
