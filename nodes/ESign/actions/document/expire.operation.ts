import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getDocumentId, getRequestOptions, toExecutionData } from '../../helpers/utils';
import { eSignApiRequest } from '../../../shared/transport';
import { documentRLC } from '../common.descriptions';

const properties: INodeProperties[] = [
	{
		displayName:
			'Applies an expiration that is already due: works only when the document’s expiry date (set in the site’s admin) has passed, and the document is not completed, declined or expired',
		name: 'expireNotice',
		type: 'notice',
		default: '',
	},
	documentRLC,
];

const displayOptions = { show: { resource: ['document'], operation: ['expire'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const response = (await eSignApiRequest.call(
		this,
		'POST',
		`/documents/${id}/expire`,
		{ ...getRequestOptions.call(this, i), expect: ['expired'] },
	)) as IDataObject;
	return toExecutionData(response);
}
