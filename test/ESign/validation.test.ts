// Bad input is stopped before any request: each case fails its item with an error naming the item and
// the parameter, the site sees nothing, and with Continue On Fail the other items still run.
import type { IDataObject } from 'n8n-workflow';

import { clearLog, esign, makeDraft, requestLines, rl, sample, useSandbox } from '../support';

const sb = useSandbox();

type Params = IDataObject;

const field = (extra: Params = {}): Params => ({ signer_id: 1, field_type: 'signature', page_number: 1, position_x: 72, position_y: 72, ...extra });
const replaceAll = (documentId: string, rows: unknown[], extra: Params = {}): Params => ({
	resource: 'field',
	operation: 'replaceAll',
	documentId: rl(documentId),
	fieldsInput: 'json',
	fieldsJson: JSON.stringify(rows),
	...extra,
});
const createAndSend = (extra: Params = {}): Params => ({
	resource: 'document',
	operation: 'createAndSend',
	signers: { signer: [{ name: 'Ann', email: 'ann@example.org', role: 'signer', signingOrder: 0 }] },
	fieldsInput: 'ui',
	fieldsUi: { field: [{ signer: '1', field_type: 'signature', page_number: 1, position_x: 72, position_y: 72, width: 0, height: 0 }] },
	...extra,
});
const mapped = (value: Params) => ({ mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] });

/** [name, parameters (given the draft's id), expected message]. Item 0 of one input item (n8n shows the item; the message names the parameter). */
const CASES: Array<[string, (doc: string) => Params, RegExp]> = [
	['Fields: negative position_x', (d) => replaceAll(d, [field({ position_x: -5 })]), /^Invalid "Fields": Field 1: position_x must be 0 or more/],
	['Fields: negative position_y', (d) => replaceAll(d, [field({ position_y: -1 })]), /Field 1: position_y must be 0 or more/],
	['Fields: dropdown without options', (d) => replaceAll(d, [field({ field_type: 'dropdown' })]), /Field 1: a dropdown field needs options/],
	['Fields: font_size not a whole number', (d) => replaceAll(d, [field({ font_size: 10.5 })]), /Field 1: font_size must be a whole number from 1/],
	['Fields: font_size 0', (d) => replaceAll(d, [field({ font_size: 0 })]), /Field 1: font_size must be a whole number from 1/],
	['Fields: [null]', (d) => replaceAll(d, [null]), /Field 1: must be an object/],
	['Fields: a non-object entry', (d) => replaceAll(d, [field(), 'signature']), /Field 2: must be an object/],
	['Fields (JSON) that does not parse', (d) => ({ ...replaceAll(d, []), fieldsJson: '[{"field_type": "signature"' }), /^"Fields \(JSON\)" is not valid JSON/],
	[
		'Fields (JSON) from an expression that does not parse',
		(d) => ({ ...replaceAll(d, []), fieldsJson: '={{ "[{" + "\\"a\\":" }}' }),
		/^"Fields \(JSON\)" is not valid JSON/,
	],
	[
		'custom page height 0',
		(d) => replaceAll(d, [field()], { options: { coordinateOrigin: 'bottomLeft', pageHeight: 'custom', customPageHeight: 0 } }),
		/^"Custom Page Height \(Points\)" must be a number above 0/,
	],
	['Signer Add: negative signing order', (d) => ({ resource: 'signer', operation: 'add', documentId: rl(d), name: 'A', email: 'a@example.org', signingOrder: -1 }), /^"Signing Order" must be a whole number from 0, got -1/],
	['Signer Add: fractional signing order', (d) => ({ resource: 'signer', operation: 'add', documentId: rl(d), name: 'A', email: 'a@example.org', signingOrder: 1.5 }), /"Signing Order" must be a whole number from 0, got 1\.5/],
	['Signer Add: signing order not a number', (d) => ({ resource: 'signer', operation: 'add', documentId: rl(d), name: 'A', email: 'a@example.org', signingOrder: '={{ "first" }}' }), /"Signing Order" must be a whole number from 0, got "first"/],
	['Documents Get Many: Limit 0', () => ({ resource: 'document', operation: 'getMany', returnAll: false, limit: 0 }), /^"Limit" must be a whole number from 1, got 0/],
	['Documents Get Many: negative Limit', () => ({ resource: 'document', operation: 'getMany', returnAll: false, limit: -3 }), /"Limit" must be a whole number from 1/],
	['Documents Get Many: Limit not a number', () => ({ resource: 'document', operation: 'getMany', returnAll: false, limit: '={{ "ten" }}' }), /"Limit" must be a whole number from 1, got "ten"/],
	['Documents Get Many: unknown status', () => ({ resource: 'document', operation: 'getMany', returnAll: true, filters: { status: '={{ "archived" }}' } }), /^"Status" must be one of .*got "archived"/],
	['Templates Get Many: Limit above 100', () => ({ resource: 'template', operation: 'getMany', returnAll: false, limit: 101 }), /^"Limit" must be a whole number from 1 to 100, got 101/],
	['Templates Get Many: Limit 0', () => ({ resource: 'template', operation: 'getMany', returnAll: false, limit: 0 }), /"Limit" must be a whole number from 1 to 100/],
	['Update: status completed', (d) => ({ resource: 'document', operation: 'update', documentId: rl(d), updateFields: { status: 'completed' } }), /^"Status" must be one of draft, sent, got "completed"/],
	['Update: status from an expression', (d) => ({ resource: 'document', operation: 'update', documentId: rl(d), updateFields: { status: '={{ "declined" }}' } }), /"Status" must be one of draft, sent/],
	[
		'Template → Create Document: an object variable',
		() => ({ resource: 'template', operation: 'createDocument', templateId: rl('1'), send: false, variables: mapped({ client_name: { first: 'Ann' } }) }),
		/^Variable "client_name" in "Variables" is an object, not text/,
	],
	[
		'Template → Create Document: an array variable',
		() => ({ resource: 'template', operation: 'createDocument', templateId: rl('1'), send: false, variables: mapped({ client_name: ['a', 'b'] }) }),
		/^Variable "client_name" in "Variables" is a list, not text/,
	],
	['Template signers: negative signing order', () => ({ resource: 'template', operation: 'createDocument', templateId: rl('1'), signers: { signer: [{ name: 'A', email: 'a@example.org', signingOrder: -2 }] } }), /^Signer 1 in "Signers": "Signing Order" must be a whole number from 0, got -2/],
	['Request Options: Timeout 0', () => ({ resource: 'stats', operation: 'get', requestOptions: { timeout: 0 } }), /^"Timeout \(Seconds\)" must be a number above 0, got 0/],
	['Request Options: Timeout not a number', () => ({ resource: 'stats', operation: 'get', requestOptions: { timeout: '={{ "soon" }}' } }), /"Timeout \(Seconds\)" must be a number above 0, got "soon"/],
	['Create: a title that is not text', () => ({ resource: 'document', operation: 'create', title: '={{ 42 }}' }), /^"Title" must be text, got 42/],
	[
		'Create and Send: custom page height not a number',
		() => createAndSend({ options: { coordinateOrigin: 'bottomLeft', pageHeight: 'custom', customPageHeight: '={{ "tall" }}' } }),
		/^"Custom Page Height \(Points\)" must be a number above 0, got "tall"/,
	],
];

describe('every bad input fails before any request, naming the item and the parameter', () => {
	test.each(CASES)('%s', async (_name, parameters, expected) => {
		const doc = await makeDraft(sb);
		await clearLog(sb);
		const input = [{ json: {}, binary: { data: { data: await sample(sb, 'one-page.pdf'), fileName: 'a.pdf', mimeType: 'application/pdf' } } }];
		const res = await esign(sb, parameters(String(doc.id)), { input });
		expect(res.error).toBeDefined();
		expect(res.error.message).toMatch(expected);
		expect(res.error.context.itemIndex).toBe(0);
		expect(await requestLines(sb)).toEqual([]);
	});
});

describe('files that only look like PDFs', () => {
	test.each([
		['Upload', { resource: 'document', operation: 'upload' }],
		['Create and Send', createAndSend()],
	])('%s refuses a file that is just "%%PDF-"', async (_name, parameters) => {
		await clearLog(sb);
		const input = [{ json: {}, binary: { data: { data: Buffer.from('%PDF-'), fileName: 'fake.pdf', mimeType: 'application/pdf' } } }];
		const res = await esign(sb, parameters as Params, { input });
		expect(res.error.message).toMatch(/^The file in binary field "data" .*starts like a PDF but is not a complete PDF/);
		expect(res.error.context.itemIndex).toBe(0);
		expect(await requestLines(sb)).toEqual([]);
	});
});

test('with Continue On Fail, a bad item fails alone and the others run', async () => {
	for (const title of ['A', 'B', 'C']) await makeDraft(sb, { title });
	const res = await esign(
		sb,
		{ resource: 'document', operation: 'getMany', returnAll: false, limit: '={{ $json.limit }}' },
		{ continueOnFail: true, input: [{ json: { limit: 5 } }, { json: { limit: 0 } }, { json: { limit: 2 } }] },
	);
	// 3 documents for item 0, the error for item 1, 2 documents for item 2.
	expect(res.items.map((item) => item.pairedItem)).toEqual([
		{ item: 0 },
		{ item: 0 },
		{ item: 0 },
		{ item: 1 },
		{ item: 2 },
		{ item: 2 },
	]);
	const errors = res.items.filter((item) => item.json.error);
	expect(errors).toHaveLength(1);
	expect(errors[0].json.error).toMatch(/^"Limit" must be a whole number from 1, got 0$/);
	expect(errors[0].pairedItem).toEqual({ item: 1 });
});
