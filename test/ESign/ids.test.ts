// The one id rule (nodes/shared/values.ts, unit-tested in test/unit/shared/values.test.ts) as each caller applies
// it: an operation's Document/Template/Signer parameter, the signer options and the template variables. Before
// issue 33 the pickers took "0" and the operations any run of digits.
import type { IDataObject } from 'n8n-workflow';

import { clearLog, credentialsFor, esign, harness, makeDraft, requestLines, rl, useSandbox } from '../support';

const sb = useSandbox();

describe('an id typed By ID or mapped', () => {
	// A mapped id (an expression) reaches the node's own check (idFromInput).
	test.each([
		['0', { resource: 'document', operation: 'get' }, 'documentId', /^"Document" must be a document ID \(a whole number\), got "0"/],
		['10000000000000000', { resource: 'document', operation: 'get' }, 'documentId', /^"Document" must be a document ID \(a whole number\), got "10000000000000000"/],
		['-4', { resource: 'document', operation: 'get' }, 'documentId', /^"Document" must be a document ID \(a whole number\), got "-4"/],
		['0', { resource: 'template', operation: 'get' }, 'templateId', /^"Template" must be a template ID \(a whole number\), got "0"/],
	])('mapped %s is refused before any request (%j)', async (id, parameters, key, expected) => {
		await clearLog(sb);
		const res = await esign(sb, { ...parameters, [key]: rl(`={{ "${id}" }}`) } as IDataObject);
		expect(res.error.message).toMatch(expected);
		expect(res.error.context.itemIndex).toBe(0);
		expect(await requestLines(sb)).toEqual([]);
	});

	// A typed id is checked by n8n itself first, with the editor's regex (n8n-workflow's getParameterIssues, run by
	// WorkflowExecute.checkReadyForExecution): the same rule, so the run stops before the node with its message.
	test.each([
		['0', 'documentId', 'A document ID is a whole number from 1'],
		['10000000000000000', 'documentId', 'A document ID is a whole number from 1'],
		['0', 'templateId', 'A template ID is a whole number from 1'],
	])('typed %s in %s is flagged as the editor flags it, before any request', async (id, key, message) => {
		await clearLog(sb);
		const res = await esign(sb, { resource: key === 'documentId' ? 'document' : 'template', operation: 'get', [key]: rl(id) } as IDataObject);
		expect(res.error.message).toBe(`The 'Node Under Test' node has issues:\n- ${message}`);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('leading zeros and spaces are dropped: " 007" is the document the site calls 7', async () => {
		const doc = await makeDraft(sb, { title: 'Typed with zeros' });
		const typed = ` ${String(doc.id).padStart(String(doc.id).length + 2, '0')} `;
		await clearLog(sb);
		const res = await esign(sb, { resource: 'document', operation: 'get', documentId: rl(typed) });
		expect(res.error).toBeUndefined();
		expect(res.items[0].json.title).toBe('Typed with zeros');
		expect(await requestLines(sb)).toEqual([`GET /documents/${doc.id}`]);
	});
});

describe('the editor helpers take the same ids', () => {
	const method = (kind: string, name: string, parameters: IDataObject) =>
		harness.runMethod({ kind, method: name, parameters, args: [], credentials: credentialsFor(sb) });

	test('signer options: document "0" asks for a document first, without a request', async () => {
		await clearLog(sb);
		await expect(method('loadOptions', 'getSigners', { resource: 'document', operation: 'remind', documentId: rl('0') })).rejects.toThrow(/Choose a document first/);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('signer options: "007" lists the signers of document 7', async () => {
		const doc = await makeDraft(sb, { signers: [{ name: 'Ann', email: 'ann@example.org' }] });
		await clearLog(sb);
		const options = await method('loadOptions', 'getSigners', { resource: 'document', operation: 'remind', documentId: rl(`00${doc.id}`) });
		expect(options.map((o: IDataObject) => o.name)).toEqual(['Ann <ann@example.org>']);
		expect(await requestLines(sb)).toEqual([`GET /documents/${doc.id}/signers`]);
	});

	test('template variables: template "0" is no template chosen (no rows, the node\'s notice asks for one), without a request', async () => {
		await clearLog(sb);
		const mapped = await method('resourceMapping', 'getTemplateVariables', { resource: 'template', operation: 'createDocument', templateId: rl('0') });
		expect(mapped).toEqual({ fields: [] });
		expect(await requestLines(sb)).toEqual([]);
	});
});
