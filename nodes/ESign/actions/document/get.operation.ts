import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { outputProperties, shapeRecords } from '../../helpers/output';
import { simplifyDocument } from '../../helpers/simplify';
import { getDocumentId, getRequestOptions, toExecutionData } from '../../helpers/utils';
import { eSignApiRequest } from '../../../shared/transport';
import { documentRLC } from '../common.descriptions';

const properties: INodeProperties[] = [
	documentRLC,
	...outputProperties(
		'id, title, status, signed_by and last_signed_at (who signed, when), completed_at, waiting_for, declined_by, decline_reason, expires_at',
		['id', 'title', 'status', 'original_filename', 'total_pages', 'expires_at', 'completed_at', 'created_at', 'updated_at', 'file_hash', 'signers', 'fields'],
	),
];

const displayOptions = { show: { resource: ['document'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const document = (await eSignApiRequest.call(
		this,
		'GET',
		`/documents/${id}`,
		{ ...getRequestOptions.call(this, i), expect: ['id'] },
	)) as IDataObject;
	return toExecutionData(shapeRecords.call(this, i, [document], simplifyDocument));
}
