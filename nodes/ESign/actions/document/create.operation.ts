import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getRequestOptions, pickText, toExecutionData } from '../../helpers/utils';
import { checkText } from '../../helpers/validation';
import { eSignApiRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Service agreement',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'File Path',
				name: 'file_path',
				type: 'string',
				default: '',
				placeholder: '/var/www/esign-secure/2026/11/contract.pdf',
				description:
					'Absolute path of a file in the site’s secure eSign storage, uploaded within the last 15 minutes. To send a file from n8n, use Upload instead.',
			},
			{
				displayName: 'Original Filename',
				name: 'original_filename',
				type: 'string',
				default: '',
				placeholder: 'contract.pdf',
			},
		],
	},
];

const displayOptions = { show: { resource: ['document'], operation: ['create'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const title = checkText.call(this, i, 'Title', this.getNodeParameter('title', i)).trim();
	if (!title) {
		throw new NodeOperationError(this.getNode(), `"Title" is required`, { itemIndex: i, description: 'Enter the document’s title in "Title".' });
	}
	const additional = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const body: IDataObject = { title, ...pickText(additional, ['file_path', 'original_filename']) };
	const document = (await eSignApiRequest.call(this, 'POST', '/documents', {
		...getRequestOptions.call(this, i),
		body,
		expect: ['id'],
	})) as IDataObject;
	return toExecutionData(document);
}
