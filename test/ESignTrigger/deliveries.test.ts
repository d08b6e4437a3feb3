// eSign Trigger: repeated and stale deliveries, through n8n-core's WebhookContext and the run n8n creates for an
// accepted one (test/harness runWebhook models n8n 2.41.1's executeWebhook: the answer after the run exists, 500 when
// it cannot be created, and which static data n8n saves). The static data is carried from one delivery to the next
// the way n8n stores it between webhook calls.
import * as crypto from 'crypto';

import { sleep } from 'n8n-workflow';

import * as h from '../harness';
import { offlineCredentials } from '../support';

const SECRET = ['whsec', 'deliveries', crypto.randomBytes(6).toString('hex')].join('_');
const credentials = offlineCredentials(SECRET);
const sign = (body: string) => `sha256=${crypto.createHmac('sha256', SECRET).update(body).digest('hex')}`;

/** YYYY-MM-DD HH:MM:SS of an instant, on the wall clock of a time zone. */
function wallTime(instant: number, timeZone: string): string {
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
			.formatToParts(new Date(instant))
			.map((p) => [p.type, p.value]),
	);
	return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

const body = (documentId: number, timestamp = wallTime(Date.now(), 'UTC')) =>
	JSON.stringify({ event: 'document.completed', data: { document_id: documentId, document_title: 'Lease' }, timestamp });

interface DeliverOptions {
	options?: Record<string, unknown>;
	staticData?: unknown;
	parameters?: Record<string, unknown>;
	workflowId?: string;
	mode?: 'webhook' | 'manual';
	execute?: boolean;
	failRun?: boolean;
	beforeRun?: () => Promise<void>;
}

async function deliver(raw: string, { options = {}, parameters = {}, ...rest }: DeliverOptions = {}) {
	return await h.runWebhook({
		parameters: { events: ['*'], ...parameters, options },
		credentials,
		request: { headers: { 'content-type': 'application/json', 'x-esign-signature': sign(raw) }, rawBody: raw },
		...rest,
	});
}

/**
 * The id a delivery is remembered by, computed here on its own: base64url of the first 12 bytes of SHA-256 over what
 * the site sent, as compact JSON in the order sent (for these compact bodies, their bytes).
 */
const idOf = (raw: string) => crypto.createHash('sha256').update(raw).digest().subarray(0, 12).toString('base64url');
type Stored = Record<string, { acceptedIds?: string; acceptedDeliveries?: unknown }>;
const storedIds = (staticData: unknown): string => (staticData as Stored)['node:eSign Trigger']?.acceptedIds ?? '';
const newWorkflowId = () => `wf-repeats-${crypto.randomBytes(4).toString('hex')}`;

describe('Ignore Repeated Deliveries (a visible parameter, on by default)', () => {
	test('a byte-identical repeat is answered 200 and does not run the workflow again', async () => {
		const raw = body(7);
		const first = await deliver(raw);
		expect(first.items).toHaveLength(1);
		expect(first.staticDataChanged).toBe(true);
		expect(storedIds(first.staticData)).toBe(idOf(raw));
		expect(JSON.stringify(first.staticData)).not.toContain('Lease'); // ids only, no bodies
		const repeat = await deliver(raw, { staticData: first.staticData });
		expect(repeat.statusCode).toBe(200);
		expect(repeat.json).toEqual({ code: 'repeated_delivery', message: expect.stringMatching(/already processed/) });
		expect(repeat.workflowData).toBeUndefined();
		expect(repeat.items).toHaveLength(0);
		expect(repeat.staticDataChanged).toBe(false); // written only when a delivery is accepted
	});

	test('an accepted delivery is answered by n8n once its run exists, and only the run records it', async () => {
		const raw = body(8); // built once: its timestamp has a one-second resolution
		const queued = await deliver(raw, { execute: false }); // the run is created (queued), not executed yet
		expect(queued.result).toEqual({ workflowData: [[expect.objectContaining({ json: expect.any(Object) })]] });
		expect(queued.result.noWebhookResponse).toBeUndefined(); // the node leaves the answer to n8n
		expect(queued.runCreated).toBe(true);
		expect(queued.statusCode).toBe(200);
		expect(queued.json).toEqual({ message: 'Workflow was started' });
		expect(queued.staticDataChanged).toBe(false); // the webhook call itself records nothing
		const ran = await deliver(raw);
		expect(ran.run.status).toBe('success');
		expect(storedIds(ran.staticData)).toBe(idOf(raw)); // saved when the run ended
	});

	test('a different body (even one byte) runs; a forged repeat is still 401', async () => {
		const raw = body(7);
		const first = await deliver(raw);
		const other = await deliver(raw.replace('"Lease"', '"Lease "'), { staticData: first.staticData });
		expect(other.items).toHaveLength(1);
		const forged = await h.runWebhook({
			parameters: { events: ['*'] },
			credentials,
			request: { headers: { 'content-type': 'application/json', 'x-esign-signature': 'sha256=' + '0'.repeat(64) }, rawBody: raw },
			staticData: first.staticData,
		});
		expect(forged.statusCode).toBe(401);
	});

	test('remembers the last 200 accepted deliveries in a few kilobytes, oldest dropped first', async () => {
		let staticData: unknown;
		for (let id = 1; id <= 201; id++) {
			// Only the stored ids are carried over, as n8n would; the node's own work is what is measured.
			const run = await deliver(body(id, '2026-11-22 10:00:00'), { staticData });
			expect(run.items).toHaveLength(1);
			staticData = run.staticData;
		}
		// n8n keeps a node's static data under "node:<node name>".
		expect(storedIds(staticData)).toHaveLength(200 * 16);
		expect(JSON.stringify(staticData).length).toBeLessThan(4 * 1024);
		expect(storedIds(staticData).endsWith(idOf(body(201, '2026-11-22 10:00:00')))).toBe(true);
		expect((await deliver(body(1, '2026-11-22 10:00:00'), { staticData })).items).toHaveLength(1); // forgotten
		expect((await deliver(body(2, '2026-11-22 10:00:00'), { staticData })).items).toHaveLength(0); // remembered
	});

	test('turned off: the same body runs every time and nothing is stored', async () => {
		const raw = body(8);
		const first = await deliver(raw, { parameters: { ignoreRepeatedDeliveries: false } });
		const again = await deliver(raw, { parameters: { ignoreRepeatedDeliveries: false }, staticData: first.staticData });
		expect(first.items).toHaveLength(1);
		expect(again.items).toHaveLength(1);
		expect(first.staticDataChanged).toBe(false);
	});

	test('a corrupt stored state does not fail deliveries', async () => {
		const raw = body(9);
		const run = await deliver(raw, { staticData: { 'node:eSign Trigger': { acceptedIds: 42 } } });
		expect(run.items).toHaveLength(1);
		expect(storedIds(run.staticData)).toBe(idOf(raw));
		const garbage = await deliver(raw, { staticData: { 'node:eSign Trigger': { acceptedDeliveries: 'garbage' } } });
		expect(garbage.items).toHaveLength(1);
	});

	test('the earlier store (an array of hex SHA-256 hashes) is read, and replaced by the short one on the next write', async () => {
		const old = body(10);
		const hex = crypto.createHash('sha256').update(old).digest('hex');
		const staticData = { 'node:eSign Trigger': { acceptedDeliveries: ['not a hash', hex] } };
		expect((await deliver(old, { staticData })).items).toHaveLength(0); // still known as accepted
		const raw = body(11);
		const next = await deliver(raw, { staticData });
		expect(next.items).toHaveLength(1);
		expect((next.staticData as Stored)['node:eSign Trigger']).toEqual({ acceptedIds: idOf(old) + idOf(raw) });
	});
});

describe('which deliveries count as repeats: bodies exactly as the spec shows them ({event, data})', () => {
	const spec = (event: string, data: Record<string, unknown>) => JSON.stringify({ event, data });

	test.each([
		['document.completed', { document_id: 4, document_title: 'Lease' }],
		['document.declined', { document_id: 4, decline_reason: 'Wrong address' }],
	])('%s happens once per document: an identical body is a repeat', async (event, data) => {
		const raw = spec(event, data);
		const first = await deliver(raw);
		expect(first.items).toHaveLength(1);
		expect((await deliver(raw, { staticData: first.staticData })).items).toHaveLength(0);
	});

	test('another event with no time or id in its body can recur with the same bytes: it always runs, and nothing is stored', async () => {
		const raw = spec('document.viewed', { document_id: 4, signer_id: 2 });
		const first = await deliver(raw);
		const again = await deliver(raw, { staticData: first.staticData });
		expect(first.items).toHaveLength(1);
		expect(again.items).toHaveLength(1);
		expect(first.staticDataChanged).toBe(false);
	});

	test.each([
		['a timestamp (as the doubles send)', { timestamp: '2026-11-24 10:00:00' }, {}],
		['a delivery id', { delivery_id: 'd-123' }, {}],
		['a time in data', {}, { viewed_at: '2026-11-24 10:00:00' }],
	])('any event whose body carries %s is a repeat when identical', async (_name, rest, dataMore) => {
		const raw = JSON.stringify({ event: 'document.viewed', data: { document_id: 4, signer_id: 2, ...dataMore }, ...rest });
		const first = await deliver(raw);
		expect(first.items).toHaveLength(1);
		expect((await deliver(raw, { staticData: first.staticData })).items).toHaveLength(0);
	});
});

describe('side-by-side calls in one n8n process (each saves its own copy of the static data; the last save wins)', () => {
	test('the last copy saved still holds the ids the other calls accepted, so a later repeat of any is recognised', async () => {
		const workflowId = newWorkflowId();
		const a = body(21);
		const b = body(22);
		// Both calls start from the same stored state, as concurrent webhook calls do.
		const first = await deliver(a, { workflowId, staticData: {} });
		const second = await deliver(b, { workflowId, staticData: {} });
		expect(first.items).toHaveLength(1);
		expect(second.items).toHaveLength(1);
		expect(storedIds(second.staticData)).toBe(idOf(a) + idOf(b)); // saved last, it keeps the other's id
		// A repeat of the first, arriving later, against what n8n kept (the last save).
		expect((await deliver(a, { workflowId, staticData: second.staticData })).items).toHaveLength(0);
	});

	test('test deliveries (Execute step) are not kept in the process: the same body later in production runs', async () => {
		const workflowId = newWorkflowId();
		const raw = body(23);
		expect((await deliver(raw, { workflowId, mode: 'manual' })).items).toHaveLength(1);
		expect((await deliver(raw, { workflowId, staticData: {} })).items).toHaveLength(1);
	});

	test('another workflow (or another trigger) is not affected by this one’s deliveries', async () => {
		const raw = body(24);
		expect((await deliver(raw, { workflowId: newWorkflowId(), staticData: {} })).items).toHaveLength(1);
		expect((await deliver(raw, { workflowId: newWorkflowId(), staticData: {} })).items).toHaveLength(1);
	});
});

describe('a 200 is a promise: n8n answers once the run exists, and nothing is remembered for a run that failed', () => {
	test('the run cannot be created → 500, nothing recorded; the site\'s resend runs once, and a later resend is a repeat', async () => {
		const workflowId = newWorkflowId();
		const raw = body(31);
		const failed = await deliver(raw, { workflowId, staticData: {}, failRun: true });
		expect(failed.statusCode).toBe(500);
		expect(failed.runCreated).toBe(false);
		expect(failed.staticDataChanged).toBe(false);
		expect(storedIds(failed.staticData)).toBe('');
		const resent = await deliver(raw, { workflowId, staticData: failed.staticData });
		expect(resent.statusCode).toBe(200);
		expect(resent.json).toEqual({ message: 'Workflow was started' });
		expect(resent.run.status).toBe('success');
		expect(resent.items).toHaveLength(1);
		const again = await deliver(raw, { workflowId, staticData: resent.staticData });
		expect(again.json.code).toBe('repeated_delivery');
		expect(again.runCreated).toBe(false);
	});

	test('a repeat that arrives before the first run ended (nothing saved yet) is recognised in the process', async () => {
		const workflowId = newWorkflowId();
		const raw = body(32);
		const queued = await deliver(raw, { workflowId, staticData: {}, execute: false });
		expect(queued.statusCode).toBe(200);
		const repeat = await deliver(raw, { workflowId, staticData: queued.staticData });
		expect(repeat.json.code).toBe('repeated_delivery');
		expect(repeat.runCreated).toBe(false);
	});

	/** Holds n8n's creation of a run where it happens: `reached` once n8n is there; then release() or fail(). */
	function heldRun() {
		let reach: () => void = () => undefined;
		let release: () => void = () => undefined;
		let fail: (error: Error) => void = () => undefined;
		const reached = new Promise<void>((resolve) => (reach = resolve));
		const outcome = new Promise<void>((resolve, reject) => ((release = resolve), (fail = reject)));
		return { reached, release: () => release(), fail: (error: Error) => fail(error), beforeRun: () => (reach(), outcome) };
	}
	/** Lets a copy sent now reach its wait for the first (2 s long): if it took longer, it would find the first answered, which the checks below accept too. */
	const copyWaiting = () => sleep(300);

	test('identical copies at the same moment: the copy waits for n8n\'s answer to the first, then is a repeat', async () => {
		const workflowId = newWorkflowId();
		const raw = body(33);
		const hold = heldRun();
		const first = deliver(raw, { workflowId, staticData: {}, beforeRun: hold.beforeRun });
		await hold.reached;
		const copy = deliver(raw, { workflowId, staticData: {} });
		await copyWaiting();
		hold.release();
		const [a, b] = await Promise.all([first, copy]);
		expect(a.json).toEqual({ message: 'Workflow was started' });
		expect(b.statusCode).toBe(200);
		expect(b.json.code).toBe('repeated_delivery');
		expect([a, b].filter((r) => r.runCreated)).toHaveLength(1);
	});

	test('a copy while n8n refuses the first goes ahead and runs once (a failed delivery is never a "repeat")', async () => {
		const workflowId = newWorkflowId();
		const raw = body(34);
		const hold = heldRun();
		const first = deliver(raw, { workflowId, staticData: {}, beforeRun: hold.beforeRun });
		await hold.reached;
		const copy = deliver(raw, { workflowId, staticData: {} });
		await copyWaiting();
		hold.fail(new Error('the database refused the execution'));
		const [a, b] = await Promise.all([first, copy]);
		expect(a.statusCode).toBe(500);
		expect(b.statusCode).toBe(200);
		expect(b.json).toEqual({ message: 'Workflow was started' });
		expect(b.run.status).toBe('success');
	});

	test('a copy while n8n has not answered the first for a while: 503 with Retry-After, and it runs nothing', async () => {
		const workflowId = newWorkflowId();
		const raw = body(35);
		const hold = heldRun();
		const first = deliver(raw, { workflowId, staticData: {}, beforeRun: hold.beforeRun });
		await hold.reached;
		const copy = await deliver(raw, { workflowId, staticData: {} }); // the first stays unanswered throughout
		expect(copy.statusCode).toBe(503);
		expect(copy.json.code).toBe('delivery_in_progress');
		expect(copy.headers['retry-after']).toBe('10');
		expect(copy.runCreated).toBe(false);
		hold.release();
		expect((await first).run.status).toBe('success');
		expect((await deliver(raw, { workflowId, staticData: {} })).json.code).toBe('repeated_delivery');
	});

	test('a test delivery (Execute step) records nothing: the same body in production runs', async () => {
		const workflowId = newWorkflowId();
		const raw = body(36);
		const test = await deliver(raw, { workflowId, staticData: {}, mode: 'manual' });
		expect(test.run.status).toBe('success');
		expect(test.staticDataChanged).toBe(false);
		expect((await deliver(raw, { workflowId, staticData: test.staticData })).run.status).toBe('success');
	});
});

describe('Reject Deliveries Older Than (off by default)', () => {
	const options = (minutes: number, siteTimeZone?: string) => ({ maxDeliveryAgeMinutes: minutes, ...(siteTimeZone ? { siteTimeZone } : {}) });
	// The clock stands still in these tests (only Date is faked; timers and I/O run as usual): the ages below are
	// what the node sees, however long a busy machine takes between building a body and receiving it.
	const REAL = ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] as const;
	beforeEach(() => jest.useFakeTimers({ doNotFake: [...REAL], now: Date.now() }));
	afterEach(() => jest.useRealTimers());

	test('off: an old delivery still runs', async () => {
		expect((await deliver(body(1, '2020-01-01 00:00:00'))).items).toHaveLength(1);
	});

	test('a delivery older than the limit is answered 200 without running; a fresh one runs', async () => {
		const stale = await deliver(body(1, wallTime(Date.now() - 20 * 60000, 'UTC')), { options: options(10) });
		expect(stale.statusCode).toBe(200);
		expect(stale.json.code).toBe('stale_delivery');
		expect(stale.items).toHaveLength(0);
		const fresh = await deliver(body(2, wallTime(Date.now() - 5 * 60000, 'UTC')), { options: options(10) });
		expect(fresh.items).toHaveLength(1);
	});

	test('the timestamp is read in the Site Time Zone', async () => {
		// 5 minutes ago in New York: fresh there, but read as UTC it would be hours off.
		const raw = body(3, wallTime(Date.now() - 5 * 60000, 'America/New_York'));
		expect((await deliver(raw, { options: options(10, 'America/New_York') })).items).toHaveLength(1);
		const asUtc = await deliver(raw, { options: options(10) });
		expect(asUtc.json.code).toBe('stale_delivery');
	});

	/** A delivery as a site of the family sends it (WPsigner's docs): ISO 8601 time, webhook id, metadata. */
	const familyBody = (timestamp: unknown, documentId = 44) =>
		JSON.stringify({
			event: 'document.signed',
			timestamp,
			webhook_id: 'wh_abc123',
			data: { document_id: String(documentId), document_title: 'Employment Contract', signer_id: '38', status: 'signed' },
			metadata: { site_url: 'https://sign.example.com', plugin_version: '2.8.0' },
		});
	const iso = (instant: number, offsetMinutes = 0, fraction = false) => {
		const local = new Date(instant + offsetMinutes * 60000).toISOString().replace('Z', '');
		const text = fraction ? local : local.replace(/\.\d+$/, '');
		if (offsetMinutes === 0) return `${text}Z`;
		const sign = offsetMinutes < 0 ? '-' : '+';
		const abs = Math.abs(offsetMinutes);
		return `${text}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
	};

	test.each([
		['ISO 8601 with Z', (t: number) => iso(t)],
		['ISO 8601 with an offset', (t: number) => iso(t, 120)],
		['ISO 8601 with a negative offset and fractions', (t: number) => iso(t, -330, true)],
		['Unix seconds', (t: number) => Math.floor(t / 1000)],
		['Unix milliseconds as digits', (t: number) => String(t)],
	])('%s: two hours old is stale, two minutes old runs (whatever the Site Time Zone)', async (_name, format) => {
		const twoHours = await deliver(familyBody(format(Date.now() - 2 * 3600000), 1), { options: options(10, 'America/New_York') });
		expect(twoHours.statusCode).toBe(200);
		expect(twoHours.json.code).toBe('stale_delivery');
		expect(twoHours.runCreated).toBe(false);
		const fresh = await deliver(familyBody(format(Date.now() - 2 * 60000), 2), { options: options(10, 'America/New_York') });
		expect(fresh.run.status).toBe('success');
		expect(fresh.items[0].json).toEqual(expect.objectContaining({ webhook_id: 'wh_abc123', metadata: expect.objectContaining({ plugin_version: '2.8.0' }) }));
		expect(fresh.logs.warn).toEqual([]);
	});

	test('a timestamp it cannot read runs, and the log says its age was not checked', async () => {
		for (const timestamp of ['yesterday', '2026-02-30 10:00:00', '20/01/2024 15:30', 17, { at: 1 }]) {
			const run = await deliver(familyBody(timestamp), { options: options(10) });
			expect(run.run.status).toBe('success');
			expect(run.logs.warn).toEqual([expect.stringMatching(/without checking its age.*not a time the trigger can read/)]);
		}
	});

	test('without a timestamp member a delivery runs, and the log says so once per trigger', async () => {
		const workflowId = newWorkflowId();
		const noTimestamp = (id: number) => JSON.stringify({ event: 'document.completed', data: { document_id: id } });
		const first = await deliver(noTimestamp(4), { workflowId, options: options(10) });
		expect(first.run.status).toBe('success');
		expect(first.logs.warn).toEqual([expect.stringMatching(/no "timestamp" member.*Logged once/)]);
		const second = await deliver(noTimestamp(5), { workflowId, options: options(10) });
		expect(second.run.status).toBe('success');
		expect(second.logs.warn).toEqual([]);
	});

	test('an unknown Site Time Zone: a wall-clock timestamp runs, and the log names the time zone', async () => {
		const run = await deliver(body(5, '2020-01-01 00:00:00'), { options: options(10, 'Mars/Olympus') });
		expect(run.run.status).toBe('success');
		expect(run.logs.warn).toEqual([expect.stringMatching(/Site Time Zone "Mars\/Olympus" is not a known time zone/)]);
	});
});

describe('bodies of a site of the same family (WPsigner): webhook_id names the webhook, not one occurrence', () => {
	test('identical bodies with a webhook_id and no time can be two occurrences: both run', async () => {
		const workflowId = newWorkflowId();
		const raw = JSON.stringify({ event: 'signer.viewed', webhook_id: 'wh_abc123', data: { document_id: '44', signer_id: '38' } });
		const first = await deliver(raw, { workflowId, staticData: {} });
		const second = await deliver(raw, { workflowId, staticData: first.staticData });
		expect(first.run.status).toBe('success');
		expect(second.run.status).toBe('success');
		expect(first.staticDataChanged).toBe(false);
	});

	test('with its timestamp a delivery is one occurrence: a resend of the same body is a repeat', async () => {
		const raw = JSON.stringify({ event: 'signer.viewed', timestamp: '2024-01-20T15:30:45Z', webhook_id: 'wh_abc123', data: { document_id: '44' } });
		const first = await deliver(raw, { staticData: {} });
		expect((await deliver(raw, { staticData: first.staticData })).json.code).toBe('repeated_delivery');
	});
});
