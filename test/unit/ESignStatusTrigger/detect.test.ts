// The Status Trigger's change detection (detect.ts) against an in-memory site: what each poll reports and
// which requests it makes for it. The node around it (PollContext, options, output) is tested in
// test/ESignStatusTrigger/ through the engine.
import type { Change } from '../../../nodes/ESignStatusTrigger/detect';
import { detectChanges, recordState } from '../../../nodes/ESignStatusTrigger/detect';
import type { PollState } from '../../../nodes/ESignStatusTrigger/state';
import { FakeSite } from '../fakes';

/** A change as "id: previous → status" ("new" for a document first seen), sorted. */
const moves = (changes: Change[]) =>
	changes.map((c) => `${c.id}: ${c.isNew ? 'new' : c.previousStatus} → ${c.status}`).sort();

async function recorded(site: FakeSite): Promise<PollState> {
	const state = await recordState(site.api);
	site.take();
	return state;
}

/** Drafts 1–3, sent 4–5, completed 6, viewed 7. */
function smallSite(): FakeSite {
	const site = new FakeSite();
	site.add('draft', 3);
	site.add('sent', 2);
	site.add('completed');
	site.add('viewed');
	return site;
}

describe('first poll (recordState)', () => {
	test('tracks the open documents and the highest id, reading /stats, the newest page and each open list', async () => {
		const site = smallSite();
		const state = await recordState(site.api);
		expect(state.maxId).toBe(7);
		expect(Object.fromEntries(state.open)).toEqual({ 1: 'draft', 2: 'draft', 3: 'draft', 4: 'sent', 5: 'sent', 7: 'viewed' });
		expect(state.counts).toMatchObject({ total: 7, draft: 3, sent: 2, viewed: 1, completed: 1 });
		expect(state.polls).toBe(0);
		expect(site.calls).toEqual(['stats', 'list all p1', 'list draft p1', 'list sent p1', 'list viewed p1']);
	});

	test('with the full list given, only /stats is read; ids that are not whole numbers are ignored', async () => {
		const site = new FakeSite();
		const all = [
			{ id: 'abc', status: 'draft' },
			{ id: '0', status: 'sent' },
			{ id: '-3', status: 'sent' },
			{ id: '12', status: 'viewed' },
			{ id: 13, status: 'completed' },
		];
		const state = await recordState(site.api, all);
		expect(state.maxId).toBe(13);
		expect(Object.fromEntries(state.open)).toEqual({ 12: 'viewed' });
		expect(site.calls).toEqual(['stats']);
	});
});

describe('a poll (detectChanges)', () => {
	test('nothing changed: one request (/stats), no changes, the poll is counted', async () => {
		const site = smallSite();
		const state = await recorded(site);
		const result = await detectChanges(site.api, state, false);
		expect(site.calls).toEqual(['stats']);
		expect(result.changes).toEqual([]);
		expect(result.state.polls).toBe(1);
		expect(result.state.maxId).toBe(7);
		expect(result.state.open).toEqual(state.open);
	});

	test('new documents: reported once as new (previous status null), tracked when open', async () => {
		const site = smallSite();
		const state = await recorded(site);
		site.add('draft'); // 8
		site.add('sent'); // 9
		site.add('completed'); // 10: created and signed between two polls
		const result = await detectChanges(site.api, state, false);
		expect(moves(result.changes)).toEqual(['10: new → completed', '8: new → draft', '9: new → sent']);
		for (const change of result.changes) expect(change.previousStatus).toBeNull();
		expect(result.state.maxId).toBe(10);
		expect(result.state.open.get('8')).toBe('draft');
		expect(result.state.open.get('9')).toBe('sent');
		expect(result.state.open.has('10')).toBe(false);
		// Newest first: the first page already reaches a known id, so it is the only page of the full list read.
		expect(site.calls).toEqual(['stats', 'list all p1', 'list draft p1', 'list sent p1']);

		site.take();
		const next = await detectChanges(site.api, result.state, false);
		expect(next.changes).toEqual([]);
		expect(site.calls).toEqual(['stats']);
	});

	test('more new documents than a page: reads the full list until it reaches a known id', async () => {
		const site = smallSite();
		const state = await recorded(site);
		site.add('draft', 150);
		const result = await detectChanges(site.api, state, false);
		expect(result.changes).toHaveLength(150);
		expect(result.changes.every((c) => c.isNew)).toBe(true);
		expect(site.calls).toEqual(['stats', 'list all p1', 'list all p2', 'list draft p1', 'list draft p2']);
	});

	test('a site listing oldest first: new documents are still all found (the whole list is read)', async () => {
		const site = smallSite();
		site.order = 'oldest';
		site.add('draft', 120); // 8–127
		const state = await recorded(site);
		site.add('sent', 2); // 128, 129
		const result = await detectChanges(site.api, state, false);
		expect(moves(result.changes)).toEqual(['128: new → sent', '129: new → sent']);
		expect(site.calls.filter((c) => c.startsWith('list all'))).toEqual(['list all p1', 'list all p2']);
	});

	test('a move between open lists (draft → sent) is found in the lists, without reading the document', async () => {
		const site = smallSite();
		const state = await recorded(site);
		site.set(1, 'sent');
		const result = await detectChanges(site.api, state, false);
		expect(result.changes).toEqual([
			{ id: '1', document: expect.objectContaining({ id: '1', status: 'sent' }), previousStatus: 'draft', status: 'sent', isNew: false },
		]);
		expect(result.state.open.get('1')).toBe('sent');
		expect(site.calls).toEqual(['stats', 'list all p1', 'list draft p1', 'list sent p1']);
	});

	test('a document that left the open lists (sent → completed) is read once by id', async () => {
		const site = smallSite();
		const state = await recorded(site);
		site.set(4, 'completed');
		const result = await detectChanges(site.api, state, false);
		expect(moves(result.changes)).toEqual(['4: sent → completed']);
		expect(result.changes[0].document).toMatchObject({ id: '4', status: 'completed' });
		expect(result.state.open.has('4')).toBe(false);
		expect(site.calls).toEqual(['stats', 'list all p1', 'list sent p1', 'get 4']);
	});

	test('a tracked document that no longer exists (404) is dropped without an event', async () => {
		const site = smallSite();
		const state = await recorded(site);
		site.remove(5);
		const result = await detectChanges(site.api, state, false);
		expect(result.changes).toEqual([]);
		expect(result.state.open.has('5')).toBe(false);
		expect(result.state.open.get('4')).toBe('sent');
		expect(site.calls).toEqual(['stats', 'list all p1', 'list sent p1', 'get 5']);
	});

	test('a move hidden in an unchanged count (one sent document completed, a new one sent) is still found', async () => {
		const site = smallSite();
		const state = await recorded(site);
		site.set(4, 'completed');
		site.add('sent'); // 8: the sent count is 2 again
		const result = await detectChanges(site.api, state, false);
		expect(moves(result.changes)).toEqual(['4: sent → completed', '8: new → sent']);
	});

	test('moves chained across statuses (draft → sent while sent → viewed) are all reported', async () => {
		const site = smallSite();
		const state = await recorded(site);
		site.set(1, 'sent');
		site.set(4, 'viewed'); // the sent count is unchanged
		const result = await detectChanges(site.api, state, false);
		expect(moves(result.changes)).toEqual(['1: draft → sent', '4: sent → viewed']);
		expect(Object.fromEntries(result.state.open)).toMatchObject({ 1: 'sent', 4: 'viewed' });
	});

	test('moves that cancel out in every count are missed by a normal poll and found by the full rescan', async () => {
		const site = smallSite();
		const state = await recorded(site);
		site.set(1, 'sent');
		site.set(4, 'draft');
		const quiet = await detectChanges(site.api, state, false);
		expect(quiet.changes).toEqual([]);
		expect(site.take()).toEqual(['stats']);

		const rescan = await detectChanges(site.api, quiet.state, true);
		expect(moves(rescan.changes)).toEqual(['1: draft → sent', '4: sent → draft']);
		expect(site.calls).toEqual(['stats', 'list all p1', 'list draft p1', 'list sent p1', 'list viewed p1']);
		expect(rescan.state.polls).toBe(2);
	});

	test('a rescan with nothing changed reports nothing', async () => {
		const site = smallSite();
		const state = await recorded(site);
		const result = await detectChanges(site.api, state, true);
		expect(result.changes).toEqual([]);
		expect(result.state.open).toEqual(state.open);
	});

	test('budget: a change in a long list reads only that list, page by page, plus the documents that left it', async () => {
		const site = new FakeSite();
		site.add('draft', 30);
		site.add('sent', 250); // 31–280
		const state = await recorded(site);
		site.set(100, 'declined');
		const result = await detectChanges(site.api, state, false);
		expect(moves(result.changes)).toEqual(['100: sent → declined']);
		expect(site.calls).toEqual(['stats', 'list all p1', 'list sent p1', 'list sent p2', 'list sent p3', 'get 100']);
	});

	test('without X-ESIGN-TotalPages a full page is followed by one more read, and a short page ends the list', async () => {
		const site = new FakeSite();
		site.totalPages = false;
		site.add('sent', 101);
		const state = await recorded(site);
		site.set(1, 'completed'); // 100 sent left: exactly one full page
		const result = await detectChanges(site.api, state, false);
		expect(moves(result.changes)).toEqual(['1: sent → completed']);
		expect(site.calls).toEqual(['stats', 'list all p1', 'list sent p1', 'list sent p2', 'get 1']);
	});

	test('an open document found in a list but not tracked (beyond the size bound) is tracked from then on, silently', async () => {
		const site = smallSite();
		const state = await recorded(site);
		state.open.delete('2');
		site.set(1, 'sent');
		const result = await detectChanges(site.api, state, false);
		expect(moves(result.changes)).toEqual(['1: draft → sent']);
		expect(result.state.open.get('2')).toBe('draft');
	});

	test('the given state is left as it was, also when the site fails mid-poll (the node keeps it for the next poll)', async () => {
		const site = smallSite();
		const state = await recorded(site);
		const before = { ...state, open: new Map(state.open), counts: { ...state.counts } };
		site.set(4, 'completed');
		await detectChanges(site.api, state, false);
		expect(state).toEqual(before);

		site.add('draft');
		site.api.listPage = async () => {
			throw new Error('site down');
		};
		await expect(detectChanges(site.api, state, false)).rejects.toThrow('site down');
		expect(state).toEqual(before);
	});
});
