import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { uploadBinary } from '../../helpers/documents';
import { getRequestOptions, toExecutionData } from '../../helpers/utils';
import { binaryPropertyInput, fileTitle } from '../common.descriptions';

const properties: INodeProperties[] = [
	binaryPropertyInput,
	fileTitle,
];

const displayOptions = { show: { resource: ['document'], operation: ['upload'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const binaryPropertyName = this.getNodeParameter('binaryPropertyName', i) as string;
	const title = this.getNodeParameter('title', i, '') as string;
	const document = await uploadBinary.call(this, i, binaryPropertyName, title, getRequestOptions.call(this, i));
	return toExecutionData(document);
}
