import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_PAGE_HEIGHT } from './fieldSizes';

/** The field options of Create and Send and Replace All: how coordinates are read, and how big a tag's field is. */

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

