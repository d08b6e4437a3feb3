import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getDocumentId, getRequestOptions, toExecutionData } from '../../helpers/utils';
import { checkOneOf, checkText } from '../../helpers/validation';
import { eSignApiRequest } from '../../../shared/transport';
import { documentRLC } from '../common.descriptions';

const properties: INodeProperties[] = [
	documentRLC,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Title',
				name: 'title',
				type: 'string',
				default: '',
				description: 'The document’s new title',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{
						name: 'Draft',
						value: 'draft',
						description: 'Take a sent document back to draft (a site may refuse once a signer has opened it)',
					},
					{
						name: 'Sent',
						value: 'sent',
						description: 'Mark a draft as sent without emailing anyone (use Send to email signers)',
					},
				],
				default: 'draft',
				description:
					'Only draft and sent are offered: signing, declining and expiry are up to the site. Which changes a site accepts is not documented by the API; a refusal fails the item with the site’s reason.',
			},
		],
	},
];

const displayOptions = { show: { resource: ['document'], operation: ['update'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const updateFields = this.getNodeParameter('updateFields', i, {}) as IDataObject;
	const body: IDataObject = {};
	if (updateFields.title !== undefined) {
		const title = checkText.call(this, i, 'Title', updateFields.title).trim();
		if (!title) {
			throw new NodeOperationError(this.getNode(), `"Title" cannot be empty`, {
				itemIndex: i,
				description: 'Enter the new title, or remove "Title" from "Update Fields" to keep the current one.',
			});
		}
		body.title = title;
	}
	if (updateFields.status !== undefined) {
		// Only draft ⇄ sent: the site decides everything else (views, signatures, declines, expiry).
		body.status = checkOneOf.call(this, i, 'Status', updateFields.status, ['draft', 'sent']);
	}
	if (Object.keys(body).length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			`Nothing to update — add "Title" or "Status" under "Update Fields"`,
			{ itemIndex: i, description: 'Update changes a document’s title or status: add at least one of them under "Update Fields".' },
		);
	}
	const document = (await eSignApiRequest.call(this, 'PUT', `/documents/${id}`, {
		...getRequestOptions.call(this, i),
		body,
		expect: ['id'],
	})) as IDataObject;
	return toExecutionData(document);
}
