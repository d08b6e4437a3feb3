import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { outputProperties, shapeRecords } from '../../helpers/output';
import { simplifySigner } from '../../helpers/simplify';
import { getDocumentId, getRequestOptions, toExecutionData } from '../../helpers/utils';
import { eSignApiRequest } from '../../../shared/transport';
import { documentRLC } from '../common.descriptions';

const properties: INodeProperties[] = [
	documentRLC,
	...outputProperties(
		'id, name, email, status (declined or signed whenever the site recorded it), signed_at, declined_at, decline_reason, viewed_at, role, document_id',
		['id', 'document_id', 'name', 'email', 'role', 'signing_order', 'status', 'viewed_at', 'signed_at', 'declined_at', 'decline_reason', 'created_at', 'updated_at'],
	),
];

const displayOptions = { show: { resource: ['signer'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const signers = (await eSignApiRequest.call(
		this,
		'GET',
		`/documents/${id}/signers`,
		{ ...getRequestOptions.call(this, i), expect: 'list' },
	)) as IDataObject[];
	return toExecutionData(shapeRecords.call(this, i, signers, simplifySigner));
}
