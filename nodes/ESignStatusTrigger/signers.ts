import type { IDataObject } from 'n8n-workflow';

import { isWholeId } from '../shared/values';
import type { Change } from './detect';
import type { OpenStatus, PollState, SignerStates, SignerStatus } from './state';
import { isSignerStatus } from './state';

export const SIGNER_EVENTS = ['signer.viewed', 'signer.signed', 'signer.declined'];

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
	emitExisting = false,
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
			const status = signer.status;
			if (!isWholeId(id) || !isSignerStatus(status)) continue;
			statuses.set(id, status);
			const before = known?.get(documentId)?.get(id) ?? 'pending';
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
	emitExisting = false,
): Promise<SignerChange[]> {
	const found = await readSigners(read, documentsToRead(state.open, changes), known, emitExisting);
	const merged: SignerStates = new Map();
	for (const id of state.open.keys()) {
		const statuses = found.seen.get(id) ?? known?.get(id);
		if (statuses && statuses.size > 0) merged.set(id, statuses);
	}
	state.signers = merged;
	return found.changes;
}
