import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getDocumentId, getRequestOptions, toExecutionData } from '../../helpers/utils';
import { eSignApiRequest } from '../../../shared/transport';
import { documentRLC } from '../common.descriptions';

const properties: INodeProperties[] = [
	{
		displayName:
			'Deleting is permanent: the document, its signers, fields and audit trail are removed and cannot be recovered',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
	documentRLC,
];

const displayOptions = { show: { resource: ['document'], operation: ['delete'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const response = (await eSignApiRequest.call(
		this,
		'DELETE',
		`/documents/${id}`,
		{ ...getRequestOptions.call(this, i), expect: ['deleted'] },
	)) as IDataObject;
	return toExecutionData({ id, deleted: response?.deleted === true });
}
