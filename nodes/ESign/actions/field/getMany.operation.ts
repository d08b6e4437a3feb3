import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { outputProperties, shapeRecords } from '../../helpers/output';
import { simplifyField } from '../../helpers/simplify';
import { getDocumentId, getRequestOptions, toExecutionData } from '../../helpers/utils';
import { eSignApiRequest } from '../../../shared/transport';
import { documentRLC } from '../common.descriptions';

const properties: INodeProperties[] = [
	documentRLC,
	...outputProperties(
		'id, field_name, field_type, value, signer_id, document_id, page_number, is_required, position_x, position_y',
		[
			'id', 'document_id', 'signer_id', 'field_type', 'field_name', 'page_number', 'position_x', 'position_y', 'width', 'height',
			'value', 'placeholder', 'is_required', 'font_size', 'font_family', 'options', 'created_at', 'updated_at',
		],
	),
];

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
	return toExecutionData(shapeRecords.call(this, i, fields, simplifyField));
}
