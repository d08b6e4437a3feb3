import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, jsonParse, updateDisplayOptions } from 'n8n-workflow';

import { buildFields, coordinateOptions, coordinateSettings, fieldRowProperties, signerIdFromRow } from '../../helpers/fields';
import { getDocumentId, getRequestOptions } from '../../helpers/utils';
import { eSignApiRequest } from '../../transport';
import { documentRLC } from '../common.descriptions';

const signerPicker: INodeProperties = {
	displayName: 'Signer Name or ID',
	name: 'signer_id',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getSigners', loadOptionsDependsOn: ['documentId.value'] },
	default: '',
	required: true,
	description:
		'Who fills this field. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const properties: INodeProperties[] = [
	{
		displayName:
			'Replaces ALL fields of the document with the ones given here: fields not listed are removed. Send the complete set every time (see the option to combine items).',
		name: 'replaceNotice',
		type: 'notice',
		default: '',
	},
	documentRLC,
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
		options: [{ displayName: 'Field', name: 'field', values: fieldRowProperties(signerPicker) }],
		displayOptions: { show: { fieldsInput: ['ui'] } },
	},
	{
		displayName: 'Fields (JSON)',
		name: 'fieldsJson',
		type: 'json',
		default:
			'[\n  {\n    "signer_id": 1,\n    "field_type": "signature",\n    "page_number": 1,\n    "position_x": 72,\n    "position_y": 650\n  }\n]',
		description:
			'Array of fields as the API takes them: signer_ID, field_type, page_number, position_x, position_y, and optionally width, height, is_required, font_size, font_family, placeholder, options',
		displayOptions: { show: { fieldsInput: ['json'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Combine Items for the Same Document',
				name: 'combineItems',
				type: 'boolean',
				default: false,
				description:
					'Whether to send the fields of all input items that target the same document in one call (e.g. one item per field). Off: each item replaces the fields again, so only the last item’s fields remain.',
			},
			...coordinateOptions.map((property) =>
				property.name === 'customPageHeight'
					? { ...property, displayOptions: { show: { pageHeight: ['custom'] } } }
					: property,
			),
		],
	},
];

const displayOptions = { show: { resource: ['field'], operation: ['replaceAll'] } };

export const description = updateDisplayOptions(displayOptions, properties);

function readRows(this: IExecuteFunctions, i: number): IDataObject[] {
	if (this.getNodeParameter('fieldsInput', i) === 'json') {
		const raw = this.getNodeParameter('fieldsJson', i, '[]');
		const parsed = typeof raw === 'string' ? jsonParse<unknown>(raw, { fallbackValue: undefined }) : raw;
		if (!Array.isArray(parsed)) {
			throw new NodeOperationError(this.getNode(), `Item ${i}: "Fields (JSON)" must be a JSON array of fields`, {
				itemIndex: i,
			});
		}
		return parsed as IDataObject[];
	}
	return ((this.getNodeParameter('fieldsUi', i, {}) as IDataObject).field ?? []) as IDataObject[];
}

/**
 * With "Combine Items for the Same Document", items targeting one document form one call;
 * the router pairs the output with every item of the group.
 */
export function groupItems(this: IExecuteFunctions, itemCount: number): number[][] {
	const groups: number[][] = [];
	const byDocument = new Map<string, number[]>();
	for (let i = 0; i < itemCount; i++) {
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		let documentId: string | undefined;
		if (options.combineItems === true) {
			try {
				documentId = getDocumentId.call(this, i);
			} catch {
				documentId = undefined; // reported when the item itself runs
			}
		}
		const group = documentId === undefined ? undefined : byDocument.get(documentId);
		if (group) group.push(i);
		else {
			const created = [i];
			groups.push(created);
			if (documentId !== undefined) byDocument.set(documentId, created);
		}
	}
	return groups;
}

export async function execute(
	this: IExecuteFunctions,
	i: number,
	group: number[] = [i],
): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const fields: IDataObject[] = [];
	const errors: string[] = [];
	// Field numbers run across the whole combined list, as the API numbers what it receives.
	let nextNumber = 1;
	for (const item of group) {
		const options = this.getNodeParameter('options', item, {}) as IDataObject;
		const rows = readRows.call(this, item);
		const built = buildFields(rows, coordinateSettings(options), signerIdFromRow, nextNumber);
		nextNumber += rows.length;
		fields.push(...built.fields);
		errors.push(...built.errors);
	}
	if (errors.length) {
		throw new NodeOperationError(this.getNode(), `Item ${i}: invalid "Fields": ${errors[0]}`, {
			itemIndex: i,
			description: errors.join('\n'),
		});
	}
	const saved = (await eSignApiRequest.call(this, 'POST', `/documents/${id}/fields`, {
		...getRequestOptions.call(this, i),
		body: { fields },
	})) as IDataObject[];
	return [{ json: { document_id: id, field_count: saved.length, fields: saved } }];
}
