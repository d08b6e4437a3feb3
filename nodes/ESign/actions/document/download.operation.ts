import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { DocumentFile } from '../../../shared/documentFile';
import { decodeDocumentFile } from '../../../shared/documentFile';
import { getDocumentId, getRequestOptions } from '../../helpers/utils';
import { eSignApiRequest } from '../../../shared/transport';
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
	const file = (await eSignApiRequest.call(
		this,
		'GET',
		`/documents/${id}/file`,
		{ ...getRequestOptions.call(this, i), expect: ['content'] },
	)) as DocumentFile;
	const buffer = decodeDocumentFile(file);
	if (!buffer) {
		throw new NodeOperationError(this.getNode(), `Item ${i}: the site returned no file content for document ${id}`, {
			itemIndex: i,
		});
	}
	const fileName = (options.fileName as string)?.trim() || file.filename || `document-${id}.pdf`;
	const mimeType = file.type || 'application/octet-stream';
	const binary = await this.helpers.prepareBinaryData(buffer, fileName, mimeType);
	// The base64 text stays out of the JSON: it is in the binary field.
	return [
		{
			json: { document_id: id, filename: fileName, type: mimeType, size: buffer.length },
			binary: { [binaryPropertyName]: binary },
		},
	];
}
