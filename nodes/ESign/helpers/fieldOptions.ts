import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_PAGE_HEIGHT } from './fieldSizes';

/**
 * The field options of Create and Send and Replace All: how coordinates are read, and how big a field from a tag or
 * from a form field is.
 */

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
		description:
			'Height of the document’s pages, to convert bottom-left coordinates when the file gives none (a PNG or JPG). A PDF’s own page sizes are used when the node can read them.',
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

/** Options of "From Text Tags in the PDF". */
export const tagOptions: INodeProperties[] = [
	{
		displayName: 'Tag Field Size',
		name: 'tagFieldSize',
		type: 'options',
		options: [
			{ name: 'The Tag’s Box', value: 'tag', description: 'The field covers the tag: as wide as its text, as high as its font size' },
			{
				name: 'The Field Type’s Default',
				value: 'default',
				description: 'For example a 200 × 60 pt signature, with its bottom-left corner on the tag’s',
			},
		],
		default: 'tag',
		description: 'How big each field from a text tag is',
		displayOptions: { show: { '/fieldsInput': ['tags'] } },
	},
];

/**
 * Create and Send only (issue 42): the file it uploads no longer draws the tags. Replace All leaves the file on the
 * site as it is (the API cannot replace it), so it does not show this option.
 */
export const removeTagsOption: INodeProperties = {
	displayName: 'Remove Tags From the PDF',
	name: 'removeTags',
	type: 'boolean',
	default: true,
	description:
		'Whether signers see the document without its tags: the file is uploaded with the tags no longer drawn (the original followed by a PDF update), and the fields are placed where the tags were. An encrypted or digitally signed PDF goes up unchanged, with a hint. Off: the file is uploaded exactly as it is.',
	displayOptions: { show: { '/fieldsInput': ['tags'] } },
};

/**
 * Create and Send only (issue 42): the form fields that became eSign fields leave the file it uploads, so a signer
 * does not see an empty form box over each eSign field. Replace All leaves the site's file as it is.
 */
export const removeFormFieldsOption: INodeProperties = {
	displayName: 'Remove Form Fields From the PDF',
	name: 'removeFormFields',
	type: 'boolean',
	default: true,
	description:
		'Whether signers see the document without the form fields that became eSign fields: the file is uploaded without those form boxes (the original followed by a PDF update); form fields left out (read-only, hidden, buttons) stay. An encrypted or digitally signed PDF goes up unchanged, with a hint. Off: the file is uploaded exactly as it is.',
	displayOptions: { show: { '/fieldsInput': ['formFields'] } },
};

/** Options of "From the PDF's Form Fields". */
export const formFieldOptions: INodeProperties[] = [
	{
		displayName: 'Form Field Size',
		name: 'formFieldSize',
		type: 'options',
		options: [
			{ name: 'The Form Field’s Box', value: 'field', description: 'The field covers the form field, as the PDF draws it' },
			{
				name: 'The Field Type’s Default',
				value: 'default',
				description: 'For example a 200 × 60 pt signature, with its bottom-left corner on the form field’s',
			},
		],
		default: 'field',
		description: 'How big each field from a form field of the PDF is',
		displayOptions: { show: { '/fieldsInput': ['formFields'] } },
	},
];

/** "Form Field Signers": rows of "field name contains → signer", first match wins (formFields.ts reads them). */
export function formSignerRules(formSigners: string): INodeProperties {
	return {
		displayName: 'Form Field Signers',
		name: 'formFieldSigners',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Rule',
		default: {},
		description: 'Who fills each form field when there is more than one signer: the first row whose text is part of the field’s name. With one signer, no row is needed.',
		options: [
			{
				displayName: 'Rule',
				name: 'rule',
				values: [
					{
						displayName: 'Field Name Contains',
						name: 'nameContains',
						type: 'string',
						default: '',
						placeholder: 'e.g. Tenant',
						description: 'Part of the form field’s name, in any case. Empty matches every field.',
						hint: 'First matching row wins; a last row left empty gives every other field to its signer',
					},
					{
						displayName: 'Signer',
						name: 'signer',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 1,
						description: 'Which signer fills the fields this row matches',
						hint: formSigners,
					},
				],
			},
		],
		displayOptions: { show: { fieldsInput: ['formFields'] } },
	};
}
