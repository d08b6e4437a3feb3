import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { eSignApiGetPage, eSignApiRequest } from '../shared/transport';
import type { PollOptions } from './common';
import { ANY_CHANGE, DEFAULT_RESCAN_EVERY, NEW_DOCUMENT, POLL_REQUEST, attachFiles, documentReader } from './common';
import type { Change, StatusApi } from './detect';
import { PAGE_SIZE, detectChanges, listAll, recordState } from './detect';
import { sampleEvent } from './sample';
import type { ReadSignersOptions, SignerChange } from './signers';
import { wantsSigners, watchSigners } from './signers';
import type { OpenStatus, PollState } from './state';
import { boundTracked, readState, writeState } from './state';

/** The three reads detection needs, through the package's transport. */
function statusApi(context: IPollFunctions, search: string, seen: Map<string, IDataObject>): StatusApi {
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
		get: documentReader(context, search, 'object', seen),
	};
}

/** One poll (or, in manual mode, the test event): reads, compares with the stored state, emits. */
export async function pollOnce(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const events = this.getNodeParameter('events', []) as string[];
	const options = this.getNodeParameter('options', {}) as PollOptions;
	const search = typeof options.search === 'string' ? options.search.trim() : '';
	const rescanEvery = Number(options.rescanEvery ?? DEFAULT_RESCAN_EVERY);
	if (!Number.isInteger(rescanEvery) || rescanEvery < 0) {
		throw new NodeOperationError(this.getNode(), 'Options › Full Rescan Every N Polls must be a whole number, 0 or more', {
			description: `It is ${JSON.stringify(options.rescanEvery)}.`,
		});
	}
	if (events.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Choose at least one event under Events');
	}
	// Documents read by id in this poll: a finished document that detection read is not read again for its signers.
	const seen = new Map<string, IDataObject>();
	const api = statusApi(this, search, seen);
	const read = documentReader(this, search, ['signers[]'], seen);
	// Signer events cost a read per document being signed, so signers are only looked at when chosen.
	const signerEvents = wantsSigners(events);
	const nodeName = this.getNode().name;
	const signerOptions: ReadSignersOptions = {
		warn: (message) => this.logger.warn(`eSign Status Trigger "${nodeName}": ${message}`),
		scope: `${this.getWorkflow().id ?? ''}|${this.getNode().id}`,
	};

	if (this.getMode() === 'manual') return await sampleEvent.call(this, events, options, search);

	const data = this.getWorkflowStaticData('node');
	const { state: stored, problem, recovered } = readState(data);
	if (problem && recovered) {
		this.logger.warn(
			`eSign Status Trigger "${nodeName}": its stored state could not be read in full because ${problem}. It goes on from what could be read, ${recovered}: new documents are still reported, but a status change of a document it no longer knows about, made since the last good poll, is not.`,
		);
	} else if (problem) {
		this.logger.warn(`eSign Status Trigger "${nodeName}": its stored state was reset because ${problem}. Changes since the last good poll are not reported.`);
	}

	if (!stored) {
		// First poll (or after a reset): record what exists; emit it only when asked to.
		const all = options.emitExisting === true && !problem ? await listAll(api) : undefined;
		const state = await recordState(api, all);
		const signerChanges = signerEvents ? await watchSigners(read, state, [], undefined, { ...signerOptions, emitExisting: all !== undefined }) : [];
		keep.call(this, data, state);
		if (!all) return null;
		const changes: Change[] = all
			.filter((doc) => doc.id !== undefined)
			.map((doc) => ({ id: String(doc.id), document: doc, previousStatus: null, status: String(doc.status ?? ''), isNew: true }));
		return await emit.call(this, changes, signerChanges, events, options);
	}

	const rescan = rescanEvery > 0 && (stored.polls + 1) % rescanEvery === 0;
	// The state is written only once every request of the poll has succeeded: a failed poll
	// (429, 5xx, network) leaves the last good state, and the next poll repeats the comparison.
	const { state, changes } = await detectChanges(api, stored, rescan);
	// Without signer events no signer state is kept, so choosing them later starts with a fresh record.
	state.signers = undefined;
	const signerChanges = signerEvents ? await watchSigners(read, state, changes, stored.signers, signerOptions) : [];
	const output = await emit.call(this, changes, signerChanges, events, options);
	keep.call(this, data, state);
	return output;
}

function keep(this: IPollFunctions, data: IDataObject, state: PollState): void {
	const dropped = boundTracked(state);
	if (dropped > 0) {
		this.logger.warn(
			`eSign Status Trigger "${this.getNode().name}": more open documents than it can remember; the ${dropped} oldest are no longer watched.`,
		);
	}
	writeState(data, state);
}

/** The events a change stands for, given the chosen events and scope (which applies to document events). */
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

/**
 * The items of a poll, per document in the order things happened: created, its signers, its new
 * status (so a last signature reads Signer Signed, then Document Completed).
 */
async function emit(
	this: IPollFunctions,
	changes: Change[],
	signerChanges: SignerChange[],
	events: string[],
	options: PollOptions,
): Promise<INodeExecutionData[][] | null> {
	const scope = Array.isArray(options.statusScope) ? options.statusScope : [];
	const detectedAt = new Date().toISOString();
	const items: INodeExecutionData[] = [];
	const signerItems = new Map<string, INodeExecutionData[]>();
	for (const { documentId, document, signer, previousStatus, status } of signerChanges) {
		const event = `signer.${status}`;
		if (!events.includes(event)) continue;
		const list = signerItems.get(documentId) ?? [];
		list.push({ json: { event, document, signer, previousStatus, detectedAt } });
		signerItems.set(documentId, list);
	}
	const signerItemsOf = (id: string) => {
		const list = signerItems.get(id) ?? [];
		signerItems.delete(id);
		return list;
	};
	for (const change of changes) {
		const documentEvents = eventsFor(change, events, scope);
		const item = (event: string) => ({
			json: { event, document: change.document, previousStatus: change.previousStatus, detectedAt },
		});
		if (documentEvents[0] === NEW_DOCUMENT) items.push(item(documentEvents.shift() as string));
		items.push(...signerItemsOf(change.id), ...documentEvents.map(item));
	}
	for (const list of signerItems.values()) items.push(...list);
	if (items.length === 0) return null;
	await attachFiles.call(this, items, options);
	return [items];
}

