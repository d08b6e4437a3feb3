// What the Status Trigger makes of a signer's record (signers.ts), and which signer Add Signer outputs: only what
// the spec shows is relied on. A decline is recorded in declined_at and decline_reason, the statuses in use are
// pending, viewed and signed, and the Add Signer answer has no shape the spec shows.
import type { IDataObject } from 'n8n-workflow';

import { addedSigner } from '../../../nodes/ESign/actions/signer/add.operation';
import type { SignerStates, SignerStatus } from '../../../nodes/ESignStatusTrigger/state';
import { readSigners, signerState } from '../../../nodes/ESignStatusTrigger/signers';

const AT = '2026-03-04 05:06:07';

describe('signerState', () => {
	test.each<[string, IDataObject, string]>([
		['the spec statuses as they are', { status: 'pending' }, 'pending'],
		['viewed', { status: 'viewed', viewed_at: AT }, 'viewed'],
		['signed', { status: 'signed', signed_at: AT }, 'signed'],
		['a decline in declined_at while the status stays pending', { status: 'pending', declined_at: AT, decline_reason: 'No' }, 'declined'],
		['a decline in declined_at while the status stays viewed', { status: 'viewed', viewed_at: AT, declined_at: AT }, 'declined'],
		['a decline shown as status declined (the doubles)', { status: 'declined', declined_at: AT }, 'declined'],
		['an unknown status with signed_at', { status: 'completed', signed_at: AT }, 'signed'],
		['an unknown status with viewed_at only', { status: 'opened', viewed_at: AT }, 'viewed'],
		['an unknown status with nothing else', { status: 'awaiting_turn', viewed_at: null, signed_at: '' }, 'unknown'],
		['no status at all', {}, 'unknown'],
		['an empty declined_at is no decline', { status: 'viewed', declined_at: '' }, 'viewed'],
	])('%s', (_name, signer, expected) => {
		expect(signerState(signer)).toBe(expected);
	});
});

describe('readSigners', () => {
	const doc = (signers: IDataObject[]): IDataObject => ({ id: '5', status: 'declined', title: 'Lease', signers, fields: [] });
	const known = (entries: Array<[string, SignerStatus]>): SignerStates => new Map([['5', new Map(entries)]]);

	test('a decline with the status unchanged is one signer.declined, remembered as declined', async () => {
		const signer = { id: '9', status: 'viewed', viewed_at: AT, declined_at: AT, decline_reason: 'Wrong address' };
		const { seen, changes } = await readSigners(async () => doc([signer]), ['5'], known([['9', 'viewed']]));
		expect(changes).toEqual([{ documentId: '5', document: { id: '5', status: 'declined', title: 'Lease' }, signer, previousStatus: 'viewed', status: 'declined' }]);
		expect(seen.get('5')).toEqual(new Map([['9', 'declined']]));
		const again = await readSigners(async () => doc([signer]), ['5'], seen);
		expect(again.changes).toEqual([]);
	});

	test('an unknown status with nothing to read it by is logged once, never reported or forgotten', async () => {
		const warnings: string[] = [];
		const warn = (message: string) => warnings.push(message);
		const signer = { id: '9', status: 'on_hold' };
		for (let poll = 0; poll < 3; poll++) {
			const { seen, changes } = await readSigners(async () => doc([signer]), ['5'], known([['9', 'viewed']]), { warn, scope: 'wf|a' });
			expect(changes).toEqual([]);
			// What was known stays: when the record later shows a signature, that is a change from viewed.
			expect(seen.get('5')).toEqual(new Map([['9', 'viewed']]));
		}
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/Signer 9 of document 5 has the status "on_hold", which the spec does not show/);
		await readSigners(async () => doc([signer]), ['5'], known([]), { warn, scope: 'wf|b' });
		expect(warnings).toHaveLength(2); // another node logs it too
	});

	test('an unknown status that its timestamps explain is reported as that change', async () => {
		const signer = { id: '9', status: 'completed', viewed_at: AT, signed_at: AT };
		const { changes } = await readSigners(async () => doc([signer]), ['5'], known([['9', 'viewed']]));
		expect(changes.map((c) => [c.status, c.previousStatus])).toEqual([['signed', 'viewed']]);
	});

	test('Emit Existing reports a decline by declined_at, with previousStatus null, and no pending signer', async () => {
		const signers = [{ id: '8', status: 'pending' }, { id: '9', status: 'pending', declined_at: AT, decline_reason: 'No' }];
		const { changes } = await readSigners(async () => doc(signers), ['5'], undefined, { emitExisting: true });
		expect(changes.map((c) => [c.signer.id, c.status, c.previousStatus])).toEqual([['9', 'declined', null]]);
	});
});

describe('addedSigner (Add Signer reads the signer back)', () => {
	const list = [
		{ id: '3', email: 'ann@example.org', name: 'Ann' },
		{ id: '4', email: 'Bob@Example.org', name: 'Bob (old)' },
		{ id: '7', email: 'bob@example.org', name: 'Bob' },
	];

	test.each<[string, IDataObject, string, string | undefined]>([
		['by the id of a full answer', { id: '3', email: 'ann@example.org' }, 'ann@example.org', '3'],
		['by an {id} answer, as a JSON integer', { id: 7 }, 'bob@example.org', '7'],
		['by email when the answer is {success: true}', { success: true }, 'bob@example.org', '7'],
		['by email when the answer is {}', {}, 'ANN@example.org', '3'],
		['by email when the id is not in the list', { id: '99' }, 'ann@example.org', '3'],
		['not found: undefined', {}, 'zoe@example.org', undefined],
	])('%s', (_name, answer, email, expected) => {
		expect(addedSigner(list, answer, email)?.id).toBe(expected);
	});
});
