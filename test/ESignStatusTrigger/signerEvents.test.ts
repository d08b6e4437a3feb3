// eSign Status Trigger, per-signer events: each poll runs through n8n-core's PollContext against the sandbox
// over HTTP, with documents of two or three signers made through the API and signed one signer at a time.
import type { Json, PollRun } from '../support';
import { clearLog, control, credentialsFor, harness, sentDocument, strictProfile, useSandbox } from '../support';
import { poller as makePoller } from './poller';

const sb = useSandbox();

const SIGNERS = [
	{ name: 'Ann Client', email: 'ann@client.example', signing_order: 1 },
	{ name: 'Bob Counter', email: 'bob@counter.example', signing_order: 2 },
	{ name: 'Cy Witness', email: 'cy@witness.example', signing_order: 3 },
];

/** A sent document with `n` signers; returns its id and each signer's sandbox token, in signing order. */
async function sentWith(n: number, title = 'Two-party lease'): Promise<{ id: string; tokens: string[]; signerIds: string[] }> {
	const doc = await sentDocument(sb, { title, signers: SIGNERS.slice(0, n) });
	const signers = await control<Json[]>(sb, 'GET', `/__sandbox/signers?document_id=${doc.id}`);
	signers.sort((a, b) => Number(a.signing_order) - Number(b.signing_order));
	return { id: String(doc.id), tokens: signers.map((s) => s.token), signerIds: signers.map((s) => String(s.id)) };
}

const act = (token: string, action: 'view' | 'sign' | 'decline', body?: Json) =>
	control(sb, 'POST', `/__sandbox/sign/${token}/${action}`, body);

const poller = (parameters: Json) => makePoller(sb, parameters);

/** [event, document id, signer id or '-', previousStatus] per item, in output order. */
const events = (run: PollRun) =>
	run.items.map((i) => [i.json.event, i.json.document.id, i.json.signer?.id ?? '-', i.json.previousStatus]);

const requestLines = async (): Promise<string[]> =>
	((await control<Json[]>(sb, 'GET', '/__sandbox/requests')) as Json[]).map((r) => `${r.method} ${r.path.replace('/wp-json/esign/v1', '')}`);

const ALL = ['signer.viewed', 'signer.signed', 'signer.declined', 'document.completed', 'document.declined'];

describe('eSign Status Trigger: signer events', () => {
	test('a two-signer document signed one signer at a time: Signer Signed, then Signer Signed + Document Completed, once each', async () => {
		const { id, tokens, signerIds } = await sentWith(2);
		const p = poller({ events: ['signer.signed', 'document.completed'] });
		expect((await p.poll()).output).toBeNull();

		await act(tokens[0], 'sign');
		const first = await p.poll();
		expect(events(first)).toEqual([['signer.signed', id, signerIds[0], 'pending']]);
		const item = first.items[0].json;
		expect(item.signer).toMatchObject({ name: 'Ann Client', email: 'ann@client.example', signing_order: '1', status: 'signed' });
		expect(item.signer.signed_at).toEqual(expect.any(String));
		expect(item.document).toMatchObject({ id, status: 'viewed', title: 'Two-party lease' });
		expect(item.document.signers).toBeUndefined();
		expect(Object.keys(item).sort()).toEqual(['detectedAt', 'document', 'event', 'previousStatus', 'signer']);

		// The document stays viewed: /stats holds still, the one viewed document is read, nothing repeats.
		await clearLog(sb);
		expect((await p.poll()).output).toBeNull();
		expect(await requestLines()).toEqual(['GET /stats', `GET /documents/${id}`]);

		await act(tokens[1], 'sign');
		await clearLog(sb);
		const last = await p.poll();
		expect(events(last)).toEqual([
			['signer.signed', id, signerIds[1], 'pending'],
			['document.completed', id, '-', 'viewed'],
		]);
		// The finished document is read by id once: that answer serves detection and the signers alike.
		expect(await requestLines()).toEqual(['GET /stats', 'GET /documents', 'GET /documents', `GET /documents/${id}`]);
		await clearLog(sb);
		expect((await p.poll()).output).toBeNull();
		expect(await requestLines()).toEqual(['GET /stats']);
		expect(p.state.signers).toBe('');
	});

	test('three signers in signing order: every view, signature and the decline reported once, with the status before', async () => {
		const { id, tokens, signerIds } = await sentWith(3);
		const p = poller({ events: ALL });
		await p.poll();
		await act(tokens[0], 'view');
		expect(events(await p.poll())).toEqual([['signer.viewed', id, signerIds[0], 'pending']]);
		await act(tokens[0], 'sign');
		await act(tokens[1], 'view');
		expect(events(await p.poll()).sort()).toEqual([
			['signer.signed', id, signerIds[0], 'viewed'],
			['signer.viewed', id, signerIds[1], 'pending'],
		]);
		await act(tokens[2], 'decline', { reason: 'Wrong address' });
		const declined = await p.poll();
		expect(events(declined)).toEqual([
			['signer.declined', id, signerIds[2], 'pending'],
			['document.declined', id, '-', 'viewed'],
		]);
		// The spec records a decline in declined_at and decline_reason; the status is the site's: the default profile's
		// guess sets it to declined, the strict profile leaves it as it was (this signer never opened the document).
		expect(declined.items[0].json.signer).toMatchObject({ status: strictProfile ? 'pending' : 'declined', decline_reason: 'Wrong address' });
		expect(declined.items[0].json.signer.declined_at).toEqual(expect.any(String));
		expect((await p.poll()).output).toBeNull();
	});

	test.each([
		['who had opened it (status stays viewed)', true],
		['from the invitation, unopened (status stays pending)', false],
	])('a decline recorded only in declined_at and decline_reason, by a signer %s: Signer Declined once with the reason, Document Declined once', async (_name, viewedFirst) => {
		// The spec's way on either profile: declines: 'timestamps' leaves the signer's status as it was.
		await control(sb, 'POST', '/__sandbox/profile', { name: strictProfile ? 'strict' : 'default', declines: 'timestamps' });
		const { id, tokens, signerIds } = await sentWith(2);
		const p = poller({ events: ['signer.declined', 'document.declined', 'signer.viewed'] });
		await p.poll();
		await act(tokens[0], 'view');
		if (viewedFirst) await act(tokens[1], 'view');
		expect((await p.poll()).items).toHaveLength(viewedFirst ? 2 : 1);
		await act(tokens[1], 'decline', { reason: 'Price changed' });
		const signer = (await control<Json[]>(sb, 'GET', `/__sandbox/signers?document_id=${id}`)).find((s) => String(s.id) === signerIds[1]);
		expect(signer).toMatchObject({ status: viewedFirst ? 'viewed' : 'pending', decline_reason: 'Price changed' });

		const run = await p.poll();
		expect(events(run)).toEqual([
			['signer.declined', id, signerIds[1], viewedFirst ? 'viewed' : 'pending'],
			['document.declined', id, '-', 'viewed'],
		]);
		expect(run.items[0].json.signer).toMatchObject({ decline_reason: 'Price changed', declined_at: expect.any(String), status: signer.status });
		expect((await p.poll()).output).toBeNull();
		expect((await p.poll({ options: { rescanEvery: 1 } })).output).toBeNull();
	});

	test('a signer status the spec does not show: read by its timestamps, else logged once (never dropped in silence)', async () => {
		const { id, tokens, signerIds } = await sentWith(3);
		const p = poller({ events: ['signer.viewed', 'signer.signed', 'signer.declined'] });
		await p.poll();
		await act(tokens[0], 'view'); // the document is viewed: its signers are read on every poll
		expect(events(await p.poll())).toEqual([['signer.viewed', id, signerIds[0], 'pending']]);

		// Another site's records: a status it names its own way, with and without a timestamp that says what happened.
		await control(sb, 'POST', `/__sandbox/signers/${signerIds[1]}`, { status: 'completed', viewed_at: '2026-01-02 03:04:05', signed_at: '2026-01-02 03:04:05' });
		await control(sb, 'POST', `/__sandbox/signers/${signerIds[2]}`, { status: 'on_hold' });
		const run = await p.poll();
		expect(events(run)).toEqual([['signer.signed', id, signerIds[1], 'pending']]);
		expect(run.items[0].json.signer.status).toBe('completed'); // as the site gave it
		const warned = run.warnings.filter((w) => w.includes('"on_hold"'));
		expect(warned).toEqual([expect.stringContaining(`Signer ${signerIds[2]} of document ${id} has the status "on_hold", which the spec does not show`)]);
		// Once per signer and status while n8n runs: the next polls stay quiet.
		const quiet = await p.poll();
		expect(quiet.output).toBeNull();
		expect(quiet.warnings.filter((w) => w.includes('"on_hold"'))).toEqual([]);

		// When that record later shows what happened, it is reported then.
		await control(sb, 'POST', `/__sandbox/signers/${signerIds[2]}`, { viewed_at: '2026-01-02 03:05:00' });
		expect(events(await p.poll())).toEqual([['signer.viewed', id, signerIds[2], 'pending']]);
	});

	test('without signer events the cost stays one request per quiet poll, however many documents are being signed', async () => {
		const docs = [await sentWith(2), await sentWith(2)];
		const p = poller({ events: ['document.completed', 'document.viewed', 'document.created'] });
		await p.poll();
		for (const doc of docs) await act(doc.tokens[0], 'sign');
		expect(events(await p.poll())).toHaveLength(2); // the two document.viewed
		await act(docs[0].tokens[1], 'view'); // a second signer's view moves no count
		await clearLog(sb);
		expect((await p.poll()).output).toBeNull();
		expect(await requestLines()).toEqual(['GET /stats']);
		expect(p.state.signers).toBeUndefined();
	});

	test('the first poll records signers and emits nothing; Emit Existing reports the signers who already acted', async () => {
		const { id, tokens, signerIds } = await sentWith(2);
		await act(tokens[0], 'sign');
		const quiet = poller({ events: ['signer.viewed', 'signer.signed'] });
		expect((await quiet.poll()).output).toBeNull();
		expect((await quiet.poll()).output).toBeNull();

		const existing = await poller({ events: ['signer.viewed', 'signer.signed'] }).poll({ options: { emitExisting: true } });
		expect(events(existing)).toEqual([['signer.signed', id, signerIds[0], null]]);
	});

	test('signer events chosen later: the first poll with them records the signers and reports no old action', async () => {
		const { id, tokens, signerIds } = await sentWith(2);
		const p = poller({ events: ['document.completed'] });
		await p.poll();
		await act(tokens[0], 'sign');
		expect((await p.poll()).output).toBeNull();
		expect((await p.poll({ events: ['signer.signed', 'document.completed'] })).output).toBeNull();
		await act(tokens[1], 'sign');
		expect(events(await p.poll({ events: ['signer.signed', 'document.completed'] }))).toEqual([
			['signer.signed', id, signerIds[1], 'pending'],
			['document.completed', id, '-', 'viewed'],
		]);
	});

	test.each([
		['a 429', { status: 429, retryAfter: 30 }],
		['a 500 after the retries', { status: 500, count: 4 }],
		['a timeout-like dropped connection', { mode: 'drop-before', count: 4 }],
		['an HTML page instead of JSON', { answer: 'wp-critical-error', count: 4 }],
	])('%s on the signer read fails the poll, keeps the state, and the next poll reports once', async (_name, fault) => {
		const { id, tokens, signerIds } = await sentWith(2);
		const p = poller({ events: ['signer.signed', 'document.completed'] });
		await p.poll();
		await act(tokens[0], 'sign');
		expect(events(await p.poll())).toEqual([['signer.signed', id, signerIds[0], 'pending']]);
		const before = JSON.stringify(p.staticData);

		await act(tokens[1], 'sign');
		await control(sb, 'POST', '/__sandbox/faults', { path: `/documents/${id}`, method: 'GET', ...fault });
		const failed = await p.poll();
		expect(failed.error).toBeDefined();
		expect(failed.output ?? null).toBeNull();
		expect(JSON.stringify(p.staticData)).toBe(before);

		await control(sb, 'DELETE', '/__sandbox/faults');
		expect(events(await p.poll())).toEqual([
			['signer.signed', id, signerIds[1], 'pending'],
			['document.completed', id, '-', 'viewed'],
		]);
		expect((await p.poll()).output).toBeNull();
	});

	test('a restart: the static data n8n stored carries over, and a signature made meanwhile is reported once', async () => {
		const { id, tokens, signerIds } = await sentWith(3);
		const before = poller({ events: ['signer.signed'] });
		await before.poll();
		await act(tokens[0], 'sign');
		expect(events(await before.poll())).toHaveLength(1);
		const saved = JSON.parse(JSON.stringify(before.staticData)); // what n8n wrote to its database

		await act(tokens[1], 'sign'); // while n8n is stopped
		const after = poller({ events: ['signer.signed'] });
		after.staticData = saved;
		expect(events(await after.poll())).toEqual([['signer.signed', id, signerIds[1], 'pending']]);
		expect((await after.poll()).output).toBeNull();
	});

	test('the state holds ids and status letters only; a corrupt signer list is recorded afresh (with a warning), the rest of the state kept', async () => {
		const { id, tokens, signerIds } = await sentWith(3, 'Confidential merger');
		const p = poller({ events: ['signer.viewed', 'signer.signed'] });
		await p.poll();
		await act(tokens[0], 'sign');
		await act(tokens[1], 'view');
		await p.poll();
		const stored = JSON.stringify(p.staticData);
		expect(stored).not.toMatch(/@|Ann|Bob|merger|example/i);
		expect(p.state.signers.split(',').sort()).toEqual([`${id}.${signerIds[0]}s`, `${id}.${signerIds[1]}v`]);

		p.staticData = { 'node:eSign Status Trigger': { ...p.state, signers: `${id}.ann@x.example` } };
		const reset = await p.poll();
		expect(reset.error).toBeUndefined();
		expect(reset.warnings.join('\n')).toMatch(/could not be read in full because its signer list is corrupt/);
		expect(reset.output).toBeNull(); // signer statuses recorded again, nothing reported twice
		expect(p.state.signers.split(',').sort()).toEqual([`${id}.${signerIds[0]}s`, `${id}.${signerIds[1]}v`]);
	});

	test('Fetch Test Event with only signer events: the newest signer who acted, and no state written', async () => {
		const { id, tokens, signerIds } = await sentWith(2);
		await act(tokens[1], 'view');
		const run = await harness.runPoll({ parameters: { events: ['signer.viewed'] }, credentials: credentialsFor(sb), mode: 'manual' });
		expect(events(run)).toEqual([['signer.viewed', id, signerIds[1], null]]);
		expect(run.staticData).toEqual({});
		const none = await harness.runPoll({ parameters: { events: ['signer.declined'] }, credentials: credentialsFor(sb), mode: 'manual' });
		expect(none.error?.message).toMatch(/No document on the site matches/);
	});
});
