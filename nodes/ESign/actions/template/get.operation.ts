import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getRequestOptions, getTemplateId, toExecutionData } from '../../helpers/utils';
import { eSignApiRequest } from '../../../shared/transport';
import { templateRLC } from '../common.descriptions';

const properties: INodeProperties[] = [templateRLC];

const displayOptions = { show: { resource: ['template'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getTemplateId.call(this, i);
	const template = (await eSignApiRequest.call(
		this,
		'GET',
		`/templates/${id}`,
		{ ...getRequestOptions.call(this, i), expect: ['id'] },
	)) as IDataObject;
	return toExecutionData(template);
}
