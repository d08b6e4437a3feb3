import type { INodeProperties } from 'n8n-workflow';

import * as createDocument from './createDocument.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

export { createDocument, get, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['template'] } },
		options: [
			{
				name: 'Create Document',
				value: 'createDocument',
				description:
					'Create a document from a saved template, prefill its fields from variables, add signers and optionally send it; returns each signer’s signing URL',
				action: 'Create document from template',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a template with its prefillable variables',
				action: 'Get template',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List templates, optionally filtered by name or description',
				action: 'Get many templates',
			},
		],
		default: 'createDocument',
	},
	...createDocument.description,
	...get.description,
	...getMany.description,
];
