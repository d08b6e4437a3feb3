import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	buildFields,
	coordinateSettings,
	fieldsError,
	readFieldRows,
	signerIdFromRow,
} from '../../helpers/fields';
import { coordinateCollectionOptions, fieldInputProperties } from '../../helpers/fieldDescriptions';
import { getDocumentId, getRequestOptions } from '../../helpers/utils';
import { eSignApiRequest } from '../../../shared/transport';
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
	...fieldInputProperties(signerPicker, {
		key: 'signer_id',
		example: '1',
		description:
			'Array of fields as the API takes them: signer_ID, field_type, page_number, position_x, position_y, and optionally width, height, is_required, font_size, font_family, placeholder, options',
	}),
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
			...coordinateCollectionOptions,
		],
	},
];

const displayOptions = { show: { resource: ['field'], operation: ['replaceAll'] } };

export const description = updateDisplayOptions(displayOptions, properties);

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
		const rows = readFieldRows.call(this, item);
		const built = buildFields(rows, coordinateSettings.call(this, item, options), signerIdFromRow, nextNumber);
		nextNumber += rows.length;
		fields.push(...built.fields);
		errors.push(...built.errors);
	}
	if (errors.length) throw fieldsError.call(this, i, errors);
	const saved = (await eSignApiRequest.call(this, 'POST', `/documents/${id}/fields`, {
		...getRequestOptions.call(this, i),
		body: { fields },
		expect: 'list',
	})) as IDataObject[];
	return [{ json: { document_id: id, field_count: saved.length, fields: saved } }];
}
