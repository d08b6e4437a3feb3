/**
 * The action node through n8n-core's engine against the contract site (the sandbox by default; the
 * WordPress test site under `npm run test:wordpress`): what a real PHP site does to the nodes, such as
 * escaped JSON, string ids, PHP's upload limits and the signed PDF. As in api.test.ts, a test whose name holds
 * [guess] checks a choice the spec does not show (both doubles make it), and `// [guess]` marks the assertion.
 */
import { PDFDocument } from 'pdf-lib';

import type { Json } from '../support';
import { ESIGN, harness } from '../support';
import type { ContractSite } from './site';
import { credentialFor, useContractSite } from './site';

const getSite = useContractSite();
let site: ContractSite;
beforeAll(() => {
	site = getSite();
});

async function control(method: string, path: string, body?: unknown): Promise<Json> {
	const res = await fetch(site.control(path), {
		method,
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return await res.json();
}

const sample = async (name: string) => Buffer.from(await (await fetch(site.control(`/samples/${name}`))).arrayBuffer());

const run = async (parameters: Json, rest: Json = {}) =>
	await harness.runNode({ type: ESIGN, parameters, credentials: credentialFor(site), ...rest });

const pdfInput = (data: Buffer, fileName = 'contract.pdf') => [{ json: {}, binary: { data: { data, fileName, mimeType: 'application/pdf' } } }];

test('the credential test passes in the site\'s URL style', async () => {
	expect(await harness.testCredential(credentialFor(site))).toMatchObject({ status: 'OK' });
	const wrong = await harness.testCredential({ ...credentialFor(site), apiSecret: 'wrong' });
	expect(wrong.status).toBe('Error');
	expect(wrong.message).toMatch(/401/);
});

test('create and send, sign, then download the signed PDF as binary ([guess] the signed PDF: <stem>-signed.pdf with a certificate page)', async () => {
	const created = await run(
		{
			resource: 'document',
			operation: 'createAndSend',
			title: 'Lease 2024/25 für Café',
			signers: { signer: [{ name: 'Ann Tenant', email: 'ann@example.org', role: 'signer', signingOrder: 0 }] },
			fieldsInput: 'ui',
			fieldsUi: { field: [{ signer: '1', field_type: 'signature', page_number: 2, position_x: 72, position_y: 530, width: 0, height: 0 }] },
		},
		{ input: pdfInput(await sample('contract.pdf'), 'lease.pdf') },
	);
	expect(created.error).toBeUndefined();
	const doc = created.items[0].json;
	expect(doc).toMatchObject({ title: 'Lease 2024/25 für Café', status: 'sent', sent: true });
	const [signer] = await control('GET', `/signers?document_id=${doc.id}`);
	expect((await control('POST', `/sign/${signer.token}/sign`, {})).document.status).toBe('completed');

	const download = await run({ resource: 'document', operation: 'download', documentId: { __rl: true, mode: 'id', value: String(doc.id) } });
	expect(download.error).toBeUndefined();
	expect(download.items[0].binary.data).toMatchObject({ mimeType: 'application/pdf' });
	expect(download.items[0].binary.data.fileName).toBe('lease-signed.pdf'); // [guess]
	const signed = await PDFDocument.load(await download.binary(0, 'data'));
	expect(signed.getPageCount()).toBe(3); // [guess] the original's 2 pages and a certificate page
});

test('Return All reads every page of the list; a Limit with a search ([guess] newest first, search ignores case)', async () => {
	await control('POST', '/seed/documents', { count: 45, titlePrefix: 'Bulk' });
	const all = await run({ resource: 'document', operation: 'getMany', returnAll: true, filters: {} });
	expect(all.error).toBeUndefined();
	expect(all.items).toHaveLength(45);
	expect(new Set(all.items.map((i) => i.json.id)).size).toBe(45);
	const some = await run({ resource: 'document', operation: 'getMany', returnAll: false, limit: 3, filters: { search: 'bulk 4' } });
	expect(some.items).toHaveLength(3);
	expect(some.items.map((i) => i.json.title)).toEqual(['Bulk 45', 'Bulk 44', 'Bulk 43']); // [guess]
});

test('[guess] an upload over the upload_max_filesize of PHP fails with an explanation and the file size (the site answers missing_file)', async () => {
	let limits = (await control('GET', '/php-limits')).phpLimits;
	if (!limits) limits = (await control('POST', '/php-limits', {})).phpLimits; // the sandbox simulates Debian's php.ini
	const maxFile = limits.upload_max_filesize ?? limits.uploadMaxFilesize;
	const pdf = await sample('one-page.pdf');
	const end = Buffer.from('%%EOF\n');
	const data = Buffer.concat([pdf, Buffer.alloc(maxFile + 512 * 1024 - pdf.length - end.length, 0x0a), end]);
	const res = await run({ resource: 'document', operation: 'upload', title: 'Big scan' }, { input: pdfInput(data, 'scan.pdf') });
	expect(res.error?.message).toMatch(/missing_file/);
	expect(res.error?.description).toContain(`(${data.length.toLocaleString('en-US')} bytes)`);
	expect(res.error?.description).toMatch(/upload_max_filesize.*post_max_size/);
	expect((await control('GET', '/counters')).uploadExecuted).toBe(1);
});
