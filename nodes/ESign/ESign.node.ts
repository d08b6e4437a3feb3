import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { requestOptions } from './actions/common.descriptions';
import * as document from './actions/document/Document.resource';
import * as field from './actions/field/Field.resource';
import { router } from './actions/router';
import { subtitleFor } from './actions/subtitle';
import * as signer from './actions/signer/Signer.resource';
import * as stats from './actions/stats/Stats.resource';
import * as template from './actions/template/Template.resource';
import { toolDescriptions } from './actions/toolDescriptions';
import { listSearch, loadOptions, resourceMapping } from './methods';

const properties: INodeProperties[] = [
	// First, where n8n puts its own tool description: shown only in the "eSign Tool" variant.
	...toolDescriptions,
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Document', value: 'document' },
			{ name: 'Field', value: 'field' },
			{ name: 'Signer', value: 'signer' },
			{ name: 'Statistic', value: 'stats' },
			{ name: 'Template', value: 'template' },
		],
		default: 'document',
	},
	...document.description,
	...signer.description,
	...field.description,
	...template.description,
	...stats.description,
	requestOptions,
];

export class ESign implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'eSign',
		name: 'eSign',
		icon: { light: 'file:../../icons/esign.svg', dark: 'file:../../icons/esign.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: subtitleFor(properties),
		description:
			'Send documents for e-signature with a self-hosted eSign site: upload, add signers and fields, send, remind, download signed files, templates and audit trails',
		// Used as given by the editor's docs link (a codex URL gets tracking parameters appended, which break an #anchor).
		documentationUrl: 'https://github.com/n8n-nodes-esign/n8n-nodes-esign#operations',
		defaults: { name: 'eSign' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'eSignApi', required: true }],
		properties,
	};

	methods = { listSearch, loadOptions, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
