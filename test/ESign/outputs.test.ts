// Simplify (the node) and Output (the eSign Tool) on the answers with more than 10 fields: Document → Get,
// Signer → Get Many, Field → Get Many. Both default to the raw answer, so saved workflows keep their output.
// Through the engine against the sandbox; the simplified records' rules are unit-tested in test/unit/ESign.
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ESign } from '../../nodes/ESign/ESign.node';
import { toolVariant } from '../harness/tools';
import type { Json } from '../support';
import { api, control, credentialsFor, esign, harness, rl, sentDocument, useSandbox } from '../support';

const sb = useSandbox();

/** A sent document of Ann and Bob; Ann has signed. */
async function halfSigned() {
	const doc = await sentDocument(sb);
	const signers = await control<Json[]>(sb, 'GET', `/__sandbox/signers?document_id=${doc.id}`);
	await control(sb, 'POST', `/__sandbox/sign/${signers.find((s) => s.email === 'ann@example.org').token}/sign`);
	return doc;
}

const operations: Array<[string, string, string]> = [
	['document', 'get', '/documents/:id'],
	['signer', 'getMany', '/documents/:id/signers'],
	['field', 'getMany', '/documents/:id/fields'],
];

describe('Simplify', () => {
	test.each(operations)('%s → %s: off (the default, and what saved workflows have) outputs the site’s answer as it is', async (resource, operation, path) => {
		const doc = await halfSigned();
		const res = await esign(sb, { resource, operation, documentId: rl(doc.id) });
		expect(res.error).toBeUndefined();
		const answer = (await api(sb, 'GET', path.replace(':id', String(doc.id)))).body;
		expect(res.items.map((item) => item.json)).toEqual(Array.isArray(answer) ? answer : [answer]);
	});

	test('Document → Get: 10 fields, who signed and when, who is awaited', async () => {
		const doc = await halfSigned();
		const res = await esign(sb, { resource: 'document', operation: 'get', documentId: rl(doc.id), simplify: true });
		expect(res.error).toBeUndefined();
		const [{ json }] = res.items;
		const ann = (await api(sb, 'GET', `/documents/${doc.id}/signers`)).body.find((s: Json) => s.email === 'ann@example.org');
		expect(json).toEqual({
			id: String(doc.id),
			title: doc.title,
			status: 'viewed',
			signed_by: 'Ann Signer <ann@example.org>',
			last_signed_at: ann.signed_at,
			completed_at: null,
			waiting_for: 'Bob Signer <bob@example.org>',
			declined_by: '',
			decline_reason: null,
			expires_at: null,
		});
	});

	test('Signer → Get Many: one item per signer with 10 fields; Field → Get Many: one per field with 10', async () => {
		const doc = await halfSigned();
		const signers = await esign(sb, { resource: 'signer', operation: 'getMany', documentId: rl(doc.id), simplify: true });
		expect(signers.items.map((item) => [item.json.email, item.json.status, Object.keys(item.json).length])).toEqual([
			['ann@example.org', 'signed', 10],
			['bob@example.org', 'pending', 10],
		]);
		const fields = await esign(sb, { resource: 'field', operation: 'getMany', documentId: rl(doc.id), simplify: true });
		expect(fields.items).toHaveLength(2);
		for (const { json } of fields.items) expect(Object.keys(json)).toEqual(['id', 'field_name', 'field_type', 'value', 'signer_id', 'document_id', 'page_number', 'is_required', 'position_x', 'position_y']);
		// Ann's signature field holds her signature, Bob's is still empty.
		expect(fields.items.map((item) => item.json.value === '')).toEqual([false, true]);
	});

	test('a signer who declined reads "declined" even on a site that records the decline only in declined_at (the spec)', async () => {
		await control(sb, 'POST', '/__sandbox/profile', { declines: 'timestamps' });
		const doc = await sentDocument(sb);
		const signers = await control<Json[]>(sb, 'GET', `/__sandbox/signers?document_id=${doc.id}`);
		await control(sb, 'POST', `/__sandbox/sign/${signers.find((s) => s.email === 'bob@example.org').token}/decline`, { reason: 'Wrong rent' });
		const res = await esign(sb, { resource: 'document', operation: 'get', documentId: rl(doc.id), simplify: true });
		expect(res.items[0].json).toMatchObject({ status: 'declined', declined_by: 'Bob Signer <bob@example.org>', decline_reason: 'Wrong rent', waiting_for: 'Ann Signer <ann@example.org>' });
	});
});

describe('Output on the eSign Tool', () => {
	const asTool = (parameters: IDataObject) => harness.runTool({ parameters, credentials: credentialsFor(sb) });

	test('the tool shows Output (Raw by default) and no Simplify; the node shows Simplify (off) and no Output', () => {
		const base = new ESign().description;
		const tool = (toolVariant('n8n-nodes-esign.eSign') as { description: typeof base }).description;
		const shown = (description: typeof base, type: string) => {
			const node: INode = { id: 'n', name: 'n', type: `n8n-nodes-esign.${type}`, typeVersion: 1, position: [0, 0], parameters: { resource: 'document', operation: 'get' } };
			return NodeHelpers.getNodeParameters(description.properties, node.parameters, true, false, node, description) ?? {};
		};
		expect(shown(tool, 'eSignTool')).toMatchObject({ toolOutput: 'raw' });
		expect(shown(tool, 'eSignTool')).not.toHaveProperty('simplify');
		expect(shown(base, 'eSign')).toMatchObject({ simplify: false });
		expect(shown(base, 'eSign')).not.toHaveProperty('toolOutput');
	});

	test('Raw (the default): the whole answer', async () => {
		const doc = await halfSigned();
		const run = await asTool({ resource: 'document', operation: 'get', documentId: rl(doc.id) });
		expect(run.error).toBeUndefined();
		expect(run.answer).toEqual([(await api(sb, 'GET', `/documents/${doc.id}`)).body]);
	});

	test('Simplified: the same 10 fields as Simplify', async () => {
		const doc = await halfSigned();
		const run = await asTool({ resource: 'document', operation: 'get', documentId: rl(doc.id), toolOutput: 'simplified' });
		const plain = await esign(sb, { resource: 'document', operation: 'get', documentId: rl(doc.id), simplify: true });
		expect(run.answer).toEqual([plain.items[0].json]);
	});

	test('Selected Fields: the id always, then only the chosen fields, for every record', async () => {
		const doc = await halfSigned();
		const run = await asTool({ resource: 'signer', operation: 'getMany', documentId: rl(doc.id), toolOutput: 'selected', toolOutputFields: ['email', 'status'] });
		const listed = (await api(sb, 'GET', `/documents/${doc.id}/signers`)).body;
		expect(run.answer).toEqual(listed.map((s: Json) => ({ id: s.id, email: s.email, status: s.status })));
	});
});
