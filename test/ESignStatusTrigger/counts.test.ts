// eSign Status Trigger, pure logic: a /stats answer that leaves counts out (an older or trimmed site) is
// read as "unknown", so the stored state survives n8n's JSON round trip and a quiet poll stays one request.
import type { IDataObject } from 'n8n-workflow';

import type { StatusApi } from '../../nodes/ESignStatusTrigger/detect';
import { detectChanges, recordState, toCounts } from '../../nodes/ESignStatusTrigger/detect';
import type { PollState } from '../../nodes/ESignStatusTrigger/state';
import { readState, writeState } from '../../nodes/ESignStatusTrigger/state';

/** A site of fixed documents whose /stats gives only the counts in `stats`; records every call. */
function fakeApi(docs: IDataObject[], stats: () => IDataObject) {
	const calls: string[] = [];
	const api: StatusApi = {
		async stats() {
			calls.push('stats');
			return stats();
		},
		async listPage(page, status) {
			calls.push(`list ${status ?? 'all'} ${page}`);
			const items = docs.filter((d) => !status || d.status === status).sort((a, b) => Number(b.id) - Number(a.id));
			return { items: page === 1 ? items : [], totalPages: 1 };
		},
		async get(id) {
			calls.push(`get ${id}`);
			return docs.find((d) => d.id === id);
		},
	};
	return { api, calls };
}

/** What n8n does to static data between polls: saves it as JSON and reads it back. */
function roundTrip(state: PollState): PollState {
	const data: IDataObject = {};
	writeState(data, state);
	const read = readState(JSON.parse(JSON.stringify(data)) as IDataObject);
	expect(read.problem).toBeUndefined();
	return read.state as PollState;
}

test('counts the site leaves out are absent, not NaN; null and text that is no number count as left out', () => {
	expect(toCounts({ total: 3, draft: '2', sent: null, viewed: 'n/a' })).toEqual({ total: 3, draft: 2 });
});

test('a trimmed /stats: the state survives the JSON round trip and quiet polls read /stats only', async () => {
	const docs = [
		{ id: '1', status: 'draft' },
		{ id: '2', status: 'sent' },
	];
	const site = fakeApi(docs, () => ({ total: docs.length }));
	let state = roundTrip(await recordState(site.api));
	expect(state.counts).toEqual({ total: 2 });

	for (let poll = 0; poll < 2; poll++) {
		site.calls.length = 0;
		const result = await detectChanges(site.api, state, false);
		expect(result.changes).toEqual([]);
		expect(site.calls).toEqual(['stats']);
		state = roundTrip(result.state);
	}
});

test('a trimmed /stats still finds a change: when a known count moves, statuses of unknown count are listed too', async () => {
	const docs: IDataObject[] = [
		{ id: '1', status: 'draft' },
		{ id: '2', status: 'sent' },
	];
	// The site gives the total and the completed count only.
	const site = fakeApi(docs, () => ({ total: docs.length, completed: docs.filter((d) => d.status === 'completed').length }));
	const state = roundTrip(await recordState(site.api));
	docs[1].status = 'completed';
	const { changes } = await detectChanges(site.api, state, false);
	expect(changes.map((c) => [c.id, c.previousStatus, c.status])).toEqual([['2', 'sent', 'completed']]);
});

test('a state stored with null counts (a NaN saved as JSON) is read, not reset', () => {
	const read = readState({ v: 1, maxId: 2, polls: 3, counts: { total: 2, draft: null }, open: '1d' });
	expect(read.problem).toBeUndefined();
	expect(read.state?.counts).toEqual({ total: 2 });
	expect(readState({ v: 1, maxId: 2, polls: 3, counts: { total: 'x' }, open: '1d' }).problem).toMatch(/counts are corrupt/);
});
