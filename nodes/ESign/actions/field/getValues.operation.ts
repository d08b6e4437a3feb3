import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { documentValues, signerValues } from '../../helpers/fieldValues';
import { getDocumentId, getRequestOptions, toExecutionData } from '../../helpers/utils';
import { checkOneOf } from '../../helpers/validation';
import { eSignApiRequest } from '../../../shared/transport';
import { documentRLC } from '../common.descriptions';

const properties: INodeProperties[] = [
	documentRLC,
	{
		displayName: 'Output',
		name: 'valuesPer',
		type: 'options',
		options: [
			{
				name: 'One Item per Document',
				value: 'document',
				description: 'The document ID and every field’s value by field name, as one row',
			},
			{
				name: 'One Item per Signer',
				value: 'signer',
				description: 'A row per signer: its ID, name and email and the values of its own fields (one more request, for the names)',
			},
		],
		default: 'document',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Include Signature, Initials and Stamp',
				name: 'includeSignatures',
				type: 'boolean',
				default: false,
				description:
					'Whether to include the values of signature, initials and stamp fields. Sites often keep these as images in text form, too long for a sheet cell, so they are left out by default.',
			},
		],
	},
];

const displayOptions = { show: { resource: ['field'], operation: ['getValues'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const per = checkOneOf.call(this, i, 'Output', this.getNodeParameter('valuesPer', i, 'document'), ['document', 'signer']);
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const includeSignatures = options.includeSignatures === true;
	const requestOptions = getRequestOptions.call(this, i);
	// The fields list holds each value; the document's own fields (GET /documents/{id}) come without them.
	const fields = (await eSignApiRequest.call(this, 'GET', `/documents/${id}/fields`, { ...requestOptions, expect: 'list' })) as IDataObject[];
	if (per === 'document') return toExecutionData(documentValues(id, fields, includeSignatures));
	const signers = (await eSignApiRequest.call(this, 'GET', `/documents/${id}/signers`, { ...requestOptions, expect: 'list' })) as IDataObject[];
	return toExecutionData(signerValues(id, fields, signers, includeSignatures));
}
