/**
 * The API contract (the spec plus the decisions in docs/reference.md), checked over real HTTP against
 * one site: the Node sandbox on a free port by default, or the site described in ESIGN_CONTRACT_SITE
 * (`npm run test:wordpress` runs this same file against the WordPress test site).
 *
 * What the API description (the spec) does not show is a guess. A test whose name holds [guess] checks such a
 * choice, one both doubles make (test/sandbox/CONTRACT.md → Decisions), so that they stay alike: a name that starts
 * with [guess] checks guesses only; otherwise the name says in brackets which guesses it checks, and each assertion
 * that checks one carries a `// [guess]` comment.
 * A guess is not the API: the nodes must not rely on it, and the sandbox's strict profile plays otherwise
 * (CONTRACT.md → Profiles). Every assertion without the marker checks what the spec says. What WordPress's own REST
 * server does for any plugin's routes (rest_no_route, rest_invalid_json, the ?_method= override) is marked
 * [WordPress]: the spec names the platform (/wp-json, its REST error format), not these answers.
 * Test controls (the request log, counters, outbox, faults, clock, seeding, signing pages) are the doubles' own.
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
	expect((await api('POST', `/documents/${doc.id}/fields`, { key, body: { fields } })).status).toBe(200); // [guess] 200: the spec shows the saved fields, not the status
	return { id: doc.id, signers: added };
}

async function tokens(documentId: string | number): Promise<string[]> {
	return (await control('GET', `/signers?document_id=${documentId}`)).body.map((s) => s.token);
}

const signerAction = (token: string, action: string, body: unknown = {}) => control('POST', `/sign/${token}/${action}`, body);

// ---------------------------------------------------------------- tests

describe('authentication and permissions', () => {
	test('missing or wrong credentials → 401 rest_forbidden with a message about the key or secret ([guess] its exact text)', async () => {
		for (const res of [await api('GET', '/documents', { key: null }), await api('GET', '/documents', { secret: 'wrong' })]) {
			expect(res.status).toBe(401);
			expect(res.body).toMatchObject({ code: 'rest_forbidden', data: { status: 401 } });
			expect(res.body.message).toMatch(/invalid/i);
			expect(res.body.message).toMatch(/key|secret/i);
			expect(res.body.message).toBe('Invalid API key or secret.'); // [guess] the spec gives the gist, not the text
		}
	});

	test('a Read Only key reads but cannot write (403 rest_forbidden, read-only message)', async () => {
		expect((await api('GET', '/stats', { key: 'adminReadOnly' })).status).toBe(200);
		const res = await api('POST', '/documents', { key: 'adminReadOnly', body: { title: 'x' } });
		expect(res.status).toBe(403);
		expect(res.body.code).toBe('rest_forbidden');
		expect(res.body.message).toMatch(/read-only/i);
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
	test('shapes: strings in document/signer/field objects, timestamps from the sandbox clock ([guess] signing_order 1 when none was given)', async () => {
		const { id } = await makeDraft();
		const doc = (await api('GET', `/documents/${id}`)).body;
		expect(doc).toMatchObject({ id, status: 'draft', total_pages: '2', original_filename: 'contract.pdf', expires_at: null, completed_at: null });
		expect(doc.created_at).toMatch(TIMESTAMP);
		expect(doc.file_hash).toMatch(/^[0-9a-f]{64}$/);
		expect(doc.signers[0]).toMatchObject({ document_id: id, role: 'signer', status: 'pending' });
		expect(doc.signers[0].signing_order).toBe('1'); // [guess] the next position when none is given
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

	test('unknown document → 404 not_found; [WordPress] unknown route, unknown method, malformed JSON', async () => {
		expect((await api('GET', '/nope')).body.code).toBe('rest_no_route'); // [WordPress]
		expect((await api('PATCH', '/documents/1')).status).toBe(404); // [WordPress]
		const missing = await api('GET', '/documents/12345');
		expect(missing.status).toBe(404);
		expect(missing.body.code).toBe('not_found');
		const bad = await api('POST', '/documents', { raw: '{"title": ' });
		expect(bad.status).toBe(400);
		expect(bad.body.code).toBe('rest_invalid_json'); // [WordPress]
	});

	test('POST /documents: title required, a stored file path within 15 minutes ([guess] the codes missing_title, invalid_file_path, file_expired; the file\'s name and page count; a document without a file: no_file)', async () => {
		const untitled = await api('POST', '/documents', { body: {} });
		expect(untitled.status).toBe(400);
		expect(untitled.body.code).toBe('missing_title'); // [guess] the spec names no code
		const form = new FormData();
		form.append('file', new Blob([await sample('a4.pdf')]), 'a4.pdf');
		const stored = (await call(site.control('/storage'), 'POST', form)).body;
		const created = await api('POST', '/documents', { body: { title: 'From storage', file_path: stored.file_path } });
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({ status: 'draft' });
		expect(created.body).toMatchObject({ total_pages: '1', original_filename: 'a4.pdf' }); // [guess] taken from the stored file
		const unknown = await api('POST', '/documents', { body: { title: 'x', file_path: '/nope.pdf' } });
		expect(unknown.status).toBe(400);
		expect(unknown.body.code).toBe('invalid_file_path'); // [guess]
		await control('POST', '/storage/age', { file_path: stored.file_path, minutes: 16 });
		const old = await api('POST', '/documents', { body: { title: 'x', file_path: stored.file_path } });
		expect(old.status).toBe(400);
		expect(old.body.code).toBe('file_expired'); // [guess]
		// [guess] without file_path: a document without a file
		const empty = (await api('POST', '/documents', { body: { title: 'No file' } })).body;
		expect(empty).toMatchObject({ total_pages: '0', original_filename: '' }); // [guess]
		expect((await api('GET', `/documents/${empty.id}/file`)).body.code).toBe('no_file'); // [guess]
	});

	test('DELETE deletes the document and its signers for good ([guess] stats.deleted counts it: the spec calls deleted "soft-deleted")', async () => {
		const { id } = await makeDraft();
		expect((await api('DELETE', `/documents/${id}`)).body).toEqual({ deleted: true });
		expect((await api('GET', `/documents/${id}`)).body.code).toBe('not_found');
		expect((await api('GET', `/documents/${id}/signers`)).status).toBe(404);
		expect((await api('GET', '/stats')).body).toMatchObject({ total: 0 });
		// [guess] a hard DELETE counted as deleted (clarifications allow it; the spec's deleted is soft-deleted documents)
		expect((await api('GET', '/stats')).body).toMatchObject({ deleted: 1 });
		expect((await api('GET', '/stats', { key: 'user' })).body.deleted).toBe(0); // [guess] per owner
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

describe('[WordPress] method override (WordPress\'s WP_REST_Server::serve_request, what firewalls that refuse PUT and DELETE leave)', () => {
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
	test('PDF, PNG and JPG, as file or document, title from the filename stem; pages counted; the file back as base64 ([guess] type by content, an image is 1 page, file_hash is SHA-256, filename as uploaded)', async () => {
		const png = await upload('photo.png');
		expect(png.status).toBe(201);
		expect(png.body).toMatchObject({ title: 'photo', status: 'draft', expires_at: null, completed_at: null });
		expect(png.body.total_pages).toBe('1'); // [guess] an image counts as one page
		const jpg = (await upload('photo.jpg', { field: 'document', title: 'A photo' })).body;
		expect(jpg).toMatchObject({ title: 'A photo' });
		expect(jpg.total_pages).toBe('1'); // [guess]
		const pdf = await upload('contract.pdf', { filename: 'upload.bin' }); // [guess] the type is read from the bytes, not the name
		expect(pdf.body.total_pages).toBe('2');
		const full = (await api('GET', `/documents/${pdf.body.id}`)).body;
		expect(full.file_hash).toMatch(/^[0-9a-f]+$/);
		expect(full.file_hash).toBe(crypto.createHash('sha256').update(await sample('contract.pdf')).digest('hex')); // [guess] "a hexadecimal hash": SHA-256
		const file = (await api('GET', `/documents/${pdf.body.id}/file`)).body;
		expect(file).toMatchObject({ type: 'application/pdf', encoding: 'base64' });
		expect(file.filename).toBe('upload.bin'); // [guess] the name it was uploaded as
		expect(Buffer.from(file.content, 'base64').equals(await sample('contract.pdf'))).toBe(true);
	});

	test('[guess] a text file (even named .pdf) and a missing file are refused: 400 invalid_file_type and missing_file (the spec names no upload error codes)', async () => {
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
	test('[guess] a file over 20 MB → 413 file_too_large (or no file at all where the post_max_size of PHP is lower; the spec shows no size limit)', async () => {
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

	test('[guess] a file over the upload_max_filesize of PHP arrives as no file on a PHP site (400 missing_file)', async () => {
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
	test('validation messages are "Field <n>: <reason>"; invalid fields data → invalid_data ([guess] which values are refused, the reasons\' words, nothing saved)', async () => {
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
		expect(res.body.data.errors.length).toBeGreaterThan(0);
		for (const error of res.body.data.errors) expect(error).toMatch(/^Field [234]: /);
		// [guess] the reasons' words, and that a negative position, a width of 0 and a dropdown without options are refused
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
		// [guess] nothing was replaced by the failed calls
		expect((await api('GET', `/documents/${id}/fields`)).body).toHaveLength(1);
	});

	test('replace-all with the default sizes, font and unset values; an empty array clears', async () => {
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
	test('send → view → sign → completed, with audit trail and outbox ([guess] invalid_state for a second send, for fields once sent and for a second signature; the audit actions beyond the three the spec names)', async () => {
		const { id } = await makeDraft({ signers: 2 });
		const sent = await api('POST', `/documents/${id}/send`);
		expect(sent.body).toMatchObject({ sent: true });
		expect((await api('POST', `/documents/${id}/send`)).body.code).toBe('invalid_state'); // [guess]
		const outbox = (await control('GET', `/outbox?document_id=${id}`)).body;
		expect(outbox.map((m) => [m.kind, m.to])).toEqual([['invitation', 'signer1@example.com'], ['invitation', 'signer2@example.com']]);
		expect((await api('POST', `/documents/${id}/fields`, { body: { fields: [] } })).body.code).toBe('invalid_state'); // [guess]

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
		expect((await signerAction(first, 'sign')).body.code).toBe('invalid_state'); // [guess]
		const audit = (await api('GET', `/documents/${id}/audit`)).body;
		expect(String(audit.document.id)).toBe(String(id));
		expect(audit.document).toMatchObject({ title: doc.title, file_hash: doc.file_hash });
		for (const event of audit.events) expect(event).toMatchObject({ action: expect.any(String), timestamp: expect.stringMatching(TIMESTAMP), ip_address: expect.any(String) });
		const actions = audit.events.map((e) => e.action);
		expect(actions).toEqual(expect.arrayContaining(['document_created', 'document_viewed', 'document_signed']));
		// [guess] the complete list and order: the spec names document_created, document_viewed and document_signed only
		expect(actions).toEqual([
			'document_created', 'signer_added', 'signer_added', 'fields_updated', 'document_sent',
			'document_viewed', 'document_signed', 'document_viewed', 'document_signed', 'document_completed',
		]);
	});

	test('send prerequisites: no_signers ([guess] missing_fields naming the signer; no_file)', async () => {
		const bare = (await upload('one-page.pdf')).body;
		expect((await api('POST', `/documents/${bare.id}/send`)).body.code).toBe('no_signers');
		await api('POST', `/documents/${bare.id}/signers`, { body: { name: 'Ann', email: 'ann@example.com' } });
		const missing = await api('POST', `/documents/${bare.id}/send`);
		expect(missing.body.code).toBe('missing_fields'); // [guess] the spec's Gaps: not shown
		expect(missing.body.message).toMatch(/Ann/); // [guess]
		const noFile = (await api('POST', '/documents', { body: { title: 'No file' } })).body;
		await api('POST', `/documents/${noFile.id}/signers`, { body: { name: 'Ann', email: 'ann@example.com' } });
		expect((await api('POST', `/documents/${noFile.id}/send`)).body.code).toBe('no_file'); // [guess]
		expect((await control('GET', '/outbox')).body).toEqual([]);
	});

	test('decline sets declined_at and reason; the document is declined ([guess] the signer\'s status becomes declined)', async () => {
		const { id } = await makeDraft();
		await api('POST', `/documents/${id}/send`);
		const [token] = await tokens(id);
		const res = await signerAction(token, 'decline', { reason: 'Wrong address' });
		expect(res.body.document.status).toBe('declined');
		expect(res.body.signer).toMatchObject({ decline_reason: 'Wrong address' });
		expect(res.body.signer.status).toBe('declined'); // [guess]
		expect(res.body.signer.declined_at).toMatch(TIMESTAMP);
		expect((await api('GET', '/stats')).body.declined).toBe(1);
	});

	test('expire: not_due without or before expires_at, expired when due ([guess] invalid_state when terminal)', async () => {
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
		expect((await api('POST', `/documents/${id}/expire`)).body.code).toBe('invalid_state'); // [guess] which states are terminal, and the code

		const completed = (await control('POST', '/seed/documents', { count: 1, status: 'completed' })).body.ids[0];
		await control('POST', `/documents/${completed}/expiry`, { inSeconds: -60 });
		expect((await api('POST', `/documents/${completed}/expire`)).body.code).toBe('invalid_state'); // [guess]
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

	test('remind: the eligible signers ([guess] an unknown signer → invalid_signer, a signed one listed in failed, a draft refused)', async () => {
		const { id, signers } = await makeDraft({ signers: 2 });
		expect((await api('POST', `/documents/${id}/remind`)).body.code).toBe('invalid_state'); // [guess] a draft is refused
		await api('POST', `/documents/${id}/send`);
		const [first] = await tokens(id);
		await signerAction(first, 'sign');
		const all = await api('POST', `/documents/${id}/remind`);
		expect(all.body).toMatchObject({ reminded: [signers[1].id], failed: [] });
		const signed = await api('POST', `/documents/${id}/remind`, { body: { signer_id: Number(signers[0].id) } });
		expect(signed.body.reminded).toEqual([]); // [guess] a signed signer is listed in failed
		expect(signed.body.failed[0].signer_id).toBe(signers[0].id); // [guess]
		expect((await api('POST', `/documents/${id}/remind`, { body: { signer_id: 999 } })).body.code).toBe('invalid_signer'); // [guess]
		const reminders = (await control('GET', `/outbox?document_id=${id}`)).body.filter((m) => m.kind === 'reminder');
		expect(reminders.map((m) => m.to)).toEqual(['signer2@example.com']);
	});
});

describe('listing', () => {
	test('pagination headers, 20 per page by default, up to 100, status and search filters ([guess] newest first, a page past the end is [], out-of-range page/per_page → 400 rest_invalid_param, search ignores case, TotalPages 0 when nothing matches)', async () => {
		await control('POST', '/seed/documents', { count: 45, titlePrefix: 'Bulk' });
		await control('POST', '/seed/documents', { count: 3, status: 'sent', titlePrefix: 'Pending lease' });
		const first = await api('GET', '/documents');
		expect(first.headers.get('x-esign-total')).toBe('48');
		expect(first.headers.get('x-esign-totalpages')).toBe('3');
		expect(first.body).toHaveLength(20);
		expect(first.body[0].id).toBe('48'); // [guess] newest first (the spec shows no order)
		const last = await api('GET', '/documents?page=3&per_page=20');
		expect(last.body).toHaveLength(8);
		expect((await api('GET', '/documents?page=4')).body).toEqual([]); // [guess]
		expect((await api('GET', '/documents?per_page=100')).body).toHaveLength(48);
		// [guess] refused rather than clamped (the spec gives the range, not what happens outside it)
		for (const q of ['per_page=101', 'per_page=0', 'page=0', 'page=x']) {
			const res = await api('GET', `/documents?${q}`);
			expect(res.status).toBe(400);
			expect(res.body.code).toBe('rest_invalid_param');
		}
		const sent = await api('GET', '/documents?status=sent');
		expect(sent.headers.get('x-esign-total')).toBe('3');
		expect(sent.body.every((d) => d.status === 'sent')).toBe(true);
		expect((await api('GET', '/documents?search=Pending lease')).body).toHaveLength(3);
		expect((await api('GET', '/documents?search=pending LEASE')).body).toHaveLength(3); // [guess] case-insensitive
		const empty = await api('GET', '/documents?status=declined');
		expect(empty.body).toEqual([]);
		expect(empty.headers.get('x-esign-totalpages')).toBe('0'); // [guess]
		expect((await api('GET', '/templates?per_page=101')).body.code).toBe('rest_invalid_param'); // [guess]
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

	test('per IP per minute: 429 rate_limit_exceeded with Retry-After, also without a key; seeding is not counted ([guess] a fixed window: retry_after is the rest of the clock minute)', async () => {
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
		const wait = limited.body.data.retry_after;
		expect(wait).toEqual(expect.any(Number));
		// [guess] fixed windows: the seconds left in the clock minute when the site answered (between the scenario's start and end)
		expect(wait).toBeGreaterThanOrEqual(60 - (end % 60));
		expect(wait).toBeLessThanOrEqual(60 - (start % 60));
		expect(limited.headers.get('retry-after')).toBe(String(wait));
		expect(limited.body.message).toContain(`${wait} seconds`);
		expect(anonymous).toBe(429);
		expect((await control('POST', '/seed/documents', { count: 2 })).status).toBe(201);
		await control('POST', '/clock', { advanceSeconds: 61 });
		expect((await api('GET', '/stats')).body.total).toBe(2);
	});

	test('per key per hour: one key is limited, another is not ([guess] a fixed window: retry_after is the rest of the clock hour)', async () => {
		await control('POST', '/rate-limits', { perKeyPerHour: 2, perIpPerMinute: 0 });
		const { result, start, end } = await inOneWindow(3600, 600, async () => {
			const first = [(await api('GET', '/stats')).status, (await api('GET', '/stats')).status];
			const limited = await api('GET', '/stats');
			const other = (await api('GET', '/stats', { key: 'user' })).status;
			return { first, limited, other };
		});
		expect(result.first).toEqual([200, 200]);
		expect(result.limited.status).toBe(429);
		// [guess] fixed windows: 10 minutes into the hour, 50 minutes left, less what the requests took on the site clock
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

	test('signed events over the exact body bytes, {event, data} with the document\'s id and title ([guess] the events sent, viewed and signed; PHP\'s escaping; an integer document_id; timestamp, status and signer members; X-ESIGN-Event)', async () => {
		expect(site.webhookSecret).toBe(DEFAULT_WEBHOOK_SECRET);
		await control('POST', '/webhooks', { url: receiverUrl() });
		const { id } = await makeDraft({ title: 'Lease 2024/25 für Café' });
		await api('POST', `/documents/${id}/send`);
		await signerAction((await tokens(id))[0], 'sign');
		await site.idle();

		expect(receiver.requests.map((r) => JSON.parse(r.body).event)).toContain('document.completed');
		// [guess] the other events, and the X-ESIGN-Event header naming each
		expect(receiver.requests.map((r) => r.headers['x-esign-event'])).toEqual(['document.sent', 'document.viewed', 'document.signed', 'document.completed']);
		for (const { headers, raw } of receiver.requests) {
			const expected = `sha256=${crypto.createHmac('sha256', DEFAULT_WEBHOOK_SECRET).update(raw).digest('hex')}`;
			const given = String(headers['x-esign-signature']);
			expect(given).toMatch(/^sha256=[0-9a-f]{64}$/);
			expect(crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected))).toBe(true);
		}
		const completed = receiver.requests[3].raw.toString('utf8');
		// [guess] PHP's json_encode escaping (\/ and \u00fc), as WordPress's wp_json_encode writes it
		expect(completed).toContain('2024\\/25');
		expect(completed).toContain('f\\u00fcr Caf\\u00e9');
		const payload = JSON.parse(completed);
		expect(payload).toMatchObject({ event: 'document.completed', data: { document_title: 'Lease 2024/25 für Café' } });
		expect(String(payload.data.document_id)).toBe(String(id));
		expect(payload.data).toMatchObject({ document_id: Number(id), status: 'completed' }); // [guess] an integer id, and status
		expect(payload.timestamp).toMatch(TIMESTAMP); // [guess]
		expect(JSON.stringify(payload)).not.toBe(completed); // re-serialising would break the signature
		const signedEvent = JSON.parse(receiver.requests[2].body);
		expect(signedEvent.data).toMatchObject({ signer_name: 'Signer 1', signer_email: 'signer1@example.com' }); // [guess]
		const deliveries = (await control('GET', '/webhooks')).body.deliveries;
		expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200, 200]);
	});

	test('declined event carries the document id and the reason ([guess] an integer id, and status); a changed secret signs with the new key; events filter', async () => {
		await control('POST', '/webhooks', { url: receiverUrl(), events: ['document.declined'] });
		await control('POST', '/webhooks/secret', { secret: 'whsec_other' });
		const { id } = await makeDraft();
		await api('POST', `/documents/${id}/send`);
		await signerAction((await tokens(id))[0], 'decline', { reason: 'Too expensive' });
		await site.idle();
		expect(receiver.requests).toHaveLength(1);
		const payload = JSON.parse(receiver.requests[0].body);
		expect(payload).toMatchObject({ event: 'document.declined', data: { decline_reason: 'Too expensive' } });
		expect(String(payload.data.document_id)).toBe(String(id));
		expect(payload.data).toMatchObject({ document_id: Number(id), status: 'declined' }); // [guess]
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

	test('shape: integers, variables from mapping names ([guess] listed by id)', async () => {
		const list = (await api('GET', '/templates')).body;
		expect(list.map((t) => t.name)).toEqual(['Rental Agreement', 'Mutual NDA', "Uma's Offer Letter"]); // [guess] the order
		const rental = (await api('GET', `/templates/${list[0].id}`)).body;
		expect(rental).toMatchObject({ id: expect.any(Number), total_pages: 2, original_filename: 'contract.pdf' });
		expect(rental.variables.map((v) => v.key)).toEqual(['client_name', 'property_address', 'appointment_date']);
		expect(rental.variables[2].field_type).toBe('date');
		expect((await api('GET', '/templates?per_page=1')).body).toHaveLength(1);
	});

	test('prefill: variables win over convenience keys; signature and initials never prefilled; sent ([guess] id equals document_id; a 32-hex-digit signing token)', async () => {
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
		expect(res.body).toMatchObject({ title: 'Lease for Tom', status: 'sent', sent: true, prefilled: true, send_error: null, id: expect.any(Number), document_id: expect.any(Number), template_id: expect.any(Number) });
		expect(res.body.document_id).toBe(res.body.id); // [guess]
		expect(res.body.signers[0]).toMatchObject({ id: expect.any(Number), name: 'Tom Tenant', status: 'pending', signing_url: expect.any(String) });
		expect(res.body.signers[0].signing_url).toMatch(/[0-9a-f]{32}$/); // [guess]
		const fields = (await api('GET', `/documents/${res.body.id}/fields`)).body;
		const byName = Object.fromEntries(fields.map((f) => [f.field_name, f]));
		expect(byName['Client name'].value).toBe('Thomas T.');
		expect(byName['Property address'].value).toBe('1 Main St');
		expect(byName['Appointment date'].value).toBe('');
		expect(byName['Tenant signature'].value).toBe('');
		expect(byName['Tenant initials'].value).toBe('');
		expect((await control('GET', `/outbox?document_id=${res.body.id}`)).body).toHaveLength(1);
	});

	test('send=false leaves a draft; send=true needs a signer; require_wp_login needs a site user ([guess] the codes no_signers and invalid_signer; the default title\'s form; nothing prefilled without signers)', async () => {
		const id = await rentalId();
		const draft = await api('POST', `/templates/${id}/documents`, { body: { send: false, variables: { client_name: 'X' } } });
		expect(draft.body).toMatchObject({ status: 'draft', sent: false, signers: [] });
		expect(draft.body.prefilled).toBe(false); // [guess] a field whose signer is missing is dropped
		expect(draft.body.title).toMatch(/^Rental Agreement\b.*\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
		expect(draft.body.title).toMatch(/^Rental Agreement - \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/); // [guess] the exact form
		const unsigned = await api('POST', `/templates/${id}/documents`, { body: {} });
		expect(unsigned.status).toBe(400);
		expect(unsigned.body.code).toBe('no_signers'); // [guess] the spec names no code here
		const stranger = await api('POST', `/templates/${id}/documents`, { body: { signers: [{ name: 'Zed', email: 'zed@example.com', require_wp_login: true }] } });
		expect(stranger.status).toBe(400);
		expect(stranger.body.code).toBe('invalid_signer'); // [guess] "not shown" in the spec's Gaps
		const member = await api('POST', `/templates/${id}/documents`, { body: { signers: [{ name: 'Uma', email: 'uma@example.com', require_wp_login: true }] } });
		expect(member.body.sent).toBe(true);
		expect((await api('POST', `/templates/${id}/documents`, { key: 'adminReadOnly', body: {} })).status).toBe(403);
	});

	test('[guess] fields follow signers by position; a second NDA party without a signer is dropped', async () => {
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
	test('[guess] GET /file after completion returns a stamped PDF with a certificate page; file_hash stays the original', async () => {
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

	test('[guess] an image original becomes a PDF with the image page and a certificate', async () => {
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
