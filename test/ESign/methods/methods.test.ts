// The editor helpers of the eSign node (document/template pickers, signer options, template
// variables for the resource mapper), called through n8n-core's LoadOptionsContext.
import type { IDataObject } from 'n8n-workflow';

import type { Json, KeyName } from '../../support';
import { ESign } from '../../../nodes/ESign/ESign.node';
import { api, clearLog, control, credentialsFor, harness, makeDraft, requestLines, sentDocument, useSandbox } from '../../support';

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
	const templateNamed = async (name: string) => ((await api(sb, 'GET', '/templates')).body as Json[]).find((t) => t.name === name);
	const forTemplate = (templateId: IDataObject, variables?: IDataObject) => ({
		parameters: { resource: 'template', operation: 'createDocument', templateId, ...(variables && { variables }) },
	});

	test('one row per variable (key, label), each shown from the start, optional, never a matching column, text', async () => {
		const rental = await templateNamed('Rental Agreement');
		const mapped = await call('resourceMapping', 'getTemplateVariables', forTemplate({ __rl: true, mode: 'id', value: String(rental.id) }));
		expect(mapped.fields.map((f: Json) => f.id)).toEqual(rental.variables.map((v: Json) => v.key));
		for (const field of mapped.fields) {
			const variable = rental.variables.find((v: Json) => v.key === field.id);
			// removed: false with the parameter's addAllFields: true → a row from the start (not behind "Add variable");
			// required: false → a row may stay empty (nothing sent); canBeUsedToMatch/defaultMatch false → mode "add";
			// type string → an untouched row is empty (a boolean row would start as false and be sent).
			expect(field).toEqual({
				id: variable.key,
				displayName: `${variable.label} (${variable.key})`,
				required: false,
				defaultMatch: false,
				canBeUsedToMatch: false,
				display: true,
				removed: false,
				type: 'string',
			});
		}
		// A notice only where no rows show: n8n keeps the last one and shows it in Map Automatically mode too.
		expect(mapped.emptyFieldsNotice).toBeUndefined();
	});

	test('the parameter shows every row and no red "No variables found" for an empty list (typeOptions the editor reads)', () => {
		const variables = new ESign().description.properties.find((p) => p.name === 'variables');
		expect(variables?.typeOptions?.resourceMapper).toMatchObject({ mode: 'add', addAllFields: true, hideNoDataError: true, supportAutoMap: true });
	});

	test('no template chosen yet: no rows, no notice (not an error) and no request to the site', async () => {
		await clearLog(sb);
		for (const value of ['', undefined]) {
			const mapped = await call('resourceMapping', 'getTemplateVariables', forTemplate({ __rl: true, mode: 'list', value }));
			expect(mapped).toEqual({ fields: [] });
		}
		expect(await requestLines(sb)).toEqual([]);
	});

	test('a template the editor cannot name (an expression without input data) keeps the rows already stored, so a refresh does not drop them', async () => {
		// The editor resolves the parameters before it asks (editor-ui resolveRequiredParameters): `{{ $json.id }}`
		// without input data arrives empty. Checked in n8n 2.41.1 and 1.123.81 with example 02: rows and values stay.
		const stored = [{ id: 'client_name', displayName: 'client_name', required: false, defaultMatch: false, display: true, type: 'string', canBeUsedToMatch: false }];
		await clearLog(sb);
		for (const value of ['', null]) {
			const mapped = await call(
				'resourceMapping',
				'getTemplateVariables',
				forTemplate({ __rl: true, mode: 'id', value }, { mappingMode: 'defineBelow', value: { client_name: 'Dana' }, matchingColumns: [], schema: stored }),
			);
			expect(mapped).toEqual({ fields: stored });
		}
		expect(await requestLines(sb)).toEqual([]);
	});

	test('a template without variables: no rows and a notice saying so; a checkbox variable is a text row', async () => {
		// Templates saved from drafts: one with only a signature field (never prefilled, so no variable), one with a checkbox.
		const templateFrom = async (name: string, fields: IDataObject[]) => {
			const draft = await makeDraft(sb, { signers: [{ name: 'Ann Signer', email: 'ann@example.org' }], fields: false });
			const placed = fields.map((f) => ({ signer_id: Number(draft.signers[0].id), page_number: 1, position_x: 72, position_y: 100, ...f }));
			expect((await api(sb, 'POST', `/documents/${draft.id}/fields`, { fields: placed })).status).toBeLessThan(300);
			return (await control(sb, 'POST', '/__sandbox/templates', { document_id: draft.id, name })) as Json;
		};
		const blank = await templateFrom('Signature only', [{ field_type: 'signature' }]);
		expect(blank.variables).toEqual([]);
		expect(await call('resourceMapping', 'getTemplateVariables', forTemplate({ __rl: true, mode: 'id', value: String(blank.id) }))).toEqual({
			fields: [],
			emptyFieldsNotice: expect.stringMatching(/^This template has no variables to prefill/),
		});

		const consent = await templateFrom('Consent', [{ field_type: 'signature' }, { field_type: 'checkbox', field_name: 'agree', position_y: 200 }]);
		expect(consent.variables).toEqual([{ key: 'agree', label: 'agree', field_type: 'checkbox' }]);
		const mapped = await call('resourceMapping', 'getTemplateVariables', forTemplate({ __rl: true, mode: 'id', value: String(consent.id) }));
		expect(mapped.fields).toEqual([expect.objectContaining({ id: 'agree', displayName: 'agree', type: 'string', removed: false })]);
	});
});
