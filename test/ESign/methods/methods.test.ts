// The editor helpers of the eSign node (document/template pickers, signer options, template
// variables for the resource mapper), called through n8n-core's LoadOptionsContext.
import type { IDataObject } from 'n8n-workflow';

import type { Json, KeyName } from '../../support';
import { api, control, credentialsFor, harness, makeDraft, sentDocument, useSandbox } from '../../support';

const sb = useSandbox();

const call = (
	kind: string,
	method: string,
	{ parameters = {}, args = [], who = 'admin' }: { parameters?: IDataObject; args?: unknown[]; who?: KeyName } = {},
) =>
	harness.runMethod({ kind, method, parameters, args, credentials: credentialsFor(sb, who) });

describe('document picker (listSearch.searchDocuments)', () => {
	test('searches by title and pages through results with a token', async () => {
		await control(sb, 'POST', '/__sandbox/seed/documents', { count: 60, owner: 'admin', titlePrefix: 'Lease' });
		await control(sb, 'POST', '/__sandbox/seed/documents', { count: 3, owner: 'admin', titlePrefix: 'Invoice' });
		const invoices = await call('listSearch', 'searchDocuments', { args: ['invoice'] });
		expect(invoices.results).toHaveLength(3);
		expect(invoices.results[0].name).toMatch(/^Invoice.* \(#\d+, draft\)$/);
		expect(invoices.paginationToken).toBeUndefined();

		const first = await call('listSearch', 'searchDocuments', { args: ['lease'] });
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toBe('2');
		const second = await call('listSearch', 'searchDocuments', { args: ['lease', first.paginationToken] });
		expect(second.results).toHaveLength(10);
		expect(second.paginationToken).toBeUndefined();
		const values = new Set([...first.results, ...second.results].map((r) => r.value));
		expect(values.size).toBe(60);
	});

	test('a non-admin key only lists its own documents', async () => {
		await control(sb, 'POST', '/__sandbox/seed/documents', { count: 2, owner: 'user' });
		await control(sb, 'POST', '/__sandbox/seed/documents', { count: 5, owner: 'user2' });
		const mine = await call('listSearch', 'searchDocuments', { who: 'user' });
		expect(mine.results).toHaveLength(2);
	});
});

describe('document picker on sites that send other count headers (the plugin family, proxies)', () => {
	/** Every page the picker offers, from the first until it offers no next one: [results on each page]. */
	async function walkPicker(): Promise<number[]> {
		const sizes: number[] = [];
		let token: string | undefined;
		do {
			const page = await call('listSearch', 'searchDocuments', { args: [undefined, token] });
			sizes.push(page.results.length);
			token = page.paginationToken;
		} while (token !== undefined && sizes.length < 10);
		return sizes;
	}

	test.each([
		// [the count headers the site sends, documents, the pages the picker offers]
		['X-WP-Total/TotalPages (WPsigner)', 'wp', 120, [50, 50, 20]],
		['X-WP-Total/TotalPages, a full last page: the count says it is the last', 'wp', 100, [50, 50]],
		['both kinds', 'both', 120, [50, 50, 20]],
		['X-ESIGN-Total/TotalPages (the spec), a full last page', 'esign', 100, [50, 50]],
		['none: a full page offers the next one', 'none', 120, [50, 50, 20]],
		['none, a full last page: only an empty page ends it', 'none', 100, [50, 50, 0]],
	])('%s (countHeaders %s): %i documents, the picker offers pages of %j', async (_name, countHeaders, total, pages) => {
		await control(sb, 'POST', '/__sandbox/profile', { countHeaders });
		await control(sb, 'POST', '/__sandbox/seed/documents', { count: total, owner: 'admin' });
		expect(await walkPicker()).toEqual(pages);
	});
});

describe('template picker (listSearch.searchTemplates)', () => {
	test('lists templates, filtered by the search text', async () => {
		const all = await call('listSearch', 'searchTemplates');
		expect(all.results.map((r) => r.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^Rental Agreement \(#\d+\)$/)]));
		const nda = await call('listSearch', 'searchTemplates', { args: ['NDA'] });
		expect(nda.results.map((r) => r.name)).toEqual([expect.stringMatching(/^Mutual NDA/)]);
	});
});

describe('signer options (loadOptions.getSigners)', () => {
	test('lists the signers of the chosen document', async () => {
		const doc = await makeDraft(sb, {
			signers: [
				{ name: 'Ann', email: 'ann@example.org' },
				{ name: 'Bob', email: 'bob@example.org' },
			],
		});
		const options = await call('loadOptions', 'getSigners', {
			parameters: { resource: 'document', operation: 'remind', documentId: { __rl: true, mode: 'list', value: String(doc.id) } },
		});
		expect(options.map((o) => o.name)).toEqual(['Ann <ann@example.org>', 'Bob <bob@example.org>']);
		expect(options.map((o) => o.value)).toEqual(doc.signers.map((s) => String(s.id)));
	});

	test('each option says the signer’s status as the spec records it: a decline by declined_at, an order only when set', async () => {
		// A site that keeps no signing order when none is given (the spec shows no default).
		await control(sb, 'POST', '/__sandbox/profile', { signingOrder: 'given' });
		const doc = await sentDocument(sb, { signers: [{ name: 'Ann', email: 'ann@example.org', signing_order: 1 }, { name: 'Bob', email: 'bob@example.org' }] });
		const [ann, bob] = (await control(sb, 'GET', `/__sandbox/signers?document_id=${doc.id}`)).sort((a: Json, b: Json) => a.email.localeCompare(b.email));
		// Bob declines the way the spec records it: declined_at and decline_reason, the status left as it was.
		await control(sb, 'POST', `/__sandbox/signers/${bob.id}`, { declined_at: '2026-02-03 04:05:06', decline_reason: 'No' });
		const options = await call('loadOptions', 'getSigners', {
			parameters: { resource: 'document', operation: 'remind', documentId: { __rl: true, mode: 'list', value: String(doc.id) } },
		});
		const byValue = Object.fromEntries(options.map((o) => [o.value, o.description]));
		expect(byValue[String(ann.id)]).toBe('Status: pending, signing order 1');
		expect(byValue[String(bob.id)]).toBe('Status: declined');
	});

	test('asks for a document first when none is chosen', async () => {
		await expect(
			call('loadOptions', 'getSigners', { parameters: { resource: 'document', operation: 'remind', documentId: { __rl: true, mode: 'list', value: '' } } }),
		).rejects.toThrow(/Choose a document first/);
	});
});

describe('template variables (resourceMapping.getTemplateVariables)', () => {
	test('columns come from the template’s variables (key, label, type)', async () => {
		const templates = (await api(sb, 'GET', '/templates')).body;
		const rental = templates.find((t) => t.name === 'Rental Agreement');
		const mapped = await call('resourceMapping', 'getTemplateVariables', {
			parameters: { resource: 'template', operation: 'createDocument', templateId: { __rl: true, mode: 'id', value: String(rental.id) } },
		});
		expect(mapped.fields.map((f) => f.id)).toEqual(rental.variables.map((v) => v.key));
		for (const field of mapped.fields) {
			expect(field).toMatchObject({ required: false, display: true, canBeUsedToMatch: false });
			const variable = rental.variables.find((v) => v.key === field.id);
			expect(field.displayName).toContain(variable.key);
		}
	});

	test('no template chosen → an empty list with a notice', async () => {
		const mapped = await call('resourceMapping', 'getTemplateVariables', {
			parameters: { resource: 'template', operation: 'createDocument', templateId: { __rl: true, mode: 'list', value: '' } },
		});
		expect(mapped.fields).toEqual([]);
		expect(mapped.emptyFieldsNotice).toMatch(/Choose a template first/);
	});
});
