import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getRequestOptions, toExecutionData } from '../../helpers/utils';
import { checkOneOf, checkWholeNumber } from '../../helpers/validation';
import { eSignApiRequestAllItems } from '../../../shared/transport';
import { returnAllOrLimit } from '../common.descriptions';

const DOCUMENT_STATUSES = [
	{ name: 'Completed', value: 'completed' },
	{ name: 'Declined', value: 'declined' },
	{ name: 'Draft', value: 'draft' },
	{ name: 'Expired', value: 'expired' },
	{ name: 'Sent', value: 'sent' },
	{ name: 'Viewed', value: 'viewed' },
];

const properties: INodeProperties[] = [
	...returnAllOrLimit(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				description: 'Only documents whose title contains this text',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: DOCUMENT_STATUSES,
				default: 'sent',
				description: 'Only documents with this status',
			},
		],
	},
];

const displayOptions = { show: { resource: ['document'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', i) as boolean;
	const limit = returnAll ? undefined : checkWholeNumber.call(this, i, 'Limit', this.getNodeParameter('limit', i), 1);
	const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
	const qs: IDataObject = {};
	if (filters.status !== undefined && filters.status !== '') {
		qs.status = checkOneOf.call(this, i, 'Status', filters.status, DOCUMENT_STATUSES.map((s) => s.value));
	}
	if (typeof filters.search === 'string' && filters.search.trim()) qs.search = filters.search.trim();
	const documents = await eSignApiRequestAllItems.call(
		this,
		'/documents',
		qs,
		limit,
		getRequestOptions.call(this, i),
	);
	return toExecutionData(documents as IDataObject[]);
}
