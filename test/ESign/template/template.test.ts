// Template operations (Get, Get Many, Create Document), through the engine against the sandbox.
import { api, clearLog, control, esign, requestLines, requestLog, rl, useSandbox } from '../../support';

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

	test('Signing Order 0 is the row’s position, sent as such: on a site whose default order is 1 each signer gets its own place and its own fields', async () => {
		// Template fields go to signers by signing order (the sandbox's rule); signers left all at 1 would tie.
		await control(sb, 'POST', '/__sandbox/profile', { signingOrder: 'one', roles: 'family' });
		const nda = await templateNamed('Mutual NDA');
		const res = await esign(sb, {
			resource: 'template',
			operation: 'createDocument',
			templateId: rl(nda.id),
			signers: { signer: [{ name: 'Ann', email: 'ann@example.org', signingOrder: 0 }, { name: 'Bob', email: 'bob@example.org', role: 'approver', signingOrder: 0 }] },
			variables: mapped({}),
			send: false,
		});
		expect(res.error).toBeUndefined();
		expect(res.items[0].json.signers.map((s) => [s.email, s.role, s.signing_order])).toEqual([['ann@example.org', 'signer', 1], ['bob@example.org', 'approver', 2]]);
	});

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

	/** The JSON body of the one POST /templates/{id}/documents the site received since the log was cleared. */
	async function createBody() {
		const posts = (await requestLog(sb)).filter((r) => r.method === 'POST' && /\/templates\/\d+\/documents$/.test(r.path));
		expect(posts).toHaveLength(1);
		return posts[0].json;
	}

	test('a variable left empty is not sent: "" and undefined from expressions (rows the editor left empty are not stored at all)', async () => {
		// How the editor stores rows (n8n 1.123.81 and 2.41.1, ResourceMapper.vue): an untouched or emptied row is
		// not in `value` at all (pruneParamValues drops nulls); an expression may still resolve to "", null or nothing.
		const rental = await templateNamed('Rental Agreement');
		const schema = rental.variables.map((v) => ({ id: v.key, displayName: v.label, required: false, defaultMatch: false, display: true, removed: false, type: 'string', canBeUsedToMatch: false }));
		await clearLog(sb);
		const res = await esign(
			sb,
			{
				resource: 'template',
				operation: 'createDocument',
				templateId: rl(rental.id),
				variables: {
					mappingMode: 'defineBelow',
					value: { client_name: '={{ $json.name }}', property_address: '={{ $json.address }}', appointment_date: '={{ $json.missing }}' },
					matchingColumns: [],
					schema,
				},
				signers: { signer: [{ name: 'Ann Example', email: 'ann@example.org' }] },
				additionalFields: { property_address: '4 Elm Road' },
				send: false,
			},
			{ input: [{ json: { name: 'Ann Example', address: '' } }] },
		);
		expect(res.error).toBeUndefined();
		const body = await createBody();
		// property_address ("") and appointment_date (undefined) are not sent, so the site merges Additional Fields'
		// Property Address in: a blank row never wins over it, nor over the template's own field.
		expect(body.variables).toEqual({ client_name: 'Ann Example' });
		expect(body.property_address).toBe('4 Elm Road');
		const fields = (await api(sb, 'GET', `/documents/${res.items[0].json.document_id}/fields`)).body;
		expect(fields.map((f) => f.value)).toEqual(expect.arrayContaining(['Ann Example', '4 Elm Road']));
	});

	test('rows never filled in: no variables at all (the editor saved `value: {}`; a node never opened has `value: null`)', async () => {
		const rental = await templateNamed('Rental Agreement');
		for (const value of [{}, null]) {
			await clearLog(sb);
			const res = await esign(sb, {
				resource: 'template',
				operation: 'createDocument',
				templateId: rl(rental.id),
				variables: { mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] },
				send: false,
			});
			expect(res.error).toBeUndefined();
			expect((await createBody()).variables).toEqual({});
		}
	});

	test('Map Automatically takes every input field named like a variable, also one whose row was removed (the editor stored removed: true on all of them before), and skips empty ones', async () => {
		// The schema as n8n 2.41.1 stored it for this parameter with addAllFields: false, then Map Automatically:
		// every row removed. The mode shows no rows, so removed flags do not count there.
		const rental = await templateNamed('Rental Agreement');
		const schema = rental.variables.map((v) => ({ id: v.key, displayName: `${v.label} (${v.key})`, required: false, defaultMatch: false, display: true, canBeUsedToMatch: false, type: 'string', removed: true }));
		await clearLog(sb);
		const res = await esign(
			sb,
			{
				resource: 'template',
				operation: 'createDocument',
				templateId: rl(rental.id),
				variables: { mappingMode: 'autoMapInputData', value: {}, matchingColumns: [], schema, attemptToConvertTypes: false, convertFieldsToString: false },
				send: false,
			},
			{ input: [{ json: { client_name: 'Cy Client', property_address: '', appointment_date: null, unrelated: 'x' } }] },
		);
		expect(res.error).toBeUndefined();
		expect((await createBody()).variables).toEqual({ client_name: 'Cy Client' });
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
		expect(res.error.message).toMatch(/^"Signers" needs at least one signer when "Send" is on/);
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
