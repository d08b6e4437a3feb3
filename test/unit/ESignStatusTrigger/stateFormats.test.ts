// Every format the Status Trigger has stored (test/support/stateFormats.ts, copies of the writers of the time) is
// read as the state it was written from, after n8n's JSON round trip, and written back in today's format. A change to
// the format adds its writer there and a migration in state.ts (CONTRIBUTING.md → Versioning policy → Stored state).
import type { IDataObject } from 'n8n-workflow';

import type { OpenStatus, PollState, SignerStatus } from '../../../nodes/ESignStatusTrigger/state';
import { STATE_VERSION, readState, writeState } from '../../../nodes/ESignStatusTrigger/state';
import { STATE_FORMATS, asSaved } from '../../support/stateFormats';

const base = (): PollState => ({
	maxId: 57,
	counts: { total: 9, draft: 2, sent: 2, viewed: 1, completed: 3, declined: 1, expired: 0, deleted: 4 },
	open: new Map<string, OpenStatus>([
		['3', 'draft'],
		['44', 'sent'],
		['50', 'viewed'],
		['57', 'sent'],
	]),
	polls: 17,
});
const withSigners = (): PollState => ({
	...base(),
	signers: new Map([
		['44', new Map<string, SignerStatus>([['90', 'signed'], ['91', 'viewed']])],
		['50', new Map<string, SignerStatus>([['95', 'declined']])],
	]),
});
const stateFor = (name: string) => (name.includes('signers') ? withSigners() : base());

test('every format written so far carries version 1, today\'s', () => {
	for (const format of STATE_FORMATS) expect(format.write(base()).v).toBe(STATE_VERSION);
});

test.each(STATE_FORMATS.map((f) => [f.name, f] as const))('%s: read as the state it was written from, no problem', (name, format) => {
	expect(readState(asSaved(format.write(stateFor(name))))).toEqual({ state: stateFor(name) });
});

test.each(STATE_FORMATS.map((f) => [f.name, f] as const))('%s: written back in today\'s format, it reads the same', (name, format) => {
	const { state } = readState(asSaved(format.write(stateFor(name))));
	const today: IDataObject = {};
	writeState(today, state as PollState);
	expect(readState(asSaved(today))).toEqual({ state: stateFor(name) });
});

test('format 1 with a count its site left out (NaN then, null once saved): that count is unknown, nothing else lost', () => {
	const [format1] = STATE_FORMATS;
	const saved = asSaved(format1.write(base(), ['deleted', 'expired']));
	expect((saved.counts as IDataObject).deleted).toBeNull();
	const known = Object.fromEntries(Object.entries(base().counts).filter(([key]) => key !== 'deleted' && key !== 'expired'));
	expect(readState(saved)).toEqual({ state: { ...base(), counts: known } });
});

test('format 1 without signer statuses reads as "never recorded" (the next poll records them without reporting)', () => {
	const [format1] = STATE_FORMATS;
	const { state } = readState(asSaved(format1.write(withSigners())));
	expect(state?.signers).toBeUndefined();
});
