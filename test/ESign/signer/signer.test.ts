// Signer operations of the eSign node, run in n8n-core's WorkflowExecute against the sandbox over HTTP.
import type { Json } from '../../support';
import { api, clearLog, control, esign, makeDraft, requestLines, rl, sentDocument, strictProfile, useSandbox } from '../../support';

const sb = useSandbox();

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

	test('Add Signer without a signing order outputs the order the site keeps (the default profile guesses the next one; the strict profile fills none in)', async () => {
		const doc = await makeDraft(sb, { signers: [{ name: 'Ann First', email: 'ann@example.org', signing_order: 1 }], fields: false });
		const res = await addCarla(doc.id);
		expect(res.error).toBeUndefined();
		expect(res.items[0].json).toMatchObject({ email: 'carla@example.org', signing_order: strictProfile ? '0' : '2' });
	});

	test('when reading the added signer back fails, the error says it was added, so the item is not run again', async () => {
		const doc = await makeDraft(sb);
		await control(sb, 'POST', '/__sandbox/faults', { method: 'GET', path: `/documents/${doc.id}/signers`, status: 500, count: 4 });
		const res = await addCarla(doc.id);
		expect(res.error.message).toMatch(new RegExp(`^The signer carla@example.org was added to document ${doc.id}, but reading it back failed`));
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
