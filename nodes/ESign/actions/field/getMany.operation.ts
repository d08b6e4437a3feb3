import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getDocumentId, getRequestOptions, toExecutionData } from '../../helpers/utils';
import { eSignApiRequest } from '../../../shared/transport';
import { documentRLC } from '../common.descriptions';

const properties: INodeProperties[] = [documentRLC];

const displayOptions = { show: { resource: ['field'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const fields = (await eSignApiRequest.call(
		this,
		'GET',
		`/documents/${id}/fields`,
		{ ...getRequestOptions.call(this, i), expect: 'list' },
	)) as IDataObject[];
	return toExecutionData(fields);
}
