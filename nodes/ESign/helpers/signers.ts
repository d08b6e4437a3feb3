import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export interface SignerRow {
	name: string;
	email: string;
	role: string;
	/** 0 when left unset. */
	signingOrder: number;
	requireWpLogin: boolean;
}

/**
 * The one rule for who a signer is (Signer → Add and every "Signers" list): a name, and an email address of the
 * form a@b.c, both trimmed. `missing` names the first that is not there.
 */
export function signerIdentity(name: string, email: string): { name: string; email: string; missing?: 'name' | 'email' } {
	const identity = { name: name.trim(), email: email.trim() };
	if (!identity.name) return { ...identity, missing: 'name' };
	if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(identity.email)) return { ...identity, missing: 'email' };
	return identity;
}

/** How two signers' emails are compared (the site may change their case): trimmed, in lower case. */
export function emailKey(email: unknown): string {
	return String(email ?? '').trim().toLowerCase();
}

/** The item's "Signers" list, each with a name and a valid email, checked before any request. */
export function readSignerRows(this: IExecuteFunctions, i: number): SignerRow[] {
	const rows = ((this.getNodeParameter('signers', i, {}) as IDataObject).signer ?? []) as IDataObject[];
	return rows.map((row, index) => {
		const { name, email, missing } = signerIdentity(String(row.name ?? ''), String(row.email ?? ''));
		if (missing) {
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
