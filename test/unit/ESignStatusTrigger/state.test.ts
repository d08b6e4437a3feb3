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

describe('a stored state that cannot be trusted is refused (the node then records afresh)', () => {
	const cases: Array<[string, (data: IDataObject) => void]> = [
		['an unknown version', (d) => (d.v = 99)],
		['a negative highest id', (d) => (d.maxId = -1)],
		['a fractional highest id', (d) => (d.maxId = 1.5)],
		['a highest id as text', (d) => (d.maxId = '42')],
		['a negative poll count', (d) => (d.polls = -2)],
		['counts missing', (d) => delete d.counts],
		['counts as a list', (d) => (d.counts = [1, 2])],
		['the document list missing', (d) => delete d.open],
		['the document list as an object', (d) => (d.open = { 7: 'd' })],
		['an unknown status letter', (d) => (d.open = '7d,12x')],
		['an id that is not a whole number', (d) => (d.open = '7d,abcs')],
		['an id of 0', (d) => (d.open = '0d')],
		['an empty entry', (d) => (d.open = '7d,,12s')],
		['more documents than the bound', (d) => (d.open = Array.from({ length: MAX_TRACKED + 1 }, (_, i) => `${i + 1}d`).join(','))],
	];
	test.each(cases)('%s', (_name, corrupt) => {
		const data = stored();
		corrupt(data);
		const result = readState(data);
		expect(result.state).toBeUndefined();
		expect(typeof result.problem).toBe('string');
		expect(result.problem?.length).toBeGreaterThan(0);
	});

	test('an empty document list is valid (nothing open)', () => {
		const data = stored();
		data.open = '';
		expect(readState(data).state?.open.size).toBe(0);
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
