import type { INodeProperties } from 'n8n-workflow';

import * as add from './add.operation';
import * as getMany from './getMany.operation';

export { add, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['signer'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				description: 'Add a signer (name and email) to a draft document',
				action: 'Add signer to document',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the signers of a document with their status (pending, viewed, signed, declined)',
				action: 'Get many signers of document',
			},
		],
		default: 'add',
	},
	...add.description,
	...getMany.description,
];
