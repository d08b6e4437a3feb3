// Simplify's records (helpers/simplify.ts), Field → Get Values' rows (helpers/fieldValues.ts) and the signing order
// Signer → Add sends for 0 (helpers/signingOrder.ts), on their own. The operations run in test/ESign/ through the engine.
import type { IDataObject } from 'n8n-workflow';

import { documentValues, signerValues, valuesByName } from '../../../nodes/ESign/helpers/fieldValues';
import { nextSigningOrder } from '../../../nodes/ESign/helpers/signingOrder';
import { signerStatus, simplifyDocument, simplifyField, simplifySigner } from '../../../nodes/ESign/helpers/simplify';

const signer = (extra: IDataObject): IDataObject => ({
	id: '11', document_id: '7', name: 'Ann Lee', email: 'ann@example.org', role: 'signer', signing_order: '1', status: 'pending',
	viewed_at: null, signed_at: null, declined_at: null, decline_reason: null, created_at: '2026-01-01 10:00:00', updated_at: '2026-01-01 10:00:00', ...extra,
});

describe('Simplify', () => {
	test('a signer: at most 10 fields, the most used first; a decline known only by declined_at reads as declined', () => {
		const simple = simplifySigner(signer({ status: 'viewed', declined_at: '2026-01-02 09:00:00', decline_reason: 'Wrong rent' }));
		expect(Object.keys(simple)).toEqual(['id', 'name', 'email', 'status', 'signed_at', 'declined_at', 'decline_reason', 'viewed_at', 'role', 'document_id']);
		expect(simple).toMatchObject({ status: 'declined', decline_reason: 'Wrong rent' });
		expect(signerStatus(signer({ signed_at: '2026-01-02 09:00:00' }))).toBe('signed');
		expect(signerStatus(signer({ status: 'viewed' }))).toBe('viewed');
		// A field the site left out is null, so every item has the same fields.
		expect(simplifySigner({ id: '3' })).toMatchObject({ id: '3', name: null, decline_reason: null });
	});

	test('a document: who signed and when, who is awaited (not viewers), who declined and why, flattened to text', () => {
		const document: IDataObject = {
			id: '7', title: 'Lease', status: 'declined', original_filename: 'lease.pdf', total_pages: '2', expires_at: null, completed_at: null,
			created_at: '2026-01-01 10:00:00', updated_at: '2026-01-03 10:00:00', file_hash: 'ab', fields: [{ id: '1' }],
			signers: [
				signer({ id: '11', status: 'signed', signed_at: '2026-01-02 10:00:00' }),
				signer({ id: '12', name: 'Bob Roe', email: 'bob@example.org', status: 'signed', signed_at: '2026-01-03 08:00:00' }),
				signer({ id: '13', name: 'Cy Doe', email: 'cy@example.org', status: 'viewed', declined_at: '2026-01-03 09:00:00', decline_reason: 'Too high' }),
				signer({ id: '14', name: 'Di Poe', email: 'di@example.org' }),
				signer({ id: '15', name: 'Ed Viewer', email: 'ed@example.org', role: 'viewer' }),
			],
		};
		const simple = simplifyDocument(document);
		expect(Object.keys(simple)).toHaveLength(10);
		expect(simple).toEqual({
			id: '7', title: 'Lease', status: 'declined',
			signed_by: 'Ann Lee <ann@example.org>, Bob Roe <bob@example.org>', last_signed_at: '2026-01-03 08:00:00', completed_at: null,
			waiting_for: 'Di Poe <di@example.org>', declined_by: 'Cy Doe <cy@example.org>', decline_reason: 'Too high', expires_at: null,
		});
		expect(simplifyDocument({ id: '8', title: 'Draft', status: 'draft' })).toMatchObject({ signed_by: '', waiting_for: '', last_signed_at: null, decline_reason: null });
	});

	test('a field: 10 of its 17 fields', () => {
		const simple = simplifyField({ id: '1', document_id: '7', signer_id: '11', field_type: 'text', field_name: 'Company', page_number: '1', position_x: '72', position_y: '100', width: '200', height: '30', value: 'Acme', placeholder: '', is_required: '1', font_size: '14', font_family: 'DM Sans', options: '', created_at: 'x', updated_at: 'x' });
		expect(simple).toEqual({ id: '1', field_name: 'Company', field_type: 'text', value: 'Acme', signer_id: '11', document_id: '7', page_number: '1', is_required: '1', position_x: '72', position_y: '100' });
	});
});

describe('Field → Get Values', () => {
	const field = (id: number, extra: IDataObject): IDataObject => ({ id: String(id), signer_id: '11', field_type: 'text', field_name: '', page_number: '1', position_x: '72', position_y: String(100 * id), value: '', ...extra });

	test('keys: the name, else the type and its number among unnamed fields of that type in reading order; repeats get (2)', () => {
		const fields = [
			field(5, { field_type: 'date', page_number: '2', position_y: '50', value: '2026-01-03' }),
			field(1, { field_name: ' Company ', value: 'Acme' }),
			field(2, { field_type: 'date', value: '2026-01-02' }),
			field(3, { field_name: 'Company', value: 'Acme Ltd' }),
			field(4, { field_type: 'checkbox', value: '1' }),
			field(6, { field_type: 'signature', value: 'data:image/png;base64,AAAA' }),
			field(7, { field_name: 'document_id', value: 'X-1' }),
			field(8, { field_type: 'text' }), // no value: ""
		];
		const values = documentValues('7', fields, false);
		expect(values).toEqual({ document_id: '7', Company: 'Acme', 'date 1': '2026-01-02', 'Company (2)': 'Acme Ltd', 'checkbox 1': '1', 'document_id (2)': 'X-1', 'text 1': '', 'date 2': '2026-01-03' });
		// Keys in reading order (page, top to bottom): the columns of a sheet row.
		expect(Object.keys(values)).toEqual(['document_id', 'Company', 'date 1', 'Company (2)', 'checkbox 1', 'document_id (2)', 'text 1', 'date 2']);
		expect(valuesByName(fields, [], true)['signature 1']).toBe('data:image/png;base64,AAAA');
	});

	test('one row per signer, each with only its own fields and the same keys for the same template; a field of an unknown signer is kept', () => {
		const fields = [
			field(1, { signer_id: '11', field_type: 'name', value: 'Ann Lee' }),
			field(2, { signer_id: '12', field_type: 'name', value: 'Bob Roe' }),
			field(3, { signer_id: '11', field_name: 'Rent', value: '900' }),
			field(4, { signer_id: '99', field_name: 'Witness', value: 'Zed' }),
		];
		const signers = [signer({ id: '11' }), signer({ id: '12', name: 'Bob Roe', email: 'bob@example.org' }), signer({ id: '13', name: 'Cy Doe', email: 'cy@example.org' })];
		expect(signerValues('7', fields, signers, false)).toEqual([
			{ document_id: '7', signer_id: '11', signer_name: 'Ann Lee', signer_email: 'ann@example.org', 'name 1': 'Ann Lee', Rent: '900' },
			{ document_id: '7', signer_id: '12', signer_name: 'Bob Roe', signer_email: 'bob@example.org', 'name 1': 'Bob Roe' },
			{ document_id: '7', signer_id: '13', signer_name: 'Cy Doe', signer_email: 'cy@example.org' },
			{ document_id: '7', signer_id: '99', signer_name: '', signer_email: '', Witness: 'Zed' },
		]);
	});
});

describe('Signer → Add, Signing Order 0', () => {
	test.each([
		[[], 1],
		[[{ signing_order: '1' }, { signing_order: '1' }], 2], // a site that put every signer at 1
		[[{ signing_order: '1' }, { signing_order: '3' }], 4],
		[[{ signing_order: '0' }, { signing_order: null }], 1], // a site that kept no order
		[[{ signing_order: 2 }, { signing_order: 'x' }], 3],
	])('signers %j → %i', (signers, expected) => {
		expect(nextSigningOrder(signers as IDataObject[])).toBe(expected);
	});
});
