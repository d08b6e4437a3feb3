import type { IDataObject } from 'n8n-workflow';

import type { Page } from '../shared/pages';
import { walkPages } from '../shared/pages';
import { isWholeId } from '../shared/values';
import type { Counts, OpenStatus, PollState } from './state';
import { COUNT_KEYS, OPEN_STATUSES, isOpenStatus, sameCounts } from './state';

/** The three reads detection needs; the node backs them with the transport. */
export interface StatusApi {
	stats(): Promise<IDataObject>;
	/** One page of GET /documents (newest first on a spec site; any order still works). */
	listPage(page: number, status?: OpenStatus): Promise<Page<IDataObject>>;
	/** GET /documents/{id}; undefined when the document no longer exists (404). */
	get(id: string): Promise<IDataObject | undefined>;
}

export const PAGE_SIZE = 100;

export interface Change {
	id: string;
	document: IDataObject;
	/** The status seen at the last poll; null for a document first seen now. */
	previousStatus: OpenStatus | null;
	status: string;
	isNew: boolean;
}

function idOf(doc: IDataObject): string | undefined {
	const id = String(doc.id ?? '');
	return isWholeId(id) ? id : undefined;
}

/**
 * The counts /stats gave. One it left out (an older or trimmed site) is unknown and stays out: it then
 * equals the same unknown count of the last poll, where a NaN would read as a change on every poll and,
 * stored as null, as a corrupt state.
 */
export function toCounts(stats: IDataObject): Counts {
	const counts: Counts = {};
	for (const key of COUNT_KEYS) {
		const value = stats[key] === undefined || stats[key] === null ? NaN : Number(stats[key]);
		if (Number.isFinite(value)) counts[key] = value;
	}
	return counts;
}

/** Every page of one list: `status` documents, or all documents. */
export async function listAll(api: StatusApi, status?: OpenStatus): Promise<IDataObject[]> {
	const all: IDataObject[] = [];
	await walkPages(PAGE_SIZE, (page) => api.listPage(page, status), (items) => {
		all.push(...items);
	});
	return all;
}

/**
 * Documents with an id above `maxId`. On a newest-first list this stops at the first page that
 * reaches a known id (usually one request); on any other order it reads on to the end.
 */
async function newDocuments(api: StatusApi, maxId: number): Promise<IDataObject[]> {
	const found: IDataObject[] = [];
	await walkPages(PAGE_SIZE, (page) => api.listPage(page), (items) => {
		const ids = items.map((doc) => Number(idOf(doc) ?? 0));
		for (let i = 0; i < items.length; i++) if (ids[i] > maxId) found.push(items[i]);
		const descending = ids.every((id, i) => i === 0 || id < ids[i - 1]);
		return !(descending && ids.some((id) => id <= maxId));
	});
	return found;
}

/** First poll: what exists now, nothing emitted. `all` is the full list when the caller has it. */
export async function recordState(api: StatusApi, all?: IDataObject[]): Promise<PollState> {
	const counts = toCounts(await api.stats());
	const open = new Map<string, OpenStatus>();
	let maxId = 0;
	const take = (doc: IDataObject) => {
		const id = idOf(doc);
		if (!id) return;
		maxId = Math.max(maxId, Number(id));
		if (isOpenStatus(doc.status)) open.set(id, doc.status);
	};
	if (all) {
		all.forEach(take);
	} else {
		const { items } = await api.listPage(1);
		items.forEach(take);
		for (const status of OPEN_STATUSES) (await listAll(api, status)).forEach(take);
	}
	return { maxId, counts, open, polls: 0 };
}

/**
 * One poll. Reads /stats; when nothing changed (and no rescan is due) that is the only request.
 * Otherwise it reads the new documents, then the lists of the open statuses whose count changed,
 * and follows every move it finds: a status that lost a document to a move, or gained a new or
 * moved one, is listed too (its count may have stayed the same). A tracked document missing from
 * its list is read once by id. What no count reveals — moves that cancel out, such as two
 * documents swapping draft and sent — is caught by the full rescan (`rescan`).
 */
export async function detectChanges(
	api: StatusApi,
	state: PollState,
	rescan: boolean,
): Promise<{ state: PollState; changes: Change[] }> {
	const counts = toCounts(await api.stats());
	const polls = state.polls + 1;
	if (!rescan && sameCounts(counts, state.counts)) {
		return { state: { ...state, polls }, changes: [] };
	}

	const open = new Map(state.open);
	const changes: Change[] = [];
	let maxId = state.maxId;
	const seen = new Set<string>();
	// A status whose count changed is listed, and one whose count the site does not give: it may have too.
	const toList = new Set<OpenStatus>(
		rescan ? OPEN_STATUSES : OPEN_STATUSES.filter((status) => counts[status] === undefined || counts[status] !== state.counts[status]),
	);
	const listed = new Set<OpenStatus>();

	for (const doc of await newDocuments(api, state.maxId)) {
		const id = idOf(doc);
		if (!id || seen.has(id)) continue;
		seen.add(id);
		maxId = Math.max(maxId, Number(id));
		const status = String(doc.status ?? '');
		changes.push({ id, document: doc, previousStatus: null, status, isNew: true });
		if (isOpenStatus(status)) {
			open.set(id, status);
			toList.add(status);
		}
	}

	const move = (id: string, doc: IDataObject, status: string) => {
		const previous = open.get(id);
		if (!previous || previous === status) return;
		changes.push({ id, document: doc, previousStatus: previous, status, isNew: false });
		// The status it left lost one: if that count held, another document came in.
		toList.add(previous);
		if (isOpenStatus(status)) {
			open.set(id, status);
			toList.add(status);
		} else {
			open.delete(id);
		}
	};

	for (;;) {
		const next = OPEN_STATUSES.find((status) => toList.has(status) && !listed.has(status));
		if (next) {
			listed.add(next);
			const inList = new Set<string>();
			for (const doc of await listAll(api, next)) {
				const id = idOf(doc);
				if (!id || Number(id) > state.maxId) continue; // new ones are handled above
				inList.add(id);
				seen.add(id);
				if (open.has(id)) move(id, doc, next);
				// An open document not tracked (e.g. beyond the size bound): track it from now on.
				else open.set(id, next);
			}
			continue;
		}
		// Tracked documents missing from the list of the status they had: read each once.
		const missing = [...open].filter(([id, status]) => listed.has(status) && !seen.has(id)).map(([id]) => id);
		if (missing.length === 0) break;
		for (const id of missing) {
			seen.add(id);
			const doc = await api.get(id);
			if (!doc || !idOf(doc)) {
				open.delete(id); // deleted: nothing to report
				continue;
			}
			const status = String(doc.status ?? '');
			if (status === open.get(id)) continue;
			move(id, doc, status);
		}
	}

	return { state: { maxId, counts, open, polls }, changes };
}
