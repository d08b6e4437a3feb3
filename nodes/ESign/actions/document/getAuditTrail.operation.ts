import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getDocumentId, getRequestOptions, toExecutionData } from '../../helpers/utils';
import { eSignApiRequest } from '../../../shared/transport';
import { documentRLC } from '../common.descriptions';

const properties: INodeProperties[] = [
	documentRLC,
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{ name: 'One Item with All Events', value: 'trail', description: 'The document and its events, in one item' },
			{
				name: 'One Item per Event',
				value: 'events',
				description: 'Each event as its own item, with the document ID and title on each',
			},
		],
		default: 'trail',
	},
];

const displayOptions = { show: { resource: ['document'], operation: ['getAuditTrail'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const output = this.getNodeParameter('output', i, 'trail') as string;
	const trail = (await eSignApiRequest.call(
		this,
		'GET',
		`/documents/${id}/audit`,
		{ ...getRequestOptions.call(this, i), expect: ['events[]'] },
	)) as { document?: IDataObject; events?: IDataObject[] };
	if (output !== 'events') return toExecutionData(trail as IDataObject);
	const document = trail.document ?? {};
	return toExecutionData(
		(trail.events ?? []).map((event) => ({
			document_id: document.id ?? id,
			document_title: document.title,
			...event,
		})),
	);
}
