// "Define Fields → From the PDF's Form Fields" (issue 41): which form fields become eSign fields, who fills each, and
// where. Pure rules with widgets built here (the reader's own tests hold it to pdf.js); the engine suite
// test/ESign/document/formFields.test.ts runs the same path on a real fillable PDF against the sandbox.
import type { IDataObject, IExecuteFunctions, INodeProperties, NodeExecutionHint, NodeOperationError } from 'n8n-workflow';

import { ESign } from '../../../nodes/ESign/ESign.node';
import type { FormWidget, PdfText } from '../../../nodes/ESign/pdf';
import { PdfError } from '../../../nodes/ESign/pdf';
import { FIELD_DEFAULT_SIZES } from '../../../nodes/ESign/helpers/fieldSizes';
import type { FormInput } from '../../../nodes/ESign/helpers/formFields';
import { formFieldRows, formRows, onWidget, readFormRules, signerOf, usableWidgets } from '../../../nodes/ESign/helpers/formFields';
import { executeContext } from '../fakes';

let nextTop = 100;
const widget = (name: string, kind: FormWidget['kind'], extra: Partial<FormWidget> = {}): FormWidget => {
	const top = (nextTop += 40);
	return { name, kind, page: 1, box: { left: 180, top, right: 420, bottom: top + 20 }, required: false, readOnly: false, hidden: false, ...extra };
};

const FORM: FormWidget[] = [
	widget('Tenant Name', 'text', { required: true }),
	widget('Landlord Name', 'text'),
	widget('Notes', 'textarea'),
	widget('Agree Terms', 'checkbox', { required: true, box: { left: 72, top: 276, right: 88, bottom: 292 } }),
	widget('Plan', 'dropdown', { options: ['Basic', 'Pro', 'Enterprise'] }),
	widget('Reference', 'text', { readOnly: true }),
	widget('Internal', 'text', { hidden: true }),
	widget('Print', 'button'),
	widget('Pets', 'radio'),
	widget('Pets', 'radio'),
	widget('Tenant Signature', 'signature', { page: 2 }),
	widget('Landlord Signature', 'signature', { page: 2 }),
	widget('Tenant Date', 'text', { page: 2 }),
];

describe('usableWidgets: what becomes a field, and what is left out (once per name, with why)', () => {
	test('signature, text, multi-line text, checkbox and dropdown become fields, in the reader’s order', () => {
		const { usable } = usableWidgets(FORM);
		expect(usable.map((w) => w.name)).toEqual(['Tenant Name', 'Landlord Name', 'Notes', 'Agree Terms', 'Plan', 'Tenant Signature', 'Landlord Signature', 'Tenant Date']);
	});

	test('read-only, hidden, push-button and radio fields are left out, a radio group once, each with its reason', () => {
		const { leftOut } = usableWidgets(FORM);
		expect(leftOut.map((l) => l.name)).toEqual(['Reference', 'Internal', 'Print', 'Pets']);
		expect(leftOut.map((l) => l.why.split(':')[0])).toEqual(['read-only', 'hidden', 'a push button', 'radio buttons']);
	});

	test('a dropdown with no choices is left out (eSign refuses a dropdown without options)', () => {
		expect(usableWidgets([widget('Colour', 'dropdown', { options: [] })]).leftOut).toEqual([{ name: 'Colour', why: 'a dropdown with no choices' }]);
	});
});

describe('signerOf: who fills a field', () => {
	const rules = [
		{ contains: 'landlord', signer: 2 },
		{ contains: ' Tenant ', signer: 1 },
	];

	test('the first rule whose text is in the name, in any case (spaces around the text ignored)', () => {
		expect(signerOf('Landlord Signature', rules, 2)).toBe(2);
		expect(signerOf('TENANT DATE', rules, 2)).toBe(1);
		// Both rules match; the first wins.
		expect(signerOf('Tenant.Landlord Ref', rules, 2)).toBe(2);
	});

	test('no rule matches: the only signer when there is one, else nobody', () => {
		expect(signerOf('Notes', rules, 1)).toBe(1);
		expect(signerOf('Notes', rules, 2)).toBeUndefined();
		expect(signerOf('Notes', [], 1)).toBe(1);
	});

	test('a rule with an empty text matches every field: a catch-all, after the rows above it', () => {
		const withCatchAll = [...rules, { contains: '', signer: 3 }];
		expect(signerOf('Notes', withCatchAll, 3)).toBe(3);
		expect(signerOf('Tenant Name', withCatchAll, 3)).toBe(1);
	});
});

describe('onWidget: where the field goes', () => {
	const box = { left: 72.004, top: 500.5, right: 272.2, bottom: 530.25 };

	test('the form field’s box (default): same corner and size', () => {
		expect(onWidget(box, 'text', 'field')).toEqual({ x: 72, y: 500.5, width: 200.2, height: 29.75 });
	});

	test('the type’s default size with its bottom-left corner on the box’s', () => {
		const { width, height } = FIELD_DEFAULT_SIZES.signature;
		expect(onWidget(box, 'signature', 'default')).toEqual({ x: 72, y: 530.25 - height, width, height });
	});
});

describe('formRows: one row per usable widget', () => {
	const usable = usableWidgets(FORM).usable;
	const signerRow = (n: number) => (n <= 2 ? { row: { signer: String(n) } } : { error: `it names signer ${n}, but "Signers" has 2 (1 = the first)` });

	test('type, page, box, full name as field_name, required flag (a signature always) and a dropdown’s options', () => {
		const { rows, unassigned, errors } = formRows(usable, 'field', () => 1, signerRow);
		expect([unassigned, errors]).toEqual([[], []]);
		expect(rows.map((r) => [r.field_name, r.field_type, r.page_number, r.is_required])).toEqual([
			['Tenant Name', 'text', 1, true],
			['Landlord Name', 'text', 1, false],
			['Notes', 'textarea', 1, false],
			['Agree Terms', 'checkbox', 1, true],
			['Plan', 'dropdown', 1, false],
			// Unflagged in the PDF (as /Sig fields mostly are), required all the same: signing is what the signer is there for.
			['Tenant Signature', 'signature', 2, true],
			['Landlord Signature', 'signature', 2, true],
			['Tenant Date', 'text', 2, false],
		]);
		const agree = rows.find((r) => r.field_name === 'Agree Terms') as IDataObject;
		expect([agree.position_x, agree.position_y, agree.width, agree.height]).toEqual([72, 276, 16, 16]);
		expect(rows.find((r) => r.field_name === 'Plan')?.options).toEqual(['Basic', 'Pro', 'Enterprise']);
		expect(rows.filter((r) => r.options !== undefined)).toHaveLength(1);
		// Placed on the displayed page already: buildFields neither converts them nor lets them leave the page.
		expect(rows.every((r) => r._topLeft === true && String(r._label).startsWith(`Form field "${r.field_name}" on page ${r.page_number}`))).toBe(true);
	});

	test('each row carries its signer’s row; fields nobody fills are listed once by name', () => {
		const { rows, unassigned } = formRows(usable, 'field', (name) => (name.includes('Landlord') ? 2 : name.includes('Tenant') ? 1 : undefined), signerRow);
		expect(rows.map((r) => `${r.field_name}→${r.signer}`)).toEqual(['Tenant Name→1', 'Landlord Name→2', 'Tenant Signature→1', 'Landlord Signature→2', 'Tenant Date→1']);
		expect(unassigned).toEqual(['Notes', 'Agree Terms', 'Plan']);
	});

	test('a signer the document does not have is an error naming the field', () => {
		const { errors } = formRows(usable.slice(0, 1), 'field', () => 3, signerRow);
		expect(errors).toEqual(['Form field "Tenant Name" on page 1: it names signer 3, but "Signers" has 2 (1 = the first)']);
	});
});

describe('formFieldRows: the node’s side, all before any request', () => {
	const hints: NodeExecutionHint[] = [];
	const context = (parameters: IDataObject = {}) =>
		Object.assign(executeContext(parameters), { addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added) }) as unknown as IExecuteFunctions;
	const pdfOf = (widgets: FormWidget[] | Error): PdfText =>
		({ pages: [{ number: 1 }, { number: 2 }], formFields: async () => (widgets instanceof Error ? Promise.reject(widgets) : widgets) }) as unknown as PdfText;
	const input = (count: number, rules: FormInput['rules'] = []): FormInput => ({
		size: 'field',
		rules,
		signerCount: () => count,
		signerRow: (n) => (n <= count ? { row: { signer: String(n) } } : { error: `it names signer ${n}, but "Signers" has ${count} (1 = the first)` }),
	});
	const read = (widgets: FormWidget[] | Error, data: FormInput) => formFieldRows.call(context(), 0, pdfOf(widgets), 'the file "lease.pdf"', data);
	const run = async (widgets: FormWidget[] | Error, data: FormInput) => (await read(widgets, data)).rows;
	/** The error the item stops with (the test fails if it does not stop). */
	const failure = (widgets: FormWidget[] | Error, data: FormInput) =>
		run(widgets, data).then(
			() => ({ message: 'no error', description: '' }) as NodeOperationError,
			(e: NodeOperationError) => e,
		);

	beforeEach(() => hints.splice(0));

	test('one signer fills every field; the left-out fields are one hint naming each and why', async () => {
		const { rows, widgets } = await read(FORM, input(1));
		expect(rows).toHaveLength(8);
		// The widgets those rows came from, for the writer that takes them out of the upload: the usable ones only.
		expect(widgets.map((w) => w.name)).toEqual(rows.map((r) => r.field_name));
		expect(rows.every((r) => r.signer === '1')).toBe(true);
		expect(hints).toHaveLength(1);
		expect(hints[0].message).toMatch(/^Item 1: 4 form fields of the PDF were left out: "Reference" \(read-only: .*\); "Internal" \(hidden: .*\); "Print" \(a push button: .*\); "Pets" \(radio buttons: .*\)$/);
	});

	test('with two signers, fields no rule assigns stop the item, listed by name, with what to add', async () => {
		const error = await failure(FORM, input(2, [{ contains: 'tenant', signer: 1 }]));
		expect(error).toMatchObject({ message: '5 form fields in the file "lease.pdf" have no signer: "Landlord Name", "Notes", "Agree Terms", "Plan", "Landlord Signature"' });
		expect(error.description).toMatch(/^With 2 signers, "Form Field Signers" says who fills each form field: .*"Landlord"/);
		expect(hints).toEqual([]);
	});

	test('rules with a catch-all assign every field', async () => {
		const rows = await run(FORM, input(2, [{ contains: 'landlord', signer: 2 }, { contains: '', signer: 1 }]));
		expect(rows.filter((r) => r.signer === '2').map((r) => r.field_name)).toEqual(['Landlord Name', 'Landlord Signature']);
		expect(rows.filter((r) => r.signer === '1')).toHaveLength(6);
	});

	test('a rule naming a signer there is not stops the item', async () => {
		await expect(run(FORM, input(2, [{ contains: '', signer: 3 }]))).rejects.toThrow(/^"Form Field Signers" names a signer there is not: Form field "Tenant Name" on page 1: it names signer 3, but "Signers" has 2/);
	});

	test('no form at all, and a form with only left-out fields, are told apart, with advice', async () => {
		const none = await failure([], input(1));
		expect(none).toMatchObject({ message: 'the file "lease.pdf" has no form fields (2 pages): it is not a fillable PDF' });
		expect(none.description).toMatch(/text tags/);
		await expect(run(FORM.slice(5, 10), input(1))).rejects.toThrow(
			/^the file "lease\.pdf" has no form field a signer can fill in: "Reference" \(read-only: .*\); "Internal" \(hidden: .*\); "Print" .*; "Pets" \(radio buttons: .*\)$/,
		);
	});

	test('a form the reader refuses is an error on the item in plain words, not a crash', async () => {
		const error = await failure(new PdfError('limit', 'the form field tree is deeper than 32 levels'), input(1));
		expect(error).toMatchObject({ message: 'the file "lease.pdf" is too large or too complex to read: the form field tree is deeper than 32 levels', context: { itemIndex: 0 } });
	});
});

describe('readFormRules: the "Form Field Signers" rows', () => {
	test('read as text and signer number; none set is no rule', () => {
		const rules = readFormRules.call(executeContext({ formFieldSigners: { rule: [{ nameContains: 'Tenant', signer: 1 }, { signer: 2 }] } }), 0);
		expect(rules).toEqual([{ contains: 'Tenant', signer: 1 }, { contains: '', signer: 2 }]);
		expect(readFormRules.call(executeContext({}), 0)).toEqual([]);
	});

	test('a signer that is not a whole number from 1 (e.g. from an expression) names the row', () => {
		expect(() => readFormRules.call(executeContext({ formFieldSigners: { rule: [{ nameContains: 'a', signer: 1 }, { nameContains: 'b', signer: 0 }] } }), 0)).toThrow(
			'"Form Field Signers" row 2: Signer must be a whole number from 1, got "0"',
		);
	});
});

describe('the editor: the option on both operations, existing values and defaults unchanged', () => {
	const properties = new ESign().description.properties;
	const forOperation = (resource: string, operation: string) =>
		properties.filter((p) => p.displayOptions?.show?.resource?.includes(resource) && p.displayOptions?.show?.operation?.includes(operation));

	test.each([
		['document', 'createAndSend'],
		['field', 'replaceAll'],
	])('%s → %s offers From the PDF’s Form Fields after the three saved workflows use, with its rows and its size option', (resource, operation) => {
		const props = forOperation(resource, operation);
		const input = props.find((p) => p.name === 'fieldsInput') as INodeProperties;
		expect(input.default).toBe('ui');
		expect((input.options as Array<{ value: string }>).map((o) => o.value)).toEqual(['ui', 'json', 'tags', 'formFields']);
		const rows = props.find((p) => p.name === 'formFieldSigners') as INodeProperties;
		expect(rows.displayOptions?.show?.fieldsInput).toEqual(['formFields']);
		const notice = props.find((p) => p.name === 'formFieldsNotice') as INodeProperties;
		expect(notice.displayOptions?.show?.fieldsInput).toEqual(['formFields']);
		const options = (props.find((p) => p.name === 'options') as INodeProperties).options as INodeProperties[];
		const size = options.find((o) => o.name === 'formFieldSize') as INodeProperties;
		expect(size.default).toBe('field');
		expect(size.displayOptions?.show?.['/fieldsInput']).toEqual(['formFields']);
		// The tag option keeps its name, values and default.
		const tagSize = options.find((o) => o.name === 'tagFieldSize') as INodeProperties;
		expect([tagSize.default, (tagSize.options as Array<{ value: string }>).map((o) => o.value)]).toEqual(['tag', ['tag', 'default']]);
		// The notice speaks of the removal exactly where the option is, by its name.
		const removal = options.find((o) => o.name === 'removeFormFields');
		expect(notice.displayName.includes('Options → Remove Form Fields From the PDF')).toBe(removal !== undefined);
		if (removal) expect(notice.displayName).toContain(removal.displayName);
	});
});
