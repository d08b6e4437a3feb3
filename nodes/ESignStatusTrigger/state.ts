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
 * Earlier formats, each brought to the next (version n → n + 1) before reading. Version 1 is the first format
 * (0.1.0), so none exist yet; a change to the format adds one here, and a test that reads the frozen earlier
 * format (test/unit/ESignStatusTrigger/stateFormats.test.ts). CONTRIBUTING.md → Versioning policy.
 */
const MIGRATIONS: Record<number, (data: IDataObject) => IDataObject> = {};

/** The parts of a version-1 state, each read on its own; undefined where that part cannot be trusted. */
function readParts(data: IDataObject) {
	const { maxId, counts, open, polls, signers } = data;
	const parts: { maxId?: number; polls?: number; counts?: Counts; open?: Map<string, OpenStatus>; signers?: SignerStates; problems: string[] } = { problems: [] };
	if (typeof maxId === 'number' && Number.isSafeInteger(maxId) && maxId >= 0) parts.maxId = maxId;
	else parts.problems.push('its highest id is not valid');
	if (typeof polls === 'number' && Number.isSafeInteger(polls) && polls >= 0) parts.polls = polls;
	else parts.problems.push('its poll count is not valid');
	if (typeof counts === 'object' && counts !== null && !Array.isArray(counts)) {
		const countValues: Counts = {};
		for (const [key, value] of Object.entries(counts as IDataObject)) {
			// A count the site left out was once stored as NaN, which JSON keeps as null: unknown, not corrupt.
			if (typeof value === 'number') countValues[key] = value;
			else if (value !== null) parts.problems.push('its counts are corrupt');
		}
		if (!parts.problems.includes('its counts are corrupt')) parts.counts = countValues;
	} else {
		parts.problems.push('its counts are missing');
	}
	if (typeof open !== 'string') {
		parts.problems.push('its document list is missing');
	} else {
		const entries = open === '' ? [] : open.split(',');
		const map = new Map<string, OpenStatus>();
		for (const entry of entries) {
			const id = entry.slice(0, -1);
			const status = STATUS_OF_CODE[entry.slice(-1)];
			if (isWholeId(id) && status) map.set(id, status);
		}
		if (map.size !== entries.length) parts.problems.push('its document list is corrupt');
		else if (entries.length > MAX_TRACKED) parts.problems.push(`it tracks ${entries.length} documents, more than ${MAX_TRACKED}`);
		else parts.open = map;
	}
	if (signers !== undefined) {
		const signerStates = typeof signers === 'string' && signers.split(',').length <= MAX_SIGNERS ? readSigners(signers) : undefined;
		if (signerStates) parts.signers = signerStates;
		else parts.problems.push(typeof signers === 'string' && signers.split(',').length <= MAX_SIGNERS ? 'its signer list is corrupt' : 'its signer list is not valid');
	}
	return parts;
}

/**
 * Reads the state kept in the node's static data, bringing an earlier format to today's. `undefined` when there
 * is none yet. What cannot be read in full is never dropped in silence: `problem` says why, and `state` holds
 * what could be recovered (the highest id, and the counts left empty so the next poll compares every list), so
 * new documents are still reported; `recovered` lists what was kept. Only a state with no readable highest id
 * is recorded afresh.
 */
export function readState(data: IDataObject): { state?: PollState; problem?: string; recovered?: string } {
	if (data.v === undefined) return {};
	let current = data;
	let version = current.v;
	while (typeof version === 'number' && version < STATE_VERSION && MIGRATIONS[version]) {
		current = MIGRATIONS[version](current);
		version = current.v;
	}
	const parts = readParts(current);
	const unknownVersion = version !== STATE_VERSION;
	if (!unknownVersion && parts.problems.length === 0) {
		const { maxId, counts, open, polls, signers } = parts as Required<typeof parts>;
		return { state: { maxId, counts, open, polls, ...(signers ? { signers } : {}) } };
	}
	const problem = [...(unknownVersion ? [`it has an unknown format (version ${JSON.stringify(data.v)})`] : []), ...parts.problems].join(', ');
	// The highest id: stored, or the highest open id that could be read.
	const maxId = parts.maxId ?? (parts.open && parts.open.size ? Math.max(...[...parts.open.keys()].map(Number)) : undefined);
	if (maxId === undefined) return { problem };
	const open = parts.open ?? new Map<string, OpenStatus>();
	const recovered = [`the highest id (${maxId})`, ...(parts.open ? [`${open.size} open documents and their statuses`] : [])].join(' and ');
	// Empty counts: the next poll lists every open status, so documents it no longer tracks are tracked again.
	return { state: { maxId, counts: {}, open, polls: parts.polls ?? 0, ...(parts.signers && parts.open ? { signers: parts.signers } : {}) }, problem, recovered };
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
