// The sandbox's profiles over HTTP: the strict profile plays only what the API description shows (declines in
// declined_at, webhook bodies {event, data} with the table's members, only its refusals, minimal Add Signer
// answers); the default profile keeps the project's guesses. What the nodes do with either is in their suites.
import type { Json } from '../support';
import { api, control, createSandbox, makeDraft, sentDocument, startRecorder } from '../support';

type Site = Awaited<ReturnType<typeof createSandbox>>;

let strict: Site;
let plain: Site;
let receiver: Awaited<ReturnType<typeof startRecorder>>;
beforeAll(async () => {
	[strict, plain, receiver] = await Promise.all([createSandbox({ port: 0, profile: 'strict' }), createSandbox({ port: 0 }), startRecorder()]);
});
afterAll(async () => {
	await Promise.all([strict.close(), plain.close(), receiver.close()]);
});
beforeEach(async () => {
	await Promise.all([control(strict, 'POST', '/__sandbox/reset'), control(plain, 'POST', '/__sandbox/reset')]);
	receiver.requests.length = 0;
});

const tokensOf = async (sb: Site, id: string): Promise<Json[]> =>
	(await control<Json[]>(sb, 'GET', `/__sandbox/signers?document_id=${id}`)).sort((a, b) => Number(a.id) - Number(b.id));

describe('strict profile', () => {
	test('webhook bodies are exactly {event, data}, data with the spec table’s members, no X-ESIGN-Event', async () => {
		await control(strict, 'POST', '/__sandbox/webhooks', { url: `${receiver.url}/hook` });
		const done = await sentDocument(strict, { title: 'Lease 2025/26' });
		for (const s of await tokensOf(strict, done.id)) await control(strict, 'POST', `/__sandbox/sign/${s.token}/sign`);
		const refused = await sentDocument(strict, { title: 'Refused' });
		await control(strict, 'POST', `/__sandbox/sign/${(await tokensOf(strict, refused.id))[0].token}/decline`, { reason: 'Too expensive' });
		await strict.idle();

		const bodies = receiver.requests.map((r) => JSON.parse(r.body));
		for (const [i, body] of bodies.entries()) {
			expect(Object.keys(body).sort()).toEqual(['data', 'event']);
			expect(receiver.requests[i].headers['x-esign-event']).toBeUndefined();
			expect(receiver.requests[i].headers['x-esign-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
		}
		const of = (event: string, id: string) => bodies.filter((b) => b.event === event && b.data.document_id === String(id)).map((b) => b.data);
		expect(of('document.completed', done.id)).toEqual([{ document_id: String(done.id), document_title: 'Lease 2025/26' }]);
		expect(of('document.declined', refused.id)).toEqual([{ document_id: String(refused.id), decline_reason: 'Too expensive' }]);
		// Events the table does not list carry document_id alone.
		expect(of('document.sent', done.id)).toEqual([{ document_id: String(done.id) }]);
		expect(of('document.signed', done.id)).toEqual([{ document_id: String(done.id) }, { document_id: String(done.id) }]);
	});

	test('a decline sets declined_at and decline_reason only: the status stays pending (unopened) or viewed', async () => {
		const doc = await sentDocument(strict);
		const [ann, bob] = await tokensOf(strict, doc.id);
		await control(strict, 'POST', `/__sandbox/sign/${ann.token}/view`);
		const declined = await control<Json>(strict, 'POST', `/__sandbox/sign/${ann.token}/decline`, { reason: 'Wrong address' });
		expect(declined.signer).toMatchObject({ status: 'viewed', decline_reason: 'Wrong address', declined_at: expect.any(String) });
		expect(declined.document.status).toBe('declined');
		// The other signer is untouched.
		expect((await api(strict, 'GET', `/documents/${doc.id}`)).body.signers.find((s: Json) => s.id === String(bob.id)).status).toBe('pending');

		const other = await sentDocument(strict);
		const [first] = await tokensOf(strict, other.id);
		const unopened = await control<Json>(strict, 'POST', `/__sandbox/sign/${first.token}/decline`, {});
		expect(unopened.signer).toMatchObject({ status: 'pending', viewed_at: null, decline_reason: 'No reason given.' });
		expect(unopened.document.status).toBe('declined');
		// Declining again is refused, though the status alone would not say the signer declined.
		await expect(control(strict, 'POST', `/__sandbox/sign/${first.token}/decline`, {})).rejects.toThrow(/400/);
	});

	test('Remind plays the spec alone: a draft’s pending signers are reminded; nobody eligible → no_recipients', async () => {
		const draft = await makeDraft(strict, { signers: [{ name: 'Ann', email: 'ann@example.org' }] });
		const reminded = await api(strict, 'POST', `/documents/${draft.id}/remind`);
		expect(reminded).toMatchObject({ status: 200, body: { reminded: [String(draft.signers[0].id)], failed: [] } });
		const bare = await makeDraft(strict, { title: 'Nobody' });
		expect((await api(strict, 'POST', `/documents/${bare.id}/remind`)).body.code).toBe('no_recipients');
		expect((await api(strict, 'POST', `/documents/${draft.id}/remind`, { signer_id: 999 })).body.code).toBe('no_recipients');
	});

	test('PUT status sets any document status; only a value that is no status is refused (rest_invalid_param)', async () => {
		const draft = await makeDraft(strict);
		expect((await api(strict, 'PUT', `/documents/${draft.id}`, { status: 'completed' })).body.status).toBe('completed');
		expect((await api(strict, 'PUT', `/documents/${draft.id}`, { status: 'bogus' })).body.code).toBe('rest_invalid_param');
		expect((await control<Json[]>(strict, 'GET', '/__sandbox/outbox'))).toEqual([]);
	});

	test('Add Signer answers {id}, {success: true}, {} in turn, 200, and puts a signer without an order first (order 1)', async () => {
		const doc = await makeDraft(strict);
		const answers: Json[] = [];
		for (const name of ['A', 'B', 'C', 'D']) answers.push(await api(strict, 'POST', `/documents/${doc.id}/signers`, { name, email: `${name}@example.org` }));
		expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
		const listed = (await api(strict, 'GET', `/documents/${doc.id}/signers`)).body;
		expect(answers.map((a) => a.body)).toEqual([{ id: listed[0].id }, { success: true }, {}, { id: listed[3].id }]);
		expect(listed.map((s: Json) => s.signing_order)).toEqual(['1', '1', '1', '1']);
	});

	test('the roles the spec leaves open: viewer and approver are accepted, anything else refused (invalid_role)', async () => {
		const doc = await makeDraft(strict);
		expect((await api(strict, 'POST', `/documents/${doc.id}/signers`, { name: 'V', email: 'v@example.org', role: 'viewer' })).status).toBe(200);
		expect((await api(strict, 'POST', `/documents/${doc.id}/signers`, { name: 'A', email: 'a@example.org', role: 'approver' })).status).toBe(200);
		expect((await api(strict, 'POST', `/documents/${doc.id}/signers`, { name: 'W', email: 'w@example.org', role: 'witness' })).body.code).toBe('invalid_role');
		expect((await api(strict, 'GET', `/documents/${doc.id}/signers`)).body.map((s: Json) => s.role)).toEqual(['viewer', 'approver']);
	});

	test('lists carry the spec’s count headers', async () => {
		await control(strict, 'POST', '/__sandbox/seed/documents', { count: 3, owner: 'admin' });
		const { headers } = await api(strict, 'GET', '/documents?per_page=2');
		expect([headers.get('x-esign-total'), headers.get('x-esign-totalpages'), headers.get('x-wp-totalpages')]).toEqual(['3', '2', null]);
	});
});

describe('family profile (a site like WPsigner)', () => {
	test('X-WP-Total/TotalPages instead of X-ESIGN-*, order 1 when none is given (also from a template), viewer and approver', async () => {
		await control(plain, 'POST', '/__sandbox/profile', { name: 'family' });
		await control(plain, 'POST', '/__sandbox/seed/documents', { count: 5, owner: 'admin' });
		const { headers } = await api(plain, 'GET', '/documents?per_page=2');
		expect([headers.get('x-wp-total'), headers.get('x-wp-totalpages'), headers.get('x-esign-total'), headers.get('x-esign-totalpages')]).toEqual(['5', '3', null, null]);
		const doc = await makeDraft(plain);
		for (const [name, role] of [['A', 'signer'], ['B', 'viewer'], ['C', 'approver']]) {
			expect((await api(plain, 'POST', `/documents/${doc.id}/signers`, { name, email: `${name}@example.org`, role })).status).toBe(201);
		}
		const listed = (await api(plain, 'GET', `/documents/${doc.id}/signers`)).body;
		expect(listed.map((s: Json) => [s.role, s.signing_order])).toEqual([['signer', '1'], ['viewer', '1'], ['approver', '1']]);
		const template = (await api(plain, 'GET', '/templates')).body[0];
		const created = await api(plain, 'POST', `/templates/${template.id}/documents`, { send: false, signers: [{ name: 'D', email: 'd@example.org' }, { name: 'E', email: 'e@example.org', role: 'viewer' }] });
		expect(created.body.signers.map((s: Json) => [s.role, s.signing_order])).toEqual([['signer', 1], ['viewer', 1]]);
	});

	test.each([
		['both', ['7', '4', '7', '4']],
		['none', [null, null, null, null]],
	])('countHeaders %s', async (countHeaders, expected) => {
		await control(plain, 'POST', '/__sandbox/profile', { countHeaders });
		await control(plain, 'POST', '/__sandbox/seed/documents', { count: 7, owner: 'admin' });
		const { headers } = await api(plain, 'GET', '/documents?per_page=2');
		expect(['x-esign-total', 'x-esign-totalpages', 'x-wp-total', 'x-wp-totalpages'].map((h) => headers.get(h))).toEqual(expected);
	});
});

describe('profiles: the default and the knobs', () => {
	test('the default profile keeps the guesses: status declined, {event, data, timestamp}, 201 with the Signer, invalid_state', async () => {
		await control(plain, 'POST', '/__sandbox/webhooks', { url: `${receiver.url}/hook`, events: ['document.declined'] });
		const doc = await sentDocument(plain);
		const declined = await control<Json>(plain, 'POST', `/__sandbox/sign/${(await tokensOf(plain, doc.id))[0].token}/decline`, { reason: 'No' });
		expect(declined.signer.status).toBe('declined');
		await plain.idle();
		expect(Object.keys(JSON.parse(receiver.requests[0].body)).sort()).toEqual(['data', 'event', 'timestamp']);
		const draft = await makeDraft(plain);
		expect((await api(plain, 'POST', `/documents/${draft.id}/signers`, { name: 'A', email: 'a@example.org' })).status).toBe(201);
		expect((await api(plain, 'POST', `/documents/${draft.id}/remind`)).body.code).toBe('invalid_state');
	});

	test('POST /__sandbox/profile sets knobs until the next reset; a wrong knob is refused', async () => {
		const { profile } = await control<Json>(plain, 'POST', '/__sandbox/profile', { webhooks: 'spec', addSignerAnswers: ['empty'] });
		expect(profile).toMatchObject({ name: 'default', webhooks: 'spec', declines: 'status', addSignerAnswers: ['empty'] });
		const draft = await makeDraft(plain);
		expect((await api(plain, 'POST', `/documents/${draft.id}/signers`, { name: 'A', email: 'a@example.org' })).body).toEqual({});
		await expect(control(plain, 'POST', '/__sandbox/profile', { declines: 'sometimes' })).rejects.toThrow(/declines must be one of status, timestamps/);
		await control(plain, 'POST', '/__sandbox/reset');
		expect((await control<Json>(plain, 'GET', '/__sandbox/profile')).profile).toMatchObject({ name: 'default', webhooks: 'full', addSignerAnswers: ['signer'] });
		expect((await control<Json>(strict, 'GET', '/__sandbox/profile')).profile.name).toBe('strict');
	});
});
