// eSign Trigger: repeated and stale deliveries, through n8n-core's WebhookContext. The static data is carried
// from one delivery to the next the way n8n stores it between webhook calls.
import * as crypto from 'crypto';

import { siteTimeToEpoch } from '../../nodes/ESignTrigger/deliveries';
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

async function deliver(raw: string, { options = {}, staticData }: { options?: Record<string, unknown>; staticData?: unknown } = {}) {
	return await h.runWebhook({
		parameters: { events: ['*'], options },
		credentials,
		request: { headers: { 'content-type': 'application/json', 'x-esign-signature': sign(raw) }, rawBody: raw },
		staticData,
	});
}

describe('Ignore Repeated Deliveries (on by default)', () => {
	test('a byte-identical repeat is answered 200 and does not run the workflow again', async () => {
		const raw = body(7);
		const first = await deliver(raw);
		expect(first.items).toHaveLength(1);
		expect(first.staticDataChanged).toBe(true);
		const stored = first.staticData;
		expect(stored['node:eSign Trigger'].acceptedDeliveries).toEqual([crypto.createHash('sha256').update(raw).digest('hex')]);
		expect(JSON.stringify(stored)).not.toContain('Lease'); // hashes only, no bodies
		const repeat = await deliver(raw, { staticData: stored });
		expect(repeat.statusCode).toBe(200);
		expect(repeat.json).toEqual({ code: 'repeated_delivery', message: expect.stringMatching(/already processed/) });
		expect(repeat.workflowData).toBeUndefined();
		expect(repeat.items).toHaveLength(0);
	});

	test('an accepted delivery is answered by the trigger itself, so n8n saves the hash before it queues the run', async () => {
		// In queue mode a worker writes back the static data it loaded: a hash saved after queueing is lost.
		const first = await deliver(body(8));
		expect(first.items).toHaveLength(1);
		expect(first.result.noWebhookResponse).toBe(true);
		expect(first.answered).toBe(true);
		expect(first.statusCode).toBe(200);
		expect(first.json).toEqual({ message: 'Workflow was started' });
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

	test('remembers the last 1,000 accepted deliveries, oldest dropped first', async () => {
		let staticData: unknown;
		for (let id = 1; id <= 1001; id++) {
			// Only the stored hashes are carried over, as n8n would; the node's own work is what is measured.
			const run = await deliver(body(id, '2026-11-22 10:00:00'), { staticData });
			expect(run.items).toHaveLength(1);
			staticData = run.staticData;
		}
		// n8n keeps a node's static data under "node:<node name>".
		expect((staticData as Record<string, { acceptedDeliveries: string[] }>)['node:eSign Trigger'].acceptedDeliveries).toHaveLength(1000);
		expect((await deliver(body(1, '2026-11-22 10:00:00'), { staticData })).items).toHaveLength(1); // forgotten
		expect((await deliver(body(1001, '2026-11-22 10:00:00'), { staticData })).items).toHaveLength(0); // remembered
	});

	test('turned off: the same body runs every time and nothing is stored', async () => {
		const raw = body(8);
		const first = await deliver(raw, { options: { ignoreRepeatedDeliveries: false } });
		const again = await deliver(raw, { options: { ignoreRepeatedDeliveries: false }, staticData: first.staticData });
		expect(first.items).toHaveLength(1);
		expect(again.items).toHaveLength(1);
		expect(first.staticDataChanged).toBe(false);
	});

	test('a corrupt stored state does not fail deliveries', async () => {
		const run = await deliver(body(9), { staticData: { 'node:eSign Trigger': { acceptedDeliveries: ['x', 42, null] } } });
		expect(run.items).toHaveLength(1);
		expect(run.staticData['node:eSign Trigger'].acceptedDeliveries).toEqual(['x', expect.stringMatching(/^[0-9a-f]{64}$/)]);
		const garbage = await deliver(body(9), { staticData: { 'node:eSign Trigger': { acceptedDeliveries: 'garbage' } } });
		expect(garbage.items).toHaveLength(1);
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

	test('a delivery without a readable timestamp, or an unknown time zone, is not dropped', async () => {
		const noTimestamp = JSON.stringify({ event: 'document.completed', data: { document_id: 4 } });
		expect((await deliver(noTimestamp, { options: options(10) })).items).toHaveLength(1);
		expect((await deliver(body(5, '2020-01-01 00:00:00'), { options: options(10, 'Mars/Olympus') })).items).toHaveLength(1);
	});

	test('wall times convert across daylight saving time', () => {
		expect(siteTimeToEpoch('2026-07-01 12:00:00', 'Europe/Berlin')).toBe(Date.UTC(2026, 6, 1, 10, 0, 0));
		expect(siteTimeToEpoch('2026-01-01 12:00:00', 'Europe/Berlin')).toBe(Date.UTC(2026, 0, 1, 11, 0, 0));
		expect(siteTimeToEpoch('2026-11-22 10:00:00', 'UTC')).toBe(Date.UTC(2026, 10, 22, 10, 0, 0));
		expect(siteTimeToEpoch('22/11/2026', 'UTC')).toBeUndefined();
	});
});
