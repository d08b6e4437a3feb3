import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isValidEmail } from './utils';

export interface SignerRow {
	name: string;
	email: string;
	role: string;
	/** 0 when left unset. */
	signingOrder: number;
	requireWpLogin: boolean;
}

/** The item's "Signers" list, each with a name and a valid email, checked before any request. */
export function readSignerRows(this: IExecuteFunctions, i: number): SignerRow[] {
	const rows = ((this.getNodeParameter('signers', i, {}) as IDataObject).signer ?? []) as IDataObject[];
	return rows.map((row, index) => {
		const name = String(row.name ?? '').trim();
		const email = String(row.email ?? '').trim();
		if (!name || !isValidEmail(email)) {
			throw new NodeOperationError(
				this.getNode(),
				`Signer ${index + 1} in "Signers" needs a name and a valid email (got "${name}", "${email}")`,
				{ itemIndex: i },
			);
		}
		const order = row.signingOrder === undefined || row.signingOrder === '' ? 0 : Number(row.signingOrder);
		if (!Number.isInteger(order) || order < 0) {
			throw new NodeOperationError(
				this.getNode(),
				`Signer ${index + 1} in "Signers": "Signing Order" must be a whole number from 0, got ${JSON.stringify(row.signingOrder)}`,
				{ itemIndex: i, description: '0 = the position in the list.' },
			);
		}
		return {
			name,
			email,
			role: (row.role as string) || 'signer',
			signingOrder: order,
			requireWpLogin: row.requireWpLogin === true,
		};
	});
}
