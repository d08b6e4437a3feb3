import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { downloadDocument } from '../../../shared/documentFile';
import { getDocumentId, getRequestOptions } from '../../helpers/utils';
import { binaryPropertyOutput, documentRLC } from '../common.descriptions';

const properties: INodeProperties[] = [
	documentRLC,
	binaryPropertyOutput,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				description: 'Name for the output file. Leave empty to use the name the site gives.',
			},
		],
	},
];

const displayOptions = { show: { resource: ['document'], operation: ['download'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const binaryPropertyName = this.getNodeParameter('binaryPropertyName', i) as string;
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const file = await downloadDocument.call(this, id, getRequestOptions.call(this, i), options.fileName as string | undefined);
	// The base64 text stays out of the JSON: it is in the binary field.
	return [
		{
			json: { document_id: id, filename: file.fileName, type: file.mimeType, size: file.size },
			binary: { [binaryPropertyName]: file.binary },
		},
	];
}
