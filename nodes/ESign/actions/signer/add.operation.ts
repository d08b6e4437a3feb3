import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { emailKey, signerIdentity } from '../../helpers/signers';
import { readNextSigningOrder } from '../../helpers/signingOrder';
import { getDocumentId, getRequestOptions, toExecutionData } from '../../helpers/utils';
import { checkText, checkWholeNumber } from '../../helpers/validation';
import { eSignApiRequest } from '../../../shared/transport';
import { idFromAnswer } from '../../../shared/values';
import { documentRLC, signerFields } from '../common.descriptions';

const properties: INodeProperties[] = [documentRLC, ...signerFields];

const displayOptions = { show: { resource: ['signer'], operation: ['add'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const { name, email, missing } = signerIdentity(
		checkText.call(this, i, 'Name', this.getNodeParameter('name', i)),
		checkText.call(this, i, 'Email', this.getNodeParameter('email', i)),
	);
	// Any role the site accepts (the editor offers the family's three; an expression can give another).
	const role = checkText.call(this, i, 'Role', this.getNodeParameter('role', i, 'signer')).trim() || 'signer';
	// 0 = after the signers already on the document: read them first (see readNextSigningOrder).
	const signingOrder = checkWholeNumber.call(this, i, 'Signing Order', this.getNodeParameter('signingOrder', i, 0), 0);
	if (missing === 'name') throw new NodeOperationError(this.getNode(), `"Name" is required`, { itemIndex: i });
	if (missing === 'email') {
		throw new NodeOperationError(this.getNode(), `"Email" is not a valid email address: "${email}"`, {
			itemIndex: i,
		});
	}
	const requestOptions = getRequestOptions.call(this, i);
	const order = signingOrder > 0 ? signingOrder : await readNextSigningOrder.call(this, id, requestOptions);
	const body: IDataObject = { name, email, role, signing_order: order };
	// The spec shows no shape or status code for this answer (a site may say only {id}, {success: true} or {}):
	// any JSON object means added, and the signer is then read back from the list the spec does show.
	const answer = (await eSignApiRequest.call(this, 'POST', `/documents/${id}/signers`, {
		...requestOptions,
		body,
		expect: 'object',
	})) as IDataObject;
	let signers: IDataObject[];
	try {
		signers = (await eSignApiRequest.call(this, 'GET', `/documents/${id}/signers`, { ...requestOptions, expect: 'list' })) as IDataObject[];
	} catch (error) {
		// The write went through: say so, so the user does not add the signer a second time.
		throw new NodeOperationError(this.getNode(), `The signer ${email} was added to document ${id}, but could not be read back: ${(error as Error).message}`, {
			itemIndex: i,
			description: 'Do not run this item again (the signer is already on the document): list the signers with Signer → Get Many instead.',
		});
	}
	return toExecutionData(addedSigner(signers, answer, email) ?? { ...answer, document_id: id, name, email, role });
}

/**
 * The signer just added, in the list: by the id the answer gave, else by email (the newest with it). Undefined
 * when neither finds it (a site that changes the email it stores), and the node then outputs what it knows.
 */
export function addedSigner(signers: IDataObject[], answer: IDataObject, email: string): IDataObject | undefined {
	const id = idFromAnswer(answer.id);
	const byId = id === undefined ? undefined : signers.find((s) => String(s.id) === id);
	if (byId) return byId;
	const sameEmail = signers.filter((s) => emailKey(s.email) === emailKey(email));
	return sameEmail.sort((a, b) => Number(b.id) - Number(a.id))[0];
}
