// Signer operations of the eSign node, run in n8n-core's WorkflowExecute against the sandbox over HTTP.
import { clearLog, esign, makeDraft, requestLines, rl, sentDocument, useSandbox } from '../../support';

const sb = useSandbox();

describe('Signer operations', () => {
	test('add a signer with defaults, list signers', async () => {
		const doc = await makeDraft(sb);
		const res = await esign(sb, {
			resource: 'signer',
			operation: 'add',
			documentId: rl(doc.id),
			name: 'Carla Client',
			email: 'carla@example.org',
		});
		expect(res.error).toBeUndefined();
		expect(res.items[0].json).toMatchObject({ name: 'Carla Client', email: 'carla@example.org', role: 'signer', status: 'pending' });
		const list = await esign(sb, { resource: 'signer', operation: 'getMany', documentId: rl(doc.id) });
		expect(list.items.map((i) => i.json.email)).toEqual(['carla@example.org']);
	});

	test('an invalid email is refused before any request', async () => {
		const doc = await makeDraft(sb);
		await clearLog(sb);
		const res = await esign(sb, { resource: 'signer', operation: 'add', documentId: rl(doc.id), name: 'X', email: 'not-an-email' });
		expect(res.error.message).toMatch(/Item 0: "Email" is not a valid email address/);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('adding a signer to a sent document is refused by the site', async () => {
		const doc = await sentDocument(sb);
		const res = await esign(sb, { resource: 'signer', operation: 'add', documentId: rl(doc.id), name: 'Late', email: 'late@example.org' });
		expect(res.error.httpCode).toBe('400');
	});
});
