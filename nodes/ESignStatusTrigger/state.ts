import type { IDataObject } from 'n8n-workflow';

import { isWholeId } from '../shared/values';

/** Statuses a document can still leave; only documents in these are tracked between polls. */
export const OPEN_STATUSES = ['draft', 'sent', 'viewed'] as const;
export type OpenStatus = (typeof OPEN_STATUSES)[number];

export const ALL_STATUSES = ['draft', 'sent', 'viewed', 'completed', 'declined', 'expired'] as const;

/** The /stats members compared between polls (any difference means "look closer"). */
export const COUNT_KEYS = ['total', ...ALL_STATUSES, 'deleted'] as const;
export type Counts = Record<string, number>;

/** One letter per tracked status keeps the stored state small (ids and statuses only). */
const CODE: Record<OpenStatus, string> = { draft: 'd', sent: 's', viewed: 'v' };
const STATUS_OF_CODE: Record<string, OpenStatus> = { d: 'draft', s: 'sent', v: 'viewed' };

/** Most open documents remembered; beyond it the oldest ids are dropped (with a warning). */
export const MAX_TRACKED = 20000;

export const STATE_VERSION = 1;

export interface PollState {
	/** Highest document id seen: anything above it is new. */
	maxId: number;
	/** /stats as read at the start of the last good poll. */
	counts: Counts;
	/** Open documents by id, with the status seen last. */
	open: Map<string, OpenStatus>;
	/** Polls since the state was recorded (drives the periodic full rescan). */
	polls: number;
}

export function isOpenStatus(status: unknown): status is OpenStatus {
	return typeof status === 'string' && (OPEN_STATUSES as readonly string[]).includes(status);
}

/**
 * Reads the state kept in the node's static data. `undefined` when there is none yet; a
 * `problem` when what is there cannot be trusted (then the caller records the state afresh).
 */
export function readState(data: IDataObject): { state?: PollState; problem?: string } {
	if (data.v === undefined) return {};
	if (data.v !== STATE_VERSION) return { problem: `it has an unknown format (version ${JSON.stringify(data.v)})` };
	const { maxId, counts, open, polls } = data;
	if (typeof maxId !== 'number' || !Number.isSafeInteger(maxId) || maxId < 0) return { problem: 'its highest id is not valid' };
	if (typeof polls !== 'number' || !Number.isSafeInteger(polls) || polls < 0) return { problem: 'its poll count is not valid' };
	if (typeof counts !== 'object' || counts === null || Array.isArray(counts)) return { problem: 'its counts are missing' };
	if (typeof open !== 'string') return { problem: 'its document list is missing' };
	const entries = open === '' ? [] : open.split(',');
	if (entries.length > MAX_TRACKED) return { problem: `it tracks ${entries.length} documents, more than ${MAX_TRACKED}` };
	const map = new Map<string, OpenStatus>();
	for (const entry of entries) {
		const id = entry.slice(0, -1);
		const status = STATUS_OF_CODE[entry.slice(-1)];
		if (!isWholeId(id) || !status) return { problem: 'its document list is corrupt' };
		map.set(id, status);
	}
	const countValues: Counts = {};
	for (const [key, value] of Object.entries(counts as IDataObject)) {
		// A count the site left out was once stored as NaN, which JSON keeps as null: unknown, not corrupt.
		if (value === null) continue;
		if (typeof value !== 'number') return { problem: 'its counts are corrupt' };
		countValues[key] = value;
	}
	return { state: { maxId, counts: countValues, open: map, polls } };
}

/** Replaces the node's static data with `state`, in place (n8n saves the object it handed out). */
export function writeState(data: IDataObject, state: PollState): void {
	for (const key of Object.keys(data)) delete data[key];
	data.v = STATE_VERSION;
	data.maxId = state.maxId;
	data.counts = { ...state.counts };
	// "12d,15s,…": one short string instead of an object per document.
	data.open = [...state.open].map(([id, status]) => id + CODE[status]).join(',');
	data.polls = state.polls;
}

/** Keeps the newest MAX_TRACKED open documents; returns how many were dropped. */
export function boundTracked(open: Map<string, OpenStatus>): number {
	if (open.size <= MAX_TRACKED) return 0;
	const ids = [...open.keys()].sort((a, b) => Number(a) - Number(b));
	const drop = ids.slice(0, open.size - MAX_TRACKED);
	for (const id of drop) open.delete(id);
	return drop.length;
}

export function sameCounts(a: Counts, b: Counts): boolean {
	return COUNT_KEYS.every((key) => a[key] === b[key]);
}
