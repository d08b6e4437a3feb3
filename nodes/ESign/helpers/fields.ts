import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, jsonParse } from 'n8n-workflow';

import { checkPositiveNumber } from './validation';

/** Default sizes in points from the API reference, used when width or height is left at 0. */
export const FIELD_DEFAULT_SIZES: Record<string, { width: number; height: number }> = {
	signature: { width: 200, height: 60 },
	initials: { width: 100, height: 50 },
	name: { width: 150, height: 30 },
	email: { width: 200, height: 30 },
	date: { width: 100, height: 30 },
	text: { width: 200, height: 30 },
	textarea: { width: 200, height: 80 },
	checkbox: { width: 20, height: 20 },
	dropdown: { width: 150, height: 30 },
	stamp: { width: 150, height: 100 },
};

export const FIELD_TYPES = Object.keys(FIELD_DEFAULT_SIZES);

export const PAGE_HEIGHTS: Record<string, number> = { letter: 792, a4: 842 };

const fieldTypeOptions = [
	{ name: 'Checkbox', value: 'checkbox', description: 'Filled by the signer' },
	{ name: 'Date', value: 'date', description: 'Signing date, filled automatically' },
	{ name: 'Dropdown', value: 'dropdown', description: 'Signer picks one of the options' },
	{ name: 'Email', value: 'email', description: 'Signer email, filled automatically' },
	{ name: 'Initials', value: 'initials', description: 'Filled by the signer' },
	{ name: 'Name', value: 'name', description: 'Signer name, filled automatically' },
	{ name: 'Signature', value: 'signature', description: 'Drawn, typed or uploaded by the signer' },
	{ name: 'Stamp', value: 'stamp', description: 'Company stamp or seal' },
	{ name: 'Text', value: 'text', description: 'Single-line text filled by the signer' },
	{ name: 'Textarea', value: 'textarea', description: 'Multi-line text filled by the signer' },
];

/**
 * One field row of the UI list. `signer` is either a signer picked from the document (Replace All)
 * or a reference into the signer list (Create and Send), so the caller supplies that property.
 */
export function fieldRowProperties(signerProperty: INodeProperties): INodeProperties[] {
	return [
		signerProperty,
		{
			displayName: 'Field Type',
			name: 'field_type',
			type: 'options',
			options: fieldTypeOptions,
			default: 'signature',
		},
		{
			displayName: 'Page',
			name: 'page_number',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1,
			description: 'Page number, starting at 1',
		},
		{
			displayName: 'X (Points)',
			name: 'position_x',
			type: 'number',
			default: 72,
			description: 'Distance from the left edge of the page in points (72 points = 1 inch)',
		},
		{
			displayName: 'Y (Points)',
			name: 'position_y',
			type: 'number',
			default: 72,
			description:
				'Distance from the top edge (or from the bottom edge with "Coordinate Origin" set to bottom-left) in points',
		},
		{
			displayName: 'Width (Points)',
			name: 'width',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: '0 = the default width of the field type (signature 200, initials 100, checkbox 20, …)',
		},
		{
			displayName: 'Height (Points)',
			name: 'height',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: '0 = the default height of the field type (signature 60, initials 50, checkbox 20, …)',
		},
		{
			displayName: 'Required',
			name: 'is_required',
			type: 'boolean',
			default: true,
			description: 'Whether the signer must fill this field',
		},
		{
			displayName: 'Font Size',
			name: 'font_size',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 14,
		},
		{
			displayName: 'Font Family',
			name: 'font_family',
			type: 'string',
			default: 'DM Sans',
		},
		{
			displayName: 'Placeholder',
			name: 'placeholder',
			type: 'string',
			default: '',
		},
		{
			displayName: 'Dropdown Options',
			name: 'options',
			type: 'string',
			default: '',
			placeholder: 'e.g. Yes, No, Maybe',
			description: 'Comma-separated choices of a dropdown field',
			displayOptions: { show: { field_type: ['dropdown'] } },
		},
	];
}

/** Coordinate origin and page height, shared by Replace All and Create and Send. */
export const coordinateOptions: INodeProperties[] = [
	{
		displayName: 'Coordinate Origin',
		name: 'coordinateOrigin',
		type: 'options',
		options: [
			{
				name: 'Top-Left (eSign API)',
				value: 'topLeft',
				description: 'Y is measured down from the top edge, as the API expects',
			},
			{
				name: 'Bottom-Left (PDF)',
				value: 'bottomLeft',
				description:
					'Y is measured up from the bottom edge, as in PDF tools; converted as page height − y − field height',
			},
		],
		default: 'topLeft',
	},
	{
		displayName: 'Page Height',
		name: 'pageHeight',
		type: 'options',
		options: [
			{ name: 'US Letter (792 Pt)', value: 'letter' },
			{ name: 'A4 (842 Pt)', value: 'a4' },
			{ name: 'Custom', value: 'custom' },
		],
		default: 'letter',
		description: 'Height of the document’s pages, needed to convert bottom-left coordinates',
	},
	{
		displayName: 'Custom Page Height (Points)',
		name: 'customPageHeight',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 792,
	},
];

/** The coordinate options as they sit inside an "Options" collection. */
export const coordinateCollectionOptions: INodeProperties[] = coordinateOptions.map((property) =>
	property.name === 'customPageHeight'
		? { ...property, displayOptions: { show: { pageHeight: ['custom'] } } }
		: property,
);

/**
 * "Define Fields" (UI list or JSON) with both inputs. `signer` is the row property naming who
 * fills the field; `jsonSigner` is how the JSON form names it (signer_id, or a signer reference).
 */
export function fieldInputProperties(
	signer: INodeProperties,
	jsonSigner: { key: string; example: string; description: string },
	uiDescription?: string,
): INodeProperties[] {
	return [
		{
			displayName: 'Define Fields',
			name: 'fieldsInput',
			type: 'options',
			options: [
				{ name: 'Using Fields Below', value: 'ui' },
				{ name: 'Using JSON', value: 'json' },
			],
			default: 'ui',
		},
		{
			displayName: 'Fields',
			name: 'fieldsUi',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Field',
			default: {},
			options: [{ displayName: 'Field', name: 'field', values: fieldRowProperties(signer) }],
			displayOptions: { show: { fieldsInput: ['ui'] } },
			...(uiDescription ? { description: uiDescription } : {}),
		},
		{
			displayName: 'Fields (JSON)',
			name: 'fieldsJson',
			type: 'json',
			default: `[\n  {\n    "${jsonSigner.key}": ${jsonSigner.example},\n    "field_type": "signature",\n    "page_number": 1,\n    "position_x": 72,\n    "position_y": 650\n  }\n]`,
			description: jsonSigner.description,
			displayOptions: { show: { fieldsInput: ['json'] } },
		},
	];
}

/** The item's field rows, from the UI list or the JSON array. */
export function readFieldRows(this: IExecuteFunctions, i: number): IDataObject[] {
	if (this.getNodeParameter('fieldsInput', i) === 'json') {
		let raw: unknown;
		try {
			raw = this.getNodeParameter('fieldsJson', i, '[]');
		} catch (cause) {
			// n8n parses a JSON parameter itself and throws a bare "Unexpected end of JSON input".
			throw new NodeOperationError(this.getNode(), `Item ${i}: "Fields (JSON)" is not valid JSON: ${(cause as Error).message}`, {
				itemIndex: i,
			});
		}
		let parsed = raw;
		if (typeof raw === 'string') {
			try {
				parsed = jsonParse<unknown>(raw);
			} catch (cause) {
				throw new NodeOperationError(this.getNode(), `Item ${i}: "Fields (JSON)" is not valid JSON: ${(cause as Error).message}`, {
					itemIndex: i,
				});
			}
		}
		if (!Array.isArray(parsed)) {
			throw new NodeOperationError(this.getNode(), `Item ${i}: "Fields (JSON)" must be a JSON array of fields`, {
				itemIndex: i,
			});
		}
		return parsed as IDataObject[];
	}
	return ((this.getNodeParameter('fieldsUi', i, {}) as IDataObject).field ?? []) as IDataObject[];
}

/** Validation problems found before the call, as one error naming the item. */
export function fieldsError(this: IExecuteFunctions, i: number, errors: string[]): NodeOperationError {
	return new NodeOperationError(this.getNode(), `Item ${i}: invalid "Fields": ${errors[0]}`, {
		itemIndex: i,
		description: errors.join('\n'),
	});
}

export interface CoordinateSettings {
	origin: 'topLeft' | 'bottomLeft';
	pageHeight: number;
}

export function coordinateSettings(this: IExecuteFunctions, i: number, options: IDataObject): CoordinateSettings {
	const origin = options.coordinateOrigin === 'bottomLeft' ? 'bottomLeft' : 'topLeft';
	const choice = (options.pageHeight as string) ?? 'letter';
	const pageHeight =
		choice === 'custom'
			? checkPositiveNumber.call(this, i, 'Custom Page Height (Points)', options.customPageHeight ?? 792)
			: (PAGE_HEIGHTS[choice] ?? 792);
	return { origin, pageHeight };
}

function isBlank(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

function toNumber(value: unknown): number {
	return typeof value === 'number' ? value : Number(String(value).trim());
}

/**
 * Turns user rows (UI or JSON) into the API's field objects: fills default sizes, converts
 * bottom-left coordinates, resolves signer references, and checks the rules the API states,
 * reporting them in the API's own "Field <n>: <reason>" form (n from 1).
 */
export function buildFields(
	rows: IDataObject[],
	coordinates: CoordinateSettings,
	resolveSigner: (row: IDataObject) => { id?: number; error?: string },
	firstNumber = 1,
): { fields: IDataObject[]; errors: string[] } {
	const errors: string[] = [];
	const fields: IDataObject[] = [];
	rows.forEach((entry, index) => {
		const n = index + firstNumber;
		if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
			errors.push(`Field ${n}: must be an object with field_type, page_number, position_x, …, got ${JSON.stringify(entry)}`);
			return;
		}
		const row = entry;
		const problems: string[] = [];
		const type = String(row.field_type ?? '').trim();
		if (!type) problems.push('field_type is required');
		else if (!FIELD_TYPES.includes(type)) {
			problems.push(`field_type "${type}" is not one of ${FIELD_TYPES.join(', ')}`);
		}

		const signer = resolveSigner(row);
		if (signer.error) problems.push(signer.error);

		const page = toNumber(row.page_number);
		if (isBlank(row.page_number)) problems.push('page_number is required');
		else if (!Number.isInteger(page) || page < 1) {
			problems.push(`page_number must be a whole number from 1, got "${row.page_number}"`);
		}

		const position: Record<string, number> = {};
		for (const key of ['position_x', 'position_y']) {
			if (isBlank(row[key])) problems.push(`${key} is required`);
			else if (!Number.isFinite(toNumber(row[key]))) problems.push(`${key} must be a number`);
			else if (toNumber(row[key]) < 0) problems.push(`${key} must be 0 or more, got ${row[key]}`);
			else position[key] = toNumber(row[key]);
		}

		const defaults = FIELD_DEFAULT_SIZES[type] ?? { width: 0, height: 0 };
		const size: Record<string, number> = {};
		for (const key of ['width', 'height'] as const) {
			const value = isBlank(row[key]) ? 0 : toNumber(row[key]);
			if (!Number.isFinite(value) || value < 0) problems.push(`${key} must be a positive number`);
			else size[key] = value > 0 ? value : defaults[key];
		}

		let options: string[] | undefined;
		if (!isBlank(row.options)) {
			const raw = row.options;
			if (Array.isArray(raw)) options = raw.map((option) => String(option));
			else if (typeof raw === 'string') {
				options = raw
					.split(',')
					.map((option) => option.trim())
					.filter((option) => option !== '');
			} else problems.push('options must be a list of strings');
		}
		if (type === 'dropdown' && !(options && options.length)) problems.push('a dropdown field needs options');

		if (!isBlank(row.font_size)) {
			const size = toNumber(row.font_size);
			if (!Number.isInteger(size) || size < 1) problems.push(`font_size must be a whole number from 1, got "${row.font_size}"`);
		}

		if (problems.length) {
			errors.push(...problems.map((problem) => `Field ${n}: ${problem}`));
			return;
		}

		let y = position.position_y;
		if (coordinates.origin === 'bottomLeft') {
			y = coordinates.pageHeight - y - size.height;
			if (y < 0) {
				errors.push(
					`Field ${n}: y ${position.position_y} + height ${size.height} is above the top of a ${coordinates.pageHeight} pt page`,
				);
				return;
			}
		}

		const field: IDataObject = {
			signer_id: signer.id,
			field_type: type,
			page_number: page,
			position_x: position.position_x,
			position_y: Math.round(y * 100) / 100,
			width: size.width,
			height: size.height,
			is_required: row.is_required === undefined ? true : [true, 'true', 1, '1'].includes(row.is_required as string),
		};
		if (!isBlank(row.font_size)) field.font_size = toNumber(row.font_size);
		if (!isBlank(row.font_family)) field.font_family = String(row.font_family);
		if (!isBlank(row.placeholder)) field.placeholder = String(row.placeholder);
		if (options && options.length) field.options = options;
		fields.push(field);
	});
	return { fields, errors };
}

/** Accepts signer_id as a number or numeric string. */
export function signerIdFromRow(row: IDataObject): { id?: number; error?: string } {
	const raw = row.signer_id;
	if (isBlank(raw)) return { error: 'signer_id is required' };
	const id = toNumber(raw);
	if (!Number.isInteger(id) || id < 1) return { error: `signer_id must be a signer ID, got "${raw}"` };
	return { id };
}
