// eSign Status Trigger (polling): each poll runs through n8n-core's PollContext against the sandbox over
// HTTP; the static data is carried from poll to poll the way n8n stores it.
import type { Json, PollRun } from '../support';
import { api, clearLog, control, credentialsFor, harness, hostile, requestLog, useSandbox } from '../support';
import { poller as makePoller } from './poller';

const sb = useSandbox();

const seed = async (status: string, count = 1, titlePrefix = 'Seeded document'): Promise<string[]> =>
	(await control<{ ids: string[] }>(sb, 'POST', '/__sandbox/seed/documents', { status, count, titlePrefix })).ids;

async function signerToken(documentId: string): Promise<string> {
	const signers = await control<Json[]>(sb, 'GET', `/__sandbox/signers?document_id=${documentId}`);
	return signers[0].token;
}

const poller = (parameters?: Json) => makePoller(sb, parameters);

/** The API requests since the last clearLog, as "METHOD /path?query" (query as sent). */
const requestLines = async (): Promise<string[]> =>
	// Without the unique `_` every read carries (checked in test/shared/cache.test.ts).
	(await requestLog(sb)).map((r: Json) => `${r.method} ${String(r.url).replace('/wp-json/esign/v1', '').replace(/[?&]_=\d+$/, '')}`);

const events = (run: PollRun) => run.items.map((i) => [i.json.event, i.json.document.id, i.json.previousStatus]);

describe('eSign Status Trigger: first poll and quiet polls', () => {
	test('the first poll records the state and emits nothing; a quiet poll costs one request', async () => {
		const [draft] = await seed('draft');
		const [sent] = await seed('sent', 1, 'Confidential lease');
		await seed('completed');
		const p = poller();
		const first = await p.poll();
		expect(first.error).toBeUndefined();
		expect(first.output).toBeNull();
		// ids and statuses only: no titles, emails or secrets
		const stored = JSON.stringify(p.staticData);
		expect(stored).not.toMatch(/lease|example|esign_|whsec/i);
		expect(p.staticData['node:eSign Status Trigger']).toMatchObject({ v: 1, maxId: 3, open: expect.stringContaining(`${draft}d`) });
		expect(p.staticData['node:eSign Status Trigger'].open).toContain(`${sent}s`);

		await clearLog(sb);
		const quiet = await p.poll();
		expect(quiet.output).toBeNull();
		expect(await requestLines()).toEqual(['GET /stats']);
	});

	test('Emit Existing: the first poll reports what exists', async () => {
		await seed('draft');
		await seed('completed');
		const first = await poller().poll({ options: { emitExisting: true } });
		expect(events(first).sort()).toEqual([
			['document.completed', '2', null],
			['document.created', '1', null],
			['document.created', '2', null],
		]);
	});
});

describe('eSign Status Trigger: changes', () => {
	test('a signed document is reported once, as completed, with the status seen before', async () => {
		const [id] = await seed('sent');
		await seed('draft', 3);
		const p = poller({ events: ['document.completed'] });
		await p.poll();
		const token = await signerToken(id);
		await control(sb, 'POST', `/__sandbox/sign/${token}/view`);
		await control(sb, 'POST', `/__sandbox/sign/${token}/sign`);

		await clearLog(sb);
		const run = await p.poll();
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1);
		expect(run.items[0].json).toMatchObject({
			event: 'document.completed',
			previousStatus: 'sent',
			document: { id, status: 'completed' },
			detectedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
		});
		// stats, the new-document page, the sent list, then the missing document by id
		expect(await requestLines()).toEqual([
			'GET /stats',
			'GET /documents?page=1&per_page=100',
			'GET /documents?page=1&per_page=100&status=sent',
			`GET /documents/${id}`,
		]);
		const again = await p.poll();
		expect(again.output).toBeNull();
	});

	test('sent, viewed, declined, expired and new documents, each reported once', async () => {
		const [draft] = await seed('draft');
		const [toView, toDecline, toExpire] = await seed('sent', 3);
		const p = poller();
		await p.poll();
		expect((await api(sb, 'POST', `/documents/${draft}/send`)).status).toBe(200);
		await control(sb, 'POST', `/__sandbox/sign/${await signerToken(toView)}/view`);
		const declineToken = await signerToken(toDecline);
		await control(sb, 'POST', `/__sandbox/sign/${declineToken}/view`);
		await control(sb, 'POST', `/__sandbox/sign/${declineToken}/decline`, { reason: 'No' });
		await control(sb, 'POST', `/__sandbox/documents/${toExpire}/expiry`, { inSeconds: -60 });
		expect((await api(sb, 'POST', `/documents/${toExpire}/expire`)).status).toBe(200);
		const [created] = await seed('draft');

		const run = await p.poll();
		expect(events(run).sort()).toEqual(
			[
				['document.sent', draft, 'draft'],
				['document.viewed', toView, 'sent'],
				['document.declined', toDecline, 'sent'],
				['document.expired', toExpire, 'sent'],
				['document.created', created, null],
			].sort(),
		);
		expect((await p.poll()).output).toBeNull();
	});

	test('a document created already sent is new and sent; chosen events and the status scope filter', async () => {
		const p = poller({ events: ['document.sent'], options: { statusScope: ['sent'] } });
		await p.poll();
		const [sent] = await seed('sent');
		await seed('draft');
		const run = await p.poll();
		expect(events(run)).toEqual([['document.sent', sent, null]]);
	});

	test('Search: only documents whose title contains the text', async () => {
		const p = poller({ events: ['document.completed'], options: { search: 'lease' } });
		const [lease] = await seed('sent', 1, 'Office LEASE');
		const [other] = await seed('sent', 1, 'Invoice');
		await p.poll();
		for (const id of [lease, other]) {
			const token = await signerToken(id);
			await control(sb, 'POST', `/__sandbox/sign/${token}/view`);
			await control(sb, 'POST', `/__sandbox/sign/${token}/sign`);
		}
		await clearLog(sb);
		const run = await p.poll();
		expect(events(run)).toEqual([['document.completed', lease, 'sent']]);
		expect((await requestLines()).filter((l) => l.includes('/documents?')).every((l) => l.includes('search=lease'))).toBe(true);
	});

	test('a deleted document is dropped without an event', async () => {
		const [id] = await seed('draft');
		const p = poller();
		await p.poll();
		expect((await api(sb, 'DELETE', `/documents/${id}`)).status).toBe(200);
		const run = await p.poll();
		expect(run.output).toBeNull();
		expect(p.staticData['node:eSign Status Trigger'].open).toBe('');
	});

	test('Download Document attaches the signed PDF to completed documents', async () => {
		const [id] = await seed('sent');
		const p = poller({ events: ['document.completed'], options: { downloadDocument: true, binaryPropertyName: 'signed' } });
		await p.poll();
		const token = await signerToken(id);
		await control(sb, 'POST', `/__sandbox/sign/${token}/view`);
		await control(sb, 'POST', `/__sandbox/sign/${token}/sign`);
		const run = await p.poll();
		expect(run.items).toHaveLength(1);
		expect((await run.binary(0, 'signed')).subarray(0, 5).toString()).toBe('%PDF-');
		expect(run.items[0].binary.signed.mimeType).toBe('application/pdf');
	});
});

describe('eSign Status Trigger: the blind spot and the full rescan', () => {
	test('two documents swapping draft and sent leave /stats unchanged: only a rescan sees it', async () => {
		const [a] = await seed('draft');
		const [b] = await seed('sent');
		const p = poller({ events: ['*'], options: { rescanEvery: 3 } });
		await p.poll(); // records (poll count 0)
		expect((await api(sb, 'PUT', `/documents/${a}`, { status: 'sent' })).status).toBe(200);
		expect((await api(sb, 'PUT', `/documents/${b}`, { status: 'draft' })).status).toBe(200);
		await clearLog(sb);
		const blind = await p.poll(); // poll 1: counts equal
		expect(blind.output).toBeNull();
		expect(await requestLines()).toEqual(['GET /stats']);
		expect((await p.poll()).output).toBeNull(); // poll 2
		const rescan = await p.poll(); // poll 3: the rescan
		expect(events(rescan).sort()).toEqual([
			['document.draft', b, 'sent'],
			['document.sent', a, 'draft'],
		]);
		expect((await p.poll()).output).toBeNull();
	});
});

describe('eSign Status Trigger: failures, state and test events', () => {
	test('a 429 or 500 during a poll fails it and keeps the last good state; the next poll reports the change once', async () => {
		const [id] = await seed('sent');
		const p = poller({ events: ['document.viewed'] });
		await p.poll();
		const before = JSON.stringify(p.staticData);
		await control(sb, 'POST', `/__sandbox/sign/${await signerToken(id)}/view`);

		await control(sb, 'POST', '/__sandbox/faults', { path: '/documents', method: 'GET', status: 429, retryAfter: 30 });
		const limited = await p.poll();
		expect(limited.error?.message).toMatch(/rate limit/i);
		expect(JSON.stringify(p.staticData)).toBe(before);

		await control(sb, 'POST', '/__sandbox/faults', { path: '/documents', method: 'GET', status: 500, count: 4 });
		const broken = await p.poll();
		expect(broken.error?.httpCode).toBe('500');
		expect(JSON.stringify(p.staticData)).toBe(before);

		const recovered = await p.poll();
		expect(events(recovered)).toEqual([['document.viewed', id, 'sent']]);
		expect((await p.poll()).output).toBeNull();
	});

	test('a corrupt state resets itself with a warning instead of failing every poll', async () => {
		await seed('draft');
		const p = poller();
		p.staticData = { 'node:eSign Status Trigger': { v: 1, maxId: 'x', open: 'nonsense' } };
		const run = await p.poll();
		expect(run.error).toBeUndefined();
		expect(run.output).toBeNull();
		expect(run.warnings.join('\n')).toMatch(/stored state was reset because its highest id is not valid/);
		expect(p.staticData['node:eSign Status Trigger']).toMatchObject({ v: 1, maxId: 1, open: '1d' });

		// A corrupt document list: not reset, but recovered from its highest id, so a document created since is
		// still reported (and the warning says what may be missed).
		p.staticData = { 'node:eSign Status Trigger': { v: 1, maxId: 1, polls: 0, counts: {}, open: '1d,abc' } };
		const [created] = await seed('sent');
		const again = await p.poll();
		expect(again.warnings.join('\n')).toMatch(/could not be read in full because its document list is corrupt\. It goes on from what could be read, the highest id \(1\)/);
		expect(events(again).map(([, id]) => id)).toContain(created);
		expect(p.state).toMatchObject({ v: 1, maxId: Number(created), open: expect.stringContaining(`${created}s`) });
		expect((await p.poll()).warnings).toEqual([]);
	});

	test('a state stored in this release’s format before an upgrade is read after it: a document completed in between is reported once', async () => {
		const [signed] = await seed('sent');
		const [other] = await seed('sent');
		const [draft] = await seed('draft');
		const p = poller({ events: ['*'] });
		// The static data as this release leaves it after a poll (format 1), written out here as n8n's database holds
		// it, not by the node's own writer: a later release must read it as it is.
		const counts = { total: 3, draft: 1, sent: 2, viewed: 0, completed: 0, declined: 0, expired: 0, deleted: 0 };
		p.staticData = { 'node:eSign Status Trigger': { v: 1, maxId: Number(draft), counts, open: `${signed}s,${other}s,${draft}d`, polls: 4 } };
		// Between the last poll before the upgrade and the first after it:
		const token = await signerToken(signed);
		await control(sb, 'POST', `/__sandbox/sign/${token}/view`);
		await control(sb, 'POST', `/__sandbox/sign/${token}/sign`);

		const first = await p.poll();
		expect(first.error).toBeUndefined();
		expect(first.warnings).toEqual([]);
		expect(events(first)).toEqual([['document.completed', signed, 'sent']]);
		expect((await p.poll()).output).toBeNull();
	});

	test('a /stats that leaves counts out (an older or trimmed site): the state is kept and a quiet poll is one request', async () => {
		await seed('draft');
		await seed('sent');
		/** The next GET /stats answers only the given counts. */
		const trimmedStats = (counts: Json) =>
			hostile(sb, { path: '/wp-json/esign/v1/stats', method: 'GET', raw: { status: 200, headers: { 'Content-Type': 'application/json' }, body: counts } });
		const p = poller();
		await trimmedStats({ total: 2 });
		expect((await p.poll()).error).toBeUndefined();
		for (let quiet = 0; quiet < 2; quiet++) {
			await trimmedStats({ total: 2 });
			await clearLog(sb);
			const run = await p.poll();
			expect({ output: run.output, warnings: run.warnings }).toEqual({ output: null, warnings: [] });
			expect(await requestLines()).toEqual(['GET /stats']);
		}
		const [created] = await seed('draft');
		await trimmedStats({ total: 3 });
		expect(events(await p.poll())).toEqual([['document.created', created, null]]);
	});

	test('Fetch Test Event (manual): the newest matching document, and no state written', async () => {
		await seed('completed', 1, 'Old');
		await seed('draft', 2);
		const run = await harness.runPoll({ parameters: { events: ['document.completed'] }, credentials: credentialsFor(sb), mode: 'manual' });
		expect(run.items).toHaveLength(1);
		expect(run.items[0].json).toMatchObject({ event: 'document.completed', previousStatus: null, document: { id: '1', status: 'completed' } });
		expect(run.staticData).toEqual({});

		const none = await harness.runPoll({ parameters: { events: ['document.declined'] }, credentials: credentialsFor(sb), mode: 'manual' });
		expect(none.error?.message).toMatch(/No document on the site matches/);
	});

	test('bad options are refused before any request', async () => {
		await clearLog(sb);
		const run = await harness.runPoll({ parameters: { events: ['*'], options: { rescanEvery: 1.5 } }, credentials: credentialsFor(sb) });
		expect(run.error?.message).toMatch(/Full Rescan Every N Polls must be a whole number/);
		const none = await harness.runPoll({ parameters: { events: [] }, credentials: credentialsFor(sb) });
		expect(none.error?.message).toMatch(/at least one event/);
		expect(await requestLines()).toEqual([]);
	});
});
