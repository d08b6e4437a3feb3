import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { downloadDocument } from '../../../shared/documentFile';
import { getDocumentId, getRequestOptions } from '../../helpers/utils';
import { binaryPropertyOutput, documentRLC } from '../common.descriptions';
import { answersAsTool } from '../toolAnswer';

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

/**
 * Like n8n's own downloads (Google Drive, S3, FTP): the incoming item's JSON and binaries go on, with the
 * file added under the binary field; its name, type and size are on the binary entry. An AI agent sees no
 * binary view, so as a tool the JSON says what was downloaded.
 */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const binaryPropertyName = this.getNodeParameter('binaryPropertyName', i) as string;
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const file = await downloadDocument.call(this, id, getRequestOptions.call(this, i), options.fileName as string | undefined);
	const item = this.getInputData()[i];
	const json = answersAsTool.call(this)
		? { document_id: id, filename: file.fileName, type: file.mimeType, size: file.size }
		: { ...item.json };
	return [{ json, binary: { ...item.binary, [binaryPropertyName]: file.binary } }];
}
