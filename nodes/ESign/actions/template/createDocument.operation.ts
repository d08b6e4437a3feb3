import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	ResourceMapperValue,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { readSignerRows } from '../../helpers/signers';
import { getRequestOptions, getTemplateId, pickText, toExecutionData } from '../../helpers/utils';
import { checkText } from '../../helpers/validation';
import { eSignApiRequest } from '../../../shared/transport';
import { signersCollection, templateRLC } from '../common.descriptions';

const properties: INodeProperties[] = [
	templateRLC,
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		description: 'Document title. Leave empty for the template name plus the date and time.',
		hint: 'Empty: the site names the document after the template, with the date and time',
	},
	signersCollection(
		[
			{
				displayName: 'Require Site Login',
				name: 'requireWpLogin',
				type: 'boolean',
				default: false,
				description:
					'Whether the signer must log in to the site to sign. Refused unless the email belongs to a user of the site.',
			},
		],
		{
			description:
				'Template fields are assigned to signers by position. At least one signer is needed when Send is on.',
		},
	),
	{
		// n8n's editor shows no label, description or hint for a resource mapper (ParameterInputList renders only the
		// ResourceMapper component): this notice says what its rows do.
		displayName:
			'Choose a template above: each of its variables is a row below, to fill in or map. A row left empty is not sent, so its field keeps what the template holds.',
		name: 'variablesNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Variables',
		name: 'variables',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: {
			loadOptionsDependsOn: ['templateId.value'],
			resourceMapper: {
				resourceMapperMethod: 'getTemplateVariables',
				mode: 'add',
				valuesLabel: 'Variables to Prefill',
				fieldWords: { singular: 'variable', plural: 'variables' },
				// Every variable is a row from the start, as n8n's own mappers show columns (Airtable, Data Table):
				// with false the editor hid every row behind "Add variable to send" (setDefaultFieldValues).
				addAllFields: true,
				// No template chosen yet (the notice above says what to do) or one without variables (the method's
				// notice), not n8n's red "No variables found in eSign. Retry" (MappingModeSelect's errorMessage shows
				// that for any empty list).
				hideNoDataError: true,
				multiKeyMatch: false,
				supportAutoMap: true,
			},
		},
		description:
			'Values prefilled into the template’s fields by variable key. Signature and initials fields are never prefilled.',
	},
	{
		displayName: 'Send',
		name: 'send',
		type: 'boolean',
		default: true,
		description:
			'Whether to email the signing invitations right away. Off: the document stays a draft and can be sent later.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Appointment Date',
				name: 'appointment_date',
				type: 'string',
				default: '',
				description: 'Fills the variable appointment_date unless Variables already sets it',
			},
			{
				displayName: 'Client Name',
				name: 'client_name',
				type: 'string',
				default: '',
				description: 'Fills the variable client_name unless Variables already sets it',
			},
			{
				displayName: 'Property Address',
				name: 'property_address',
				type: 'string',
				default: '',
				description: 'Fills the variable property_address unless Variables already sets it',
			},
		],
	},
];

const displayOptions = { show: { resource: ['template'], operation: ['createDocument'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * The variables to send: only those with a value, so a blank never overwrites a template field (nor keeps the site
 * from merging in Client Name and the other Additional Fields, which it does only for variables not set).
 * How values arrive (n8n 1.123.81 and 2.41.1, editor-ui ResourceMapper.vue):
 * - Map Each Column Manually: a row left empty is not in `value` at all: the editor stores an emptied row as null
 *   (`fieldValueChanged`) and drops nulls before saving (`pruneParamValues`); a workflow never opened in the editor
 *   has `value: null`. An expression that resolves to "", null or undefined arrives as such here.
 * - Map Automatically: `value` is not read; every input field named like a variable of the stored `schema` is
 *   taken, with the same rule for empty values. The mode shows no rows, so a row's `removed` flag (which the
 *   editor set on every variable while the parameter had `addAllFields: false`) does not count here.
 */
function readVariables(this: IExecuteFunctions, i: number): IDataObject {
	const mapper = this.getNodeParameter('variables', i, { mappingMode: 'defineBelow', value: null }) as ResourceMapperValue;
	const variables: IDataObject = {};
	const known = new Set((mapper.schema ?? []).map((column) => column.id));
	const source: IDataObject =
		mapper.mappingMode === 'autoMapInputData'
			? Object.fromEntries(Object.entries(this.getInputData()[i].json).filter(([key]) => known.has(key)))
			: ((mapper.value ?? {}) as IDataObject);
	for (const [key, value] of Object.entries(source)) {
		if (value === null || value === undefined || value === '') continue;
		if (typeof value === 'object') {
			// Prefill writes text into a field: a list or object has no single right text form.
			throw new NodeOperationError(
				this.getNode(),
				`Variable "${key}" in "Variables" is ${Array.isArray(value) ? 'a list' : 'an object'}, not text`,
				{
					itemIndex: i,
					description:
						'Template variables are written into document fields as text. Turn the value into text first, e.g. {{ $json.items.join(", ") }} or {{ JSON.stringify($json.address) }}.',
				},
			);
		}
		variables[key] = String(value);
	}
	return variables;
}

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getTemplateId.call(this, i);
	const title = checkText.call(this, i, 'Title', this.getNodeParameter('title', i, '')).trim();
	const send = this.getNodeParameter('send', i, true) as boolean;
	const additional = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	// 0 = the row's position, sent as such: a site that puts unordered signers all at 1 would otherwise give the
	// template's fields (assigned by signing order) to the wrong signers.
	const signers = readSignerRows.call(this, i).map((row, index) => {
		const signer: IDataObject = { name: row.name, email: row.email, role: row.role, signing_order: row.signingOrder || index + 1 };
		if (row.requireWpLogin) signer.require_wp_login = true;
		return signer;
	});
	if (send && signers.length === 0) {
		throw new NodeOperationError(this.getNode(), `"Signers" needs at least one signer when "Send" is on`, {
			itemIndex: i,
			description: 'Add a signer, or turn "Send" off to create a draft and add signers later.',
		});
	}

	const body: IDataObject = { send, variables: readVariables.call(this, i) };
	if (title) body.title = title;
	if (signers.length) body.signers = signers;
	Object.assign(body, pickText(additional, ['client_name', 'property_address', 'appointment_date']));
	const created = (await eSignApiRequest.call(this, 'POST', `/templates/${id}/documents`, {
		...getRequestOptions.call(this, i),
		body,
		expect: ['id'],
	})) as IDataObject;
	return toExecutionData(created);
}
