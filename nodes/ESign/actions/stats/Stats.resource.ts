import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';

export { get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['stats'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get document counts by status (the key owner’s documents; all documents for an administrator key)',
				action: 'Get statistics',
			},
		],
		default: 'get',
	},
	...get.description,
];
