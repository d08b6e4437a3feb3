import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getRequestOptions, toExecutionData } from '../../helpers/utils';
import { eSignApiRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [];

const displayOptions = { show: { resource: ['stats'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const stats = (await eSignApiRequest.call(this, 'GET', '/stats', {
		...getRequestOptions.call(this, i),
		expect: ['total'],
	})) as IDataObject;
	return toExecutionData(stats);
}
