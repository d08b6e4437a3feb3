// Field → Get Values: what signers filled in, keyed by field name, one item per document or per signer, ready for
// a sheet row. Through the engine against the sandbox, on a document made from the Mutual NDA template (named
// fields) and on one whose fields have no names (placed through the API, which takes no name).
import type { Json } from '../../support';
import { api, clearLog, control, esign, makeDraft, requestLines, rl, useSandbox } from '../../support';

const sb = useSandbox();

/** The Mutual NDA from its template, Ann and Bob as signers, sent; Ann has signed with her company name filled in. */
async function ndaSignedByAnn() {
	const template = (await api(sb, 'GET', '/templates')).body.find((t: Json) => t.name === 'Mutual NDA');
	const created = await api(sb, 'POST', `/templates/${template.id}/documents`, {
		title: 'NDA Acme',
		send: true,
		signers: [
			{ name: 'Ann Lee', email: 'ann@example.org', signing_order: 1 },
			{ name: 'Bob Roe', email: 'bob@example.org', signing_order: 2 },
		],
		variables: { company_name: 'Acme Ltd' },
	});
	const id = String(created.body.id);
	const signers = await control<Json[]>(sb, 'GET', `/__sandbox/signers?document_id=${id}`);
	await control(sb, 'POST', `/__sandbox/sign/${signers.find((s) => s.email === 'ann@example.org').token}/sign`);
	const fields = (await api(sb, 'GET', `/documents/${id}/fields`)).body;
	const value = (name: string) => fields.find((f: Json) => f.field_name === name).value;
	return { id, signers, value };
}

describe('Field → Get Values', () => {
	test('One Item per Document (the default): the document ID and each value by field name; signatures left out', async () => {
		const { id, value } = await ndaSignedByAnn();
		await clearLog(sb);
		const res = await esign(sb, { resource: 'field', operation: 'getValues', documentId: rl(id) });
		expect(res.error).toBeUndefined();
		expect(res.items.map((item) => item.json)).toEqual([{ document_id: id, 'Company name': 'Acme Ltd', 'Effective date': value('Effective date') }]);
		expect(value('Effective date')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
		expect(await requestLines(sb)).toEqual([`GET /documents/${id}/fields`]);
	});

	test('One Item per Signer: a row per signer with its ID, name, email and its own fields (one more request, for the names)', async () => {
		const { id, signers, value } = await ndaSignedByAnn();
		await clearLog(sb);
		const res = await esign(sb, { resource: 'field', operation: 'getValues', documentId: rl(id), valuesPer: 'signer', options: { includeSignatures: true } });
		expect(res.error).toBeUndefined();
		const idOf = (email: string) => String(signers.find((s) => s.email === email).id);
		expect(res.items.map((item) => item.json)).toEqual([
			{ document_id: id, signer_id: idOf('ann@example.org'), signer_name: 'Ann Lee', signer_email: 'ann@example.org', 'Company name': 'Acme Ltd', 'Effective date': value('Effective date'), 'Disclosing party signature': 'Ann Lee' },
			{ document_id: id, signer_id: idOf('bob@example.org'), signer_name: 'Bob Roe', signer_email: 'bob@example.org', 'Receiving party signature': '' },
		]);
		expect(await requestLines(sb)).toEqual([`GET /documents/${id}/fields`, `GET /documents/${id}/signers`]);
	});

	test('fields without a name are keyed by type and number in reading order', async () => {
		const doc = await makeDraft(sb, { signers: [{ name: 'Ann', email: 'ann@example.org' }], fields: false });
		const signerId = Number(doc.signers[0].id);
		const at = (field_type: string, position_y: number) => ({ signer_id: signerId, field_type, page_number: 1, position_x: 72, position_y });
		await api(sb, 'POST', `/documents/${doc.id}/fields`, { fields: [at('text', 300), at('signature', 500), at('text', 100), at('date', 200)] });
		const res = await esign(sb, { resource: 'field', operation: 'getValues', documentId: rl(doc.id) });
		expect(res.items.map((item) => item.json)).toEqual([{ document_id: String(doc.id), 'text 1': '', 'date 1': '', 'text 2': '' }]);
	});

	test('one output item per input item, each for its own document', async () => {
		const first = await ndaSignedByAnn();
		const second = await ndaSignedByAnn();
		const res = await esign(sb, { resource: 'field', operation: 'getValues', documentId: rl('={{ $json.id }}') }, { input: [{ json: { id: first.id } }, { json: { id: second.id } }] });
		expect(res.items.map((item) => [item.json.document_id, item.pairedItem])).toEqual([[first.id, { item: 0 }], [second.id, { item: 1 }]]);
	});
});
