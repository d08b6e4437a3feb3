import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_PAGE_HEIGHT, defaultSizesText } from './fieldSizes';

/** The editor side of fields: the field row, coordinate options and the UI/JSON choice. Checks are in fields.ts. */

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
function fieldRowProperties(signerProperty: INodeProperties): INodeProperties[] {
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
			description: `0 = the default width of the field type (${defaultSizesText('width')}, …)`,
		},
		{
			displayName: 'Height (Points)',
			name: 'height',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: `0 = the default height of the field type (${defaultSizesText('height')}, …)`,
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
const coordinateOptions: INodeProperties[] = [
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
			// Literal names (the lint reads options only as literals): test/unit/ESign/fields.test.ts holds them to PAGE_HEIGHTS.
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
		default: DEFAULT_PAGE_HEIGHT,
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
