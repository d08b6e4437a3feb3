import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { eSignApiRequest } from '../../shared/transport';
import { idFromInput } from '../../shared/values';

export async function getSigners(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const documentId = idFromInput(this.getCurrentNodeParameter('documentId', { extractValue: true }));
	if (documentId === undefined) {
		throw new NodeOperationError(this.getNode(), 'Choose a document first to list its signers');
	}
	const signers = (await eSignApiRequest.call(this, 'GET', `/documents/${documentId}/signers`, {
		expect: 'list',
	})) as IDataObject[];
	return signers.map((s) => ({
		name: `${s.name} <${s.email}>`,
		value: String(s.id),
		description: describeSigner(s),
	}));
}

/** "Status: viewed, signing order 2": a decline by declined_at (the spec records it there), an order only when set. */
function describeSigner(signer: IDataObject): string {
	const declined = typeof signer.declined_at === 'string' && signer.declined_at.trim() !== '';
	const status = declined ? 'declined' : String(signer.status ?? 'unknown');
	const order = Number(signer.signing_order);
	return `Status: ${status}${Number.isInteger(order) && order > 0 ? `, signing order ${order}` : ''}`;
}
