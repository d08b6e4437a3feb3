// Remove Form Fields From the PDF (issue 42), through the engine against the sandbox: Create and Send from the PDF's
// form fields uploads the file without the form widgets that became eSign fields, and pdf.js's page.getAnnotations()
// on the uploaded file (not the node's reader) finds every other widget and none of those; qpdf --check reads it
// clean. Off, or for an encrypted file, the upload is the input byte for byte (encrypted: with a hint). Named
// *.slow.test.ts: pdf.js and qpdf run in child processes.
import { description as createAndSendProperties } from '../../../nodes/ESign/actions/document/createAndSend.operation';
import { description as replaceAllProperties } from '../../../nodes/ESign/actions/field/replaceAll.operation';
import { usableWidgets } from '../../../nodes/ESign/helpers/formFields';
import { PdfText } from '../../../nodes/ESign/pdf';
import { esign, useSandbox } from '../../support';
import type { Json } from '../../support';
import { readPdfFixture } from '../../support/pdfjs';
import type { PdfjsWidget } from '../../support/pdfjsForms';
import { readFormsWithPdfjs } from '../../support/pdfjsForms';
import { qpdfCheck } from '../../support/qpdf';

const sb = useSandbox();

const ONE_SIGNER = { signer: [{ name: 'Tina Tenant', email: 'tina@example.org', role: 'signer', signingOrder: 0 }] };

const createAndSend = (options: Json = {}): Json => ({
	resource: 'document',
	operation: 'createAndSend',
	title: 'Tenancy onboarding',
	signers: ONE_SIGNER,
	fieldsInput: 'formFields',
	options,
});

const fileInput = (data: Buffer, fileName: string) => [{ json: {}, binary: { data: { data, fileName, mimeType: 'application/pdf' } } }];
const fixture = (name: string): Buffer => readPdfFixture(name).bytes as Buffer;

/** The file the site holds for a document, as uploaded. */
const uploaded = async (id: unknown): Promise<Buffer> => Buffer.from(await (await fetch(`${sb.url}/__sandbox/documents/${String(id)}/file`)).arrayBuffer());
const hintsOf = (res: Json): string[] => (res.runData['Node Under Test']?.[0]?.hints ?? []).map((h: Json) => h.message);

/** Whether the node makes an eSign field of the widget (formFields.ts: not read-only, hidden, a button or radio). */
const becomesField = (w: PdfjsWidget) => !(w.readOnly || w.hidden || w.pushButton || w.radioButton) && w.fieldType !== null;
const keyOf = (w: PdfjsWidget) => JSON.stringify([w.page, w.name, w.box.map(Math.round)]);

describe('Create and Send from the PDF’s form fields: Remove Form Fields From the PDF', () => {
	test.each(['form-pdflib.pdf', 'form-tree.pdf'])('%s: by default the upload has no widget that became a field, every other widget, and reads clean in qpdf', async (file) => {
		const original = fixture(file);
		const res = await esign(sb, createAndSend(), { input: fileInput(original, file) });
		expect(res.error).toBeUndefined();
		const bytes = await uploaded(res.items[0].json.id);
		expect(bytes.length).toBeGreaterThan(original.length);
		expect(bytes.subarray(0, original.length).equals(original)).toBe(true);

		const before = (await readFormsWithPdfjs(original)).widgets;
		const after = (await readFormsWithPdfjs(bytes)).widgets;
		expect(before.some(becomesField)).toBe(true);
		expect(after.map(keyOf)).toEqual(before.filter((w) => !becomesField(w)).map(keyOf));

		const check = qpdfCheck(bytes);
		// qpdf missing (and not installable here): the reason, not a bare null.
		expect(check.status === null ? check.output : '').toBe('');
		expect({ status: check.status, output: check.status === 0 ? '' : check.output }).toEqual({ status: 0, output: '' });
		// The eSign fields are there all the same, one for each widget that left.
		expect(hintsOf(res).filter((h) => /could not be removed|were not removed/.test(h))).toEqual([]);
	});

	test('the uploaded file is exactly the original followed by the writer’s update (the parts joined once, in order, nothing else)', async () => {
		const original = fixture('form-tree.pdf');
		// The writer's update for the same widgets (those that become fields), made here by the reader.
		const pdf = await PdfText.open(new Uint8Array(original));
		const expected = await pdf.removeWidgets(usableWidgets(await pdf.formFields()).usable);
		expect(expected.changed).toBe(true);
		const update = Buffer.concat(expected.update as Uint8Array[]);
		const res = await esign(sb, createAndSend(), { input: fileInput(original, 'form-tree.pdf') });
		expect(res.error).toBeUndefined();
		const bytes = await uploaded(res.items[0].json.id);
		expect(bytes.length).toBe(original.length + update.length);
		expect(bytes.subarray(0, original.length).equals(original)).toBe(true);
		expect(bytes.subarray(original.length).equals(Buffer.from(update))).toBe(true);
	});

	test('off uploads the file byte for byte, form fields and all', async () => {
		const original = fixture('form-pdflib.pdf');
		const res = await esign(sb, createAndSend({ removeFormFields: false }), { input: fileInput(original, 'form.pdf') });
		expect(res.error).toBeUndefined();
		expect((await uploaded(res.items[0].json.id)).equals(original)).toBe(true);
	});

	test('an encrypted file goes up unchanged, with a hint saying why and that the form boxes stay visible', async () => {
		const encrypted = fixture('form-aes-128.pdf');
		const res = await esign(sb, createAndSend(), { input: fileInput(encrypted, 'encrypted.pdf') });
		expect(res.error).toBeUndefined();
		expect(res.items[0].json).toMatchObject({ status: 'sent' });
		expect((await uploaded(res.items[0].json.id)).equals(encrypted)).toBe(true);
		expect(hintsOf(res)).toContainEqual(
			expect.stringMatching(/^Item 1: the form fields in the file in binary field "data" \(encrypted\.pdf\) were not removed: the PDF is encrypted.*The file was uploaded unchanged\. Signers see the PDF’s own empty form boxes/),
		);
	});

	test('the option is on by default in Create and Send, for form fields only; Replace All does not offer it', () => {
		const options = (list: Json[]) => (list.find((p) => p.name === 'options')?.options ?? []) as Json[];
		const option = options(createAndSendProperties as Json[]).find((p) => p.name === 'removeFormFields');
		expect(option).toMatchObject({ type: 'boolean', default: true, displayOptions: { show: { '/fieldsInput': ['formFields'] } } });
		expect(options(replaceAllProperties as Json[]).some((p) => p.name === 'removeFormFields')).toBe(false);
	});
});
