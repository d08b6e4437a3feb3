import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS, DEFAULT_TIMEOUT_SECONDS } from '../../shared/transport';
import { ID_INPUT_PATTERN } from '../../shared/values';

export const documentRLC: INodeProperties = {
	displayName: 'Document',
	name: 'documentId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The document to work on',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a document...',
			typeOptions: { searchListMethod: 'searchDocuments', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 42',
			validation: [
				{
					type: 'regex',
					properties: { regex: ID_INPUT_PATTERN, errorMessage: 'A document ID is a whole number from 1' },
				},
			],
		},
	],
};

export const templateRLC: INodeProperties = {
	displayName: 'Template',
	name: 'templateId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The saved template',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a template...',
			typeOptions: { searchListMethod: 'searchTemplates', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 3',
			validation: [
				{
					type: 'regex',
					properties: { regex: ID_INPUT_PATTERN, errorMessage: 'A template ID is a whole number from 1' },
				},
			],
		},
	],
};

export const binaryPropertyInput: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the input binary field containing the file (PDF, PNG or JPG)',
};

/** Title of a document made from an uploaded file. */
export const fileTitle: INodeProperties = {
	displayName: 'Title',
	name: 'title',
	type: 'string',
	default: '',
	placeholder: 'e.g. Rental agreement – 12 Oak Street',
	description: 'Document title. Leave empty to use the file name without its extension.',
};

export const binaryPropertyOutput: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the output binary field to put the file in',
};

/** Return All + Limit; `maxLimit` caps the Limit, `returnAllNotice` explains what Return All does. */
export function returnAllOrLimit({ maxLimit, returnAllNotice }: { maxLimit?: number; returnAllNotice?: string } = {}): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		...(returnAllNotice
			? [
					{
						displayName: returnAllNotice,
						name: 'returnAllNotice',
						type: 'notice',
						default: '',
						displayOptions: { show: { returnAll: [true] } },
					} as INodeProperties,
				]
			: []),
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1, ...(maxLimit ? { maxValue: maxLimit } : {}) },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/**
 * The "Signers" list of Create and Send and Template → Create Document (one row per signer);
 * `extra` adds per-row options, `overrides` the collection's own settings.
 */
export function signersCollection(extra: INodeProperties[] = [], overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Signers',
		name: 'signers',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Signer',
		default: {},
		options: [{ displayName: 'Signer', name: 'signer', values: [...signerRowFields, ...extra] }],
		...overrides,
	};
}

/** `hint`: the line under the input (n8n renders a parameter's hint inside a Signers row too: ParameterInputFull). */
const signingOrder = (description: string, hint: string): INodeProperties => ({
	displayName: 'Signing Order',
	name: 'signingOrder',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description,
	hint,
});

export const signerFields: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Nathan Smith',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		required: true,
	},
	{
		displayName: 'Role',
		name: 'role',
		type: 'options',
		// The spec shows only "signer"; Approver and Viewer are the roles sites of the same plugin family know.
		options: [
			{ name: 'Approver', value: 'approver', description: 'Approves the document (not in the API description; sites of the plugin family such as WPsigner know it)' },
			{ name: 'Signer', value: 'signer', description: 'Signs the document (the role the API description shows)' },
			{ name: 'Viewer', value: 'viewer', description: 'Receives the document to read, without signing (not in the API description; sites of the plugin family know it)' },
		],
		default: 'signer',
		description:
			'The API description shows only "signer". Sites of the same plugin family (e.g. WPsigner) also accept "viewer" and "approver"; a site that does not know a role refuses the signer. Any other role: use an expression.',
		hint: 'Signer signs, Approver approves, Viewer gets the document to read. In an expression: signer, approver or viewer.',
	},
	signingOrder(
		'Position in the signing order (1 = first). 0 = after the signers already on the document: the node then reads the document’s signers first (one more request) and sends the next position, because sites differ in what they do without one.',
		'1 = signs first. 0 = after the signers already on the document.',
	),
];

/** A row of the Signers list (Create and Send, Template → Create Document): 0 is the row's position in the list. */
const signerRowFields: INodeProperties[] = [
	...signerFields.filter((field) => field.name !== 'signingOrder'),
	signingOrder('Position in the signing order (1 = first). 0 = this signer’s position in the list.', '1 = signs first. 0 = this signer’s place in the list.'),
];

/** Shown on every operation: how long to wait out rate limits, and the request timeout. */
export const requestOptions: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Max Rate Limit Wait (Seconds)',
			name: 'maxRateLimitWait',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS,
			description:
				'When the site answers 429 (too many requests), wait as long as it asks (Retry-After) and try again, up to this many seconds in total. 0 = fail at once.',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_TIMEOUT_SECONDS,
			description: 'How long to wait for each answer from the site',
		},
	],
};
