import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';
import * as getValues from './getValues.operation';
import * as replaceAll from './replaceAll.operation';

export { getMany, getValues, replaceAll };

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
				action: 'Get many fields of document',
			},
			{
				name: 'Get Values',
				value: 'getValues',
				description:
					'Get what signers filled in, keyed by field name: one row per document or per signer, ready for a sheet or CRM',
				action: 'Get field values',
			},
			{
				name: 'Replace All',
				value: 'replaceAll',
				description:
					'Set the complete list of fields of a draft document (signature, initials, date, text…); existing fields are removed',
				action: 'Replace all fields of document',
			},
		],
		default: 'replaceAll',
	},
	...getMany.description,
	...getValues.description,
	...replaceAll.description,
];
