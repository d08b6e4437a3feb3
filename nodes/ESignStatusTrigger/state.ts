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
	/**
	 * Only while signer events are chosen: per open document, its signers that are no longer pending.
	 * Absent: signer statuses were never recorded (the next poll records them without reporting).
	 */
	signers?: SignerStates;
}

/** Signer statuses remembered between polls; a signer not listed is pending. */
export const SIGNER_STATUSES = ['viewed', 'signed', 'declined'] as const;
export type SignerStatus = (typeof SIGNER_STATUSES)[number];
/** Document id → signer id → status. */
export type SignerStates = Map<string, Map<string, SignerStatus>>;
const SIGNER_CODE: Record<SignerStatus, string> = { viewed: 'v', signed: 's', declined: 'x' };
const SIGNER_OF_CODE: Record<string, SignerStatus> = { v: 'viewed', s: 'signed', x: 'declined' };

/** Most signer statuses remembered (open documents with many signers count several times). */
export const MAX_SIGNERS = 50000;

export function isSignerStatus(status: unknown): status is SignerStatus {
	return typeof status === 'string' && (SIGNER_STATUSES as readonly string[]).includes(status);
}

const signerCount = (signers: SignerStates) => [...signers.values()].reduce((sum, m) => sum + m.size, 0);

/** "12.34v,12.35s": document id, signer id, status letter; no names or emails. */
function readSigners(text: string): SignerStates | undefined {
	const map: SignerStates = new Map();
	for (const entry of text === '' ? [] : text.split(',')) {
		const match = /^(\d+)\.(\d+)([a-z])$/.exec(entry);
		const status = match ? SIGNER_OF_CODE[match[3]] : undefined;
		if (!match || !status || !isWholeId(match[1]) || !isWholeId(match[2])) return undefined;
		const ofDoc = map.get(match[1]) ?? new Map<string, SignerStatus>();
		ofDoc.set(match[2], status);
		map.set(match[1], ofDoc);
	}
	return map;
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
	const { maxId, counts, open, polls, signers } = data;
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
	let signerStates: SignerStates | undefined;
	if (signers !== undefined) {
		if (typeof signers !== 'string' || signers.split(',').length > MAX_SIGNERS) return { problem: 'its signer list is not valid' };
		signerStates = readSigners(signers);
		if (!signerStates) return { problem: 'its signer list is corrupt' };
	}
	const countValues: Counts = {};
	for (const [key, value] of Object.entries(counts as IDataObject)) {
		// A count the site left out was once stored as NaN, which JSON keeps as null: unknown, not corrupt.
		if (value === null) continue;
		if (typeof value !== 'number') return { problem: 'its counts are corrupt' };
		countValues[key] = value;
	}
	return { state: { maxId, counts: countValues, open: map, polls, ...(signerStates ? { signers: signerStates } : {}) } };
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
	if (state.signers) {
		data.signers = [...state.signers]
			.flatMap(([doc, ofDoc]) => [...ofDoc].map(([signer, status]) => `${doc}.${signer}${SIGNER_CODE[status]}`))
			.join(',');
	}
}

/**
 * Keeps the newest MAX_TRACKED open documents, and signer statuses of open documents only, at most
 * MAX_SIGNERS of them (the oldest documents go first, signers and all); returns how many documents were dropped.
 */
export function boundTracked(state: PollState): number {
	const { open, signers } = state;
	const ids = [...open.keys()].sort((a, b) => Number(a) - Number(b));
	let drop = Math.max(0, open.size - MAX_TRACKED);
	if (signers) {
		for (const id of signers.keys()) if (!open.has(id)) signers.delete(id);
		let count = signerCount(signers);
		for (let i = 0; i < drop; i++) count -= signers.get(ids[i])?.size ?? 0;
		while (count > MAX_SIGNERS && drop < ids.length) count -= signers.get(ids[drop++])?.size ?? 0;
	}
	for (const id of ids.slice(0, drop)) {
		open.delete(id);
		signers?.delete(id);
	}
	return drop;
}

export function sameCounts(a: Counts, b: Counts): boolean {
	return COUNT_KEYS.every((key) => a[key] === b[key]);
}
