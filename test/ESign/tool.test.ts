// The eSign node as an AI agent's tool: run through n8n-core's engine-request path (as n8n 2.x's AI
// Agent runs tools), against the sandbox over HTTP. A failure must reach the model as the tool's
// answer; outside tool mode nothing changes.
import type { IDataObject, INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ESign } from '../../nodes/ESign/ESign.node';
import { toolVariant } from '../harness/tools';
import type { Json, KeyName, Sandbox } from '../support';
import { control, credentialsFor, esign, harness, hostile, makeDraft, requestLines, clearLog, rl, sample, sentDocument, upload, useSandbox } from '../support';

const sb = useSandbox();

const fromAI = (key: string, description: string) => `={{ $fromAI('${key}', '${description}', 'string') }}`;
const documentByModel = { __rl: true, mode: 'id', value: fromAI('documentId', 'The document ID') };

function asTool(box: Sandbox, parameters: IDataObject, args: IDataObject, who: KeyName = 'admin') {
	return harness.runTool({ parameters, args, credentials: credentialsFor(box, who) });
}

/** The one answer item of a failed tool run, with the checks every such answer must pass. */
function failureOf(run: Json): Json {
	expect(run.error).toBeUndefined();
	expect(run.items).toHaveLength(1);
	expect(run.items[0].pairedItem).toEqual({ item: 0 });
	expect(run.answer).toHaveLength(1);
	const [answer] = run.answer;
	expect(Object.keys(answer).sort()).toEqual(['error', 'summary']);
	const secrets = Object.values(sb.keys).flatMap((k) => [k.key, k.secret]);
	for (const secret of [...secrets, sb.webhookSecret]) expect(run.observation).not.toContain(secret);
	return answer;
}

describe('eSign Tool: what the agent is told', () => {
	const base = new ESign().description;
	const tool = (toolVariant('n8n-nodes-esign.eSign') as { description: INodeTypeDescription }).description;
	const operationsOf = (resource: string) => {
		const property = base.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === resource);
		return (property?.options ?? []).map((o) => (o as { value: string }).value);
	};
	const resources = (base.properties.find((p) => p.name === 'resource')?.options ?? []).map((o) => (o as { value: string }).value);

	/** The description n8n hands the agent for a tool node with these parameters (defaults filled in as n8n does). */
	function describedAs(description: INodeTypeDescription, parameters: INodeParameters): string {
		const node: INode = { id: 'tool', name: 'eSign Tool', type: `n8n-nodes-esign.${description.name}`, typeVersion: 1, position: [0, 0], parameters };
		node.parameters = NodeHelpers.getNodeParameters(description.properties, node.parameters, true, false, node, description) ?? {};
		return NodeHelpers.getToolDescriptionForNode(node, { description } as never);
	}

	test('every operation has its own default description naming the IDs it needs and where to get them', () => {
		const seen = new Set<string>();
		let operations = 0;
		for (const resource of resources) {
			for (const operation of operationsOf(resource)) {
				operations++;
				const text = describedAs(tool, { resource, operation });
				expect(text.length).toBeGreaterThan(60);
				expect(seen.has(text)).toBe(false);
				seen.add(text);
				if (/Needs (a|the) document ID/.test(text)) expect(text).toMatch(/eSign Document → Get Many, searching by title/);
			}
		}
		expect(operations).toBe(22);
		expect(seen.size).toBe(operations);
		expect(describedAs(tool, { resource: 'document', operation: 'remind' })).toMatch(
			/^Emails a reminder .*Needs the document ID of a sent or viewed document\. If you only know its title, get the ID first with a document search \(eSign Document → Get Many, searching by title\)\. .*no_recipients/,
		);
		expect(describedAs(tool, { resource: 'template', operation: 'createDocument' })).toMatch(/Needs a template ID: get it with a template search \(eSign Template → Get Many/);
	});

	test('a description the user wrote is what the agent gets', () => {
		expect(describedAs(tool, { resource: 'document', operation: 'remind', toolDescription: 'Nudge the signers' })).toBe('Nudge the signers');
	});

	test('the plain eSign node has no tool description parameter', () => {
		const node: INode = { id: 'plain', name: 'eSign', type: 'n8n-nodes-esign.eSign', typeVersion: 1, position: [0, 0], parameters: { resource: 'document', operation: 'remind' } };
		const parameters = NodeHelpers.getNodeParameters(base.properties, node.parameters, true, false, node, base) ?? {};
		expect(parameters).toHaveProperty('remindTo');
		expect(parameters).not.toHaveProperty('toolDescription');
	});
});

describe('eSign Tool: answers', () => {
	test('finds a document by title from the model’s search, then reminds its signers', async () => {
		const doc = await sentDocument(sb, { title: 'Lease 12 Oak Street' });
		await makeDraft(sb, { title: 'Unrelated' });
		const found = await asTool(
			sb,
			{ resource: 'document', operation: 'getMany', returnAll: true, filters: { search: fromAI('title', 'Words of the title') } },
			{ title: 'Oak Street' },
		);
		expect(found.error).toBeUndefined();
		expect(found.answer.map((d: Json) => [String(d.id), d.title])).toEqual([[String(doc.id), 'Lease 12 Oak Street']]);

		const reminded = await asTool(sb, { resource: 'document', operation: 'remind', documentId: documentByModel, remindTo: 'all' }, { documentId: String(doc.id) });
		expect(reminded.error).toBeUndefined();
		expect(reminded.answer[0].reminded.map(String).sort()).toEqual(doc.signers.map((s: Json) => String(s.id)).sort());
		const outbox = (await control(sb, 'GET', `/__sandbox/outbox?document_id=${doc.id}`)) as Json[];
		expect(outbox.filter((m) => m.kind === 'reminder').map((m) => m.to).sort()).toEqual(['ann@example.org', 'bob@example.org']);
	});

	test('Download as a tool answers what it downloaded (an agent sees no binary view)', async () => {
		const original = await sample(sb, 'contract.pdf');
		const doc = await upload(sb, original, 'lease.pdf', 'Lease');
		const run = await asTool(sb, { resource: 'document', operation: 'download', documentId: documentByModel }, { documentId: String(doc.id) });
		expect(run.error).toBeUndefined();
		expect(run.answer).toEqual([{ document_id: String(doc.id), filename: 'lease.pdf', type: 'application/pdf', size: original.length }]);
	});

	test('a 400 (no_recipients) reaches the model with the site’s code and message and the advice', async () => {
		const doc = await sentDocument(sb);
		// The spec's answer when nobody is left to remind (the sandbox completes such a document first).
		await hostile(sb, { method: 'POST', path: '/remind', mode: 'before', status: 400, code: 'no_recipients', message: 'There is no pending signer to remind.' });
		const run = await asTool(sb, { resource: 'document', operation: 'remind', documentId: documentByModel, remindTo: 'all' }, { documentId: String(doc.id) });
		const answer = failureOf(run);
		expect(answer.error).toEqual({
			message: 'There is no pending signer to remind. [no_recipients]',
			code: 'no_recipients',
			siteMessage: 'There is no pending signer to remind.',
			httpStatus: 400,
			description: 'There is no pending signer to remind.',
			itemIndex: 0,
		});
		expect(answer.summary).toBe('The eSign site refused the request (HTTP 400, code no_recipients): There is no pending signer to remind.');
		expect(await requestLines(sb)).toContain(`POST /documents/${doc.id}/remind`);
	});

	test('a refusal the spec does not show (the default profile’s guess: remind on a draft → invalid_state) reaches the model as the site gave it', async () => {
		// Checks a guess of the doubles, set explicitly so the strict run checks it too: the spec shows no such refusal.
		await control(sb, 'POST', '/__sandbox/profile', { name: 'default' });
		const draft = await makeDraft(sb, { signers: [{ name: 'Ann Signer', email: 'ann@example.org' }] });
		const answer = failureOf(
			await asTool(sb, { resource: 'document', operation: 'remind', documentId: documentByModel }, { documentId: String(draft.id) }),
		);
		expect(answer.error).toMatchObject({ code: 'invalid_state', httpStatus: 400, siteMessage: 'Only sent or viewed documents can be reminded; this document is draft.' });
		expect(answer.summary).toMatch(/^The eSign site refused the request \(HTTP 400, code invalid_state\): Only sent or viewed documents can be reminded; this document is draft\./);
	});

	test('remind on a draft as the spec shows it alone (strict): pending signers are reminded; with none, no_recipients reaches the model', async () => {
		await control(sb, 'POST', '/__sandbox/profile', { name: 'strict' });
		const draft = await makeDraft(sb, { signers: [{ name: 'Ann Signer', email: 'ann@example.org' }] });
		const reminded = await asTool(sb, { resource: 'document', operation: 'remind', documentId: documentByModel }, { documentId: String(draft.id) });
		expect(reminded.error).toBeUndefined();
		expect(reminded.answer[0]).toMatchObject({ document_id: String(draft.id), reminded: [String(draft.signers[0].id)] });

		const bare = await makeDraft(sb, { title: 'Nobody to remind' });
		const answer = failureOf(await asTool(sb, { resource: 'document', operation: 'remind', documentId: documentByModel }, { documentId: String(bare.id) }));
		expect(answer.error).toMatchObject({ code: 'no_recipients', httpStatus: 400, siteMessage: 'No signer is waiting to sign this document.' });
		expect(answer.summary).toMatch(/^The eSign site refused the request \(HTTP 400, code no_recipients\): No signer is waiting to sign this document\./);
	});

	test('a 404 tells the model the document does not exist and what to check', async () => {
		const answer = failureOf(await asTool(sb, { resource: 'document', operation: 'get', documentId: documentByModel }, { documentId: '999' }));
		expect(answer.error).toMatchObject({ code: 'not_found', httpStatus: 404, itemIndex: 0 });
		expect(answer.error.description).toBe('Nothing exists at /documents/999. Check the ID: it may have been deleted, or it belongs to another site.');
		expect(answer.summary).toMatch(/^The eSign site refused the request \(HTTP 404, code not_found\): .+ Nothing exists at \/documents\/999\. Check the ID/);
	});

	test('a 403 (another user’s document) carries the advice about keys', async () => {
		const doc = await makeDraft(sb, { title: 'Admin only' });
		const answer = failureOf(
			await asTool(sb, { resource: 'document', operation: 'get', documentId: documentByModel }, { documentId: String(doc.id) }, 'user'),
		);
		expect(answer.error).toMatchObject({ code: 'forbidden', httpStatus: 403 });
		expect(answer.error.description).toMatch(/belongs to another user/);
		expect(answer.summary).toContain(answer.error.description);
	});

	test('an invalid input names the parameter, and nothing is sent to the site', async () => {
		await clearLog(sb);
		const answer = failureOf(await asTool(sb, { resource: 'document', operation: 'remind', documentId: documentByModel }, { documentId: 'the lease' }));
		expect(answer.error).toEqual({
			message: '"Document" must be a document ID (a whole number), got "the lease"',
			description: 'Pick the document from the list or give its numeric ID.',
			parameter: 'Document',
			itemIndex: 0,
		});
		expect(answer.summary).toBe(
			'The input "Document" is not valid: "Document" must be a document ID (a whole number), got "the lease". Pick the document from the list or give its numeric ID.',
		);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('an invalid row of a list names the list', async () => {
		await clearLog(sb);
		const answer = failureOf(
			await asTool(
				sb,
				{
					resource: 'template',
					operation: 'createDocument',
					templateId: { __rl: true, mode: 'id', value: '1' },
					signers: { signer: [{ name: 'Ann Signer', email: fromAI('email', 'The signer email') }] },
					variables: { mappingMode: 'defineBelow', value: {} },
					send: true,
				},
				{ email: 'not an email' },
			),
		);
		expect(answer.error).toMatchObject({ parameter: 'Signers', itemIndex: 0 });
		expect(answer.error).not.toHaveProperty('httpStatus');
		expect(answer.summary).toMatch(/^The input "Signers" is not valid: Signer 1 in "Signers" needs a name and a valid email \(got "Ann Signer", "not an email"\)/);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('the credential’s values never reach the model, even when the site echoes them', async () => {
		const { apiKey, apiSecret } = credentialsFor(sb, 'admin');
		await hostile(sb, {
			path: '/documents/1',
			raw: { status: 400, headers: { 'Content-Type': 'application/json' }, body: { code: 'bad_key', message: `Key ${apiKey} with secret ${apiSecret} refused`, data: { status: 400 } } },
		});
		const run = await asTool(sb, { resource: 'document', operation: 'get', documentId: documentByModel }, { documentId: '1' });
		const answer = failureOf(run);
		expect(answer.error.siteMessage).toBe('Key *** with secret *** refused');
		expect(run.observation).not.toContain(apiKey);
		expect(run.observation).not.toContain(apiSecret);
	});
});

test('a tool set to On Error → Stop Workflow stops the agent, as n8n does for such tools', async () => {
	const run = await harness.runTool({
		parameters: { resource: 'document', operation: 'get', documentId: documentByModel },
		args: { documentId: '999' },
		credentials: credentialsFor(sb, 'admin'),
		onError: 'stopWorkflow',
	});
	expect(run.error).toMatchObject({ httpCode: '404', message: 'Document not found. [not_found]' });
	// The agent never got an answer: the run stopped at the tool.
	expect(run.observation).toBeUndefined();
});

describe('outside tool mode nothing changes', () => {
	// A refusal the spec shows (send without signers → no_signers), so every profile gives it.
	const send = (id: string | number) => ({ resource: 'document', operation: 'send', documentId: rl(id) });

	test('the same failures stop the node with the same errors', async () => {
		const draft = await makeDraft(sb, { title: 'No signers yet' });
		const refused = await esign(sb, send(draft.id));
		expect(refused.items).toEqual([]);
		expect(refused.error).toMatchObject({ message: expect.stringMatching(/\[no_signers\]$/), httpCode: '400' });
		expect(refused.error.context).toMatchObject({ apiCode: 'no_signers', itemIndex: 0 });

		const missing = await esign(sb, { resource: 'document', operation: 'get', documentId: rl(999) });
		expect(missing.error).toMatchObject({ httpCode: '404' });

		const invalid = await esign(sb, { resource: 'document', operation: 'remind', documentId: { __rl: true, mode: 'id', value: '={{ "the lease" }}' } });
		expect(invalid.error.message).toBe('"Document" must be a document ID (a whole number), got "the lease"');
	});

	test('with Continue On Fail the error item keeps its shape', async () => {
		const draft = await makeDraft(sb, { title: 'No signers yet' });
		const res = await esign(sb, send(draft.id), { continueOnFail: true });
		expect(res.items).toHaveLength(1);
		expect(res.items[0].pairedItem).toEqual({ item: 0 });
		expect(res.items[0].json).toEqual({
			error: 'The document has no signers. Add at least one signer before sending. [no_signers]',
			description: 'The document has no signers. Add at least one signer before sending.',
			httpCode: '400',
			apiCode: 'no_signers',
		});
	});
});
