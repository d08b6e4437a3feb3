// Signer operations of the eSign node, run in n8n-core's WorkflowExecute against the sandbox over HTTP.
import { ESign } from '../../../nodes/ESign/ESign.node';
import type { Json } from '../../support';
import { api, clearLog, control, esign, makeDraft, requestLines, rl, sentDocument, strictProfile, useSandbox } from '../../support';

const sb = useSandbox();
const esignDescription = () => new ESign().description;

const addCarla = (documentId: string | number, extra: Json = {}) =>
	esign(sb, { resource: 'signer', operation: 'add', documentId: rl(documentId), name: 'Carla Client', email: 'carla@example.org', ...extra });

describe('Signer operations', () => {
	test('add a signer with defaults, list signers', async () => {
		const doc = await makeDraft(sb);
		const res = await addCarla(doc.id);
		expect(res.error).toBeUndefined();
		expect(res.items[0].json).toMatchObject({ name: 'Carla Client', email: 'carla@example.org', role: 'signer', status: 'pending' });
		const list = await esign(sb, { resource: 'signer', operation: 'getMany', documentId: rl(doc.id) });
		expect(list.items.map((i) => i.json.email)).toEqual(['carla@example.org']);
	});

	test.each([
		['the Signer with 201 (the doubles’ default guess)', 'signer'],
		['200 with {id} only', 'id'],
		['200 with {success: true}', 'success'],
		['200 with an empty object', 'empty'],
	])('Add Signer when the site answers %s: the output is the signer as GET /signers lists it', async (_name, answer) => {
		// The spec shows no shape, no required fields and no status code for this answer.
		await control(sb, 'POST', '/__sandbox/profile', { name: strictProfile ? 'strict' : 'default', addSignerAnswers: [answer] });
		const doc = await makeDraft(sb, { signers: [{ name: 'Ann First', email: 'ann@example.org', signing_order: 1 }], fields: false });
		await clearLog(sb);
		const res = await addCarla(doc.id, { signingOrder: 2 });
		expect(res.error).toBeUndefined();
		expect(await requestLines(sb)).toEqual([`POST /documents/${doc.id}/signers`, `GET /documents/${doc.id}/signers`]);
		const listed = (await api(sb, 'GET', `/documents/${doc.id}/signers`)).body.find((s: Json) => s.email === 'carla@example.org');
		expect(res.items.map((i) => i.json)).toEqual([listed]);
		expect(listed).toMatchObject({ id: expect.any(String), document_id: String(doc.id), name: 'Carla Client', status: 'pending', signing_order: '2' });
	});

	// The spec shows no default for a signer added without signing_order; sites differ (profile knob signingOrder:
	// 'next' fills in highest + 1, 'given' keeps none, 'one' puts it at 1 as WPsigner does). Signing Order 0 promises
	// "after the signers already on the document" on each: the node reads the signers first and sends the position.
	test.each(['next', 'given', 'one'])('Signing Order 0 adds the signer after those already on the document (a site whose default order is %s)', async (signingOrder) => {
		await control(sb, 'POST', '/__sandbox/profile', { name: strictProfile ? 'strict' : 'default', signingOrder });
		const doc = await makeDraft(sb, { signers: [{ name: 'Ann First', email: 'ann@example.org', signing_order: 1 }], fields: false });
		await clearLog(sb);
		const carla = await addCarla(doc.id);
		const dan = await esign(sb, { resource: 'signer', operation: 'add', documentId: rl(doc.id), name: 'Dan Later', email: 'dan@example.org' });
		expect([carla.error, dan.error]).toEqual([undefined, undefined]);
		// What it costs: one read of the signers before each add (and the read-back after it).
		const path = `/documents/${doc.id}/signers`;
		expect(await requestLines(sb)).toEqual([`GET ${path}`, `POST ${path}`, `GET ${path}`, `GET ${path}`, `POST ${path}`, `GET ${path}`]);
		const listed = (await api(sb, 'GET', path)).body.map((s: Json) => [s.email, s.signing_order]);
		expect(listed).toEqual([['ann@example.org', '1'], ['carla@example.org', '2'], ['dan@example.org', '3']]);
		expect([carla.items[0].json.signing_order, dan.items[0].json.signing_order]).toEqual(['2', '3']);
	});

	test('Signing Order 0 on a document without signers gives order 1; a set order is sent as is, without the extra read', async () => {
		await control(sb, 'POST', '/__sandbox/profile', { name: strictProfile ? 'strict' : 'default', signingOrder: 'given' });
		const doc = await makeDraft(sb, { signers: [], fields: false });
		await clearLog(sb);
		expect((await addCarla(doc.id)).items[0].json.signing_order).toBe('1');
		await clearLog(sb);
		const res = await esign(sb, { resource: 'signer', operation: 'add', documentId: rl(doc.id), name: 'Dan', email: 'dan@example.org', signingOrder: 5 });
		expect(res.items[0].json.signing_order).toBe('5');
		expect(await requestLines(sb)).toEqual([`POST /documents/${doc.id}/signers`, `GET /documents/${doc.id}/signers`]);
	});

	test.each(['viewer', 'approver'])('Role %s, picked without an expression, reaches a site that knows it (the plugin family)', async (role) => {
		await control(sb, 'POST', '/__sandbox/profile', { name: strictProfile ? 'strict' : 'default', roles: 'family' });
		const doc = await makeDraft(sb, { signers: [], fields: false });
		const res = await addCarla(doc.id, { role });
		expect(res.error).toBeUndefined();
		expect(res.items[0].json).toMatchObject({ email: 'carla@example.org', role });
		expect((await api(sb, 'GET', `/documents/${doc.id}/signers`)).body.map((s: Json) => s.role)).toEqual([role]);
	});

	test('a role the site does not know is the site’s refusal, with its code (the editor does not limit roles to one site’s list)', async () => {
		await control(sb, 'POST', '/__sandbox/profile', { name: strictProfile ? 'strict' : 'default', roles: 'signer' });
		const doc = await makeDraft(sb, { signers: [], fields: false });
		const res = await addCarla(doc.id, { role: 'viewer' });
		expect(res.error.httpCode).toBe('400');
		expect(res.error.context.apiCode).toBe('invalid_role');
	});

	test('the editor offers Signer (the default), Viewer and Approver; saved workflows’ "signer" stays valid', () => {
		const role = esignDescription().properties.find((p) => p.name === 'role' && p.displayOptions?.show?.operation?.includes('add'));
		expect(role?.default).toBe('signer');
		expect((role?.options as Json[]).map((o) => o.value).sort()).toEqual(['approver', 'signer', 'viewer']);
		expect(role?.description).toMatch(/The API description shows only "signer"/);
	});

	test('when reading the added signer back fails, the error says it was added, so the item is not run again', async () => {
		const doc = await makeDraft(sb);
		await control(sb, 'POST', '/__sandbox/faults', { method: 'GET', path: `/documents/${doc.id}/signers`, status: 500, count: 4 });
		// A set order: no read before the add (with 0 that read would fail first, and nothing would be added).
		const res = await addCarla(doc.id, { signingOrder: 1 });
		expect(res.error.message).toMatch(new RegExp(`^The signer carla@example.org was added to document ${doc.id}, but could not be read back`));
		expect(res.error.description).toMatch(/Do not run this item again/);
		expect((await control(sb, 'GET', '/__sandbox/counters')).addSignerExecuted).toBe(1);
	});

	test('an invalid email is refused before any request', async () => {
		const doc = await makeDraft(sb);
		await clearLog(sb);
		const res = await esign(sb, { resource: 'signer', operation: 'add', documentId: rl(doc.id), name: 'X', email: 'not-an-email' });
		expect(res.error.message).toMatch(/^"Email" is not a valid email address/);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('a name of spaces only is refused before any request, as in a "Signers" list (one rule: helpers/signers.ts)', async () => {
		const doc = await makeDraft(sb);
		await clearLog(sb);
		const res = await esign(sb, { resource: 'signer', operation: 'add', documentId: rl(doc.id), name: '   ', email: 'x@example.org' });
		expect(res.error.message).toBe('"Name" is required');
		expect(await requestLines(sb)).toEqual([]);
	});

	// Checks the doubles' guess (signers only on drafts, 400 invalid_state; both profiles make it): the spec shows no such refusal.
	test('adding a signer to a sent document is refused by the site (a guess of the doubles)', async () => {
		const doc = await sentDocument(sb);
		const res = await esign(sb, { resource: 'signer', operation: 'add', documentId: rl(doc.id), name: 'Late', email: 'late@example.org' });
		expect(res.error.httpCode).toBe('400');
	});
});
