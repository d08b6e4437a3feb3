import type { INodeProperties } from 'n8n-workflow';

import { formSignerRules } from './fieldOptions';
import { defaultSizesText } from './fieldSizes';
import { FIELD_TYPE_INFO, FIELD_TYPES, TEXT_VALUED_TYPES } from './fieldTypes';
import { DATA_TAG_FORM, TAG_EXAMPLES, TAG_FORM } from '../textTags/tags';

export { coordinateCollectionOptions, formFieldOptions, tagOptions } from './fieldOptions';

/**
 * The editor side of fields: the field row, coordinate options and the UI/JSON/tags/form fields choice. Checks are in
 * fields.ts (rows) and formFields.ts (form fields).
 */

// From the one list (fieldTypes.ts), sorted by name as the editor lists options.
const fieldTypeOptions = FIELD_TYPES.map((value) => ({ name: FIELD_TYPE_INFO[value].name, value, description: FIELD_TYPE_INFO[value].description })).sort((a, b) =>
	a.name.localeCompare(b.name),
);

/** The field types whose value is text, so a font means something. */
const TEXT_VALUED = TEXT_VALUED_TYPES;

const byCoordinates = { show: { placement: ['coordinates'] } };
const byAnchor = { show: { placement: ['anchor'] } };

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
			displayName: 'Position By',
			name: 'placement',
			type: 'options',
			options: [
				{ name: 'Coordinates', value: 'coordinates', description: 'Page, X and Y in points' },
				{
					name: 'Anchor Text',
					value: 'anchor',
					description: 'Next to a text already in the PDF, such as "Signature:"',
				},
			],
			default: 'coordinates',
		},
		{
			displayName: 'Page',
			name: 'page_number',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1,
			description: 'Page number, starting at 1',
			displayOptions: byCoordinates,
		},
		{
			displayName: 'X (Points)',
			name: 'position_x',
			type: 'number',
			default: 72,
			description: 'Distance from the left edge of the page in points',
			hint: '72 points = 1 inch = 2.54 cm',
			displayOptions: byCoordinates,
		},
		{
			displayName: 'Y (Points)',
			name: 'position_y',
			type: 'number',
			default: 72,
			description:
				'Distance from the top edge (or from the bottom edge with "Coordinate Origin" set to bottom-left) in points',
			hint: 'From the top edge unless Options → Coordinate Origin says bottom-left',
			displayOptions: byCoordinates,
		},
		{
			displayName: 'Anchor Text',
			name: 'anchor_text',
			type: 'string',
			default: '',
			placeholder: 'e.g. Signature:',
			description:
				'A text in the PDF to place the field next to, as you read it there. Case and spacing are ignored, and so are curly quotes, long dashes and letters the PDF joins (’ matches \', – matches -, ﬁ matches fi); it must be on one line. If the PDF does not have it, the item fails with an error quoting it, before anything is uploaded or saved.',
			displayOptions: byAnchor,
		},
		{
			displayName: 'Place Field',
			name: 'anchor_position',
			type: 'options',
			options: [
				{ name: 'After the Text', value: 'after', description: 'On the same line, right after it' },
				{ name: 'Below the Text', value: 'below', description: 'Under it, aligned to its left' },
				{ name: 'Over the Text', value: 'over', description: 'Covering it, from its bottom-left corner' },
				{ name: 'Above the Text', value: 'above', description: 'Over its line, aligned to its left' },
			],
			default: 'after',
			displayOptions: byAnchor,
		},
		{
			displayName: 'Occurrence',
			name: 'anchor_occurrence',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 1,
			description: 'Which time the text appears, in page order. If it appears fewer times, the item fails with an error, before anything is uploaded or saved.',
			hint: '1 = the first time the text appears; 0 = every time (one field each)',
			displayOptions: byAnchor,
		},
		{
			displayName: 'Offset X (Points)',
			name: 'anchor_offset_x',
			type: 'number',
			default: 0,
			description: 'Moves the field from where "Place Field" puts it: a positive number moves it right, a negative one left, in points',
			displayOptions: byAnchor,
		},
		{
			displayName: 'Offset Y (Points)',
			name: 'anchor_offset_y',
			type: 'number',
			default: 0,
			description:
				'Moves the field from where "Place Field" puts it: a positive number moves it down, a negative one up, in points (down even with Options → Coordinate Origin set to bottom-left)',
			displayOptions: byAnchor,
		},
		{
			displayName: 'Width (Points)',
			name: 'width',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'Width of the field in points',
			hint: `0 = the field type's default (${defaultSizesText('width')}, …)`,
		},
		{
			displayName: 'Height (Points)',
			name: 'height',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'Height of the field in points',
			hint: `0 = the field type's default (${defaultSizesText('height')}, …)`,
		},
		{
			displayName: 'Required',
			name: 'is_required',
			type: 'boolean',
			default: true,
			description: 'Whether the signer must fill this field',
		},
		{
			displayName: 'Field Name',
			name: 'field_name',
			type: 'string',
			default: '',
			placeholder: 'e.g. Company name',
			description: 'A name for the field, which Field → Get Values uses as the key of its value. Sent only when set.',
		},
		{
			displayName: 'Font Size',
			name: 'font_size',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 14,
			description: 'Size of the text the field shows, in points',
			displayOptions: { show: { field_type: TEXT_VALUED } },
		},
		{
			displayName: 'Font Family',
			name: 'font_family',
			type: 'string',
			default: 'DM Sans',
			description: 'Font of the text the field shows',
			displayOptions: { show: { field_type: TEXT_VALUED } },
		},
		{
			displayName: 'Placeholder',
			name: 'placeholder',
			type: 'string',
			default: '',
			description: 'Text shown in the empty field before the signer fills it',
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

/**
 * "Define Fields" (UI list, JSON, text tags or the PDF's form fields) with its inputs. `signer` is the row property
 * naming who fills the field; `jsonSigner` is how the JSON form names it (signer_id, or a signer reference);
 * `tagSigners` says which signer a tag's number means, `formSigners` which signer a Form Field Signers number means;
 * `formFileNote` ends the form fields' notice with what becomes of the file's own form fields.
 */
export function fieldInputProperties(
	signer: INodeProperties,
	jsonSigner: { key: string; example: string; description: string },
	tagSigners: string,
	formSigners: string,
	uiDescription?: string,
	formFileNote = '',
): INodeProperties[] {
	return [
		{
			displayName: 'Define Fields',
			name: 'fieldsInput',
			type: 'options',
			options: [
				{ name: 'Using Fields Below', value: 'ui', description: 'Each field by coordinates or next to an anchor text' },
				{ name: 'Using JSON', value: 'json', description: 'An array of fields as the API takes them' },
				{
					name: 'From Text Tags in the PDF',
					value: 'tags',
					description: 'Where the document says, e.g. {{signature:1}}: no coordinates needed',
				},
				{
					name: 'From the PDF’s Form Fields',
					value: 'formFields',
					description: 'A fillable PDF’s own fields (signature, text, checkbox, dropdown) become its fields',
				},
			],
			default: 'ui',
		},
		{
			displayName: `Fields come from text tags written in the PDF as ${TAG_FORM}: ${TAG_EXAMPLES}; a text after the signer, such as Company name, names the field for Get Values. ${DATA_TAG_FORM} tags are no fields: they take a value from Options → PDF Values. ${tagSigners}`,
			name: 'tagsNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { fieldsInput: ['tags'] } },
		},
		{
			displayName: `Each form field of a fillable PDF becomes a field over its box: signature, text, multi-line text, checkbox, dropdown (with its choices). Its name is the field's name in Get Values; its Required flag is kept (a signature is always required). Read-only, hidden, push-button and radio-button fields are left out and listed in a hint. With one signer, that signer fills every field; with more, say who under "Form Field Signers".${formFileNote}`,
			name: 'formFieldsNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { fieldsInput: ['formFields'] } },
		},
		formSignerRules(formSigners),
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
			hint: 'Instead of page_number and positions, a field can have "anchor_text" (and "anchor_position", "anchor_occurrence", "anchor_offset_x", "anchor_offset_y")',
			displayOptions: { show: { fieldsInput: ['json'] } },
		},
	];
}
