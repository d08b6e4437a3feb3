// eSign Status Trigger: a seeded random simulation on the sandbox. Between polls, documents are created,
// sent, viewed, signed, declined, expired, deleted and moved draft⇄sent through the API and the sandbox's
// signer controls (expiry on the sandbox clock: no real waiting). After every poll the events are
// compared with the truth read from the sandbox's state, and the requests the poll made with the budget.
import type { Json, PollRun } from '../support';
import { api, clearLog, control, credentialsFor, harness, requestLog, useSandbox } from '../support';

const sb = useSandbox();

/** mulberry32: a small seeded PRNG, so a failing run can be replayed from its seed. */
function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const OPEN = ['draft', 'sent', 'viewed'];

/** The truth: every document's status, straight from the sandbox's memory. */
function truth(): Map<string, string> {
	return new Map([...sb.state.documents.values()].map((d: Json) => [String(d.id), d.status]));
}

async function tokenOf(id: string): Promise<string> {
	const signers = await control<Json[]>(sb, 'GET', `/__sandbox/signers?document_id=${id}`);
	return signers[0].token;
}

/** One random action on the site; none when no document has a status the drawn action applies to. */
async function act(random: () => number, allowSwaps: boolean): Promise<void> {
	const docs = [...truth()];
	const pick = (statuses: string[]) => {
		const candidates = docs.filter(([, status]) => statuses.includes(status));
		return candidates.length ? candidates[Math.floor(random() * candidates.length)][0] : undefined;
	};
	const roll = random();
	if (roll < 0.2 || docs.length < 3) {
		const status = random() < 0.8 ? 'draft' : 'sent'; // some arrive already sent (template with send)
		await control(sb, 'POST', '/__sandbox/seed/documents', { status, count: 1 + Math.floor(random() * 2) });
		return;
	}
	const kinds = ['send', 'view', 'sign', 'decline', 'expire', 'delete', ...(allowSwaps ? ['toDraft', 'toSent'] : [])];
	const kind = kinds[Math.floor(random() * kinds.length)];
	const id =
		kind === 'send' || kind === 'toSent' ? pick(['draft'])
			: kind === 'view' || kind === 'toDraft' ? pick(['sent'])
				: kind === 'sign' || kind === 'decline' ? pick(['sent', 'viewed'])
					: kind === 'expire' ? pick(OPEN)
						: pick([...OPEN, 'completed', 'declined', 'expired']);
	if (!id) return;
	if (kind === 'send') await api(sb, 'POST', `/documents/${id}/send`);
	else if (kind === 'toSent') await api(sb, 'PUT', `/documents/${id}`, { status: 'sent' });
	else if (kind === 'toDraft') await api(sb, 'PUT', `/documents/${id}`, { status: 'draft' });
	else if (kind === 'delete') await api(sb, 'DELETE', `/documents/${id}`);
	else if (kind === 'expire') {
		await control(sb, 'POST', `/__sandbox/documents/${id}/expiry`, { inSeconds: 3600 });
		await control(sb, 'POST', '/__sandbox/clock', { advanceSeconds: 3601 });
		await api(sb, 'POST', `/documents/${id}/expire`);
	} else {
		const token = await tokenOf(id);
		if (truth().get(id) === 'sent') await control(sb, 'POST', `/__sandbox/sign/${token}/view`);
		if (kind === 'sign') await control(sb, 'POST', `/__sandbox/sign/${token}/sign`);
		if (kind === 'decline') await control(sb, 'POST', `/__sandbox/sign/${token}/decline`, { reason: 'Simulated' });
	}
}

interface Emitted {
	event: string;
	id: string;
	previousStatus: string | null;
	status: string;
}

function emitted(run: PollRun): Emitted[] {
	return run.items.map((i) => ({
		event: i.json.event,
		id: String(i.json.document.id),
		previousStatus: i.json.previousStatus,
		status: i.json.document.status,
	}));
}

/** What a poll should report, from the statuses at the previous poll and now. */
function expected(before: Map<string, string>, now: Map<string, string>): Emitted[] {
	const out: Emitted[] = [];
	for (const [id, status] of now) {
		const was = before.get(id);
		if (was === undefined) {
			out.push({ event: 'document.created', id, previousStatus: null, status });
			if (status !== 'draft') out.push({ event: `document.${status}`, id, previousStatus: null, status });
		} else if (was !== status && OPEN.includes(was)) {
			out.push({ event: `document.${status}`, id, previousStatus: was, status });
		}
	}
	return out;
}

const key = (e: Emitted) => `${e.id} ${e.event} ${e.previousStatus} ${e.status}`;

/** Requests one poll may make: 1 when /stats is unchanged; else 2 + the listed pages + reads by id. */
function budget(before: Map<string, string>, now: Map<string, string>, rescan: boolean): number {
	const moved = [...before].filter(([id, status]) => OPEN.includes(status) && now.get(id) !== status).length;
	const pages = OPEN.reduce((sum, status) => {
		const n = Math.max([...before.values()].filter((s) => s === status).length, [...now.values()].filter((s) => s === status).length);
		return sum + Math.max(1, Math.ceil(n / 100));
	}, 0);
	const gone = [...before.keys()].some((id) => !now.has(id));
	const added = [...now.keys()].some((id) => !before.has(id));
	const changed = rescan || moved > 0 || gone || added;
	return changed ? 2 + pages + moved : 1;
}

async function simulate(seed: number, { polls, allowSwaps, rescanEvery }: { polls: number; allowSwaps: boolean; rescanEvery: number }) {
	const random = prng(seed);
	const parameters = { events: ['*', 'document.created'], options: { rescanEvery } };
	await control(sb, 'POST', '/__sandbox/seed/documents', { status: 'draft', count: 5 });
	await control(sb, 'POST', '/__sandbox/seed/documents', { status: 'sent', count: 5 });
	let staticData: unknown;
	const first = await harness.runPoll({ parameters, credentials: credentialsFor(sb), staticData });
	expect(first.output).toBeNull();
	staticData = first.staticData;
	let before = truth();
	// What the trigger has been told, per document: its last reported (or recorded) status.
	const believed = new Map(before);
	const report = { polls: 0, quiet: 0, requests: 0, events: 0, maxRequests: 0 };
	for (let n = 1; n <= polls; n++) {
		const actions = random() < 0.3 ? 0 : 1 + Math.floor(random() * 4);
		for (let a = 0; a < actions; a++) await act(random, allowSwaps);
		await clearLog(sb);
		const run = await harness.runPoll({ parameters, credentials: credentialsFor(sb), staticData });
		expect(run.error).toBeUndefined();
		staticData = run.staticData;
		const now = truth();
		const requests = (await requestLog(sb)).length;
		const rescan = rescanEvery > 0 && n % rescanEvery === 0;
		const got = emitted(run);
		report.polls++;
		report.requests += requests;
		report.events += got.length;
		report.maxRequests = Math.max(report.maxRequests, requests);
		if (requests === 1) report.quiet++;

		// Never the same event twice in one poll; each reported move starts where the last report left the document.
		expect(new Set(got.map(key)).size).toBe(got.length);
		for (const e of got) {
			if (e.event === 'document.created') continue;
			expect({ seed, poll: n, id: e.id, from: e.previousStatus }).toEqual({ seed, poll: n, id: e.id, from: believed.get(e.id) ?? null });
			believed.set(e.id, e.status);
		}
		for (const e of got) if (e.event === 'document.created') believed.set(e.id, e.status);
		const lines = (await requestLog(sb)).map((r: Json) => `${r.method} ${r.url}`);
		expect({ seed, poll: n, lines, requests }).toEqual({ seed, poll: n, lines, requests: Math.min(requests, budget(before, now, rescan)) });
		if (actions === 0 && !rescan) expect(requests).toBe(1);

		if (!allowSwaps || rescan) {
			// Without draft⇄sent moves (or at a rescan), every document's reported status is the truth.
			for (const [id, status] of now) {
				if (OPEN.includes(status) || OPEN.includes(before.get(id) ?? 'draft')) {
					expect({ seed, poll: n, id, status: believed.get(id) }).toEqual({ seed, poll: n, id, status });
				}
			}
		}
		if (!allowSwaps) {
			expect({ seed, poll: n, events: got.map(key).sort() }).toEqual({ seed, poll: n, events: expected(before, now).map(key).sort() });
		}
		before = now;
	}
	return report;
}

describe('eSign Status Trigger: seeded simulation', () => {
	test.each([11, 2024, 90210])('seed %i, forward moves only: every transition exactly once, within budget', async (seed) => {
		const report = await simulate(seed, { polls: 80, allowSwaps: false, rescanEvery: 0 });
		expect(report.events).toBeGreaterThan(20);
		expect(report.quiet).toBeGreaterThan(5);
	});

	test.each([7, 31337])('seed %i, with draft⇄sent moves: exactly once, and the truth at every rescan', async (seed) => {
		const report = await simulate(seed, { polls: 80, allowSwaps: true, rescanEvery: 5 });
		expect(report.events).toBeGreaterThan(20);
	});
});
