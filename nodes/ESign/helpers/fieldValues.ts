import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../../shared/values';

/** Field types whose value is a mark rather than data (often an image as text): left out unless asked for. */
export const SIGNATURE_TYPES = ['signature', 'initials', 'stamp'];

const number = (raw: unknown) => (Number.isFinite(Number(raw)) ? Number(raw) : 0);

/** Reading order on the document: page, then top to bottom, then left to right (then id). */
function readingOrder(a: IDataObject, b: IDataObject): number {
	return (
		number(a.page_number) - number(b.page_number) ||
		number(a.position_y) - number(b.position_y) ||
		number(a.position_x) - number(b.position_x) ||
		number(a.id) - number(b.id)
	);
}

/**
 * One group's field values keyed by field name, in reading order: a field's name (trimmed), or for a field
 * without one its type and its place among that type's unnamed fields ("date 1", "text 2"). A key already taken
 * (by `reserved`, e.g. document_id, or an earlier field) gets " (2)", " (3)", … A field without a value gives "".
 */
export function valuesByName(fields: IDataObject[], reserved: string[] = [], includeSignatures = false): IDataObject {
	const taken = new Set(reserved);
	const unnamed = new Map<string, number>();
	const values: IDataObject = {};
	const kept = fields.filter((field) => isPlainObject(field) && (includeSignatures || !SIGNATURE_TYPES.includes(String(field.field_type))));
	for (const field of [...kept].sort(readingOrder)) {
		let base = typeof field.field_name === 'string' ? field.field_name.trim() : '';
		if (!base) {
			const type = String(field.field_type ?? '').trim() || 'field';
			unnamed.set(type, (unnamed.get(type) ?? 0) + 1);
			base = `${type} ${unnamed.get(type)}`;
		}
		let key = base;
		for (let n = 2; taken.has(key); n++) key = `${base} (${n})`;
		taken.add(key);
		values[key] = field.value === undefined || field.value === null ? '' : field.value;
	}
	return values;
}

/** Field → Get Values, One Item per Document: `{document_id, <field name>: value, …}`. */
export function documentValues(documentId: string, fields: IDataObject[], includeSignatures: boolean): IDataObject {
	return { document_id: documentId, ...valuesByName(fields, ['document_id'], includeSignatures) };
}

/**
 * Field → Get Values, One Item per Signer: for each signer (in the site's order; a signer without fields too, so
 * every signer has a row) `{document_id, signer_id, signer_name, signer_email, <field name>: value, …}` with only
 * that signer's fields, then a row for fields whose signer is not in the list (so no value is lost).
 */
export function signerValues(documentId: string, fields: IDataObject[], signers: IDataObject[], includeSignatures: boolean): IDataObject[] {
	const reserved = ['document_id', 'signer_id', 'signer_name', 'signer_email'];
	const ids = signers.map((signer) => String(signer.id));
	const rows = signers.map((signer) => ({
		document_id: documentId,
		signer_id: signer.id ?? null,
		signer_name: signer.name ?? '',
		signer_email: signer.email ?? '',
		...valuesByName(fields.filter((field) => String(field.signer_id) === String(signer.id)), reserved, includeSignatures),
	}));
	const orphans = [...new Set(fields.map((field) => String(field.signer_id)).filter((id) => !ids.includes(id)))];
	for (const id of orphans) {
		const own = fields.filter((field) => String(field.signer_id) === id);
		rows.push({ document_id: documentId, signer_id: own[0].signer_id ?? null, signer_name: '', signer_email: '', ...valuesByName(own, reserved, includeSignatures) });
	}
	return rows;
}
