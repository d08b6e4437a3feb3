import type { IDataObject } from 'n8n-workflow';

import { isWholeId } from '../shared/values';
import type { Change } from './detect';
import type { OpenStatus, PollState, SignerStates, SignerStatus } from './state';
import { isSignerStatus } from './state';

export const SIGNER_EVENTS = ['signer.viewed', 'signer.signed', 'signer.declined'];

const isSet = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/**
 * What a signer's record says happened, by the spec: a decline is recorded in declined_at (with
 * decline_reason), whatever the status says (the spec names pending, viewed and signed as the statuses in use);
 * otherwise the status. A status the spec does not show is read by the signer's timestamps (signed_at, then
 * viewed_at); 'unknown' when they tell nothing either.
 */
export function signerState(signer: IDataObject): SignerStatus | 'pending' | 'unknown' {
	const status = signer.status;
	if (isSet(signer.declined_at) || status === 'declined') return 'declined';
	if (status === 'pending' || isSignerStatus(status)) return status;
	if (isSet(signer.signed_at)) return 'signed';
	if (isSet(signer.viewed_at)) return 'viewed';
	return 'unknown';
}

/** Signer statuses already warned about, so a signer kept in an unknown status is logged once, not on every poll. */
const warned = new Set<string>();
const MAX_WARNED = 1000;

/** Logs once (per key, while n8n runs) a signer status the node cannot read. */
function warnOnce(warn: ((message: string) => void) | undefined, key: string, message: string): void {
	if (!warn || warned.has(key)) return;
	if (warned.size >= MAX_WARNED) warned.clear();
	warned.add(key);
	warn(message);
}

export interface ReadSignersOptions {
	/** Report each signer who viewed, signed or declined when nothing was known before (Emit Existing, test events). */
	emitExisting?: boolean;
	/** Where a signer status the node cannot read is logged (this.logger.warn); `scope` names the node in the key. */
	warn?: (message: string) => void;
	scope?: string;
}

export interface SignerChange {
	documentId: string;
	/** The document as read now, without its signers and fields (the signer is in `signer`). */
	document: IDataObject;
	signer: IDataObject;
	/** The signer's status at the last poll; null when reported by Emit Existing. */
	previousStatus: string | null;
	status: SignerStatus;
}

/** GET /documents/{id} (the one read that carries the signers); undefined when the document is gone. */
export type ReadDocument = (id: string) => Promise<IDataObject | undefined>;

export const wantsSigners = (events: string[]) => events.some((event) => SIGNER_EVENTS.includes(event));

/**
 * The documents whose signers may have changed since the last poll: every document viewed now, and
 * every one that changed status (or arrived) to anything past sent. A signer's view, signature or
 * decline on a sent document makes it viewed (the site records the view first), so a document still
 * sent — and a draft — has nobody to report; that keeps the cost to the documents being signed.
 */
export function documentsToRead(open: Map<string, OpenStatus>, changes: Change[]): string[] {
	const ids = new Set<string>();
	for (const [id, status] of open) if (status === 'viewed') ids.add(id);
	for (const change of changes) if (change.status !== 'draft' && change.status !== 'sent') ids.add(change.id);
	return [...ids].sort((a, b) => Number(a) - Number(b));
}

/**
 * Reads `ids` and compares their signers with `known` (a signer not listed there was pending).
 * `known` undefined: signer statuses were never recorded, so this only records them — or, with
 * `emitExisting`, reports each signer who viewed, signed or declined, with previousStatus null.
 * Returns the statuses to remember for the documents read and the changes to report.
 */
export async function readSigners(
	read: ReadDocument,
	ids: string[],
	known: SignerStates | undefined,
	{ emitExisting = false, warn, scope = '' }: ReadSignersOptions = {},
): Promise<{ seen: SignerStates; changes: SignerChange[] }> {
	const seen: SignerStates = new Map();
	const changes: SignerChange[] = [];
	for (const documentId of ids) {
		const doc = await read(documentId);
		if (!doc) continue; // deleted (or renamed out of the search): nothing to report
		const document: IDataObject = { ...doc };
		delete document.signers;
		delete document.fields;
		const statuses = new Map<string, SignerStatus>();
		for (const signer of doc.signers as IDataObject[]) {
			const id = String(signer.id ?? '');
			if (!isWholeId(id)) continue;
			const before = known?.get(documentId)?.get(id) ?? 'pending';
			const status = signerState(signer);
			if (status === 'unknown') {
				// Not dropped in silence: logged, and what was known of the signer is kept until the record says more.
				const shown = JSON.stringify(signer.status ?? null);
				warnOnce(warn, `${scope}|${documentId}.${id}|${shown}`, `Signer ${id} of document ${documentId} has the status ${shown}, which the spec does not show, and no viewed_at, signed_at or declined_at: no signer event can be told from it. It is reported once its record shows a view, signature or decline.`);
				if (before !== 'pending') statuses.set(id, before);
				continue;
			}
			if (status === 'pending') continue;
			statuses.set(id, status);
			if (known ? status === before : !emitExisting) continue;
			changes.push({ documentId, document, signer, previousStatus: known ? before : null, status });
		}
		seen.set(documentId, statuses);
	}
	return { seen, changes };
}

/**
 * After the document changes of a poll (`state`, `changes`): reads the signers that may have moved, sets
 * `state.signers` to what to remember — the statuses read now, else those known, for documents still
 * open — and returns the signer changes to report.
 */
export async function watchSigners(
	read: ReadDocument,
	state: PollState,
	changes: Change[],
	known: SignerStates | undefined,
	options: ReadSignersOptions = {},
): Promise<SignerChange[]> {
	const found = await readSigners(read, documentsToRead(state.open, changes), known, options);
	const merged: SignerStates = new Map();
	for (const id of state.open.keys()) {
		const statuses = found.seen.get(id) ?? known?.get(id);
		if (statuses && statuses.size > 0) merged.set(id, statuses);
	}
	state.signers = merged;
	return found.changes;
}
