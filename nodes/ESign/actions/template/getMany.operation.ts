import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getRequestOptions, toExecutionData } from '../../helpers/utils';
import { checkWholeNumber } from '../../helpers/validation';
import { MAX_PER_PAGE, eSignApiRequest } from '../../../shared/transport';
import { returnAllOrLimit } from '../common.descriptions';

const properties: INodeProperties[] = [
	...returnAllOrLimit({
		maxLimit: MAX_PER_PAGE,
		returnAllNotice:
			'The API has no pages for templates: Return All makes one request and returns up to 100 templates',
	}),
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
				description: 'Only templates whose name or description contains this text',
			},
		],
	},
];

const displayOptions = { show: { resource: ['template'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', i) as boolean;
	const limit = returnAll
		? MAX_PER_PAGE
		: checkWholeNumber.call(this, i, 'Limit', this.getNodeParameter('limit', i), 1, MAX_PER_PAGE);
	const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
	const qs: IDataObject = { per_page: limit };
	if (typeof filters.search === 'string' && filters.search.trim()) qs.search = filters.search.trim();
	// One request: the API documents no page parameter for templates.
	const templates = (await eSignApiRequest.call(this, 'GET', '/templates', {
		...getRequestOptions.call(this, i),
		qs,
		expect: 'list',
	})) as IDataObject[];
	return toExecutionData(templates.slice(0, limit));
}
