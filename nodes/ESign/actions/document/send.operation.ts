import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getDocumentId, getRequestOptions, toExecutionData } from '../../helpers/utils';
import { eSignApiRequest } from '../../../shared/transport';
import { documentRLC } from '../common.descriptions';

const properties: INodeProperties[] = [
	{
		displayName:
			'Emails a signing invitation to every signer. The document needs at least one signer and a signature field for each signer. Never retried automatically: if the site fails mid-send, check the document before running again.',
		name: 'sendNotice',
		type: 'notice',
		default: '',
	},
	documentRLC,
];

const displayOptions = { show: { resource: ['document'], operation: ['send'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const response = (await eSignApiRequest.call(
		this,
		'POST',
		`/documents/${id}/send`,
		{ ...getRequestOptions.call(this, i), expect: ['sent'] },
	)) as IDataObject;
	return toExecutionData({ document_id: id, ...response });
}
