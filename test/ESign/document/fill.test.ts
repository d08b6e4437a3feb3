// Values drawn into the PDF (issue 51), through the engine against the sandbox: Document → Fill PDF gives the filled
// PDF in the same binary field and sends nothing; Create and Send's PDF Values fill the file it uploads, in the same
// update as the removal of tags and form fields, and the filled form fields are no fields for the signers. Every
// refusal comes before any request. The files are read back with the node's reader (scripts/fill-check.mjs holds the
// same fills to poppler, Ghostscript, MuPDF, pdf.js and pdftk).
import { PdfText } from '../../../nodes/ESign/pdf';
import { findTags } from '../../../nodes/ESign/textTags/tags';
import { api, clearLog, esign, requestLines, useSandbox } from '../../support';
import type { Json } from '../../support';
import { readPdfFixture } from '../../support/pdfjs';
import { pagesPdf } from '../../support/pdfRaw';

const sb = useSandbox();

const form = readPdfFixture('form-pdflib.pdf').bytes as Buffer;
/** A contract with data tags and signer tags on one page. */
const tagged = pagesPdf([
	{
		content: [
			'BT /F1 12 Tf 72 700 Td (Tenant: {{data:tenant_name}}, {{data:city}}) Tj ET',
			'BT /F1 12 Tf 72 600 Td (Tenant signs {{signature:1}}) Tj ET',
			'BT /F1 12 Tf 320 600 Td (Landlord signs {{signature:2}}) Tj ET',
		].join('\n'),
	},
]);

const fileInput = (data: Buffer, json: Json = {}, fileName = 'contract.pdf') => [{ json, binary: { data: { data, fileName, mimeType: 'application/pdf' } } }];
const uploaded = async (id: unknown): Promise<Buffer> => Buffer.from(await (await fetch(`${sb.url}/__sandbox/documents/${String(id)}/file`)).arrayBuffer());

/** Every page's text, and the names of the form fields left. */
async function reading(bytes: Buffer): Promise<{ text: string; fields: string[]; tags: string[] }> {
	const pdf = await PdfText.open(new Uint8Array(bytes));
	let text = '';
	const tags: string[] = [];
	for (const page of pdf.pages) {
		const lines = await pdf.lines(page.number);
		text += lines.map((line) => line.text).join('\n') + '\n';
		tags.push(...findTags(lines, page.number).map((tag) => tag.text));
	}
	return { text, fields: (await pdf.formFields()).map((w) => w.name), tags };
}

const SIGNERS = {
	signer: [
		{ name: 'Tina Tenant', email: 'tina@example.org', role: 'signer', signingOrder: 0 },
		{ name: 'Lars Landlord', email: 'lars@example.org', role: 'signer', signingOrder: 0 },
	],
};

describe('Document → Fill PDF', () => {
	test('draws the values, gives the filled PDF in the same binary field, keeps the item’s JSON, and sends nothing', async () => {
		await clearLog(sb);
		const row = { 'Tenant Name': 'Ada Lovelace', Plan: 'Pro', 'Agree Terms': true, email: 'ada@example.org' };
		const res = await esign(sb, { resource: 'document', operation: 'fillPdf', pdfValues: '={{ $json }}' }, { input: fileInput(form, { ...row, email: undefined }) });
		expect(res.error?.message).toMatch(/"email" is neither a form field nor a data tag/);
		const values = { 'Tenant Name': 'Ada Lovelace', Plan: 'Pro', 'Agree Terms': true };
		const ok = await esign(sb, { resource: 'document', operation: 'fillPdf', pdfValues: '={{ $json }}' }, { input: fileInput(form, values) });
		expect(ok.error).toBeUndefined();
		const item = ok.items[0];
		expect(item.json).toEqual(values);
		expect(item.binary.data).toMatchObject({ fileName: 'contract.pdf', mimeType: 'application/pdf' });
		const bytes = await ok.binary(0, 'data');
		expect(bytes.subarray(0, form.length).equals(form)).toBe(true);
		expect(bytes.length).toBeGreaterThan(form.length);
		const read = await reading(bytes);
		expect(read.text).toContain('Ada Lovelace');
		expect(read.text).toContain('Pro');
		expect(read.fields).not.toContain('Tenant Name');
		expect(read.fields).toContain('Landlord Name');
		expect(await requestLines(sb)).toEqual([]);
	});

	test('a value that cannot be drawn stops the item with its index, naming the value and what to change', async () => {
		const res = await esign(sb, { resource: 'document', operation: 'fillPdf', pdfValues: JSON.stringify({ Plan: 'Gold', 'Tenant Name': 'x'.repeat(400) }) }, { input: fileInput(form) });
		expect(res.error.message).toMatch(/^The value of "Tenant Name" cannot be drawn: it does not fit its box, even in 6 pt type \(and 1 more problem below\)$/);
		expect(res.error.description).toMatch(/"Gold" is not one of the options of "Plan"\. Choose one of: "Basic", "Pro", "Enterprise"/);
		expect(res.error.description).toMatch(/Tenant Name.*does not fit its box, even in 6 pt type/);
	});

	test('"PDF Values" that are not one JSON object are refused, naming the parameter', async () => {
		for (const pdfValues of ['{"a": ', '[1, 2]', '"text"']) {
			const res = await esign(sb, { resource: 'document', operation: 'fillPdf', pdfValues }, { input: fileInput(form) });
			expect([pdfValues, res.error?.message]).toEqual([pdfValues, expect.stringMatching(/^"PDF Values" (is not valid JSON|must be one JSON object)/)]);
		}
	});

	test('with Continue On Fail, a refused item is paired with its input and the next item is filled', async () => {
		const input = [...fileInput(form, { n: 1 }), ...fileInput(form, { n: 2 })];
		const res = await esign(sb, { resource: 'document', operation: 'fillPdf', pdfValues: '={{ $json.n === 1 ? { Nope: 1 } : { "Tenant Name": "Bob" } }}' }, { input, continueOnFail: true });
		expect(res.items).toHaveLength(2);
		expect(res.items[0].json.error).toMatch(/"Nope" is neither a form field nor a data tag/);
		expect(res.items[0].pairedItem).toEqual({ item: 0 });
		expect(res.items[1].pairedItem).toEqual({ item: 1 });
		expect((await reading(await res.binary(1, 'data'))).text).toContain('Bob');
	});
});

describe('Document → Create and Send with PDF Values', () => {
	test('from text tags: the values and the tags’ removal go up in one update, the fields where the signer tags were', async () => {
		await clearLog(sb);
		const res = await esign(
			sb,
			{ resource: 'document', operation: 'createAndSend', title: 'Lease', signers: SIGNERS, fieldsInput: 'tags', options: { pdfValues: '={{ $json }}' } },
			{ input: fileInput(tagged, { tenant_name: 'Ada Lovelace', city: 'Lyon' }) },
		);
		expect(res.error).toBeUndefined();
		const out = res.items[0].json;
		const file = await uploaded(out.id);
		expect(file.subarray(0, tagged.length).equals(tagged)).toBe(true);
		// One update: one %%EOF after the original's.
		expect(file.subarray(tagged.length).toString('latin1').match(/%%EOF/g)).toHaveLength(1);
		const read = await reading(file);
		expect(read.text).toContain('Ada Lovelace');
		expect(read.text).toContain('Lyon');
		expect(read.text).not.toContain('{{');
		const fields = (await api(sb, 'GET', `/documents/${out.id}/fields`)).body as Json[];
		expect(fields.map((f) => f.field_type)).toEqual(['signature', 'signature']);
	});

	test('from form fields: filled fields are drawn and leave the file; only the fields left go to the signers', async () => {
		const res = await esign(
			sb,
			{
				resource: 'document',
				operation: 'createAndSend',
				title: 'Tenancy',
				signers: SIGNERS,
				fieldsInput: 'formFields',
				formFieldSigners: { rule: [{ nameContains: 'landlord', signer: 2 }, { nameContains: '', signer: 1 }] },
				options: { pdfValues: JSON.stringify({ 'Tenant Name': 'Ada Lovelace', Notes: 'No pets.', Plan: 'Basic' }) },
			},
			{ input: fileInput(form) },
		);
		expect(res.error).toBeUndefined();
		const out = res.items[0].json;
		const fields = (await api(sb, 'GET', `/documents/${out.id}/fields`)).body as Json[];
		const names = fields.map((f) => f.field_name);
		expect(names).not.toEqual(expect.arrayContaining(['Tenant Name']));
		expect(names).not.toContain('Notes');
		expect(names).not.toContain('Plan');
		expect(names).toEqual(expect.arrayContaining(['Landlord Name', 'Tenant Signature', 'Landlord Signature']));
		const read = await reading(await uploaded(out.id));
		expect(read.text).toContain('Ada Lovelace');
		expect(read.text).toContain('No pets.');
		// Every form field is gone from the upload: the filled ones (drawn) and the others (now eSign fields).
		expect(read.fields.filter((name) => ['Tenant Name', 'Landlord Name', 'Notes', 'Plan'].includes(name))).toEqual([]);
	});

	test('a data tag with no value stops the item before any request', async () => {
		await clearLog(sb);
		const res = await esign(
			sb,
			{ resource: 'document', operation: 'createAndSend', title: 'Lease', signers: SIGNERS, fieldsInput: 'tags', options: { pdfValues: '{"tenant_name": "Ada"}' } },
			{ input: fileInput(tagged) },
		);
		expect(res.error.message).toMatch(/The data tag \{\{data:city\}\} on page 1 has no value/);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('saved workflows without PDF Values upload the file as before (a data tag is no field and stays)', async () => {
		const res = await esign(sb, { resource: 'document', operation: 'createAndSend', title: 'Lease', signers: SIGNERS, fieldsInput: 'tags', options: { removeTags: false } }, { input: fileInput(tagged) });
		expect(res.error).toBeUndefined();
		expect((await uploaded(res.items[0].json.id)).equals(tagged)).toBe(true);
	});
});
