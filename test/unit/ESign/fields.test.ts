// The action node's field rows (helpers/fields.ts) and parameter checks (helpers/validation.ts) on their own:
// defaults, coordinate conversion, and what each refusal says. The operations that use them are tested in
// test/ESign/ through the engine.
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ESign } from '../../../nodes/ESign/ESign.node';
import type { CoordinateSettings } from '../../../nodes/ESign/helpers/fields';
import { buildFields, coordinateSettings, fieldsError, readFieldRows, signerIdFromRow } from '../../../nodes/ESign/helpers/fields';
import {
	checkNonNegativeNumber,
	checkOneOf,
	checkPositiveNumber,
	checkText,
	checkWholeNumber,
} from '../../../nodes/ESign/helpers/validation';
import { normaliseAnchor } from '../../../nodes/ESign/textTags/anchors';
import { SPEC_FIELD_SIZES } from '../../support/fieldSizes';
import { executeContext } from '../fakes';

const TOP_LEFT: CoordinateSettings = { origin: 'topLeft', pageHeight: 792 };
const bottomLeft = (pageHeight: number): CoordinateSettings => ({ origin: 'bottomLeft', pageHeight });
const row = (extra: IDataObject = {}): IDataObject => ({ signer_id: 3, field_type: 'signature', page_number: 1, position_x: 72, position_y: 100, ...extra });
const build = (rows: IDataObject[], coordinates = TOP_LEFT, first?: number) => buildFields(rows, coordinates, signerIdFromRow, first);

/** Runs `fn`, expecting a NodeOperationError; returns it. */
function refusal(fn: () => unknown): NodeOperationError {
	try {
		fn();
	} catch (error) {
		expect(error).toBeInstanceOf(NodeOperationError);
		return error as NodeOperationError;
	}
	throw new Error('expected a NodeOperationError, nothing was thrown');
}

/** The error names the item for n8n's item marking (n8n shows it; the message does not repeat it) and the parameter as the editor shows it. */
function expectNames(error: NodeOperationError, item: number, parameter: string) {
	expect(error.message).not.toMatch(/^Item \d/);
	expect(error.message).toContain(`"${parameter}"`);
	expect(error.context.itemIndex).toBe(item);
}

describe('buildFields: sizes and coordinates', () => {
	test('a width or height left empty or 0 takes the API reference default of its type', () => {
		const types = Object.keys(SPEC_FIELD_SIZES);
		const rows = types.map((type, n) => row({ field_type: type, width: n % 2 ? 0 : '', height: n % 2 ? '' : 0, ...(type === 'dropdown' ? { options: 'a,b' } : {}) }));
		const { fields, errors } = build(rows);
		expect(errors).toEqual([]);
		expect(fields.map((f) => [f.field_type, f.width, f.height])).toEqual(types.map((type) => [type, ...SPEC_FIELD_SIZES[type]]));
	});

	test('sizes given are kept; numbers from text are read as numbers', () => {
		const { fields } = build([row({ width: '120', height: 45.5, position_x: '10', position_y: ' 20 ' })]);
		expect(fields[0]).toMatchObject({ width: 120, height: 45.5, position_x: 10, position_y: 20 });
	});

	test('top-left coordinates are sent as given', () => {
		expect(build([row({ position_y: 100 })]).fields[0].position_y).toBe(100);
	});

	test.each([
		['letter', 792, {}, 792 - 100 - 60],
		['A4', 842, { height: 40 }, 842 - 100 - 40],
		['a custom height', 600, {}, 600 - 100 - 60],
	])('bottom-left on %s: y measured from the bottom to the field’s lower edge becomes top-left', (_name, pageHeight, extra, expected) => {
		const { fields, errors } = build([row({ position_y: 100, ...extra })], bottomLeft(pageHeight));
		expect(errors).toEqual([]);
		expect(fields[0].position_y).toBe(expected);
		expect(fields[0].position_x).toBe(72);
	});

	test('an anchor row’s offsets are points, positive right and down from where Place Field puts it, whatever Coordinate Origin says', () => {
		// The editor's Offset X / Offset Y descriptions say this (helpers/fieldDescriptions.ts).
		const anchors = new Map([[normaliseAnchor('Signature:'), [{ page: 2, box: { left: 100, top: 500, right: 160, bottom: 512 } }]]]);
		const anchored = row({ placement: 'anchor', anchor_text: 'Signature:', anchor_offset_x: 10, anchor_offset_y: 5 });
		// After the text: left edge at its end (160), bottoms level (512 − the signature's 60); then 10 right, 5 down.
		for (const coordinates of [TOP_LEFT, bottomLeft(792)]) {
			const { fields, errors } = build([anchored], { ...coordinates, anchors });
			expect(errors).toEqual([]);
			expect(fields[0]).toMatchObject({ page_number: 2, position_x: 170, position_y: 457 });
		}
		const back = build([{ ...anchored, anchor_offset_x: -10, anchor_offset_y: -5 }], { ...TOP_LEFT, anchors });
		expect(back.fields[0]).toMatchObject({ position_x: 150, position_y: 447 });
	});

	test('an anchor text the PDF does not have refuses the row, quoting the text (the editor’s Anchor Text description says so)', () => {
		const { fields, errors } = build([row({ placement: 'anchor', anchor_text: 'Sign here' })], { ...TOP_LEFT, anchors: new Map() });
		expect(fields).toEqual([]);
		expect(errors).toEqual([expect.stringMatching(/^Field 1: the anchor text "Sign here" is not in the PDF's text/)]);
	});

	test('converted coordinates are rounded to hundredths', () => {
		expect(build([row({ position_y: 100.333 })], bottomLeft(792)).fields[0].position_y).toBe(631.67);
	});

	test('a field reaching above the top of the page is refused, naming the field and the page height', () => {
		const { fields, errors } = build([row({ position_y: 750 })], bottomLeft(792));
		expect(fields).toEqual([]);
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatch(/^Field 1: /);
		expect(errors[0]).toContain('792');
	});

	test('the other attributes: required by default, options from a list or comma text, fonts and placeholder passed on', () => {
		const { fields } = build([
			row(),
			row({ is_required: 'false', field_type: 'dropdown', options: ' Yes , No ,, Maybe ' }),
			row({ is_required: 1, field_type: 'text', font_size: '12', font_family: 'Helvetica', placeholder: 'Company', options: ['A', 2] }),
		]);
		expect(fields[0]).toEqual({ signer_id: 3, field_type: 'signature', page_number: 1, position_x: 72, position_y: 100, width: 200, height: 60, is_required: true });
		expect(fields[1]).toMatchObject({ is_required: false, options: ['Yes', 'No', 'Maybe'] });
		expect(fields[2]).toMatchObject({ is_required: true, font_size: 12, font_family: 'Helvetica', placeholder: 'Company', options: ['A', '2'] });
	});
});

describe('buildFields: refusals name the field and the attribute', () => {
	test.each([
		['no field_type', { field_type: '' }, 'field_type'],
		['an unknown field_type', { field_type: 'seal' }, 'field_type'],
		['no signer_id', { signer_id: '' }, 'signer_id'],
		['a signer_id that is no id', { signer_id: 'ann' }, 'signer_id'],
		['no page_number', { page_number: undefined }, 'page_number'],
		['page_number 0', { page_number: 0 }, 'page_number'],
		['a fractional page_number', { page_number: 1.5 }, 'page_number'],
		['no position_x', { position_x: null }, 'position_x'],
		['a negative position_y', { position_y: -1 }, 'position_y'],
		['position_y not a number', { position_y: 'top' }, 'position_y'],
		['a negative width', { width: -5 }, 'width'],
		['height not a number', { height: 'tall' }, 'height'],
		['a dropdown without options', { field_type: 'dropdown' }, 'options'],
		['options neither list nor text', { options: { a: 1 } }, 'options'],
		['font_size 0', { font_size: 0 }, 'font_size'],
	])('%s', (_name, extra, attribute) => {
		const { fields, errors } = build([row(extra as IDataObject)]);
		expect(fields).toEqual([]);
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatch(new RegExp(`^Field 1: .*${attribute}`));
	});

	test('every problem of every row is reported, numbered from the first number given', () => {
		const { fields, errors } = build([row(), row({ page_number: 0, position_x: -1 }), 'not a row' as unknown as IDataObject], TOP_LEFT, 5);
		expect(fields).toHaveLength(1);
		expect(errors).toHaveLength(3);
		expect(errors[0]).toMatch(/^Field 6: page_number/);
		expect(errors[1]).toMatch(/^Field 6: position_x/);
		expect(errors[2]).toMatch(/^Field 7: /);
	});

	test('signerIdFromRow takes a number or numeric text', () => {
		expect(signerIdFromRow({ signer_id: '12' })).toEqual({ id: 12 });
		expect(signerIdFromRow({ signer_id: 12 })).toEqual({ id: 12 });
		expect(signerIdFromRow({ signer_id: 0 }).error).toContain('signer_id');
	});
});

describe('the errors around the rows', () => {
	test('fieldsError: one error for the item, the first problem in the message, all in the description', () => {
		const error = fieldsError.call(executeContext(), 2, ['Field 1: page_number is required', 'Field 2: width must be a positive number']);
		expectNames(error, 2, 'Fields');
		expect(error.message).toContain('Field 1: page_number');
		expect(error.description).toContain('Field 1: page_number');
		expect(error.description).toContain('Field 2: width');
	});

	test('readFieldRows: the UI list, or the JSON array (as text or parsed by n8n)', () => {
		const rows = [row()];
		expect(readFieldRows.call(executeContext({ fieldsInput: 'ui', fieldsUi: { field: rows } }), 0)).toEqual(rows);
		expect(readFieldRows.call(executeContext({ fieldsInput: 'ui' }), 0)).toEqual([]);
		expect(readFieldRows.call(executeContext({ fieldsInput: 'json', fieldsJson: JSON.stringify(rows) }), 0)).toEqual(rows);
		expect(readFieldRows.call(executeContext({ fieldsInput: 'json', fieldsJson: rows }), 0)).toEqual(rows);
	});

	test.each([
		['JSON that does not parse', { fieldsJson: '[{"field_type": ' }],
		['JSON n8n itself failed to parse', { fieldsJson: new Error('Unexpected end of JSON input') }],
		['a JSON object instead of an array', { fieldsJson: '{"field_type":"text"}' }],
	])('readFieldRows refuses %s, naming the item and "Fields (JSON)"', (_name, parameters) => {
		const error = refusal(() => readFieldRows.call(executeContext({ fieldsInput: 'json', ...parameters }), 4));
		expectNames(error, 4, 'Fields (JSON)');
	});

	test('coordinateSettings: top-left on letter by default; letter, A4 and a custom height for bottom-left', () => {
		const settings = (options: IDataObject) => coordinateSettings.call(executeContext(), 0, options);
		expect(settings({})).toEqual({ origin: 'topLeft', pageHeight: 792 });
		expect(settings({ coordinateOrigin: 'bottomLeft', pageHeight: 'letter' })).toEqual({ origin: 'bottomLeft', pageHeight: 792 });
		expect(settings({ coordinateOrigin: 'bottomLeft', pageHeight: 'a4' })).toEqual({ origin: 'bottomLeft', pageHeight: 842 });
		expect(settings({ coordinateOrigin: 'bottomLeft', pageHeight: 'custom', customPageHeight: '600' })).toEqual({ origin: 'bottomLeft', pageHeight: 600 });
	});

	test('coordinateSettings refuses a custom height that is not above 0, naming the item and the parameter', () => {
		const error = refusal(() => coordinateSettings.call(executeContext(), 3, { coordinateOrigin: 'bottomLeft', pageHeight: 'custom', customPageHeight: 0 }));
		expectNames(error, 3, 'Custom Page Height (Points)');
	});
});

describe('parameter checks (values that can come from expressions)', () => {
	const ctx = executeContext();

	test('accepted values are returned as numbers or text; numeric text counts as a number', () => {
		expect(checkWholeNumber.call(ctx, 0, 'Limit', '25', 1, 100)).toBe(25);
		expect(checkWholeNumber.call(ctx, 0, 'Limit', 100, 1, 100)).toBe(100);
		expect(checkWholeNumber.call(ctx, 0, 'Signing Order', 7, 1)).toBe(7);
		expect(checkPositiveNumber.call(ctx, 0, 'Timeout', '2.5')).toBe(2.5);
		expect(checkNonNegativeNumber.call(ctx, 0, 'Max Wait', 0)).toBe(0);
		expect(checkOneOf.call(ctx, 0, 'Status', 'sent', ['draft', 'sent'])).toBe('sent');
		expect(checkText.call(ctx, 0, 'Title', '')).toBe('');
	});

	test.each([
		['a whole number below the range', () => checkWholeNumber.call(ctx, 2, 'Limit', 0, 1, 100), 'Limit', '0'],
		['a whole number above the range', () => checkWholeNumber.call(ctx, 2, 'Limit', '101', 1, 100), 'Limit', '101'],
		['a fraction for a whole number', () => checkWholeNumber.call(ctx, 2, 'Limit', 2.5, 1), 'Limit', '2.5'],
		['empty text for a whole number', () => checkWholeNumber.call(ctx, 2, 'Limit', '', 1), 'Limit', '""'],
		['0 for a number above 0', () => checkPositiveNumber.call(ctx, 2, 'Timeout', 0), 'Timeout', '0'],
		['text for a number above 0', () => checkPositiveNumber.call(ctx, 2, 'Timeout', 'soon'), 'Timeout', 'soon'],
		['a negative number for 0 or more', () => checkNonNegativeNumber.call(ctx, 2, 'Max Wait', -1), 'Max Wait', '-1'],
		['a value outside the options', () => checkOneOf.call(ctx, 2, 'Status', 'archived', ['draft', 'sent']), 'Status', 'archived'],
		['a number for text', () => checkText.call(ctx, 2, 'Title', 42), 'Title', '42'],
		['an object for text', () => checkText.call(ctx, 2, 'Title', { a: 1 }), 'Title', '{"a":1}'],
	])('%s: refused, naming the item, the parameter and the value received', (_name, fn, parameter, shown) => {
		const error = refusal(fn);
		expectNames(error, 2, parameter);
		expect(error.message).toContain(shown);
	});

	test('a refused option lists the values allowed', () => {
		const error = refusal(() => checkOneOf.call(ctx, 0, 'Status', 'x', ['draft', 'sent', 'viewed']));
		for (const value of ['draft', 'sent', 'viewed']) expect(error.message).toContain(value);
	});
});

describe("the editor's sizes are the checks' sizes (helpers/fieldSizes.ts)", () => {
	const properties = new ESign().description.properties;
	const all = (name: string) => {
		const found: INodeProperties[] = [];
		const walk = (list: Array<INodeProperties | { values?: INodeProperties[]; options?: unknown[] }>) => {
			for (const p of list as INodeProperties[]) {
				if (p.name === name) found.push(p);
				if (Array.isArray(p.options)) walk(p.options as INodeProperties[]);
				const values = (p as unknown as { values?: INodeProperties[] }).values;
				if (Array.isArray(values)) walk(values);
			}
		};
		walk(properties);
		return found;
	};

	test('Page Height names the points each choice converts with, and Custom defaults to US Letter', () => {
		const choices = all('pageHeight');
		expect(choices.length).toBeGreaterThan(0);
		for (const choice of choices) {
			for (const option of choice.options as Array<{ name: string; value: string }>) {
				if (option.value === 'custom') continue;
				const points = coordinateSettings.call(executeContext(), 0, { coordinateOrigin: 'bottomLeft', pageHeight: option.value }).pageHeight;
				expect(option.name).toContain(`(${points} Pt)`);
			}
		}
		for (const custom of all('customPageHeight')) expect(custom.default).toBe(coordinateSettings.call(executeContext(), 0, {}).pageHeight);
	});

	test('Width and Height say under the input that 0 takes the API reference defaults they fall back to', () => {
		for (const [name, dimension] of [['width', 0], ['height', 1]] as const) {
			const described = all(name).filter((p) => p.type === 'number');
			expect(described.length).toBeGreaterThan(0);
			for (const p of described) {
				expect(p.hint).toMatch(/^0 = the field type's default/);
				for (const type of ['signature', 'initials', 'checkbox']) expect(p.hint).toContain(`${type} ${SPEC_FIELD_SIZES[type][dimension]}`);
			}
		}
	});
});
