import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getDocumentId, getRequestOptions, isValidEmail, toExecutionData } from '../../helpers/utils';
import { checkText, checkWholeNumber } from '../../helpers/validation';
import { eSignApiRequest } from '../../../shared/transport';
import { documentRLC, signerFields } from '../common.descriptions';

const properties: INodeProperties[] = [documentRLC, ...signerFields];

const displayOptions = { show: { resource: ['signer'], operation: ['add'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const name = checkText.call(this, i, 'Name', this.getNodeParameter('name', i)).trim();
	const email = checkText.call(this, i, 'Email', this.getNodeParameter('email', i)).trim();
	const role = this.getNodeParameter('role', i, 'signer') as string;
	// 0 = after the existing signers (the site picks the next position).
	const signingOrder = checkWholeNumber.call(this, i, 'Signing Order', this.getNodeParameter('signingOrder', i, 0), 0);
	if (!name) throw new NodeOperationError(this.getNode(), `Item ${i}: "Name" is required`, { itemIndex: i });
	if (!isValidEmail(email)) {
		throw new NodeOperationError(this.getNode(), `Item ${i}: "Email" is not a valid email address: "${email}"`, {
			itemIndex: i,
		});
	}
	const body: IDataObject = { name, email, role };
	if (signingOrder > 0) body.signing_order = signingOrder;
	const signer = (await eSignApiRequest.call(this, 'POST', `/documents/${id}/signers`, {
		...getRequestOptions.call(this, i),
		body,
		expect: 'object',
	})) as IDataObject;
	return toExecutionData(signer);
}
