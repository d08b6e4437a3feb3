import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../../shared/values';

/**
 * The simplified records of Simplify (and the eSign Tool's Output → Simplified): at most 10 fields, the ones a
 * signing workflow uses most first, nested lists flattened (n8n's UX guidelines for answers of more than 10 fields).
 * Missing values are null, never left out, so every item has the same fields.
 */

const value = (record: IDataObject, key: string) => (record[key] === undefined ? null : record[key]);
const text = (raw: unknown) => (typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : '');
const present = (raw: unknown) => raw !== undefined && raw !== null && raw !== '';

/**
 * A signer's status as a workflow reads it: "declined" when the site recorded a decline (some record it only in
 * declined_at and decline_reason, as the spec shows), "signed" when it recorded a signature, else as the site says.
 */
export function signerStatus(signer: IDataObject): IDataObject[string] {
	if (signer.status === 'declined' || present(signer.declined_at)) return 'declined';
	if (signer.status === 'signed' || present(signer.signed_at)) return 'signed';
	return value(signer, 'status');
}

/** "Name <email>", or whichever of the two the site gave. */
function person(signer: IDataObject): string {
	const name = text(signer.name);
	const email = text(signer.email);
	return name && email ? `${name} <${email}>` : name || email;
}

/** Signer → Get Many: 10 of the 13 fields, with the status read as signerStatus does. */
export function simplifySigner(signer: IDataObject): IDataObject {
	return {
		id: value(signer, 'id'),
		name: value(signer, 'name'),
		email: value(signer, 'email'),
		status: signerStatus(signer),
		signed_at: value(signer, 'signed_at'),
		declined_at: value(signer, 'declined_at'),
		decline_reason: value(signer, 'decline_reason'),
		viewed_at: value(signer, 'viewed_at'),
		role: value(signer, 'role'),
		document_id: value(signer, 'document_id'),
	};
}

/**
 * Document → Get: who signed and when, who has not yet, who declined and why, as text ("Ann Lee <ann@…>, …"), with
 * the id, title, status and dates. The signers and fields lists are left out (Raw has them).
 */
export function simplifyDocument(document: IDataObject): IDataObject {
	const signers = (Array.isArray(document.signers) ? document.signers : []).filter(isPlainObject).map((signer) => ({ signer, status: signerStatus(signer) }));
	const signed = signers.filter((s) => s.status === 'signed');
	const declined = signers.filter((s) => s.status === 'declined');
	// Viewers (a role of the plugin family) read without signing: nobody waits for them.
	const waiting = signers.filter((s) => s.status !== 'signed' && s.status !== 'declined' && s.signer.role !== 'viewer');
	const signedTimes = signed.map((s) => text(s.signer.signed_at)).filter(Boolean).sort();
	const reasons = declined.map((s) => text(s.signer.decline_reason)).filter(Boolean);
	return {
		id: value(document, 'id'),
		title: value(document, 'title'),
		status: value(document, 'status'),
		signed_by: signed.map((s) => person(s.signer)).join(', '),
		last_signed_at: signedTimes.at(-1) ?? null,
		completed_at: value(document, 'completed_at'),
		waiting_for: waiting.map((s) => person(s.signer)).join(', '),
		declined_by: declined.map((s) => person(s.signer)).join(', '),
		decline_reason: reasons.length ? reasons.join('; ') : null,
		expires_at: value(document, 'expires_at'),
	};
}

/** Field → Get Many: 10 of the 17 fields. */
export function simplifyField(field: IDataObject): IDataObject {
	return {
		id: value(field, 'id'),
		field_name: value(field, 'field_name'),
		field_type: value(field, 'field_type'),
		value: value(field, 'value'),
		signer_id: value(field, 'signer_id'),
		document_id: value(field, 'document_id'),
		page_number: value(field, 'page_number'),
		is_required: value(field, 'is_required'),
		position_x: value(field, 'position_x'),
		position_y: value(field, 'position_y'),
	};
}
