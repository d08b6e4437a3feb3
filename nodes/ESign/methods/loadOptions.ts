import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { eSignApiRequest } from '../../shared/transport';

export async function getSigners(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const documentId = String(
		this.getCurrentNodeParameter('documentId', { extractValue: true }) ?? '',
	).trim();
	if (!/^[0-9]+$/.test(documentId)) {
		throw new NodeOperationError(this.getNode(), 'Choose a document first to list its signers');
	}
	const signers = (await eSignApiRequest.call(this, 'GET', `/documents/${documentId}/signers`, {
		expect: 'list',
	})) as IDataObject[];
	return signers.map((s) => ({
		name: `${s.name} <${s.email}>`,
		value: String(s.id),
		description: `Status: ${s.status}, signing order ${s.signing_order}`,
	}));
}
