// The action node's copy against n8n's UX guidelines for community nodes
// (docs/integrations/creating-nodes/build/reference/ux-guidelines.md in n8n-io/n8n-docs), and the nodes'
// documentation links against how n8n's editor opens them.
import type { ICredentialType, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ESignApi } from '../../../credentials/ESignApi.credentials';
import { ESign } from '../../../nodes/ESign/ESign.node';
import { ESignStatusTrigger } from '../../../nodes/ESignStatusTrigger/ESignStatusTrigger.node';
import { ESignTrigger } from '../../../nodes/ESignTrigger/ESignTrigger.node';
import { checkNonNegativeNumber, checkOneOf, checkPositiveNumber, checkText, checkWholeNumber } from '../../../nodes/ESign/helpers/validation';
import { readCodexFiles } from '../../support/codex';
import { executeContext } from '../fakes';

const action = new ESign().description;
const descriptions: INodeTypeDescription[] = [action, new ESignTrigger().description, new ESignStatusTrigger().description];

/** Every property with its nested options (collections) and values (fixed collections). */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((p) => {
		const nested = ((p.options ?? []) as Array<INodeProperties | { values?: INodeProperties[] }>).flatMap((o) =>
			'values' in o && Array.isArray(o.values) ? allProperties(o.values) : 'type' in o ? allProperties([o as INodeProperties]) : [],
		);
		return [p, ...nested];
	});
}

describe('documentation links land where they point in n8n’s editor', () => {
	// n8n 2.41.1 and 1.123.81 (editor-ui NodeSettings, useNodeDocsUrl's docsUrl) open a codex primaryDocumentation
	// URL as `${url}?utm_source=…`: after a #fragment that query lands inside the fragment and the anchor misses.
	const codex = readCodexFiles();

	test('there is a codex file for each of the three nodes', () => {
		expect(codex.map((c) => c.codex.node).sort()).toEqual(['n8n-nodes-esign.eSign', 'n8n-nodes-esign.eSignStatusTrigger', 'n8n-nodes-esign.eSignTrigger']);
	});

	test.each(codex.map((c) => [c.file, c.codex] as const))('%s: every documentation link is https with no #fragment', (_file, file) => {
		const links = Object.values(file.resources ?? {}).flatMap((list) => (list as Array<{ url: string }>).map((entry) => entry.url));
		expect(links.length).toBeGreaterThanOrEqual(2);
		for (const url of links) {
			expect(url).toMatch(/^https:\/\//);
			expect({ url, fragment: new URL(url).hash }).toEqual({ url, fragment: '' });
		}
	});

	test('each node’s and the credential’s documentationUrl is an absolute https URL, which n8n opens as given', () => {
		// NodeSettings' docsUrl returns a documentationUrl starting with "http" unchanged (no query appended), and the
		// credential modal does for any host but docs.n8n.io; a relative one would be read as a docs.n8n.io path.
		const urls = [...descriptions.map((d) => d.documentationUrl), (new ESignApi() as ICredentialType).documentationUrl];
		for (const url of urls) expect(url).toMatch(/^https:\/\/github\.com\/n8n-nodes-esign\/n8n-nodes-esign/);
	});
});

describe('copy', () => {
	const operations = action.properties.filter((p) => p.name === 'operation');
	const actions = operations.flatMap((p) => ((p.options ?? []) as Array<{ action?: string }>).map((o) => o.action ?? ''));

	test('every operation has an action name, in sentence case and without articles ("Get document", not "Get a document")', () => {
		expect(actions.length).toBeGreaterThanOrEqual(21);
		for (const name of actions) {
			expect({ name, article: /\b(a|an|the)\b/i.test(name) }).toEqual({ name, article: false });
			expect(name).toMatch(/^[A-Z][a-z]/);
		}
	});

	// n8n's UX guidelines: the action is the operation in sentence case with its object ("Delete record"), so the
	// node panel's entry opens as the Operation it names (issue 38: "Upload file and send for signing" opened as
	// Create and Send). No articles (issue 32).
	const expectedActions: Record<string, Record<string, string>> = {
		document: {
			create: 'Create document',
			createAndSend: 'Create and send document',
			delete: 'Delete document',
			download: 'Download document',
			expire: 'Expire document',
			fillPdf: 'Fill PDF document',
			get: 'Get document',
			getAuditTrail: 'Get audit trail of document',
			getMany: 'Get many documents',
			remind: 'Remind signers of document',
			send: 'Send document',
			update: 'Update document',
			upload: 'Upload document',
		},
		field: { getMany: 'Get many fields of document', getValues: 'Get field values', replaceAll: 'Replace all fields of document' },
		signer: { add: 'Add signer to document', getMany: 'Get many signers of document' },
		stats: { get: 'Get statistics' },
		template: { createDocument: 'Create document from template', get: 'Get template', getMany: 'Get many templates' },
	};
	const resourceOptions = (action.properties.find((p) => p.name === 'resource')?.options ?? []) as Array<{ name: string; value: string }>;
	const operationsOf = (resource: string) =>
		(operations.find((p) => p.displayOptions?.show?.resource?.includes(resource))?.options ?? []) as Array<{ name: string; value: string; action?: string }>;

	test('every operation of every resource has the action name listed here', () => {
		const found = Object.fromEntries(resourceOptions.map((r) => [r.value, Object.fromEntries(operationsOf(r.value).map((o) => [o.value, o.action]))]));
		expect(found).toEqual(expectedActions);
	});

	test.each(resourceOptions.flatMap((r) => operationsOf(r.value).map((o) => [r.name, o.name, o.action ?? ''] as const)))(
		'%s → %s: the action "%s" starts with the operation and names the resource',
		(resource, operation, name) => {
			// The resource's noun may stand among the operation's words ("Get field values" for Field → Get Values).
			const nouns = new Set(['document', 'documents', 'field', 'fields', 'signer', 'signers', 'template', 'templates', 'statistic', 'statistics']);
			const words = (text: string) => text.toLowerCase().split(/\s+/).filter((word) => !nouns.has(word));
			expect(words(name).slice(0, words(operation).length)).toEqual(words(operation));
			expect(name.toLowerCase()).toContain(resource.toLowerCase());
		},
	);

	test('Simplify has the description n8n’s UX guidelines give it, word for word, and a hint saying what it keeps', () => {
		const simplify = allProperties(action.properties).filter((p) => p.name === 'simplify');
		expect(simplify.length).toBeGreaterThanOrEqual(3);
		for (const p of simplify) {
			expect(p.description).toBe('Whether to return a simplified version of the response instead of the raw data');
			expect(p.hint).toMatch(/^On: at most 10 fields: id, /);
		}
	});

	test('every Signers row parameter whose value is a code (a number or a choice) has a hint; so has Signer → Add', () => {
		const signerLists = allProperties(action.properties).filter((p) => p.name === 'signers' && p.type === 'fixedCollection');
		const rows = signerLists.flatMap((p) => (p.options as Array<{ values: INodeProperties[] }>)[0].values);
		const add = action.properties.filter((p) => p.displayOptions?.show?.resource?.includes('signer') && p.displayOptions?.show?.operation?.includes('add'));
		const coded = [...rows, ...add].filter((p) => p.type === 'number' || p.type === 'options');
		expect(coded.map((p) => p.name).sort()).toEqual(expect.arrayContaining(['role', 'signingOrder']));
		expect(signerLists.length).toBe(2);
		for (const p of coded) expect({ name: p.name, hint: typeof p.hint === 'string' && p.hint.length > 0 }).toEqual({ name: p.name, hint: true });
		// What 0 means differs: a row's place in the list, or after the signers already on the document.
		for (const p of rows.filter((r) => r.name === 'signingOrder')) expect(p.hint).toMatch(/0 = this signer’s place in the list/);
		expect(add.find((p) => p.name === 'signingOrder')?.hint).toMatch(/0 = after the signers already on the document/);
	});

	test('Template → Create Document: the Title’s hint says what an empty Title gives', () => {
		const title = action.properties.find((p) => p.name === 'title' && p.displayOptions?.show?.operation?.includes('createDocument'));
		expect(title?.hint).toMatch(/^Empty: .*template.*date and time/);
	});

	test.each(descriptions.map((d) => [d.displayName, d] as const))('%s: every boolean’s description starts with "Whether"', (_name, d) => {
		const booleans = allProperties(d.properties).filter((p) => p.type === 'boolean');
		expect(booleans.length).toBeGreaterThan(0);
		for (const p of booleans) expect({ name: p.name, description: p.description?.slice(0, 8) }).toEqual({ name: p.name, description: 'Whether ' });
	});
});

describe('parameter checks say what happened and how to get unstuck', () => {
	const context = executeContext();
	const cases: Array<[string, () => unknown]> = [
		['a whole number', () => checkWholeNumber.call(context, 2, 'Limit', 'ten', 1)],
		['a number above 0', () => checkPositiveNumber.call(context, 2, 'Timeout (Seconds)', 0)],
		['0 or more', () => checkNonNegativeNumber.call(context, 2, 'Max Rate Limit Wait (Seconds)', -1)],
		['one of a set', () => checkOneOf.call(context, 2, 'Status', 'done', ['draft', 'sent'])],
		['text', () => checkText.call(context, 2, 'Role', 7)],
	];

	test.each(cases)('%s: the message names the parameter, the description says what to enter, the item is in itemIndex only', (_name, check) => {
		let error: NodeOperationError | undefined;
		try {
			check();
		} catch (caught) {
			error = caught as NodeOperationError;
		}
		expect(error).toBeInstanceOf(NodeOperationError);
		const { message, description } = error as NodeOperationError;
		expect(message).toMatch(/^"[^"]+" must be /);
		const parameter = /^"([^"]+)"/.exec(message)?.[1] as string;
		expect(description).toContain(`"${parameter}"`);
		expect(description).toMatch(/^(Enter|Choose) /);
		// The guidelines' words to avoid, in both texts.
		expect(`${message} ${description}`).not.toMatch(/\b(error|problem|failure|mistake)s?\b/i);
		// n8n's editor appends " [item N]" itself from itemIndex (NodeErrorView addItemIndexSuffix): never in the message.
		expect((error as NodeOperationError).context.itemIndex).toBe(2);
		expect(message).not.toMatch(/\[item \d+\]/);
	});
});
