import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getDocumentId, getIdParameter, getRequestOptions, toExecutionData } from '../../helpers/utils';
import { eSignApiRequest } from '../../../shared/transport';
import { documentRLC } from '../common.descriptions';

const properties: INodeProperties[] = [
	documentRLC,
	{
		displayName: 'Remind',
		name: 'remindTo',
		type: 'options',
		options: [
			{
				name: 'All Eligible Signers',
				value: 'all',
				description: 'Every signer who has not signed yet (status pending or viewed)',
			},
			{ name: 'One Signer', value: 'one', description: 'Only the signer chosen below' },
		],
		default: 'all',
	},
	{
		displayName: 'Signer Name or ID',
		name: 'signerId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getSigners', loadOptionsDependsOn: ['documentId.value'] },
		default: '',
		required: true,
		description:
			'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		displayOptions: { show: { remindTo: ['one'] } },
	},
];

const displayOptions = { show: { resource: ['document'], operation: ['remind'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const remindTo = this.getNodeParameter('remindTo', i) as string;
	const body: IDataObject = {};
	if (remindTo === 'one') body.signer_id = Number(getIdParameter.call(this, 'signerId', i, 'Signer'));
	const response = (await eSignApiRequest.call(this, 'POST', `/documents/${id}/remind`, {
		...getRequestOptions.call(this, i),
		body,
		expect: ['reminded'],
	})) as IDataObject;
	return toExecutionData({ document_id: id, ...response });
}
