/**
 * The API contract (the spec plus the decisions in docs/reference.md), checked over real HTTP against
 * one site: the Node sandbox on a free port by default, or the site described in ESIGN_CONTRACT_SITE
 * (`npm run test:wordpress` runs this same file against the WordPress test site).
 *
 * A test or assertion marked [guess] checks a choice both doubles make where the spec says "not shown"
 * (test/sandbox/CONTRACT.md → Decisions), so that they stay alike; it is not the API, the nodes must not rely on it,
 * and the sandbox's strict profile plays otherwise (CONTRACT.md → Profiles).
 */
import * as crypto from 'crypto';
import { PDFDocument } from 'pdf-lib';

import type { Json, KeyName } from '../support';
import { DEFAULT_WEBHOOK_SECRET, describedContractSite, keyedRequest, startRecorder } from '../support';
import type { ContractSite } from './site';
import { useContractSite } from './site';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const getSite = useContractSite();
let site: ContractSite;
beforeAll(() => {
	site = getSite();
});
/** Sandbox-only behaviour (its HTML index, connection drops, hostile-answer presets). */
const sandboxOnly = describedContractSite() ? test.skip : test;

// ---------------------------------------------------------------- helpers

/** A request without a key (test controls, signing pages). */
const call = (url: string, method = 'GET', body?: unknown) => keyedRequest(url, null, method, body);

/** An API call as `key` (null = no credentials). `form` is a FormData, `raw` a string body sent as JSON text. */
interface ApiOptions {
	key?: string | null;
	body?: unknown;
	form?: FormData;
	raw?: string;
	secret?: string;
}

function api(method: string, path: string, { key = 'admin', body, form, raw, secret }: ApiOptions = {}) {
	const pair = key ? site.keys[key as KeyName] : null;
	return keyedRequest(site.api(path), pair && { key: pair.key, secret: secret ?? pair.secret }, method, form ?? raw ?? body);
}

const control = (method: string, path: string, body?: unknown) => call(site.control(path), method, body);

async function sample(name: string) {
	return Buffer.from(await (await fetch(site.control(`/samples/${name}`))).arrayBuffer());
}

async function upload(name: string, { key = 'admin', field = 'file', filename = name, title }: { key?: string; field?: string; filename?: string; title?: string } = {}) {
	const form = new FormData();
	form.append(field, new Blob([new Uint8Array(await sample(name))]), filename);
	if (title !== undefined) form.append('title', title);
	return api('POST', '/documents/upload', { key, form });
}

/** A draft of contract.pdf with `signers` signers, each with a signature field on page 2. */
async function makeDraft({ signers = 1, key = 'admin', title }: { signers?: number; key?: string; title?: string } = {}) {
	const doc = (await upload('contract.pdf', { key, title })).body;
	const added: Json[] = [];
	for (let i = 1; i <= signers; i++) {
		const res = await api('POST', `/documents/${doc.id}/signers`, { key, body: { name: `Signer ${i}`, email: `signer${i}@example.com` } });
		expect(res.status).toBe(201); // [guess] 201 with the Signer: the spec shows no answer for adding a signer
		added.push(res.body);
	}
	const fields = added.map((s, i) => ({ signer_id: Number(s.id), field_type: 'signature', page_number: 2, position_x: 72 + i * 220, position_y: 530 }));
	expect((await api('POST', `/documents/${doc.id}/fields`, { key, body: { fields } })).status).toBe(200);
	return { id: doc.id, signers: added };
}

async function tokens(documentId: string | number): Promise<string[]> {
	return (await control('GET', `/signers?document_id=${documentId}`)).body.map((s) => s.token);
}

const signerAction = (token: string, action: string, body: unknown = {}) => control('POST', `/sign/${token}/${action}`, body);

// ---------------------------------------------------------------- tests

describe('authentication and permissions', () => {
	test('missing or wrong credentials → 401 rest_forbidden', async () => {
		for (const res of [await api('GET', '/documents', { key: null }), await api('GET', '/documents', { secret: 'wrong' })]) {
			expect(res.status).toBe(401);
			expect(res.body).toEqual({ code: 'rest_forbidden', message: 'Invalid API key or secret.', data: { status: 401 } });
		}
	});

	test('a Read Only key reads but cannot write (403 rest_forbidden, read-only message)', async () => {
		expect((await api('GET', '/stats', { key: 'adminReadOnly' })).status).toBe(200);
		const res = await api('POST', '/documents', { key: 'adminReadOnly', body: { title: 'x' } });
		expect(res.status).toBe(403);
		expect(res.body.code).toBe('rest_forbidden');
		expect(res.body.message).toMatch(/read-only permissions/);
		expect((await control('GET', '/counters')).body.createExecuted).toBe(0);
	});

	test('ownership: other users get 403 forbidden; lists and stats are scoped', async () => {
		const mine = (await upload('one-page.pdf', { key: 'user' })).body;
		await upload('one-page.pdf', { key: 'admin' });
		const denied = await api('GET', `/documents/${mine.id}`, { key: 'user2' });
		expect(denied.status).toBe(403);
		expect(denied.body).toEqual({ code: 'forbidden', message: 'Permission denied.', data: { status: 403 } });
		expect((await api('DELETE', `/documents/${mine.id}`, { key: 'user2' })).status).toBe(403);
		expect((await api('GET', `/documents/${mine.id}`, { key: 'admin' })).status).toBe(200);
		expect((await api('GET', '/documents', { key: 'user' })).body.map((d) => d.id)).toEqual([mine.id]);
		expect((await api('GET', '/documents', { key: 'user2' })).body).toEqual([]);
		expect((await api('GET', '/stats', { key: 'user' })).body.total).toBe(1);
		expect((await api('GET', '/stats', { key: 'admin' })).body.total).toBe(2);
		// Templates: Uma sees only her own; Victor may not open hers.
		const templates = (await api('GET', '/templates', { key: 'user' })).body;
		expect(templates.map((t) => t.name)).toEqual(["Uma's Offer Letter"]);
		expect((await api('GET', `/templates/${templates[0].id}`, { key: 'user2' })).body.code).toBe('forbidden');
		expect((await api('GET', '/templates/999')).status).toBe(404);
	});
});

describe('documents', () => {
	test('shapes: strings in document/signer/field objects, timestamps from the sandbox clock', async () => {
		const { id } = await makeDraft();
		const doc = (await api('GET', `/documents/${id}`)).body;
		expect(doc).toMatchObject({ id, status: 'draft', total_pages: '2', original_filename: 'contract.pdf', expires_at: null, completed_at: null });
		expect(doc.created_at).toMatch(TIMESTAMP);
		expect(doc.file_hash).toMatch(/^[0-9a-f]{64}$/);
		expect(doc.signers[0]).toMatchObject({ document_id: id, role: 'signer', signing_order: '1', status: 'pending' });
		expect(Object.keys(doc.fields[0]).sort()).toEqual(
			['document_id', 'field_type', 'height', 'id', 'is_required', 'page_number', 'position_x', 'position_y', 'signer_id', 'width'].sort(),
		);
		expect(doc.fields[0]).toMatchObject({ width: '200', height: '60', is_required: '1', page_number: '2' });
		const listed = (await api('GET', '/documents')).body[0];
		expect(listed).not.toHaveProperty('file_hash');
		expect(listed).not.toHaveProperty('signers');

		await control('POST', '/clock', { offsetSeconds: 86400 * 365 });
		const later = (await api('PUT', `/documents/${id}`, { body: { title: 'Renamed' } })).body;
		expect(later.updated_at > doc.updated_at).toBe(true); // the moved clock stamps updates
		expect(later.created_at).toBe(doc.created_at);
		expect(later.title).toBe('Renamed');
	});

	test('unknown route, unknown document, malformed JSON', async () => {
		expect((await api('GET', '/nope')).body.code).toBe('rest_no_route');
		expect((await api('PATCH', '/documents/1')).status).toBe(404);
		const missing = await api('GET', '/documents/12345');
		expect(missing.status).toBe(404);
		expect(missing.body.code).toBe('not_found');
		const bad = await api('POST', '/documents', { raw: '{"title": ' });
		expect(bad.status).toBe(400);
		expect(bad.body.code).toBe('rest_invalid_json');
	});

	test('POST /documents: title required, stored file path, 15-minute limit, no file', async () => {
		expect((await api('POST', '/documents', { body: {} })).body.code).toBe('missing_title');
		const form = new FormData();
		form.append('file', new Blob([await sample('a4.pdf')]), 'a4.pdf');
		const stored = (await call(site.control('/storage'), 'POST', form)).body;
		const created = await api('POST', '/documents', { body: { title: 'From storage', file_path: stored.file_path } });
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({ status: 'draft', total_pages: '1', original_filename: 'a4.pdf' });
		expect((await api('POST', '/documents', { body: { title: 'x', file_path: '/nope.pdf' } })).body.code).toBe('invalid_file_path');
		await control('POST', '/storage/age', { file_path: stored.file_path, minutes: 16 });
		expect((await api('POST', '/documents', { body: { title: 'x', file_path: stored.file_path } })).body.code).toBe('file_expired');
		const empty = (await api('POST', '/documents', { body: { title: 'No file' } })).body;
		expect(empty).toMatchObject({ total_pages: '0', original_filename: '' });
		expect((await api('GET', `/documents/${empty.id}/file`)).body.code).toBe('no_file');
	});

	test('DELETE is a hard delete counted in stats.deleted', async () => {
		const { id } = await makeDraft();
		expect((await api('DELETE', `/documents/${id}`)).body).toEqual({ deleted: true });
		expect((await api('GET', `/documents/${id}`)).body.code).toBe('not_found');
		expect((await api('GET', `/documents/${id}/signers`)).status).toBe(404);
		expect((await api('GET', '/stats')).body).toMatchObject({ total: 0, deleted: 1 });
		expect((await api('GET', '/stats', { key: 'user' })).body.deleted).toBe(0);
	});

	test('[guess] signers: signing_order defaulted to the next, 201 with the Signer, duplicates, role, only on drafts', async () => {
		const { id } = await makeDraft({ signers: 1 });
		const second = await api('POST', `/documents/${id}/signers`, { body: { name: 'Bo', email: 'bo@example.com' } });
		expect(second.body).toMatchObject({ signing_order: '2', role: 'signer', status: 'pending' });
		expect((await api('POST', `/documents/${id}/signers`, { body: { name: 'Bo', email: 'BO@example.com' } })).body.code).toBe('duplicate_signer');
		expect((await api('POST', `/documents/${id}/signers`, { body: { name: 'C', email: 'c@example.com', role: 'approver' } })).body.code).toBe('invalid_role');
		expect((await api('POST', `/documents/${id}/signers`, { body: { name: 'D', email: 'not-an-email' } })).body.code).toBe('invalid_data');
		expect((await api('GET', `/documents/${id}/signers`)).body.map((s) => s.name)).toEqual(['Signer 1', 'Bo']);
	});
});

describe('method override (WordPress\'s WP_REST_Server::serve_request, what firewalls that refuse PUT and DELETE leave)', () => {
	const keyed = (extra: Record<string, string> = {}) => ({ 'X-ESIGN-API-Key': site.keys.admin.key, 'X-ESIGN-API-Secret': site.keys.admin.secret, ...extra });
	const post = async (path: string, headers: Record<string, string>, body?: unknown) => {
		const res = await fetch(site.api(path), { method: 'POST', headers: keyed(body === undefined ? headers : { 'content-type': 'application/json', ...headers }), body: body === undefined ? undefined : JSON.stringify(body) });
		return { status: res.status, body: await res.json() };
	};

	test('POST with ?_method=PUT updates, POST with X-HTTP-Method-Override: DELETE deletes; each runs once, as the method it names', async () => {
		const { id } = await makeDraft({ title: 'Before' });
		await control('DELETE', '/requests');
		const put = await post(`/documents/${id}?_method=put`, {}, { title: "Zoë O'Brien & Söhne" });
		expect([put.status, put.body.title]).toEqual([200, "Zoë O'Brien & Söhne"]);
		const del = await post(`/documents/${id}`, { 'X-HTTP-Method-Override': 'DELETE' });
		expect([del.status, del.body]).toEqual([200, { deleted: true }]);
		expect((await api('GET', `/documents/${id}`)).status).toBe(404);
		const counters = (await control('GET', '/counters')).body;
		expect([counters.updateExecuted, counters.deleteExecuted]).toEqual([1, 1]);
		// The log names the method as routed, and the request's own method beside it.
		const log = (await control('GET', '/requests')).body;
		expect(log.slice(0, 2)).toEqual([
			expect.objectContaining({ method: 'PUT', sentAs: 'POST', query: expect.objectContaining({ _method: 'put' }), executed: true, status: 200 }),
			expect.objectContaining({ method: 'DELETE', sentAs: 'POST', executed: true, status: 200 }),
		]);
	});

	test('?_method= wins over the header; a Read Only key cannot write through either; a plain POST stays a POST', async () => {
		const { id } = await makeDraft({ title: 'Kept' });
		const both = await post(`/documents/${id}?_method=PUT`, { 'X-HTTP-Method-Override': 'DELETE' }, { title: 'Renamed' });
		expect([both.status, both.body.title]).toEqual([200, 'Renamed']);
		const pair = site.keys.adminReadOnly;
		const readOnly = await fetch(site.api(`/documents/${id}`), { method: 'POST', headers: { 'X-ESIGN-API-Key': pair.key, 'X-ESIGN-API-Secret': pair.secret, 'X-HTTP-Method-Override': 'DELETE' } });
		expect([readOnly.status, (await readOnly.json()).code]).toEqual([403, 'rest_forbidden']);
		// No POST route on a document: without an override the request is not routed.
		expect((await post(`/documents/${id}`, {}, { title: 'x' })).body.code).toBe('rest_no_route');
		expect((await api('GET', `/documents/${id}`)).body.title).toBe('Renamed');
	});
});

describe('uploads', () => {
	test('type is detected by content; pages counted; hash is SHA-256 of the bytes', async () => {
		const png = await upload('photo.png');
		expect(png.status).toBe(201);
		expect(png.body).toMatchObject({ title: 'photo', total_pages: '1', status: 'draft', expires_at: null, completed_at: null });
		expect((await upload('photo.jpg', { field: 'document', title: 'A photo' })).body).toMatchObject({ title: 'A photo', total_pages: '1' });
		const pdf = await upload('contract.pdf', { filename: 'upload.bin' });
		expect(pdf.body.total_pages).toBe('2');
		const full = (await api('GET', `/documents/${pdf.body.id}`)).body;
		expect(full.file_hash).toBe(crypto.createHash('sha256').update(await sample('contract.pdf')).digest('hex'));
		const file = (await api('GET', `/documents/${pdf.body.id}/file`)).body;
		expect(file).toMatchObject({ filename: 'upload.bin', type: 'application/pdf', encoding: 'base64' });
		expect(Buffer.from(file.content, 'base64').equals(await sample('contract.pdf'))).toBe(true);
	});

	test('a text file (even named .pdf) and a missing file are refused', async () => {
		for (const filename of ['notes.txt', 'notes.pdf']) {
			const res = await upload('notes.txt', { filename });
			expect(res.status).toBe(400);
			expect(res.body.code).toBe('invalid_file_type');
		}
		const form = new FormData();
		form.append('title', 'nothing');
		expect((await api('POST', '/documents/upload', { form })).body.code).toBe('missing_file');
		expect((await control('GET', '/counters')).body.uploadExecuted).toBe(3);
	});
	test('a file over 20 MB → 413 file_too_large (or no file at all where the post_max_size of PHP is lower)', async () => {
		const big = Buffer.alloc(20 * 1024 * 1024 + 1, 0x20);
		big.write('%PDF-1.7');
		const form = new FormData();
		form.append('file', new Blob([big]), 'big.pdf');
		const res = await api('POST', '/documents/upload', { form });
		// A PHP site never sees a file over its post_max_size (Debian: 8M): WordPress answers "no file".
		const limits = site.kind === 'wordpress' ? (await control('GET', '/php-limits')).body.phpLimits : null;
		const expected = limits && limits.post_max_size <= big.length ? [400, 'missing_file'] : [413, 'file_too_large'];
		expect([res.status, res.body.code]).toEqual(expected);
		expect((await api('GET', '/documents')).body).toEqual([]);
	});

	test('a file over the upload_max_filesize of PHP arrives as no file on a PHP site', async () => {
		const limits = site.kind === 'wordpress' ? (await control('GET', '/php-limits')).body.phpLimits : null;
		if (!limits) await control('POST', '/php-limits', {}); // the sandbox simulates Debian's php.ini
		const size = (limits?.upload_max_filesize ?? 2 * 1024 * 1024) + 1024;
		const form = new FormData();
		form.append('file', new Blob([new Uint8Array(await sample('contract.pdf')), new Uint8Array(size)]), 'scan.pdf');
		const res = await api('POST', '/documents/upload', { form });
		expect([res.status, res.body.code]).toEqual([400, 'missing_file']);
	});
});

describe('fields', () => {
	test('validation messages are "Field <n>: <reason>"', async () => {
		const { id, signers } = await makeDraft();
		const signerId = Number(signers[0].id);
		const res = await api('POST', `/documents/${id}/fields`, {
			body: {
				fields: [
					{ signer_id: signerId, field_type: 'signature', page_number: 1, position_x: 10, position_y: 10 },
					{ signer_id: 999, field_type: 'stamp', page_number: 3, position_x: -5, position_y: 0 },
					{ signer_id: signerId, field_type: 'bogus', position_x: 1, position_y: 1 },
					{ signer_id: signerId, field_type: 'dropdown', page_number: 1, position_x: 1, position_y: 1, width: 0 },
				],
			},
		});
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('validation_failed');
		expect(res.body.data.errors).toEqual([
			'Field 2: signer_id 999 is not a signer of this document',
			'Field 2: page_number must be an integer from 1 to 2',
			'Field 2: position_x must not be negative',
			'Field 3: page_number is required',
			expect.stringMatching(/^Field 3: field_type "bogus" is not one of signature, initials/),
			'Field 4: width must be greater than 0',
			'Field 4: dropdown fields need at least one entry in options',
		]);
		expect((await api('POST', `/documents/${id}/fields`, { body: { fields: 'nope' } })).body.code).toBe('invalid_data');
		// Nothing was replaced by the failed calls.
		expect((await api('GET', `/documents/${id}/fields`)).body).toHaveLength(1);
	});

	test('replace-all with defaults; an empty array clears; only drafts', async () => {
		const { id, signers } = await makeDraft();
		const signerId = Number(signers[0].id);
		const saved = await api('POST', `/documents/${id}/fields`, {
			body: {
				fields: [
					{ signer_id: signerId, field_type: 'textarea', page_number: 1, position_x: 1, position_y: 2, is_required: false },
					{ signer_id: signerId, field_type: 'dropdown', page_number: 2, position_x: 1, position_y: 2, options: ['A', 'B'] },
				],
			},
		});
		expect(saved.body[0]).toMatchObject({ width: '200', height: '80', is_required: '0', font_size: '14', font_family: 'DM Sans', value: '', options: '' });
		expect(JSON.parse(saved.body[1].options)).toEqual(['A', 'B']);
		expect((await api('GET', `/documents/${id}/fields`)).body).toHaveLength(2);
		expect((await api('POST', `/documents/${id}/fields`, { body: { fields: [] } })).body).toEqual([]);
		expect((await api('GET', `/documents/${id}`)).body.fields).toEqual([]);
	});
});

describe('state machine', () => {
	test('send → view → sign → completed, with audit trail and outbox ([guess] invalid_state for a second send and for fields once sent)', async () => {
		const { id } = await makeDraft({ signers: 2 });
		const sent = await api('POST', `/documents/${id}/send`);
		expect(sent.body).toMatchObject({ sent: true });
		expect((await api('POST', `/documents/${id}/send`)).body.code).toBe('invalid_state');
		const outbox = (await control('GET', `/outbox?document_id=${id}`)).body;
		expect(outbox.map((m) => [m.kind, m.to])).toEqual([['invitation', 'signer1@example.com'], ['invitation', 'signer2@example.com']]);
		expect((await api('POST', `/documents/${id}/fields`, { body: { fields: [] } })).body.code).toBe('invalid_state');

		const [first, second] = await tokens(id);
		await signerAction(first, 'view');
		let doc = (await api('GET', `/documents/${id}`)).body;
		expect(doc.status).toBe('viewed');
		expect(doc.signers[0].viewed_at).toMatch(TIMESTAMP);
		expect((await signerAction(first, 'sign')).body.document.status).toBe('viewed');
		const done = await signerAction(second, 'sign');
		expect(done.body.document.status).toBe('completed');
		doc = (await api('GET', `/documents/${id}`)).body;
		expect(doc.completed_at).toMatch(TIMESTAMP);
		expect(doc.signers.map((s) => s.status)).toEqual(['signed', 'signed']);
		expect((await signerAction(first, 'sign')).body.code).toBe('invalid_state');
		const actions = (await api('GET', `/documents/${id}/audit`)).body.events.map((e) => e.action);
		expect(actions).toEqual([
			'document_created', 'signer_added', 'signer_added', 'fields_updated', 'document_sent',
			'document_viewed', 'document_signed', 'document_viewed', 'document_signed', 'document_completed',
		]);
	});

	test('send prerequisites: no_signers (the spec), [guess] missing_fields and no_file', async () => {
		const bare = (await upload('one-page.pdf')).body;
		expect((await api('POST', `/documents/${bare.id}/send`)).body.code).toBe('no_signers');
		await api('POST', `/documents/${bare.id}/signers`, { body: { name: 'Ann', email: 'ann@example.com' } });
		const missing = await api('POST', `/documents/${bare.id}/send`);
		expect(missing.body.code).toBe('missing_fields');
		expect(missing.body.message).toMatch(/Ann/);
		const noFile = (await api('POST', '/documents', { body: { title: 'No file' } })).body;
		await api('POST', `/documents/${noFile.id}/signers`, { body: { name: 'Ann', email: 'ann@example.com' } });
		expect((await api('POST', `/documents/${noFile.id}/send`)).body.code).toBe('no_file');
		expect((await control('GET', '/outbox')).body).toEqual([]);
	});

	test('decline sets declined_at and reason; the document is declined ([guess] the signer\'s status becomes declined)', async () => {
		const { id } = await makeDraft();
		await api('POST', `/documents/${id}/send`);
		const [token] = await tokens(id);
		const res = await signerAction(token, 'decline', { reason: 'Wrong address' });
		expect(res.body.document.status).toBe('declined');
		expect(res.body.signer).toMatchObject({ status: 'declined', decline_reason: 'Wrong address' });
		expect(res.body.signer.declined_at).toMatch(TIMESTAMP);
		expect((await api('GET', '/stats')).body.declined).toBe(1);
	});

	test('expire: not_due without or before expires_at, expired when due, [guess] invalid_state when terminal', async () => {
		const { id } = await makeDraft();
		await api('POST', `/documents/${id}/send`);
		expect((await api('POST', `/documents/${id}/expire`)).body.code).toBe('not_due');
		await control('POST', `/documents/${id}/expiry`, { inSeconds: 3600 });
		const early = await api('POST', `/documents/${id}/expire`);
		expect(early.status).toBe(400);
		expect(early.body.code).toBe('not_due');
		await control('POST', '/clock', { offsetSeconds: 7200 });
		const expired = await api('POST', `/documents/${id}/expire`);
		expect(expired.status).toBe(200);
		expect(expired.body).toEqual({ expired: true, document: { id, status: 'expired' } });
		expect((await api('POST', `/documents/${id}/expire`)).body.code).toBe('invalid_state');

		const completed = (await control('POST', '/seed/documents', { count: 1, status: 'completed' })).body.ids[0];
		await control('POST', `/documents/${completed}/expiry`, { inSeconds: -60 });
		expect((await api('POST', `/documents/${completed}/expire`)).body.code).toBe('invalid_state');
	});

	test('[guess] PUT status: only draft ↔ sent, sent → draft only before any view, no emails', async () => {
		const bare = (await upload('one-page.pdf')).body;
		expect((await api('PUT', `/documents/${bare.id}`, { body: { status: 'sent' } })).body.code).toBe('no_signers');
		const { id } = await makeDraft();
		for (const status of ['completed', 'declined', 'expired', 'viewed', 'bogus']) {
			const res = await api('PUT', `/documents/${id}`, { body: { status } });
			expect(res.status).toBe(400);
			expect(res.body.code).toBe('invalid_status');
		}
		expect((await api('PUT', `/documents/${id}`, { body: { status: 'sent' } })).body.status).toBe('sent');
		expect((await control('GET', '/outbox')).body).toEqual([]);
		expect((await api('PUT', `/documents/${id}`, { body: { status: 'draft' } })).body.status).toBe('draft');
		await api('POST', `/documents/${id}/send`);
		await signerAction((await tokens(id))[0], 'view');
		expect((await api('PUT', `/documents/${id}`, { body: { status: 'draft' } })).body.code).toBe('invalid_status');
		expect((await api('PUT', `/documents/${id}`, { body: { title: '' } })).body.code).toBe('invalid_data');
	});

	test('remind: eligible signers (the spec), [guess] invalid signer, already signed in failed, drafts refused', async () => {
		const { id, signers } = await makeDraft({ signers: 2 });
		expect((await api('POST', `/documents/${id}/remind`)).body.code).toBe('invalid_state');
		await api('POST', `/documents/${id}/send`);
		const [first] = await tokens(id);
		await signerAction(first, 'sign');
		const all = await api('POST', `/documents/${id}/remind`);
		expect(all.body).toMatchObject({ reminded: [signers[1].id], failed: [] });
		const signed = await api('POST', `/documents/${id}/remind`, { body: { signer_id: Number(signers[0].id) } });
		expect(signed.body.reminded).toEqual([]);
		expect(signed.body.failed[0].signer_id).toBe(signers[0].id);
		expect((await api('POST', `/documents/${id}/remind`, { body: { signer_id: 999 } })).body.code).toBe('invalid_signer');
		const reminders = (await control('GET', `/outbox?document_id=${id}`)).body.filter((m) => m.kind === 'reminder');
		expect(reminders.map((m) => m.to)).toEqual(['signer2@example.com']);
	});
});

describe('listing', () => {
	test('pagination headers, newest first, per_page limits, filters', async () => {
		await control('POST', '/seed/documents', { count: 45, titlePrefix: 'Bulk' });
		await control('POST', '/seed/documents', { count: 3, status: 'sent', titlePrefix: 'Pending lease' });
		const first = await api('GET', '/documents');
		expect(first.headers.get('x-esign-total')).toBe('48');
		expect(first.headers.get('x-esign-totalpages')).toBe('3');
		expect(first.body).toHaveLength(20);
		expect(first.body[0].id).toBe('48');
		const last = await api('GET', '/documents?page=3&per_page=20');
		expect(last.body).toHaveLength(8);
		expect((await api('GET', '/documents?page=4')).body).toEqual([]);
		expect((await api('GET', '/documents?per_page=100')).body).toHaveLength(48);
		for (const q of ['per_page=101', 'per_page=0', 'page=0', 'page=x']) {
			const res = await api('GET', `/documents?${q}`);
			expect(res.status).toBe(400);
			expect(res.body.code).toBe('rest_invalid_param');
		}
		const sent = await api('GET', '/documents?status=sent');
		expect(sent.headers.get('x-esign-total')).toBe('3');
		expect((await api('GET', '/documents?search=pending LEASE')).body).toHaveLength(3);
		const empty = await api('GET', '/documents?status=declined');
		expect([empty.body, empty.headers.get('x-esign-totalpages')]).toEqual([[], '0']);
		expect((await api('GET', '/templates?per_page=101')).body.code).toBe('rest_invalid_param');
	});
});

describe('rate limits', () => {
	afterEach(() => control('POST', '/rate-limits', { enabled: false }));

	/** The site clock (moved by /clock) in seconds since the epoch. */
	const siteSeconds = async () => Date.parse(`${String((await control('GET', '/clock')).body.now).replace(' ', 'T')}Z`) / 1000;

	/**
	 * Runs `scenario` (requests only, no expectations) inside one fixed window of `span` seconds on the site clock,
	 * starting `into` seconds into a fresh window. Resolves its result and the site time at its start and end. No
	 * deadline: when the site clock shows the window ended before the scenario did (a slow machine), it runs again
	 * in the next window, whose counts start at zero.
	 */
	async function inOneWindow<T>(span: number, into: number, scenario: () => Promise<T>): Promise<{ result: T; start: number; end: number }> {
		for (;;) {
			const now = await siteSeconds();
			await control('POST', '/clock', { advanceSeconds: span - (now % span) + into });
			const start = await siteSeconds();
			const result = await scenario();
			const end = await siteSeconds();
			if (Math.floor(start / span) === Math.floor(end / span)) return { result, start, end };
		}
	}

	test('per IP per minute: 429 rate_limit_exceeded with Retry-After; seeding is not counted', async () => {
		await control('POST', '/rate-limits', { perIpPerMinute: 3, perKeyPerHour: 1000 });
		const { result, start, end } = await inOneWindow(60, 5, async () => {
			const first: number[] = [];
			for (let i = 0; i < 3; i++) first.push((await api('GET', '/stats')).status);
			const limited = await api('GET', '/stats', { key: 'user' });
			// Unauthenticated requests are limited too (429, not 401).
			const anonymous = (await api('GET', '/stats', { key: null })).status;
			return { first, limited, anonymous };
		});
		const { first, limited, anonymous } = result;
		expect(first).toEqual([200, 200, 200]);
		expect(limited.status).toBe(429);
		expect(limited.body.code).toBe('rate_limit_exceeded');
		// The seconds left in the window when the site answered (between the scenario's start and end).
		const wait = limited.body.data.retry_after;
		expect(wait).toBeGreaterThanOrEqual(60 - (end % 60));
		expect(wait).toBeLessThanOrEqual(60 - (start % 60));
		expect(limited.headers.get('retry-after')).toBe(String(wait));
		expect(limited.body.message).toContain(`${wait} seconds`);
		expect(anonymous).toBe(429);
		expect((await control('POST', '/seed/documents', { count: 2 })).status).toBe(201);
		await control('POST', '/clock', { advanceSeconds: 61 });
		expect((await api('GET', '/stats')).body.total).toBe(2);
	});

	test('per key per hour: one key is limited, another is not', async () => {
		await control('POST', '/rate-limits', { perKeyPerHour: 2, perIpPerMinute: 0 });
		const { result, start, end } = await inOneWindow(3600, 600, async () => {
			const first = [(await api('GET', '/stats')).status, (await api('GET', '/stats')).status];
			const limited = await api('GET', '/stats');
			const other = (await api('GET', '/stats', { key: 'user' })).status;
			return { first, limited, other };
		});
		expect(result.first).toEqual([200, 200]);
		expect(result.limited.status).toBe(429);
		// 10 minutes into the hour: 50 minutes left, less what the requests took on the site clock.
		expect(result.limited.body.data.retry_after).toBeGreaterThanOrEqual(3600 - (end % 3600));
		expect(result.limited.body.data.retry_after).toBeLessThanOrEqual(3600 - (start % 3600));
		expect(result.other).toBe(200);
	});
});

describe('webhooks', () => {
	let receiver: Awaited<ReturnType<typeof startRecorder>>;

	beforeAll(async () => {
		receiver = await startRecorder();
	});
	afterAll(() => receiver.close());
	beforeEach(() => {
		receiver.requests.length = 0;
	});

	const receiverUrl = () => `${receiver.url}/hook`;

	test('signed events over the exact body bytes, PHP-style escaping ([guess] timestamp, status and signer members, X-ESIGN-Event)', async () => {
		expect(site.webhookSecret).toBe(DEFAULT_WEBHOOK_SECRET);
		await control('POST', '/webhooks', { url: receiverUrl() });
		const { id } = await makeDraft({ title: 'Lease 2024/25 für Café' });
		await api('POST', `/documents/${id}/send`);
		await signerAction((await tokens(id))[0], 'sign');
		await site.idle();

		expect(receiver.requests.map((r) => r.headers['x-esign-event'])).toEqual(['document.sent', 'document.viewed', 'document.signed', 'document.completed']);
		for (const { headers, raw } of receiver.requests) {
			const expected = `sha256=${crypto.createHmac('sha256', DEFAULT_WEBHOOK_SECRET).update(raw).digest('hex')}`;
			const given = String(headers['x-esign-signature']);
			expect(given).toMatch(/^sha256=[0-9a-f]{64}$/);
			expect(crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected))).toBe(true);
		}
		const completed = receiver.requests[3].raw.toString('utf8');
		expect(completed).toContain('2024\\/25');
		expect(completed).toContain('f\\u00fcr Caf\\u00e9');
		const payload = JSON.parse(completed);
		expect(payload).toMatchObject({ event: 'document.completed', data: { document_id: Number(id), document_title: 'Lease 2024/25 für Café', status: 'completed' } });
		expect(payload.timestamp).toMatch(TIMESTAMP);
		expect(JSON.stringify(payload)).not.toBe(completed); // re-serialising would break the signature
		const signedEvent = JSON.parse(receiver.requests[2].body);
		expect(signedEvent.data).toMatchObject({ signer_name: 'Signer 1', signer_email: 'signer1@example.com' });
		const deliveries = (await control('GET', '/webhooks')).body.deliveries;
		expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200, 200]);
	});

	test('declined event carries the reason ([guess] and status); a changed secret signs with the new key; events filter', async () => {
		await control('POST', '/webhooks', { url: receiverUrl(), events: ['document.declined'] });
		await control('POST', '/webhooks/secret', { secret: 'whsec_other' });
		const { id } = await makeDraft();
		await api('POST', `/documents/${id}/send`);
		await signerAction((await tokens(id))[0], 'decline', { reason: 'Too expensive' });
		await site.idle();
		expect(receiver.requests).toHaveLength(1);
		const payload = JSON.parse(receiver.requests[0].body);
		expect(payload.data).toMatchObject({ document_id: Number(id), decline_reason: 'Too expensive', status: 'declined' });
		const expected = `sha256=${crypto.createHmac('sha256', 'whsec_other').update(receiver.requests[0].raw).digest('hex')}`;
		expect(receiver.requests[0].headers['x-esign-signature']).toBe(expected);
		await control('POST', '/webhooks/secret', { secret: DEFAULT_WEBHOOK_SECRET });
	});

	test('test delivery control, and an unreachable receiver is recorded as an error', async () => {
		const delivery = (await control('POST', '/webhooks/test', { url: receiverUrl(), event: 'document.completed', data: { document_id: 7 } })).body;
		expect(delivery).toMatchObject({ status: 200, event: 'document.completed', error: null });
		expect(receiver.requests[0].raw.toString()).toBe(delivery.body);
		const dead = (await control('POST', '/webhooks/test', { url: 'http://127.0.0.1:1/none', event: 'document.sent', data: {} })).body;
		expect(dead.status).toBeNull();
		expect(dead.error).toEqual(expect.any(String));
	});
});

describe('fault injection', () => {
	afterEach(() => control('DELETE', '/faults'));

	test('after: the handler runs once, yet the answer is a 500', async () => {
		const { id } = await makeDraft({ signers: 2 });
		await control('POST', '/faults', { method: 'POST', path: '/send', mode: 'after' });
		const res = await api('POST', `/documents/${id}/send`);
		expect(res.status).toBe(500);
		expect(res.body.code).toBe('internal_error');
		expect((await control('GET', '/counters')).body.sendExecuted).toBe(1);
		expect((await api('GET', `/documents/${id}`)).body.status).toBe('sent');
		expect((await control('GET', `/outbox?document_id=${id}`)).body).toHaveLength(2);
		const log = (await control('GET', '/requests')).body;
		expect(log.at(-2)).toMatchObject({ method: 'POST', path: `/wp-json/esign/v1/documents/${id}/send`, status: 500, executed: true, key: site.keys.admin.key });
		// The fault is used up: the next request is real.
		expect((await api('POST', `/documents/${id}/send`)).body.code).toBe('invalid_state');
	});

	test('before: answers without running the handler; 429 faults look like real rate limits', async () => {
		const { id } = await makeDraft();
		await control('POST', '/faults', { path: `/documents/${id}/send`, mode: 'before', status: 503 });
		expect((await api('POST', `/documents/${id}/send`)).status).toBe(503);
		await control('POST', '/faults', { path: '/\\/stats$/', status: 429, retryAfter: 2 });
		const limited = await api('GET', '/stats');
		expect([limited.status, limited.headers.get('retry-after'), limited.body.data.retry_after]).toEqual([429, '2', 2]);
		expect((await control('GET', '/counters')).body.sendExecuted).toBe(0);
		expect((await control('GET', '/requests')).body.at(-2).executed).toBe(false);
	});

	sandboxOnly('drop-after and drop-before destroy the connection, with and without running the handler', async () => {
		const { id } = await makeDraft();
		await control('POST', '/faults', { path: '/send', mode: 'drop-before' });
		await expect(api('POST', `/documents/${id}/send`)).rejects.toThrow();
		expect((await control('GET', '/counters')).body.sendExecuted).toBe(0);
		await control('POST', '/faults', { path: '/send', mode: 'drop-after' });
		await expect(api('POST', `/documents/${id}/send`)).rejects.toThrow();
		expect((await control('GET', '/counters')).body.sendExecuted).toBe(1);
		expect((await api('GET', `/documents/${id}`)).body.status).toBe('sent');
		expect((await control('GET', `/outbox?document_id=${id}`)).body).toHaveLength(1);
	});

	test('delayMs delays the answer', async () => {
		await control('POST', '/faults', { path: '/stats', delayMs: 300 });
		const started = Date.now();
		const res = await api('GET', '/stats');
		expect(res.status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
	});
});

describe('templates', () => {
	const rentalId = async () => (await api('GET', '/templates?search=rental')).body[0].id;

	test('shape: integers, variables from mapping names', async () => {
		const list = (await api('GET', '/templates')).body;
		expect(list.map((t) => t.name)).toEqual(['Rental Agreement', 'Mutual NDA', "Uma's Offer Letter"]);
		const rental = (await api('GET', `/templates/${list[0].id}`)).body;
		expect(rental).toMatchObject({ id: expect.any(Number), total_pages: 2, original_filename: 'contract.pdf' });
		expect(rental.variables.map((v) => v.key)).toEqual(['client_name', 'property_address', 'appointment_date']);
		expect(rental.variables[2].field_type).toBe('date');
		expect((await api('GET', '/templates?per_page=1')).body).toHaveLength(1);
	});

	test('prefill: variables win over convenience keys; signature and initials never prefilled; sent', async () => {
		const res = await api('POST', `/templates/${await rentalId()}/documents`, {
			body: {
				title: 'Lease for Tom',
				signers: [{ name: 'Tom Tenant', email: 'tom@example.com' }],
				variables: { client_name: 'Thomas T.', signature: 'forged', 'Tenant signature': 'forged' },
				client_name: 'ignored',
				property_address: '1 Main St',
			},
		});
		expect(res.status).toBe(201);
		expect(res.body).toMatchObject({ title: 'Lease for Tom', status: 'sent', sent: true, prefilled: true, send_error: null, id: expect.any(Number) });
		expect(res.body.document_id).toBe(res.body.id);
		expect(res.body.signers[0]).toMatchObject({ id: expect.any(Number), name: 'Tom Tenant', status: 'pending', signing_url: expect.stringMatching(/[0-9a-f]{32}$/) });
		const fields = (await api('GET', `/documents/${res.body.id}/fields`)).body;
		const byName = Object.fromEntries(fields.map((f) => [f.field_name, f]));
		expect(byName['Client name'].value).toBe('Thomas T.');
		expect(byName['Property address'].value).toBe('1 Main St');
		expect(byName['Appointment date'].value).toBe('');
		expect(byName['Tenant signature'].value).toBe('');
		expect(byName['Tenant initials'].value).toBe('');
		expect((await control('GET', `/outbox?document_id=${res.body.id}`)).body).toHaveLength(1);
	});

	test('send=false leaves a draft; send=true needs a signer; require_wp_login needs a site user', async () => {
		const id = await rentalId();
		const draft = await api('POST', `/templates/${id}/documents`, { body: { send: false, variables: { client_name: 'X' } } });
		expect(draft.body).toMatchObject({ status: 'draft', sent: false, prefilled: false, signers: [] });
		expect(draft.body.title).toMatch(/^Rental Agreement - \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
		expect((await api('POST', `/templates/${id}/documents`, { body: {} })).body.code).toBe('no_signers');
		const stranger = await api('POST', `/templates/${id}/documents`, { body: { signers: [{ name: 'Zed', email: 'zed@example.com', require_wp_login: true }] } });
		expect(stranger.body.code).toBe('invalid_signer');
		const member = await api('POST', `/templates/${id}/documents`, { body: { signers: [{ name: 'Uma', email: 'uma@example.com', require_wp_login: true }] } });
		expect(member.body.sent).toBe(true);
		expect((await api('POST', `/templates/${id}/documents`, { key: 'adminReadOnly', body: {} })).status).toBe(403);
	});

	test('fields follow signers by position; a second NDA party without a signer is dropped', async () => {
		const nda = (await api('GET', '/templates?search=disclosure')).body[0];
		const one = await api('POST', `/templates/${nda.id}/documents`, { body: { signer_name: 'Ann', signer_email: 'ann@example.com' } });
		expect((await api('GET', `/documents/${one.body.id}/fields`)).body).toHaveLength(3);
		const two = await api('POST', `/templates/${nda.id}/documents`, {
			body: { signers: [{ name: 'Bea', email: 'bea@example.com', signing_order: 2 }, { name: 'Ann', email: 'ann@example.com', signing_order: 1 }] },
		});
		const doc = (await api('GET', `/documents/${two.body.id}`)).body;
		const ann = doc.signers.find((s) => s.name === 'Ann');
		const receiving = (await api('GET', `/documents/${two.body.id}/fields`)).body.find((f) => f.field_name === 'Receiving party signature');
		expect(doc.fields).toHaveLength(4);
		expect(receiving.signer_id).not.toBe(ann.id);
		expect(two.body.signers.map((s) => s.name)).toEqual(['Ann', 'Bea']);
	});

	test('a document saved as a template exposes mapping/field names as variables', async () => {
		const { id, signers } = await makeDraft();
		await api('POST', `/documents/${id}/fields`, {
			body: {
				fields: [
					{ signer_id: Number(signers[0].id), field_type: 'signature', page_number: 2, position_x: 72, position_y: 530 },
					{ signer_id: Number(signers[0].id), field_type: 'text', page_number: 1, position_x: 72, position_y: 200, mapping_name: 'buyer' },
					{ signer_id: Number(signers[0].id), field_type: 'text', page_number: 1, position_x: 72, position_y: 240, field_name: 'Price' },
				],
			},
		});
		const saved = await control('POST', '/templates', { document_id: id, name: 'Sale', owner: 'user' });
		expect(saved.status).toBe(201);
		expect(saved.body.variables.map((v) => v.key)).toEqual(['buyer', 'Price']);
		expect((await api('GET', `/templates/${saved.body.id}`, { key: 'user' })).status).toBe(200);
	});
});

describe('signed file after completion', () => {
	test('GET /file returns a stamped PDF with a certificate page; file_hash stays the original', async () => {
		const { id } = await makeDraft({ signers: 2 });
		const before = (await api('GET', `/documents/${id}`)).body.file_hash;
		await api('POST', `/documents/${id}/send`);
		for (const token of await tokens(id)) await signerAction(token, 'sign');
		const file = (await api('GET', `/documents/${id}/file`)).body;
		expect(file).toMatchObject({ filename: 'contract-signed.pdf', type: 'application/pdf', encoding: 'base64' });
		const signed = await PDFDocument.load(Buffer.from(file.content, 'base64'));
		const original = await PDFDocument.load(await sample('contract.pdf'));
		expect(signed.getPageCount()).toBe(original.getPageCount() + 1);
		expect((await api('GET', `/documents/${id}`)).body.file_hash).toBe(before);
	});

	test('an image original becomes a PDF with the image page and a certificate', async () => {
		const doc = (await upload('photo.jpg')).body;
		await api('POST', `/documents/${doc.id}/signers`, { body: { name: 'Ann', email: 'ann@example.com' } });
		const [signer] = (await api('GET', `/documents/${doc.id}/signers`)).body;
		await api('POST', `/documents/${doc.id}/fields`, { body: { fields: [{ signer_id: Number(signer.id), field_type: 'signature', page_number: 1, position_x: 72, position_y: 600 }] } });
		expect((await api('GET', `/documents/${doc.id}/file`)).body.type).toBe('image/jpeg');
		await api('POST', `/documents/${doc.id}/send`);
		await signerAction((await tokens(doc.id))[0], 'sign');
		const file = (await api('GET', `/documents/${doc.id}/file`)).body;
		expect(file.filename).toBe('photo-signed.pdf');
		expect((await PDFDocument.load(Buffer.from(file.content, 'base64'))).getPageCount()).toBe(2);
	});
});

describe('controls and pages', () => {
	test('samples, keys, the signing page, reset', async () => {
		const keys = (await control('GET', '/keys')).body;
		expect(keys.admin.key).toMatch(/^esign_/);
		expect(keys.webhookSecret).toBe(DEFAULT_WEBHOOK_SECRET);
		const png = await sample('photo.png');
		expect(png.subarray(1, 4).toString()).toBe('PNG');
		expect((await PDFDocument.load(await sample('a4.pdf'))).getPage(0).getHeight()).toBeCloseTo(841.89, 1);
		const { id } = await makeDraft();
		await api('POST', `/documents/${id}/send`);
		const [signer] = (await control('GET', `/signers?document_id=${id}`)).body;
		expect(signer.signing_url.startsWith(site.url)).toBe(true);
		const page = await call(signer.signing_url);
		expect(page.status).toBe(200);
		expect(page.body).toContain('id="sign"');
		await control('POST', '/reset');
		expect((await api('GET', '/documents')).body).toEqual([]);
		expect((await control('GET', '/requests')).body).toHaveLength(1);
		expect((await call(signer.signing_url)).status).toBe(404);
	});

	sandboxOnly('the sandbox index page names the API URL', async () => {
		expect((await call(`${site.url}/`)).body).toContain(site.api(''));
	});
});
