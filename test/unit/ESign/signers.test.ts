// Who a signer is (helpers/signers.ts): one rule for Signer → Add and every "Signers" list, and one way to
// compare emails (Signer → Add reading the signer back, Create and Send's references and ids).
import { NodeOperationError } from 'n8n-workflow';

import { emailKey, readSignerRows, signerIdentity } from '../../../nodes/ESign/helpers/signers';
import { executeContext } from '../fakes';

describe('signerIdentity', () => {
	test.each([
		['Ann', 'ann@example.org', undefined],
		['  Ann Lee ', ' ann.lee@mail.example.org ', undefined],
		['', 'ann@example.org', 'name'],
		['   ', 'ann@example.org', 'name'],
		['', 'not an email', 'name'],
		['Ann', '', 'email'],
		['Ann', 'ann@example', 'email'],
		['Ann', 'ann example.org', 'email'],
		['Ann', 'ann@@example.org', 'email'],
		['Ann', 'ann @example.org', 'email'],
		['Ann', '@example.org', 'email'],
	])('%j, %j → missing %j', (name, email, missing) => {
		expect(signerIdentity(name, email).missing).toBe(missing);
	});

	test('gives the values trimmed', () => {
		expect(signerIdentity('  Ann Lee ', ' ann@example.org\n')).toEqual({ name: 'Ann Lee', email: 'ann@example.org' });
	});

	test('a "Signers" row is held to the same rule', () => {
		const rows = (signer: unknown[]) => () => readSignerRows.call(executeContext({ signers: { signer } }), 2);
		expect(rows([{ name: ' Ann ', email: ' ann@example.org ' }])()).toEqual([
			{ name: 'Ann', email: 'ann@example.org', role: 'signer', signingOrder: 0, requireWpLogin: false },
		]);
		for (const [name, email] of [['', 'ann@example.org'], ['Ann', 'ann@example']]) {
			let error: unknown;
			try {
				rows([{ name: 'Bob', email: 'bob@example.org' }, { name, email }])();
			} catch (caught) {
				error = caught;
			}
			expect(error).toBeInstanceOf(NodeOperationError);
			expect((error as NodeOperationError).message).toBe(`Signer 2 in "Signers" needs a name and a valid email (got "${name}", "${email}")`);
		}
	});
});

test('emailKey: the same address in any case or with spaces around is the same signer', () => {
	expect(emailKey(' Ann@Example.ORG ')).toBe(emailKey('ann@example.org'));
	expect(emailKey('ann@example.org')).not.toBe(emailKey('anne@example.org'));
	expect(emailKey(undefined)).toBe('');
});
