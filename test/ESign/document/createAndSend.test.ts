// Document → Create and Send, through the engine against the sandbox.
import type { Json } from '../../support';
import { api, clearLog, control, esign, requestLines, sample, strictProfile, useSandbox } from '../../support';

const sb = useSandbox();

describe('Document → Create and Send', () => {
	const params = (extra = {}): Json => ({
		resource: 'document',
		operation: 'createAndSend',
		title: 'NDA for Acme',
		signers: {
			signer: [
				{ name: 'Ann', email: 'ann@example.org', role: 'signer', signingOrder: 0 },
				{ name: 'Bob', email: 'bob@example.org', role: 'signer', signingOrder: 0 },
			],
		},
		fieldsInput: 'ui',
		fieldsUi: {
			field: [
				{ signer: '1', field_type: 'signature', page_number: 1, position_x: 72, position_y: 600, width: 0, height: 0 },
				{ signer: 'bob@example.org', field_type: 'signature', page_number: 2, position_x: 72, position_y: 600, width: 0, height: 0 },
				{ signer: '2', field_type: 'date', page_number: 2, position_x: 300, position_y: 600, width: 0, height: 0 },
			],
		},
		...extra,
	});
	const input = async () => [{ json: {}, binary: { data: { data: await sample(sb, 'contract.pdf'), fileName: 'nda.pdf', mimeType: 'application/pdf' } } }];
	// An image is one page the node cannot measure, so a field on page 9 reaches the site, which refuses it (a 4xx
	// after the upload): how the rollback tests get a refusal at the fields step. A PDF's pages are checked before.
	const imageInput = async () => [{ json: {}, binary: { data: { data: await sample(sb, 'photo.png'), fileName: 'nda.png', mimeType: 'image/png' } } }];
	const onPageNine = () => {
		const p = params();
		p.fieldsUi.field = p.fieldsUi.field.map((f) => ({ ...f, page_number: 1 }));
		p.fieldsUi.field[2].page_number = 9;
		return p;
	};

	test('uploads, adds signers, places fields and sends in one action', async () => {
		await clearLog(sb);
		const res = await esign(sb, params(), { input: await input() });
		expect(res.error).toBeUndefined();
		const out = res.items[0].json;
		expect(out).toMatchObject({ title: 'NDA for Acme', status: 'sent', sent: true });
		expect(out.signers.map((s) => s.email)).toEqual(['ann@example.org', 'bob@example.org']);
		expect(out.fields).toHaveLength(3);
		const bob = out.signers.find((s) => s.email === 'bob@example.org');
		expect(out.fields.filter((f) => f.signer_id === String(bob.id)).map((f) => f.field_type).sort()).toEqual(['date', 'signature']);
		expect(await requestLines(sb)).toEqual([
			'POST /documents/upload',
			`POST /documents/${out.id}/signers`,
			`POST /documents/${out.id}/signers`,
			`GET /documents/${out.id}/signers`,
			`POST /documents/${out.id}/fields`,
			`POST /documents/${out.id}/send`,
		]);
		const outbox = await control(sb, 'GET', `/__sandbox/outbox?document_id=${out.id}`);
		expect(outbox.map((m) => m.to).sort()).toEqual(['ann@example.org', 'bob@example.org']);
	});

	test('a viewer (a role of the plugin family) needs no signature field: the document is sent to both', async () => {
		await control(sb, 'POST', '/__sandbox/profile', { name: strictProfile ? 'strict' : 'default', roles: 'family' });
		const p = params();
		p.signers.signer[1].role = 'viewer';
		p.fieldsUi.field = p.fieldsUi.field.filter((f) => f.signer !== 'bob@example.org');
		const res = await esign(sb, p, { input: await input() });
		expect(res.error).toBeUndefined();
		expect(res.items[0].json.signers.map((s) => [s.email, s.role])).toEqual([['ann@example.org', 'signer'], ['bob@example.org', 'viewer']]);
		expect(res.items[0].json.sent).toBe(true);
	});

	test('a signer without a signature field is refused before the upload', async () => {
		await clearLog(sb);
		const p = params();
		p.fieldsUi.field = p.fieldsUi.field.filter((f) => f.signer !== 'bob@example.org');
		const res = await esign(sb, p, { input: await input() });
		expect(res.error.message).toMatch(/^Every signer with the role Signer needs a signature field in "Fields"; none for bob@example.org/);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('an unknown signer reference is refused before the upload', async () => {
		await clearLog(sb);
		const p = params();
		p.fieldsUi.field.push({ signer: '3', field_type: 'text', page_number: 1, position_x: 1, position_y: 1 });
		const res = await esign(sb, p, { input: await input() });
		expect(res.error.description).toMatch(/Field 4: signer 3 is not in the Signers list/);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('a field on a page the PDF does not have is refused before the upload, naming the row', async () => {
		await clearLog(sb);
		const p = params();
		p.fieldsUi.field[2].page_number = 9;
		const res = await esign(sb, p, { input: await input() });
		expect(res.error.message).toBe('Invalid "Fields": Field 3: page 9 does not exist: the PDF has 2 pages');
		expect(await requestLines(sb)).toEqual([]);
	});

	test('a refusal at the fields step deletes the draft and says which step failed', async () => {
		const p = onPageNine();
		const res = await esign(sb, p, { input: await imageInput() });
		expect(res.error).toBeDefined();
		expect(res.error.message).toMatch(/failed at step "fields"/);
		expect(res.error.message).toMatch(/Draft \d+ was deleted/);
		const id = res.error.context.documentId;
		expect((await api(sb, 'GET', `/documents/${id}`)).status).toBe(404);
		expect(await control(sb, 'GET', `/__sandbox/outbox?document_id=${id}`)).toEqual([]);
	});

	// Continue On Fail and the eSign Tool read the same copy of the error (actions/errorDetails.ts): since issue 33 the
	// failed item also has the failed step's HTTP status, which only the tool's answer had.
	test('with Continue On Fail the failed item says which step, which document, and the step\'s HTTP status', async () => {
		const res = await esign(sb, onPageNine(), { input: await imageInput(), continueOnFail: true });
		expect(res.items).toHaveLength(1);
		const item = res.items[0].json;
		expect(item).toMatchObject({ failedStep: 'fields', documentDeleted: true, httpCode: '400', apiCode: expect.any(String) });
		expect(item.error).toMatch(/failed at step "fields".*Draft \d+ was deleted/);
		expect((await api(sb, 'GET', `/documents/${item.documentId}`)).status).toBe(404);
	});

	test('Keep Draft on Failure keeps it', async () => {
		const p = { ...onPageNine(), options: { keepDraftOnFailure: true } };
		const res = await esign(sb, p, { input: await imageInput() });
		expect(res.error.message).toMatch(/was kept/);
		expect((await api(sb, 'GET', `/documents/${res.error.context.documentId}`)).body.status).toBe('draft');
	});

	test('a 500 after the site ran the send keeps the document, reports it, and never repeats the send', async () => {
		await control(sb, 'POST', '/__sandbox/faults', { method: 'POST', path: '/send', count: 1, status: 500, mode: 'after' });
		const before = (await control(sb, 'GET', '/__sandbox/counters')).sendExecuted ?? 0;
		const res = await esign(sb, params(), { input: await input() });
		expect(res.error).toBeDefined();
		expect(res.error.message).toMatch(/failed at step "send"/);
		expect(res.error.message).toMatch(/may already have been emailed/);
		const id = res.error.context.documentId;
		expect((await api(sb, 'GET', `/documents/${id}`)).body.status).toBe('sent');
		expect((await control(sb, 'GET', '/__sandbox/counters')).sendExecuted - before).toBe(1);
		const outbox = await control(sb, 'GET', `/__sandbox/outbox?document_id=${id}`);
		expect(outbox.map((m) => m.to).sort()).toEqual(['ann@example.org', 'bob@example.org']);
	});

	test('a dropped connection on send is treated the same way', async () => {
		await control(sb, 'POST', '/__sandbox/faults', { method: 'POST', path: '/send', count: 1, mode: 'drop-after' });
		const res = await esign(sb, params(), { input: await input() });
		expect(res.error.message).toMatch(/failed at step "send"/);
		const id = res.error.context.documentId;
		expect((await api(sb, 'GET', `/documents/${id}`)).status).toBe(200);
		expect((await control(sb, 'GET', `/__sandbox/outbox?document_id=${id}`))).toHaveLength(2);
	});
});
