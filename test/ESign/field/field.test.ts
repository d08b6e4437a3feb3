// Field → Get Many / Replace All: defaults per type, coordinate conversion, checks before the call,
// replace-all semantics and combining items, through the engine against the sandbox.
import { api, clearLog, esign, makeDraft, requestLines, rl, sample, useSandbox } from '../../support';
import { SPEC_FIELD_SIZES as DEFAULTS } from '../../support/fieldSizes';
import { A4, LETTER, makePdf } from '../../support/pdfs';

const sb = useSandbox();

async function draftWithSigner(file?: { data: Buffer; name: string }) {
	const doc = await makeDraft(sb, { signers: [{ name: 'Ann', email: 'ann@example.org' }], fields: false, file });
	return { doc, signerId: String(doc.signers[0].id) };
}

const replaceAll = (documentId, fields, options = {}) => ({
	resource: 'field',
	operation: 'replaceAll',
	documentId: rl(documentId),
	fieldsInput: 'ui',
	fieldsUi: { field: fields },
	options,
});

describe('Field → Replace All', () => {
	test('fills each field type’s default size when width/height are left at 0', async () => {
		const { doc, signerId } = await draftWithSigner();
		const rows = Object.keys(DEFAULTS).map((type, n) => ({
			signer_id: signerId,
			field_type: type,
			page_number: 1,
			position_x: 10,
			position_y: 10 + n * 70,
			width: 0,
			height: 0,
			...(type === 'dropdown' ? { options: 'Yes, No' } : {}),
		}));
		const res = await esign(sb, replaceAll(doc.id, rows));
		expect(res.error).toBeUndefined();
		expect(res.items).toHaveLength(1);
		expect(res.items[0].json.field_count).toBe(10);
		const saved = (await api(sb, 'GET', `/documents/${doc.id}/fields`)).body;
		for (const field of saved) {
			const [w, h] = DEFAULTS[field.field_type];
			expect([Number(field.width), Number(field.height)]).toEqual([w, h]);
		}
		const dropdown = saved.find((f) => f.field_type === 'dropdown');
		expect(JSON.parse(dropdown.options)).toEqual(['Yes', 'No']);
	});

	test('converts bottom-left coordinates with each page’s own height, read from the draft’s PDF (Letter and A4 in one file)', async () => {
		const { doc, signerId } = await draftWithSigner({ data: await makePdf([{ size: LETTER }, { size: A4 }]), name: 'mixed.pdf' });
		const row = { signer_id: signerId, field_type: 'signature', page_number: 1, position_x: 72, position_y: 100, width: 0, height: 0 };
		await clearLog(sb);
		// The Page Height option says A4; the file's own sizes win.
		await esign(sb, replaceAll(doc.id, [row, { ...row, page_number: 2, height: 40 }], { coordinateOrigin: 'bottomLeft', pageHeight: 'a4' }));
		expect(await requestLines(sb)).toEqual([`GET /documents/${doc.id}/file`, `POST /documents/${doc.id}/fields`]);
		const fields = (await api(sb, 'GET', `/documents/${doc.id}/fields`)).body;
		expect(fields.map((f) => [Number(f.page_number), Number(f.position_y)])).toEqual([
			[1, 792 - 100 - 60],
			[2, 841.89 - 100 - 40],
		]);

		// Top-left values pass through unchanged, and the file is not read for them.
		await clearLog(sb);
		await esign(sb, replaceAll(doc.id, [row]));
		expect(await requestLines(sb)).toEqual([`POST /documents/${doc.id}/fields`]);
		expect(Number((await api(sb, 'GET', `/documents/${doc.id}/fields`)).body[0].position_y)).toBe(100);
	});

	test('converts bottom-left coordinates with the Page Height option when the file gives no sizes (an image)', async () => {
		const { doc, signerId } = await draftWithSigner({ data: await sample(sb, 'photo.png'), name: 'photo.png' });
		const row = { signer_id: signerId, field_type: 'signature', page_number: 1, position_x: 72, position_y: 100, width: 0, height: 0 };
		await esign(sb, replaceAll(doc.id, [row], { coordinateOrigin: 'bottomLeft', pageHeight: 'letter' }));
		let [field] = (await api(sb, 'GET', `/documents/${doc.id}/fields`)).body;
		expect(Number(field.position_y)).toBe(792 - 100 - 60);

		await esign(sb, replaceAll(doc.id, [{ ...row, height: 40 }], { coordinateOrigin: 'bottomLeft', pageHeight: 'a4' }));
		[field] = (await api(sb, 'GET', `/documents/${doc.id}/fields`)).body;
		expect(Number(field.position_y)).toBe(842 - 100 - 40);

		await esign(sb, replaceAll(doc.id, [row], { coordinateOrigin: 'bottomLeft', pageHeight: 'custom', customPageHeight: 600 }));
		[field] = (await api(sb, 'GET', `/documents/${doc.id}/fields`)).body;
		expect(Number(field.position_y)).toBe(600 - 100 - 60);
	});

	test('replaces all fields on every call', async () => {
		const { doc, signerId } = await draftWithSigner();
		const base = { signer_id: signerId, page_number: 1, position_x: 10, width: 0, height: 0 };
		await esign(sb, replaceAll(doc.id, [{ ...base, field_type: 'signature', position_y: 10 }, { ...base, field_type: 'date', position_y: 90 }]));
		expect((await api(sb, 'GET', `/documents/${doc.id}/fields`)).body).toHaveLength(2);
		await esign(sb, replaceAll(doc.id, [{ ...base, field_type: 'initials', position_y: 10 }]));
		const after = (await api(sb, 'GET', `/documents/${doc.id}/fields`)).body;
		expect(after.map((f) => f.field_type)).toEqual(['initials']);
	});

	test('each checked rule is reported as "Field <n>: <reason>" before any request', async () => {
		const { doc, signerId } = await draftWithSigner();
		const good = { signer_id: signerId, field_type: 'signature', page_number: 1, position_x: 10, position_y: 10 };
		const cases: Array<[Record<string, unknown>, RegExp]> = [
			[{ ...good, field_type: 'sticker' }, /Field 2: field_type "sticker" is not one of/],
			[{ ...good, signer_id: '' }, /Field 2: signer_id is required/],
			[{ ...good, signer_id: 'abc' }, /Field 2: signer_id must be a signer ID/],
			[{ ...good, page_number: 0 }, /Field 2: page_number must be a whole number from 1/],
			[{ ...good, page_number: 1.5 }, /Field 2: page_number must be a whole number from 1/],
			[{ ...good, position_x: '' }, /Field 2: position_x is required/],
			[{ ...good, position_y: 'top' }, /Field 2: position_y must be a number/],
			[{ ...good, width: -5 }, /Field 2: width must be a positive number/],
		];
		for (const [bad, pattern] of cases) {
			await clearLog(sb);
			const res = await esign(sb, { ...replaceAll(doc.id, []), fieldsInput: 'json', fieldsJson: JSON.stringify([good, bad]) });
			expect(res.error).toBeDefined();
			expect(res.error.message).toMatch(/^Invalid "Fields"/);
			expect(res.error.context.itemIndex).toBe(0);
			expect(`${res.error.message}\n${res.error.description}`).toMatch(pattern);
			expect(await requestLines(sb)).toEqual([]);
		}
	});

	test('a field above the top of the page after conversion is refused before any write', async () => {
		const { doc, signerId } = await draftWithSigner();
		await clearLog(sb);
		const res = await esign(
			sb,
			replaceAll(doc.id, [{ signer_id: signerId, field_type: 'signature', page_number: 1, position_x: 1, position_y: 780 }], {
				coordinateOrigin: 'bottomLeft',
			}),
		);
		expect(res.error.description).toMatch(/Field 1: y 780 \+ height 60 is above the top of a 792 pt page/);
		// Only the file was read (its page height decides); nothing was written.
		expect(await requestLines(sb)).toEqual([`GET /documents/${doc.id}/file`]);
	});

	test('the site’s own checks come back with its per-field messages', async () => {
		const { doc, signerId } = await draftWithSigner();
		const res = await esign(
			sb,
			replaceAll(doc.id, [
				{ signer_id: signerId, field_type: 'signature', page_number: 1, position_x: 1, position_y: 1 },
				{ signer_id: '99999', field_type: 'text', page_number: 7, position_x: 1, position_y: 1 },
			]),
		);
		expect(res.error.httpCode).toBe('400');
		expect(res.error.message).toMatch(/validation_failed/);
		expect(res.error.description).toMatch(/Field 2: /);
	});

	test('JSON input is accepted in the API’s own shape', async () => {
		const { doc, signerId } = await draftWithSigner();
		const res = await esign(sb, {
			...replaceAll(doc.id, []),
			fieldsInput: 'json',
			fieldsJson: JSON.stringify([
				{ signer_id: Number(signerId), field_type: 'text', page_number: 2, position_x: 5, position_y: 6, is_required: false, placeholder: 'Company' },
			]),
		});
		expect(res.error).toBeUndefined();
		const [field] = (await api(sb, 'GET', `/documents/${doc.id}/fields`)).body;
		expect(field).toMatchObject({ field_type: 'text', page_number: '2', is_required: '0', placeholder: 'Company' });
	});

	test('"Combine Items" sends one call per document with every item’s fields, paired to all items', async () => {
		const { doc, signerId } = await draftWithSigner();
		const other = await draftWithSigner();
		const rowsFor = (id, y) => ({ documentId: id, y });
		const input = [rowsFor(doc.id, 10), rowsFor(doc.id, 100), rowsFor(other.doc.id, 10), rowsFor(doc.id, 200)].map((json) => ({ json }));
		await clearLog(sb);
		const res = await esign(
			sb,
			{
				resource: 'field',
				operation: 'replaceAll',
				documentId: { __rl: true, mode: 'id', value: '={{ $json.documentId }}' },
				fieldsInput: 'json',
				fieldsJson:
					'={{ JSON.stringify([{ signer_id: $json.documentId == ' +
					doc.id +
					' ? ' +
					signerId +
					' : ' +
					other.signerId +
					', field_type: "signature", page_number: 1, position_x: 10, position_y: $json.y }]) }}',
				options: { combineItems: true },
			},
			{ input },
		);
		expect(res.error).toBeUndefined();
		expect(res.items).toHaveLength(2);
		expect(res.items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 3 }]);
		expect(res.items[1].pairedItem).toEqual({ item: 2 });
		expect((await requestLines(sb)).filter((l) => l.endsWith('/fields'))).toHaveLength(2);
		const kept = (await api(sb, 'GET', `/documents/${doc.id}/fields`)).body;
		expect(kept.map((f) => Number(f.position_y)).sort((a, b) => a - b)).toEqual([10, 100, 200]);

		// Without the option, each item replaces the previous one: only the last item's field remains.
		await esign(
			sb,
			{
				resource: 'field',
				operation: 'replaceAll',
				documentId: rl(doc.id),
				fieldsInput: 'json',
				fieldsJson: `={{ JSON.stringify([{ signer_id: ${signerId}, field_type: "signature", page_number: 1, position_x: 10, position_y: $json.y }]) }}`,
			},
			{ input: [10, 100, 200].map((y) => ({ json: { y } })) },
		);
		const last = (await api(sb, 'GET', `/documents/${doc.id}/fields`)).body;
		expect(last.map((f) => Number(f.position_y))).toEqual([200]);
	});
});

describe('Field → Get Many', () => {
	test('lists the fields, one item each', async () => {
		const doc = await makeDraft(sb, {
			signers: [
				{ name: 'Ann', email: 'ann@example.org' },
				{ name: 'Bob', email: 'bob@example.org' },
			],
		});
		const res = await esign(sb, { resource: 'field', operation: 'getMany', documentId: rl(doc.id) });
		expect(res.items).toHaveLength(2);
		expect(res.items.map((i) => i.json.field_type)).toEqual(['signature', 'signature']);
	});

	test('another user’s document is a 403 forbidden with guidance', async () => {
		const doc = await makeDraft(sb, { who: 'user2' });
		const res = await esign(sb, { resource: 'field', operation: 'getMany', documentId: rl(doc.id) }, { who: 'user' });
		expect(res.error.httpCode).toBe('403');
		expect(res.error.message).toMatch(/forbidden/);
		expect(res.error.description).toMatch(/belongs to another user/);
	});
});
