// Fields placed where the PDF says (issue 37): Create and Send and Replace All with text tags, field rows placed by
// anchor texts, and every refusal made before any request, through the engine against the sandbox. Where fields land
// is checked against pdf.js's reading of the same file (test/support/pdfjs), not against the node's own reader.
import { api, clearLog, credentialsFor, esign, harness, hostile, makeDraft, requestLines, rl, sample, useSandbox } from '../../support';
import type { Json } from '../../support';
import { SPEC_FIELD_SIZES } from '../../support/fieldSizes';
import { readPdfFixture, readPdfWithPdfjs } from '../../support/pdfjs';
import type { PdfjsResult } from '../../support/pdfjs';
import { makePdf } from '../../support/pdfs';
import { replaceAllOnReversedDraft } from '../../support/reversedDraft';

const sb = useSandbox();

const SIGNERS = {
	signer: [
		{ name: 'Carla Client', email: 'carla@example.org', role: 'signer', signingOrder: 0 },
		{ name: 'Pete Provider', email: 'pete@example.org', role: 'signer', signingOrder: 0 },
	],
};

const createAndSend = (extra: Json = {}): Json => ({
	resource: 'document',
	operation: 'createAndSend',
	title: 'Website Services Agreement',
	signers: SIGNERS,
	fieldsInput: 'tags',
	...extra,
});

const fileInput = (data: Buffer, fileName = 'website-contract.pdf', mimeType = 'application/pdf') => [
	{ json: {}, binary: { data: { data, fileName, mimeType } } },
];

let contract: Buffer;
let oracle: PdfjsResult;
beforeAll(async () => {
	contract = await sample(sb, 'tagged-contract.pdf');
	oracle = await readPdfWithPdfjs(contract, { glyphs: false, anchors: ['Signature:', 'Date:'] });
});

/** pdf.js's box of a tag as written in the file (white-space ignored). */
const boxOf = (text: string) => {
	const found = oracle.tags.filter((t) => t.text === text.replace(/\s+/g, ''));
	expect(found).toHaveLength(1);
	return found[0];
};

const close = (actual: unknown, expected: number) => expect(Math.abs(Number(actual) - expected)).toBeLessThanOrEqual(1);

describe('Document → Create and Send from text tags', () => {
	test('puts each field on its tag, with its type, signer, required flag and name, with no coordinates given', async () => {
		await clearLog(sb);
		const res = await esign(sb, createAndSend(), { input: fileInput(contract) });
		expect(res.error).toBeUndefined();
		const out = res.items[0].json;
		expect(out).toMatchObject({ status: 'sent', sent: true });
		const idOf = (email: string) => String(out.signers.find((s: Json) => s.email === email).id);
		const carla = idOf('carla@example.org');
		const pete = idOf('pete@example.org');
		const expected: Array<[string, string, string, boolean, string]> = [
			['{{text:1:Company name}}', 'text', carla, true, 'Company name'],
			['{{signature:1____}}', 'signature', carla, true, ''],
			['{{name:1}}', 'name', carla, true, ''],
			['{{date:1}}', 'date', carla, true, ''],
			['{{checkbox:1:n:No portfolio}}', 'checkbox', carla, false, 'No portfolio'],
			['{{signature:2____}}', 'signature', pete, true, ''],
			['{{name:2}}', 'name', pete, true, ''],
			['{{date:2}}', 'date', pete, true, ''],
		];
		expect(await requestLines(sb)).toEqual([
			'POST /documents/upload',
			`POST /documents/${out.id}/signers`,
			`POST /documents/${out.id}/signers`,
			`GET /documents/${out.id}/signers`,
			`POST /documents/${out.id}/fields`,
			`POST /documents/${out.id}/send`,
		]);
		const fields = (await api(sb, 'GET', `/documents/${out.id}/fields`)).body as Json[];
		expect(fields).toHaveLength(expected.length);
		for (const [tag, type, signer, required, name] of expected) {
			const [left, top, right, bottom] = boxOf(tag).box;
			const field = fields.find((f) => f.field_type === type && String(f.signer_id) === signer && Math.abs(Number(f.position_y) - top) <= 1);
			expect(field).toBeDefined();
			expect(Number(field.page_number)).toBe(2);
			close(field.position_x, left);
			close(field.height, bottom - top);
			// A checkbox is a square of the tag's height at its left; every other field covers the tag.
			close(field.width, type === 'checkbox' ? bottom - top : right - left);
			expect(Number(field.is_required)).toBe(required ? 1 : 0);
			expect(field.field_name).toBe(name);
		}
	});

	test('with Tag Field Size → the type’s default, fields take their default size with the bottom-left corner on the tag’s', async () => {
		const res = await esign(sb, createAndSend({ options: { tagFieldSize: 'default' } }), { input: fileInput(contract) });
		expect(res.error).toBeUndefined();
		const fields = (await api(sb, 'GET', `/documents/${res.items[0].json.id}/fields`)).body as Json[];
		const [left, , , bottom] = boxOf('{{signature:2____}}').box;
		const [width, height] = SPEC_FIELD_SIZES.signature;
		const field = fields.find((f) => f.field_type === 'signature' && Math.abs(Number(f.position_y) - (bottom - height)) <= 1);
		expect(field).toBeDefined();
		close(field.position_x, left);
		expect([Number(field.width), Number(field.height)]).toEqual([width, height]);
	});

	test.each([
		['the PDF has no tag', async () => fileInput(await sample(sb, 'contract.pdf')), /^No text tags found in the file in binary field "data" \(website-contract\.pdf\) \(2 pages of text, starting "Sample Contract"\)$/],
		['the PDF has no text at all (a scan)', async () => fileInput(readPdfFixture('scanned-image-only.pdf').bytes as Buffer), /has no text at all \(1 page\), so it has no text tags: it may be a scanned document$/],
		['the PDF needs a password to open', async () => fileInput(readPdfFixture('delivery-aes-256-userpw.pdf').bytes as Buffer), /is protected: the PDF needs a password to open/],
		['the file is an image', async () => fileInput(await sample(sb, 'photo.png'), 'photo.png', 'image/png'), /is a PNG image, so it has no text tags or anchor texts to read$/],
	])('refused before any request when %s', async (_, input, message) => {
		await clearLog(sb);
		const res = await esign(sb, createAndSend(), { input: await input() });
		expect(res.error.message).toMatch(message);
		expect(res.error.context.itemIndex).toBe(0);
		expect(res.error.description).toBeTruthy();
		expect(await requestLines(sb)).toEqual([]);
	});

	test('every unusable tag is quoted with its page, before any request', async () => {
		const pdf = await makePdf([
			{ lines: [{ text: 'Signature: {{signature:1}}', x: 72, y: 700 }, { text: 'Witness: {{signature:3}}', x: 72, y: 650 }] },
			{ lines: [{ text: 'Plan: {{dropdown:1:Plan}}', x: 72, y: 700 }, { text: 'Seal: {{sticker:2}}', x: 72, y: 650 }, { text: 'Sign: {{signature}}', x: 72, y: 600 }] },
		]);
		await clearLog(sb);
		const res = await esign(sb, createAndSend(), { input: fileInput(pdf) });
		expect(res.error.message).toMatch(/^4 text tags in the file in binary field "data" \(website-contract\.pdf\) cannot be used: Tag \{\{signature:3\}\} on page 1: it names signer 3, but "Signers" has 2/);
		expect(String(res.error.description).split('\n')).toEqual([
			'Tag {{signature:3}} on page 1: it names signer 3, but "Signers" has 2 (1 = the first)',
			'Tag {{dropdown:1:Plan}} on page 2: a dropdown needs its options, separated by | (e.g. {{dropdown:1:Basic|Pro}})',
			'Tag {{sticker:2}} on page 2: "sticker" is not a field type (use one of signature, initials, name, email, date, text, textarea, checkbox, dropdown, stamp)',
			'Tag {{signature}} on page 2: it names no signer (write it as {{type:signer}}, e.g. {{signature:1}})',
		]);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('a signer with no signature tag is refused before the upload, as with field rows', async () => {
		const pdf = await makePdf([{ lines: [{ text: 'Signature: {{signature:1}}', x: 72, y: 700 }, { text: '{{date:2}}', x: 72, y: 650 }] }]);
		await clearLog(sb);
		const res = await esign(sb, createAndSend(), { input: fileInput(pdf) });
		expect(res.error.message).toMatch(/^Every signer with the role Signer needs a signature field in "Fields"; none for pete@example.org/);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('a field of the type’s default size that would leave the page is refused, naming the tag', async () => {
		const pdf = await makePdf([{ lines: [{ text: '{{signature:1}} {{signature:2}}', x: 480, y: 700 }] }]);
		await clearLog(sb);
		const res = await esign(sb, createAndSend({ options: { tagFieldSize: 'default' } }), { input: fileInput(pdf) });
		expect(res.error.message).toMatch(/^A field from the PDF's text tags does not fit: Tag \{\{signature:1\}\} on page 1: it runs past the right edge by [\d.]+ pt \(page 1 is 612 × 792 pt\)$/);
		expect(await requestLines(sb)).toEqual([]);
	});
});

describe('Field rows placed by anchor texts', () => {
	const rows = (field: Json[]) => ({ fieldsInput: 'ui', fieldsUi: { field } });

	test('After the Text: on the text’s line, from its right end; occurrence picks which one, in page order', async () => {
		const res = await esign(
			sb,
			createAndSend(
				rows([
					{ signer: '1', field_type: 'signature', placement: 'anchor', anchor_text: 'signature:', anchor_occurrence: 1, width: 150, height: 30 },
					{ signer: '2', field_type: 'signature', placement: 'anchor', anchor_text: 'Signature:', anchor_occurrence: 2, anchor_offset_x: 10, anchor_offset_y: -5 },
				]),
			),
			{ input: fileInput(contract) },
		);
		expect(res.error).toBeUndefined();
		const fields = (await api(sb, 'GET', `/documents/${res.items[0].json.id}/fields`)).body as Json[];
		const anchors = oracle.pages.flatMap((p) => p.anchors.filter((a) => a.text === 'Signature:').map((a) => ({ page: p.page, box: a.box })));
		expect(anchors).toHaveLength(2);
		const [first, second] = anchors;
		expect(Number(fields[0].page_number)).toBe(first.page);
		close(fields[0].position_x, first.box[2]);
		close(fields[0].position_y, first.box[3] - 30);
		close(fields[1].position_x, second.box[2] + 10);
		close(fields[1].position_y, second.box[3] - SPEC_FIELD_SIZES.signature[1] - 5);
	});

	test('occurrence 0 puts a field at every occurrence; Below the Text starts under it', async () => {
		const res = await esign(
			sb,
			createAndSend(
				rows([
					{ signer: '1', field_type: 'signature', placement: 'anchor', anchor_text: 'Signature:', anchor_occurrence: 1 },
					{ signer: '2', field_type: 'signature', placement: 'anchor', anchor_text: 'Signature:', anchor_occurrence: 2 },
					{ signer: '1', field_type: 'date', placement: 'anchor', anchor_text: 'Date:', anchor_occurrence: 0, anchor_position: 'below' },
				]),
			),
			{ input: fileInput(contract) },
		);
		expect(res.error).toBeUndefined();
		const dates = ((await api(sb, 'GET', `/documents/${res.items[0].json.id}/fields`)).body as Json[]).filter((f) => f.field_type === 'date');
		const anchors = oracle.pages.flatMap((p) => p.anchors.filter((a) => a.text === 'Date:'));
		expect(dates).toHaveLength(anchors.length);
		dates.forEach((field, n) => {
			close(field.position_x, anchors[n].box[0]);
			close(field.position_y, anchors[n].box[3]);
		});
	});

	test('an anchor typed with a straight quote finds the PDF’s curly one; text drawn off the page is not searched', async () => {
		// The same words in capitals drawn at x = 2,600 on a 612-pt page (a clipped table of contents): a viewer shows
		// nothing there, so occurrence 0 gives one field, on the line the page shows.
		const pdf = await makePdf([
			{
				lines: [
					{ text: 'Tenant\u2019s signature:', x: 72, y: 600 },
					{ text: "TENANT'S SIGNATURE:", x: 2600, y: 500 },
				],
			},
		]);
		const theirs = await readPdfWithPdfjs(pdf, { glyphs: false, anchors: ['Tenant\u2019s signature:'] });
		const [anchor] = theirs.pages[0].anchors;
		const res = await esign(
			sb,
			createAndSend({
				signers: { signer: [SIGNERS.signer[0]] },
				...rows([{ signer: '1', field_type: 'signature', placement: 'anchor', anchor_text: "tenant's signature:", anchor_occurrence: 0, width: 150, height: 30 }]),
			}),
			{ input: fileInput(pdf) },
		);
		expect(res.error).toBeUndefined();
		const fields = (await api(sb, 'GET', `/documents/${res.items[0].json.id}/fields`)).body as Json[];
		expect(fields).toHaveLength(1);
		close(fields[0].position_x, anchor.box[2]);
		close(fields[0].position_y, anchor.box[3] - 30);
	});

	test('an anchor text the PDF does not have, or an occurrence past the last, is refused before the upload', async () => {
		await clearLog(sb);
		const res = await esign(
			sb,
			createAndSend(
				rows([
					{ signer: '1', field_type: 'signature', placement: 'anchor', anchor_text: 'Sign here' },
					{ signer: '2', field_type: 'signature', placement: 'anchor', anchor_text: 'Signature:', anchor_occurrence: 3 },
				]),
			),
			{ input: fileInput(contract) },
		);
		expect(res.error.message).toBe('Invalid "Fields": Field 1: the anchor text "Sign here" is not in the PDF\'s text (case, spacing, curly quotes, dashes and joined letters are ignored; it must be real text, on one line)');
		expect(res.error.description).toContain('Field 2: the anchor text "Signature:" appears 2 times in the PDF, so there is no occurrence 3');
		expect(await requestLines(sb)).toEqual([]);
	});
});

describe('Field → Replace All from text tags', () => {
	const replaceAll = (id: string, options: Json = {}) => ({ resource: 'field', operation: 'replaceAll', documentId: rl(id), fieldsInput: 'tags', options });

	test('reads the draft’s file from the site and gives tag signer n to the document’s n-th signer in signing order', async () => {
		// Added in reverse: the provider first (signing order 2), the client second (order 1).
		const { doc, idOf, res, requests } = await replaceAllOnReversedDraft(sb, { data: contract, name: 'website-contract.pdf' }, [
				{ name: 'Pete Provider', email: 'pete@example.org' },
			{ name: 'Carla Client', email: 'carla@example.org' },
		], (id) => replaceAll(id));
		expect(res.error).toBeUndefined();
		expect(res.items[0].json.field_count).toBe(8);
		expect(requests).toEqual([`GET /documents/${doc.id}/file`, `GET /documents/${doc.id}/signers`, `POST /documents/${doc.id}/fields`]);
		const fields = (await api(sb, 'GET', `/documents/${doc.id}/fields`)).body as Json[];
		const signature = (signer: string) => fields.find((f) => f.field_type === 'signature' && String(f.signer_id) === signer);
		close(signature(idOf('carla@example.org')).position_y, boxOf('{{signature:1____}}').box[1]);
		close(signature(idOf('pete@example.org')).position_y, boxOf('{{signature:2____}}').box[1]);
	});

	test('a tag naming a signer the draft does not have is refused before any write, listing the signers', async () => {
		const doc = await makeDraft(sb, { file: { data: contract, name: 'website-contract.pdf' }, signers: [{ name: 'Carla Client', email: 'carla@example.org' }], fields: false });
		await clearLog(sb);
		const res = await esign(sb, replaceAll(String(doc.id)));
		expect(res.error.message).toMatch(/^3 text tags in the file of document \d+ \(website-contract\.pdf\) cannot be used: Tag \{\{signature:2____\}\} on page 2: it names signer 2, but document \d+ has 1 signer \(1 = carla@example\.org\)$/);
		expect(await requestLines(sb)).toEqual([`GET /documents/${doc.id}/file`, `GET /documents/${doc.id}/signers`]);
	});

	test('a broken answer for the draft’s file is refused as Download refuses it, before any write', async () => {
		const doc = await makeDraft(sb, { file: { data: contract, name: 'website-contract.pdf' }, signers: [{ name: 'Carla Client', email: 'carla@example.org' }], fields: false });
		const whole = (await api(sb, 'GET', `/documents/${doc.id}/file`)).body as Json;
		const answer = (body: string) => ({ path: `/documents/${doc.id}/file`, raw: { status: 200, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body } });
		const cases: Array<[string, string]> = [
			[JSON.stringify(whole).slice(0, 2000), `The site's answer for the file of document ${doc.id} is not the eSign API's JSON (it ends before the JSON object does (cut off))`],
			[JSON.stringify({ ...whole, content: undefined }), `The site returned no file content for document ${doc.id}`],
			[JSON.stringify({ ...whole, encoding: 'hex' }), `The site's answer for the file of document ${doc.id} is not the eSign API's JSON (the encoding is hex, not base64)`],
		];
		for (const [body, message] of cases) {
			await hostile(sb, answer(body));
			await clearLog(sb);
			const res = await esign(sb, replaceAll(String(doc.id)));
			expect(res.error?.message).toBe(message);
			expect(await requestLines(sb)).toEqual([`GET /documents/${doc.id}/file`]);
		}
	});

	test('the draft’s file is read once for all items combined for the same document', async () => {
		const doc = await makeDraft(sb, {
			file: { data: contract, name: 'website-contract.pdf' },
			signers: [{ name: 'Carla Client', email: 'carla@example.org' }, { name: 'Pete Provider', email: 'pete@example.org' }],
			fields: false,
		});
		await clearLog(sb);
		const input = [{ json: {} }, { json: {} }];
		const parameters = { ...replaceAll(String(doc.id), { combineItems: true }), fieldsInput: 'ui', fieldsUi: { field: [{ signer_id: String(doc.signers[0].id), field_type: 'signature', placement: 'anchor', anchor_text: 'Signature:' }] } };
		const res = await esign(sb, parameters, { input });
		expect(res.error).toBeUndefined();
		expect(res.items).toHaveLength(1);
		expect(res.items[0].json.field_count).toBe(2);
		expect(await requestLines(sb)).toEqual([`GET /documents/${doc.id}/file`, `POST /documents/${doc.id}/fields`]);
	});
});

describe('as an AI agent’s tool', () => {
	test('Replace All from text tags needs only the document ID from the model', async () => {
		const doc = await makeDraft(sb, {
			file: { data: contract, name: 'website-contract.pdf' },
			signers: [{ name: 'Carla Client', email: 'carla@example.org' }, { name: 'Pete Provider', email: 'pete@example.org' }],
			fields: false,
		});
		const run = await harness.runTool({
			parameters: {
				resource: 'field',
				operation: 'replaceAll',
				documentId: { __rl: true, mode: 'id', value: "={{ $fromAI('documentId', 'The document ID', 'string') }}" },
				fieldsInput: 'tags',
			},
			args: { documentId: String(doc.id) },
			credentials: credentialsFor(sb),
		});
		expect(run.error).toBeUndefined();
		expect(run.answer[0]).toMatchObject({ document_id: String(doc.id), field_count: 8 });
	});
});
