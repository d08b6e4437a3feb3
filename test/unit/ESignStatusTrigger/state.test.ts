// The Status Trigger's stored state (state.ts): what is kept in the workflow's static data, what is refused
// when read back, and the bound on tracked documents.
import type { IDataObject } from 'n8n-workflow';

import { detectChanges, recordState } from '../../../nodes/ESignStatusTrigger/detect';
import type { OpenStatus, PollState } from '../../../nodes/ESignStatusTrigger/state';
import { MAX_TRACKED, boundTracked, readState, sameCounts, writeState } from '../../../nodes/ESignStatusTrigger/state';
import { FakeSite } from '../fakes';

const sampleState = (): PollState => ({
	maxId: 42,
	counts: { total: 5, draft: 2, sent: 1, viewed: 1, completed: 1, declined: 0, expired: 0, deleted: 3 },
	open: new Map<string, OpenStatus>([
		['7', 'draft'],
		['12', 'sent'],
		['40', 'viewed'],
		['41', 'draft'],
	]),
	polls: 9,
});

function stored(): IDataObject {
	const data: IDataObject = {};
	writeState(data, sampleState());
	return data;
}

describe('writeState / readState', () => {
	test('no state yet: nothing and no problem', () => {
		expect(readState({})).toEqual({});
	});

	test('what is written reads back the same', () => {
		const { state, problem } = readState(stored());
		expect(problem).toBeUndefined();
		expect(state).toEqual(sampleState());
	});

	test('the same object is rewritten in place (n8n saves the object it handed out), old keys removed', () => {
		const data: IDataObject = { leftover: 'x', v: 1, open: '' };
		writeState(data, sampleState());
		expect(Object.keys(data).sort()).toEqual(['counts', 'maxId', 'open', 'polls', 'v']);
		expect(typeof data.open).toBe('string');
	});

	test('after real polls only ids, statuses and counts are stored: no titles, names or emails', async () => {
		const site = new FakeSite();
		const person = { name: 'Ann Lessor', email: 'ann.lessor@example.org' };
		site.add('draft', 2, { title: 'Lease for Ann Lessor', signers: [person] });
		site.add('sent', 2, { title: 'Lease for Ann Lessor', signers: [person] });
		const data: IDataObject = {};
		writeState(data, await recordState(site.api));
		site.set(1, 'sent');
		site.add('viewed', 1, { title: 'NDA Ann Lessor', signers: [person] });
		const { state, changes } = await detectChanges(site.api, readState(data).state as PollState, false);
		expect(changes.length).toBeGreaterThan(0); // the documents (with names) did pass through
		writeState(data, state);
		const text = JSON.stringify(data);
		for (const secret of ['Ann', 'Lessor', 'example.org', 'Lease', 'NDA', '@']) expect(text).not.toContain(secret);
	});
});

describe('a stored state that cannot be trusted is never used as it is, nor dropped in silence', () => {
	// [name, corruption, the highest id recovered, how many open documents are kept]
	const cases: Array<[string, (data: IDataObject) => void, number, number]> = [
		['an unknown version (a newer package, then a downgrade)', (d) => (d.v = 99), 42, 4],
		['a negative highest id', (d) => (d.maxId = -1), 41, 4],
		['a fractional highest id', (d) => (d.maxId = 1.5), 41, 4],
		['a highest id as text', (d) => (d.maxId = '42'), 41, 4],
		['a negative poll count', (d) => (d.polls = -2), 42, 4],
		['counts missing', (d) => delete d.counts, 42, 4],
		['counts as a list', (d) => (d.counts = [1, 2]), 42, 4],
		['the document list missing', (d) => delete d.open, 42, 0],
		['the document list as an object', (d) => (d.open = { 7: 'd' }), 42, 0],
		['an unknown status letter', (d) => (d.open = '7d,12x'), 42, 0],
		['an id that is not a whole number', (d) => (d.open = '7d,abcs'), 42, 0],
		['an id of 0', (d) => (d.open = '0d'), 42, 0],
		['an empty entry', (d) => (d.open = '7d,,12s'), 42, 0],
		['more documents than the bound', (d) => (d.open = Array.from({ length: MAX_TRACKED + 1 }, (_, i) => `${i + 1}d`).join(',')), 42, 0],
	];
	test.each(cases)('%s: the problem is named, the highest id and what else can be read are recovered, the counts are left empty so the next poll compares every list', (_name, corrupt, maxId, open) => {
		const data = stored();
		corrupt(data);
		const result = readState(data);
		expect(result.problem).toEqual(expect.stringMatching(/^it(s)? /));
		expect(result.recovered).toContain(`the highest id (${maxId})`);
		expect(result.state).toMatchObject({ maxId, counts: {} });
		expect(result.state?.open.size).toBe(open);
	});

	test('with no readable highest id and no readable document list there is nothing to go on: recorded afresh, with the problem named', () => {
		const result = readState({ v: 1, maxId: 'x', open: 'nonsense' });
		expect(result.state).toBeUndefined();
		expect(result.problem).toMatch(/highest id is not valid/);
	});
});

describe('a state written by this release (format 1, frozen here) is read by every later one', () => {
	// Written by 0.1.0's writeState after real polls, as n8n stores it. A change to the format must keep reading
	// these (a migration in state.ts), never reset them: a change made between the last poll before an upgrade
	// and the first after it would be lost.
	const FORMAT_1 = { v: 1, maxId: 42, counts: { total: 6, draft: 1, sent: 2, viewed: 1, completed: 2, declined: 0, expired: 0, deleted: 1 }, open: '7d,12s,40v,41s', polls: 9, signers: '40.3v,40.4s' };
	// The same format before counts a site left out were skipped (stored as NaN → null) and before signer events.
	const FORMAT_1_EARLY = { v: 1, maxId: 42, counts: { total: 6, draft: 1, sent: 2, viewed: 1, completed: 2, declined: null, expired: null, deleted: null }, open: '7d,12s,40v,41s', polls: 9 };

	test('today’s format reads back without a problem and is written again unchanged', () => {
		const { state, problem } = readState(structuredClone(FORMAT_1));
		expect(problem).toBeUndefined();
		expect(state?.open.get('40')).toBe('viewed');
		expect(state?.signers?.get('40')?.get('4')).toBe('signed');
		const again: IDataObject = {};
		writeState(again, state as PollState);
		expect(again).toEqual(FORMAT_1);
	});

	test('the earlier variant (null counts, no signer list) reads without a problem', () => {
		const { state, problem } = readState(structuredClone(FORMAT_1_EARLY));
		expect(problem).toBeUndefined();
		expect(state).toMatchObject({ maxId: 42, polls: 9, counts: { total: 6, completed: 2 } });
		expect(state?.counts).not.toHaveProperty('declined');
		expect(state?.signers).toBeUndefined();
	});

	test('an empty document list is valid (nothing open)', () => {
		const data = stored();
		data.open = '';
		const { state, problem } = readState(data);
		expect(problem).toBeUndefined();
		expect(state?.open.size).toBe(0);
	});
});

describe('the bound on tracked documents', () => {
	test(`at most ${MAX_TRACKED} are kept, the newest ids; the count dropped is returned`, () => {
		const open = new Map<string, OpenStatus>();
		// Inserted out of order, so "oldest" has to mean the lowest id, not the first inserted.
		for (let id = MAX_TRACKED + 5; id >= 1; id--) open.set(String(id), id % 2 ? 'sent' : 'draft');
		expect(boundTracked({ ...sampleState(), open })).toBe(5);
		expect(open.size).toBe(MAX_TRACKED);
		for (const id of ['1', '2', '3', '4', '5']) expect(open.has(id)).toBe(false);
		expect(open.has('6')).toBe(true);
		expect(open.has(String(MAX_TRACKED + 5))).toBe(true);
	});

	test('at or under the bound nothing is dropped', () => {
		const open = new Map<string, OpenStatus>(Array.from({ length: MAX_TRACKED }, (_, i) => [String(i + 1), 'draft']));
		expect(boundTracked({ ...sampleState(), open })).toBe(0);
		expect(open.size).toBe(MAX_TRACKED);
	});

	test('a bounded state is stored and read back', () => {
		const open = new Map<string, OpenStatus>(Array.from({ length: MAX_TRACKED + 1 }, (_, i) => [String(i + 1), 'viewed']));
		boundTracked({ ...sampleState(), open });
		const data: IDataObject = {};
		writeState(data, { ...sampleState(), open });
		expect(readState(data).state?.open.size).toBe(MAX_TRACKED);
	});
});

describe('sameCounts', () => {
	test('equal counts are the same; any one count differing is not', () => {
		const counts = sampleState().counts;
		expect(sameCounts(counts, { ...counts })).toBe(true);
		for (const key of Object.keys(counts)) expect(sameCounts(counts, { ...counts, [key]: counts[key] + 1 })).toBe(false);
	});
});
