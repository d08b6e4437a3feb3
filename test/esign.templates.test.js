// Template operations and Create and Send, through the engine against the sandbox.
const { api, clearLog, control, esign, requestLines, rl, sample, useSandbox } = require('./support');

const sb = useSandbox();

async function templateNamed(name, who = 'admin') {
	const list = (await api(sb, 'GET', '/templates', undefined, who)).body;
	const found = list.find((t) => t.name === name);
	if (!found) throw new Error(`no template ${name}`);
	return found;
}

describe('Template → Get, Get Many', () => {
	test('get returns the template with its variables as integers and keys', async () => {
		const rental = await templateNamed('Rental Agreement');
		const res = await esign(sb, { resource: 'template', operation: 'get', templateId: rl(rental.id) });
		expect(res.items[0].json.id).toBe(rental.id);
		expect(typeof res.items[0].json.total_pages).toBe('number');
		expect(res.items[0].json.variables.map((v) => v.key)).toEqual(
			expect.arrayContaining(['client_name', 'property_address', 'appointment_date']),
		);
	});

	test('get many: search, limit, Return All as one request; a non-admin sees only their own', async () => {
		await clearLog(sb);
		const all = await esign(sb, { resource: 'template', operation: 'getMany', returnAll: true });
		expect(all.items.length).toBeGreaterThanOrEqual(3);
		expect(await requestLines(sb)).toHaveLength(1);
		const log = await control(sb, 'GET', '/__sandbox/requests');
		expect(Number(log[0].query.per_page)).toBe(100);

		const one = await esign(sb, { resource: 'template', operation: 'getMany', returnAll: false, limit: 1 });
		expect(one.items).toHaveLength(1);

		const nda = await esign(sb, { resource: 'template', operation: 'getMany', returnAll: true, filters: { search: 'nda' } });
		expect(nda.items.map((i) => i.json.name)).toEqual(['Mutual NDA']);

		const uma = await esign(sb, { resource: 'template', operation: 'getMany', returnAll: true }, { who: 'user' });
		expect(uma.items.map((i) => i.json.name)).toEqual(["Uma's Offer Letter"]);
	});

	test('another user’s template is forbidden', async () => {
		const rental = await templateNamed('Rental Agreement');
		const res = await esign(sb, { resource: 'template', operation: 'get', templateId: rl(rental.id) }, { who: 'user' });
		expect(res.error.httpCode).toBe('403');
	});
});

describe('Template → Create Document', () => {
	const mapped = (value) => ({ mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] });

	test('mapped variables reach the fields; signature and initials are never prefilled; send emails signers', async () => {
		const rental = await templateNamed('Rental Agreement');
		const res = await esign(sb, {
			resource: 'template',
			operation: 'createDocument',
			templateId: rl(rental.id),
			title: 'Lease for Dana',
			signers: { signer: [{ name: 'Dana Tenant', email: 'dana@example.org', role: 'signer', signingOrder: 0 }] },
			variables: mapped({ client_name: 'Dana Tenant', property_address: '12 Oak Street', signature: 'FORGED', initials: 'DT' }),
			send: true,
		});
		expect(res.error).toBeUndefined();
		const out = res.items[0].json;
		expect(out).toMatchObject({ title: 'Lease for Dana', status: 'sent', sent: true, prefilled: true });
		expect(out.signers[0].signing_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sign\//);

		const doc = (await api(sb, 'GET', `/documents/${out.document_id}`)).body;
		const full = (await api(sb, 'GET', `/documents/${out.document_id}/fields`)).body;
		expect(doc.status).toBe('sent');
		const values = Object.fromEntries(full.map((f) => [f.field_name || f.field_type, f]));
		expect(full.find((f) => f.value === 'Dana Tenant')).toBeDefined();
		expect(full.find((f) => f.value === '12 Oak Street')).toBeDefined();
		for (const f of full.filter((x) => x.field_type === 'signature' || x.field_type === 'initials')) {
			expect(f.value).toBe('');
		}
		expect(Object.keys(values).length).toBeGreaterThan(0);
		const outbox = await control(sb, 'GET', `/__sandbox/outbox?document_id=${out.document_id}`);
		expect(outbox.map((m) => m.to)).toEqual(['dana@example.org']);
	});

	test('auto-mapping takes matching keys from the input item; convenience keys fill only what is unset', async () => {
		const rental = await templateNamed('Rental Agreement');
		const schema = rental.variables.map((v) => ({ id: v.key, displayName: v.key, display: true, type: 'string' }));
		const res = await esign(
			sb,
			{
				resource: 'template',
				operation: 'createDocument',
				templateId: rl(rental.id),
				signers: { signer: [{ name: 'Eve', email: 'eve@example.org' }] },
				variables: { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema },
				additionalFields: { client_name: 'Ignored Because Set', appointment_date: '2026-12-01' },
				send: false,
			},
			{ input: [{ json: { client_name: 'Eve Example', unrelated: 'x' } }] },
		);
		expect(res.error).toBeUndefined();
		const fields = (await api(sb, 'GET', `/documents/${res.items[0].json.document_id}/fields`)).body;
		const values = fields.map((f) => f.value);
		expect(values).toEqual(expect.arrayContaining(['Eve Example', '2026-12-01']));
		expect(values).not.toContain('Ignored Because Set');
		expect(values).not.toContain('x');
	});

	test('send off leaves a draft and emails nobody', async () => {
		const rental = await templateNamed('Rental Agreement');
		const res = await esign(sb, {
			resource: 'template',
			operation: 'createDocument',
			templateId: rl(rental.id),
			signers: { signer: [{ name: 'Finn', email: 'finn@example.org' }] },
			variables: mapped({}),
			send: false,
		});
		expect(res.items[0].json).toMatchObject({ status: 'draft', sent: false });
		expect(await control(sb, 'GET', `/__sandbox/outbox?document_id=${res.items[0].json.document_id}`)).toEqual([]);
	});

	test('send on without signers is refused before any request', async () => {
		const rental = await templateNamed('Rental Agreement');
		await clearLog(sb);
		const res = await esign(sb, {
			resource: 'template',
			operation: 'createDocument',
			templateId: rl(rental.id),
			variables: mapped({}),
			send: true,
		});
		expect(res.error.message).toMatch(/Item 0: "Signers" needs at least one signer when "Send" is on/);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('require site login for an unknown email is refused by the site', async () => {
		const rental = await templateNamed('Rental Agreement');
		const res = await esign(sb, {
			resource: 'template',
			operation: 'createDocument',
			templateId: rl(rental.id),
			signers: { signer: [{ name: 'Gus', email: 'gus@example.org', requireWpLogin: true }] },
			variables: mapped({}),
			send: true,
		});
		expect(res.error.httpCode).toBe('400');
	});
});

describe('Document → Create and Send', () => {
	const params = (extra = {}) => ({
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

	test('a signer without a signature field is refused before the upload', async () => {
		await clearLog(sb);
		const p = params();
		p.fieldsUi.field = p.fieldsUi.field.filter((f) => f.signer !== 'bob@example.org');
		const res = await esign(sb, p, { input: await input() });
		expect(res.error.message).toMatch(/every signer needs a signature field; none for bob@example.org/);
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

	test('a refusal at the fields step deletes the draft and says which step failed', async () => {
		const p = params();
		p.fieldsUi.field[2].page_number = 9; // the PDF has 2 pages: the site refuses the fields
		const res = await esign(sb, p, { input: await input() });
		expect(res.error).toBeDefined();
		expect(res.error.message).toMatch(/failed at step "fields"/);
		expect(res.error.message).toMatch(/Draft \d+ was deleted/);
		const id = res.error.context.documentId;
		expect((await api(sb, 'GET', `/documents/${id}`)).status).toBe(404);
		expect(await control(sb, 'GET', `/__sandbox/outbox?document_id=${id}`)).toEqual([]);
	});

	test('Keep Draft on Failure keeps it', async () => {
		const p = params({ options: { keepDraftOnFailure: true } });
		p.fieldsUi.field[2].page_number = 9;
		const res = await esign(sb, p, { input: await input() });
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
