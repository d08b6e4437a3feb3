import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ESignRequestOptions } from '../../shared/transport';
import { eSignApiRequest } from '../../shared/transport';

/**
 * The position after the signers already on a document: one more than the highest signing order among them
 * (1 on a document without signers; orders that are no whole number count as 0). The spec shows no default for a
 * signer added without `signing_order`, and sites differ: one fills in the next position, another (WPsigner) puts
 * every such signer at 1, another keeps none. So Signer → Add with Signing Order 0 reads the signers first and
 * sends this position: the cost is that one read.
 */
export function nextSigningOrder(signers: IDataObject[]): number {
	const orders = signers.map((signer) => Number(signer.signing_order)).filter((order) => Number.isInteger(order) && order > 0);
	return Math.max(0, ...orders) + 1;
}

/** GET /documents/{id}/signers, then the next position (see nextSigningOrder). */
export async function readNextSigningOrder(this: IExecuteFunctions, documentId: string, options: ESignRequestOptions): Promise<number> {
	const signers = (await eSignApiRequest.call(this, 'GET', `/documents/${documentId}/signers`, { ...options, expect: 'list' })) as IDataObject[];
	return nextSigningOrder(signers);
}
