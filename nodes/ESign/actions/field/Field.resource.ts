import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';
import * as replaceAll from './replaceAll.operation';

export { getMany, replaceAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['field'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the fields placed on a document',
				action: 'Get many fields of a document',
			},
			{
				name: 'Replace All',
				value: 'replaceAll',
				description:
					'Set the complete list of fields of a draft document (signature, initials, date, text…); existing fields are removed',
				action: 'Replace all fields of a document',
			},
		],
		default: 'replaceAll',
	},
	...getMany.description,
	...replaceAll.description,
];
