// Fields from a fillable PDF's own form fields (issue 41): Create and Send and Replace All with "Define Fields → From
// the PDF's Form Fields", through the engine against the sandbox. What the site receives is held to pdf.js's reading
// of the same file (page.getAnnotations(), test/support/pdfjsForms), not to the node's own reader; every refusal is
// made before any request. Named *.slow.test.ts: it runs pdf.js in a child process.
import { api, clearLog, esign, makeDraft, requestLines, rl, sample, useSandbox } from '../../support';
import type { Json } from '../../support';
import { SPEC_FIELD_SIZES } from '../../support/fieldSizes';
import { readPdfFixture } from '../../support/pdfjs';
import type { PdfjsWidget } from '../../support/pdfjsForms';
import { readFormsWithPdfjs } from '../../support/pdfjsForms';
import { replaceAllOnReversedDraft } from '../../support/reversedDraft';

const sb = useSandbox();

const form = readPdfFixture('form-pdflib.pdf').bytes as Buffer;
const tree = readPdfFixture('form-tree.pdf').bytes as Buffer;

const SIGNERS = {
	signer: [
		{ name: 'Tina Tenant', email: 'tina@example.org', role: 'signer', signingOrder: 0 },
		{ name: 'Lars Landlord', email: 'lars@example.org', role: 'signer', signingOrder: 0 },
	],
};
/** The landlord's fields to signer 2, every other field to signer 1 (a catch-all last row). */
const RULES = { rule: [{ nameContains: 'landlord', signer: 2 }, { nameContains: '', signer: 1 }] };

const createAndSend = (extra: Json = {}): Json => ({
	resource: 'document',
	operation: 'createAndSend',
	title: 'Tenancy onboarding',
	signers: SIGNERS,
	fieldsInput: 'formFields',
	formFieldSigners: RULES,
	...extra,
});

const fileInput = (data: Buffer, fileName = 'tenancy-form.pdf', mimeType = 'application/pdf') => [{ json: {}, binary: { data: { data, fileName, mimeType } } }];

/** The eSign field type pdf.js's widget should become, or undefined when it is left out. */
function expectedType(w: PdfjsWidget): string | undefined {
	if (w.readOnly || w.hidden || w.pushButton || w.radioButton) return undefined;
	if (w.fieldType === 'Sig') return 'signature';
	if (w.fieldType === 'Ch') return 'dropdown';
	if (w.checkBox) return 'checkbox';
	return w.fieldType === 'Tx' ? (w.multiLine ? 'textarea' : 'text') : undefined;
}

const near = (actual: unknown, expected: number) => expect(Math.abs(Number(actual) - expected)).toBeLessThanOrEqual(1);

/** Every usable widget has exactly one field over its rectangle on its page, with its type, name, flag and choices. */
function expectOverWidgets(fields: Json[], widgets: PdfjsWidget[], signerOf: (name: string) => string) {
	const usable = widgets.filter((w) => expectedType(w));
	expect(fields).toHaveLength(usable.length);
	for (const w of usable) {
		const [left, top, right, bottom] = w.box;
		const over = fields.filter((f) => f.field_name === w.name && Number(f.page_number) === w.page && Math.abs(Number(f.position_x) - left) <= 1 && Math.abs(Number(f.position_y) - top) <= 1);
		expect({ name: w.name, page: w.page, found: over.length }).toEqual({ name: w.name, page: w.page, found: 1 });
		const [field] = over;
		expect(field.field_type).toBe(expectedType(w));
		near(Number(field.position_x) + Number(field.width), right);
		near(Number(field.position_y) + Number(field.height), bottom);
		// The form field's Required flag; a signature is always required.
		expect(Number(field.is_required)).toBe(w.required || w.fieldType === 'Sig' ? 1 : 0);
		expect(String(field.signer_id)).toBe(signerOf(w.name));
		// The site keeps a dropdown's options as a JSON array in a string (spec, Fields).
		if (w.fieldType === 'Ch') expect(JSON.parse(field.options)).toEqual(w.options);
	}
}

const hintsOf = (res: Json): string[] => (res.runData['Node Under Test']?.[0]?.hints ?? []).map((h: Json) => h.message);

let widgets: PdfjsWidget[];
let treeWidgets: PdfjsWidget[];
beforeAll(async () => {
	widgets = (await readFormsWithPdfjs(form)).widgets;
	treeWidgets = (await readFormsWithPdfjs(tree)).widgets;
});

describe('Document → Create and Send from the PDF’s form fields', () => {
	test('each usable form field becomes a field over its rectangle: type, page, name, required flag, choices, and the signer its row says', async () => {
		await clearLog(sb);
		const res = await esign(sb, createAndSend(), { input: fileInput(form) });
		expect(res.error).toBeUndefined();
		const out = res.items[0].json;
		expect(out).toMatchObject({ status: 'sent', sent: true });
		expect(await requestLines(sb)).toEqual([
			'POST /documents/upload',
			`POST /documents/${out.id}/signers`,
			`POST /documents/${out.id}/signers`,
			`GET /documents/${out.id}/signers`,
			`POST /documents/${out.id}/fields`,
			`POST /documents/${out.id}/send`,
		]);
		const idOf = (email: string) => String(out.signers.find((s: Json) => s.email === email).id);
		const fields = (await api(sb, 'GET', `/documents/${out.id}/fields`)).body as Json[];
		expectOverWidgets(fields, widgets, (name) => idOf(/landlord/i.test(name) ? 'lars@example.org' : 'tina@example.org'));
		// The fields left out, in one hint, each with why.
		const hints = hintsOf(res);
		expect(hints).toHaveLength(1);
		expect(hints[0]).toMatch(/^Item 1: 4 form fields of the PDF were left out: "Reference" \(read-only: .+\); "Internal" \(hidden: .+\); "Print" \(a push button: .+\); "Pets" \(radio buttons: .+\)$/);
	});

	test('with one signer, that signer fills every field, no rule needed', async () => {
		const one = { signer: [SIGNERS.signer[0]] };
		const res = await esign(sb, createAndSend({ signers: one, formFieldSigners: {} }), { input: fileInput(form) });
		expect(res.error).toBeUndefined();
		const out = res.items[0].json;
		const fields = (await api(sb, 'GET', `/documents/${out.id}/fields`)).body as Json[];
		expect(new Set(fields.map((f) => String(f.signer_id)))).toEqual(new Set([String(out.signers[0].id)]));
		expect(fields).toHaveLength(widgets.filter((w) => expectedType(w)).length);
	});

	test('with Form Field Size → the type’s default, fields take their default size with the bottom-left corner on the form field’s', async () => {
		const res = await esign(sb, createAndSend({ signers: { signer: [SIGNERS.signer[0]] }, options: { formFieldSize: 'default' } }), { input: fileInput(tree) });
		expect(res.error).toBeUndefined();
		const fields = (await api(sb, 'GET', `/documents/${res.items[0].json.id}/fields`)).body as Json[];
		const usable = treeWidgets.filter((w) => expectedType(w));
		expect(fields).toHaveLength(usable.length);
		for (const widget of usable) {
			const [width, height] = SPEC_FIELD_SIZES[expectedType(widget) as string];
			const field = fields.find((f) => f.field_name === widget.name && Number(f.page_number) === widget.page);
			expect([Number(field.width), Number(field.height)]).toEqual([width, height]);
			near(field.position_x, widget.box[0]);
			near(Number(field.position_y) + height, widget.box[3]);
		}
	});

	test('a field of the type’s default size that would leave its page is refused before any request, naming the form field', async () => {
		await clearLog(sb);
		const res = await esign(sb, createAndSend({ options: { formFieldSize: 'default' } }), { input: fileInput(form) });
		expect(res.error.message).toMatch(/^A field from the PDF's form fields does not fit: Form field "Tenant Date" on page 2: it runs past the right edge by [\d.]+ pt \(page 2 is 612 × 792 pt\)$/);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('on turned and cropped pages, and a field with widgets on two pages, each field is over its widget as displayed', async () => {
		const res = await esign(sb, createAndSend({ signers: { signer: [SIGNERS.signer[0]] }, formFieldSigners: {} }), { input: fileInput(tree) });
		expect(res.error).toBeUndefined();
		const out = res.items[0].json;
		const fields = (await api(sb, 'GET', `/documents/${out.id}/fields`)).body as Json[];
		expect(treeWidgets.some((w) => w.page === 2)).toBe(true);
		expectOverWidgets(fields, treeWidgets, () => String(out.signers[0].id));
	});

	test.each([
		['two signers and no row says who fills some fields', { formFieldSigners: { rule: [{ nameContains: 'tenant', signer: 1 }] } }, form, /^5 form fields in the file in binary field "data" \(tenancy-form\.pdf\) have no signer: "Landlord Name", "Notes", "Agree Terms", "Plan", "Landlord Signature"$/],
		['a row names a signer "Signers" does not have', { formFieldSigners: { rule: [{ nameContains: '', signer: 3 }] } }, form, /^"Form Field Signers" names a signer there is not: Form field "Tenant Name" on page 1: it names signer 3, but "Signers" has 2 \(1 = the first\)$/],
		['a row’s signer is not a whole number from 1', { formFieldSigners: { rule: [{ nameContains: 'x', signer: 0 }] } }, form, /^"Form Field Signers" row 1: Signer must be a whole number from 1, got "0"$/],
	])('refused before any request when %s', async (_, extra, file, message) => {
		await clearLog(sb);
		const res = await esign(sb, createAndSend(extra), { input: fileInput(file) });
		expect(res.error.message).toMatch(message);
		expect(res.error.context.itemIndex).toBe(0);
		expect(res.error.description).toBeTruthy();
		expect(await requestLines(sb)).toEqual([]);
	});

	test('a signer left with no signature form field is refused before the upload, saying to give them one under Form Field Signers', async () => {
		await clearLog(sb);
		const res = await esign(sb, createAndSend({ formFieldSigners: { rule: [{ nameContains: '', signer: 1 }] } }), { input: fileInput(form) });
		expect(res.error.message).toBe('Every signer with the role Signer needs a signature field in "Fields"; none for lars@example.org');
		expect(res.error.description).toMatch(/^Give each of them a signature form field: a "Form Field Signers" row/);
		expect(await requestLines(sb)).toEqual([]);
	});

	test.each([
		['the PDF has no form', async () => fileInput(await sample(sb, 'contract.pdf')), /^the file in binary field "data" \(tenancy-form\.pdf\) has no form fields \(2 pages\): it is not a fillable PDF$/],
		['the file is an image', async () => fileInput(await sample(sb, 'photo.png'), 'photo.png', 'image/png'), /is a PNG image, so it has no form fields to read$/],
	])('refused before any request when %s, with advice', async (_, input, message) => {
		await clearLog(sb);
		const res = await esign(sb, createAndSend(), { input: await input() });
		expect(res.error.message).toMatch(message);
		expect(res.error.description).toMatch(/text tags|coordinates/);
		expect(await requestLines(sb)).toEqual([]);
	});
});

describe('Field → Replace All from the PDF’s form fields', () => {
	const replaceAll = (id: string, extra: Json = {}) => ({ resource: 'field', operation: 'replaceAll', documentId: rl(id), fieldsInput: 'formFields', formFieldSigners: RULES, ...extra });

	test('reads the draft’s file from the site; signer n is the document’s n-th signer in signing order', async () => {
		// Added in reverse: the landlord first (signing order 2), the tenant second (order 1).
		const { doc, idOf, res, requests } = await replaceAllOnReversedDraft(sb, { data: form, name: 'tenancy-form.pdf' }, [
				{ name: 'Lars Landlord', email: 'lars@example.org' },
			{ name: 'Tina Tenant', email: 'tina@example.org' },
		], (id) => replaceAll(id));
		expect(res.error).toBeUndefined();
		expect(requests).toEqual([`GET /documents/${doc.id}/file`, `GET /documents/${doc.id}/signers`, `POST /documents/${doc.id}/fields`]);
		const fields = (await api(sb, 'GET', `/documents/${doc.id}/fields`)).body as Json[];
		expectOverWidgets(fields, widgets, (name) => idOf(/landlord/i.test(name) ? 'lars@example.org' : 'tina@example.org'));
		expect(hintsOf(res)).toHaveLength(1);
	});

	test('fields no row assigns are refused before any write, after reading only the file and the signers', async () => {
		const doc = await makeDraft(sb, {
			file: { data: form, name: 'tenancy-form.pdf' },
			signers: [{ name: 'Tina Tenant', email: 'tina@example.org' }, { name: 'Lars Landlord', email: 'lars@example.org' }],
			fields: false,
		});
		await clearLog(sb);
		const res = await esign(sb, replaceAll(String(doc.id), { formFieldSigners: { rule: [{ nameContains: 'signature', signer: 1 }] } }));
		expect(res.error.message).toMatch(/^6 form fields in the file of document \d+ \(tenancy-form\.pdf\) have no signer: "Tenant Name", "Landlord Name", "Notes", "Agree Terms", "Plan", "Tenant Date"$/);
		expect(await requestLines(sb)).toEqual([`GET /documents/${doc.id}/file`, `GET /documents/${doc.id}/signers`]);
	});
});
