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

async function deliver(
	raw: string,
	{ options = {}, staticData, parameters = {}, workflowId, mode }: { options?: Record<string, unknown>; staticData?: unknown; parameters?: Record<string, unknown>; workflowId?: string; mode?: string } = {},
) {
	return await h.runWebhook({
		parameters: { events: ['*'], ...parameters, options },
		credentials,
		request: { headers: { 'content-type': 'application/json', 'x-esign-signature': sign(raw) }, rawBody: raw },
		staticData,
		workflowId,
		mode,
	});
}

/** The id a delivery is remembered by, computed here on its own: base64url of SHA-256's first 12 bytes. */
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

	test('an accepted delivery is answered by the trigger itself, so n8n saves the id before it queues the run', async () => {
		// In queue mode a worker writes back the static data it loaded: an id saved after queueing is lost.
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
		const run = await deliver(body(9), { staticData: { 'node:eSign Trigger': { acceptedIds: 42 } } });
		expect(run.items).toHaveLength(1);
		expect(storedIds(run.staticData)).toBe(idOf(body(9)));
		const garbage = await deliver(body(9), { staticData: { 'node:eSign Trigger': { acceptedDeliveries: 'garbage' } } });
		expect(garbage.items).toHaveLength(1);
	});

	test('the earlier store (an array of hex SHA-256 hashes) is read, and replaced by the short one on the next write', async () => {
		const old = body(10);
		const hex = crypto.createHash('sha256').update(old).digest('hex');
		const staticData = { 'node:eSign Trigger': { acceptedDeliveries: ['not a hash', hex] } };
		expect((await deliver(old, { staticData })).items).toHaveLength(0); // still known as accepted
		const next = await deliver(body(11), { staticData });
		expect(next.items).toHaveLength(1);
		expect((next.staticData as Stored)['node:eSign Trigger']).toEqual({ acceptedIds: idOf(old) + idOf(body(11)) });
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
