// eSign Status Trigger: a seeded random simulation on the sandbox. Between polls, documents are created,
// sent, viewed, signed, declined, expired, deleted and moved draft⇄sent through the API and the sandbox's
// signer controls (expiry on the sandbox clock: no real waiting). After every poll the events are
// compared with the truth read from the sandbox's state, and the requests the poll made with the budget.
// With signer events, documents of 2–3 signers (signing in signing order) are added, and every signer's
// view, signature and decline is checked the same way.
import type { Json, PollRun } from '../support';
import { mulberry32 } from '../support/prng';
import { api, clearLog, control, credentialsFor, harness, makeDraft, requestLog, strictProfile, useSandbox } from '../support';

const sb = useSandbox();

const OPEN = ['draft', 'sent', 'viewed'];

/** The truth: every document's status, straight from the sandbox's memory. */
function truth(): Map<string, string> {
	return new Map([...sb.state.documents.values()].map((d: Json) => [String(d.id), d.status]));
}

/**
 * A signer's status as the spec records it: a decline is in declined_at, whatever the status says (the strict
 * profile leaves the status as it was; the default one also sets it to declined).
 */
const signerStatus = (s: Json): string => (s.declined_at ? 'declined' : s.status);

/** Every signer of an existing document: signer id → {document id, status}, from the sandbox's memory. */
function signerTruth(): Map<string, { doc: string; status: string }> {
	const docs = truth();
	return new Map(
		[...sb.state.signers.values()]
			.filter((s: Json) => docs.has(String(s.document_id)))
			.map((s: Json) => [String(s.id), { doc: String(s.document_id), status: signerStatus(s) }]),
	);
}

/** A signer of the document for `kind`: sign goes in signing order; view and decline pick any who may. */
async function signerFor(id: string, kind: string, random: () => number): Promise<string | undefined> {
	const signers = (await control<Json[]>(sb, 'GET', `/__sandbox/signers?document_id=${id}`)).sort(
		(a, b) => Number(a.signing_order) - Number(b.signing_order),
	);
	const open = signers.filter((s) => s.status === 'pending' || s.status === 'viewed');
	const choices = kind === 'sign' ? open.slice(0, 1) : kind === 'view' ? open.filter((s) => s.status === 'pending') : open;
	return choices.length ? choices[Math.floor(random() * choices.length)].token : undefined;
}

const PEOPLE = ['Ann', 'Bob', 'Cy'];

/** A document with 2–3 signers made through the API, sent or left a draft. */
async function multiSignerDocument(random: () => number): Promise<void> {
	const count = 2 + Math.floor(random() * 2);
	const signers = PEOPLE.slice(0, count).map((name, n) => ({ name: `${name} Signer`, email: `${name.toLowerCase()}@sim.example`, signing_order: n + 1 }));
	const doc = await makeDraft(sb, { title: 'Multi-signer', signers });
	if (random() < 0.7) await api(sb, 'POST', `/documents/${doc.id}/send`);
}

/** One random action on the site; none when no document has a status the drawn action applies to. */
async function act(random: () => number, allowSwaps: boolean, multiSigner: boolean): Promise<void> {
	const docs = [...truth()];
	const pick = (statuses: string[]) => {
		const candidates = docs.filter(([, status]) => statuses.includes(status));
		return candidates.length ? candidates[Math.floor(random() * candidates.length)][0] : undefined;
	};
	const roll = random();
	if (multiSigner && roll < 0.12) {
		await multiSignerDocument(random);
		return;
	}
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
		const token = await signerFor(id, kind, random);
		if (!token) return;
		if (kind === 'view') await control(sb, 'POST', `/__sandbox/sign/${token}/view`);
		if (kind === 'sign') await control(sb, 'POST', `/__sandbox/sign/${token}/sign`);
		if (kind === 'decline') await control(sb, 'POST', `/__sandbox/sign/${token}/decline`, { reason: 'Simulated' });
	}
}

interface Emitted {
	event: string;
	id: string;
	/** The signer's id for a signer event; '' for a document event. */
	signer: string;
	previousStatus: string | null;
	/** The document's status, or for a signer event the signer's. */
	status: string;
}

function emitted(run: PollRun): Emitted[] {
	return run.items.map((i) => ({
		event: i.json.event,
		id: String(i.json.document.id),
		signer: i.json.signer ? String(i.json.signer.id) : '',
		previousStatus: i.json.previousStatus,
		status: i.json.signer ? signerStatus(i.json.signer) : i.json.document.status,
	}));
}

const REPORTED_SIGNER = ['viewed', 'signed', 'declined'];

/** The signer events a poll should report: every signer whose status moved to viewed, signed or declined. */
function expectedSigners(before: Map<string, { status: string }>, now: Map<string, { doc: string; status: string }>): Emitted[] {
	const out: Emitted[] = [];
	for (const [signer, { doc, status }] of now) {
		const was = before.get(signer)?.status ?? 'pending';
		if (was !== status && REPORTED_SIGNER.includes(status)) out.push({ event: `signer.${status}`, id: doc, signer, previousStatus: was, status });
	}
	return out;
}

/**
 * The signer reads a poll adds: one per document viewed now, and one per document that arrived already past
 * viewed (one that finished since the last poll was read by id already, and that answer carries its signers).
 */
function signerReads(before: Map<string, string>, now: Map<string, string>): number {
	return [...now].filter(([id, status]) => status === 'viewed' || (['completed', 'declined', 'expired'].includes(status) && !before.has(id))).length;
}

/** What a poll should report, from the statuses at the previous poll and now. */
function expected(before: Map<string, string>, now: Map<string, string>): Emitted[] {
	const out: Emitted[] = [];
	for (const [id, status] of now) {
		const was = before.get(id);
		if (was === undefined) {
			out.push({ event: 'document.created', id, signer: '', previousStatus: null, status });
			if (status !== 'draft') out.push({ event: `document.${status}`, id, signer: '', previousStatus: null, status });
		} else if (was !== status && OPEN.includes(was)) {
			out.push({ event: `document.${status}`, id, signer: '', previousStatus: was, status });
		}
	}
	return out;
}

const key = (e: Emitted) => `${e.id} ${e.event} ${e.signer} ${e.previousStatus} ${e.status}`;

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

async function simulate(
	seed: number,
	{ polls, allowSwaps, rescanEvery, signers = false }: { polls: number; allowSwaps: boolean; rescanEvery: number; signers?: boolean },
) {
	const random = mulberry32(seed); // replayable from its seed
	const signerEvents = signers ? ['signer.viewed', 'signer.signed', 'signer.declined'] : [];
	const parameters = { events: ['*', 'document.created', ...signerEvents], options: { rescanEvery } };
	await control(sb, 'POST', '/__sandbox/seed/documents', { status: 'draft', count: 5 });
	await control(sb, 'POST', '/__sandbox/seed/documents', { status: 'sent', count: 5 });
	let staticData: unknown;
	const first = await harness.runPoll({ parameters, credentials: credentialsFor(sb), staticData });
	expect(first.output).toBeNull();
	staticData = first.staticData;
	let before = truth();
	let signersBefore = signerTruth();
	// What the trigger has been told, per document: its last reported (or recorded) status.
	const believed = new Map(before);
	const report = { polls: 0, quiet: 0, requests: 0, events: 0, signerEvents: 0, multiSigner: 0, maxRequests: 0 };
	for (let n = 1; n <= polls; n++) {
		const actions = random() < 0.3 ? 0 : 1 + Math.floor(random() * 4);
		for (let a = 0; a < actions; a++) await act(random, allowSwaps, signers);
		await clearLog(sb);
		const run = await harness.runPoll({ parameters, credentials: credentialsFor(sb), staticData });
		expect(run.error).toBeUndefined();
		staticData = run.staticData;
		const now = truth();
		const signersNow = signerTruth();
		const requests = (await requestLog(sb)).length;
		const rescan = rescanEvery > 0 && n % rescanEvery === 0;
		const all = emitted(run);
		const got = all.filter((e) => !e.signer);
		const gotSigners = all.filter((e) => e.signer);
		report.signerEvents += gotSigners.length;
		// Signer events on documents of several signers.
		report.multiSigner += gotSigners.filter((e) => [...signersNow.values()].filter((o) => o.doc === e.id).length >= 2).length;
		report.polls++;
		report.requests += requests;
		report.events += got.length;
		report.maxRequests = Math.max(report.maxRequests, requests);
		if (requests === 1) report.quiet++;

		// Never the same event twice in one poll; each reported move starts where the last report left the document.
		expect(new Set(all.map(key)).size).toBe(all.length);
		for (const e of got) {
			if (e.event === 'document.created') continue;
			expect({ seed, poll: n, id: e.id, from: e.previousStatus }).toEqual({ seed, poll: n, id: e.id, from: believed.get(e.id) ?? null });
			believed.set(e.id, e.status);
		}
		for (const e of got) if (e.event === 'document.created') believed.set(e.id, e.status);
		const lines = (await requestLog(sb)).map((r: Json) => `${r.method} ${r.url}`);
		// Signer events add one read per document being signed (and per one that arrived finished).
		const reads = signers ? signerReads(before, now) : 0;
		expect({ seed, poll: n, lines, requests }).toEqual({ seed, poll: n, lines, requests: Math.min(requests, budget(before, now, rescan) + reads) });
		if (actions === 0 && !rescan) expect(requests).toBe(1 + reads);
		if (signers) {
			// Every signer's move exactly once, before the status its document reached through it.
			expect({ seed, poll: n, events: gotSigners.map(key).sort() }).toEqual({
				seed,
				poll: n,
				events: expectedSigners(signersBefore, signersNow).map(key).sort(),
			});
			for (const e of gotSigners) {
				const statusAt = all.findIndex((d) => !d.signer && d.id === e.id && d.event !== 'document.created');
				expect({ seed, poll: n, key: key(e), after: statusAt !== -1 && statusAt < all.indexOf(e) }).toEqual({ seed, poll: n, key: key(e), after: false });
			}
		}

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
		signersBefore = signersNow;
	}
	return report;
}

/** Against the strict profile (its own jest project) one seed per kind of run keeps the added time small. */
const seeds = (all: number[]) => (strictProfile ? all.slice(0, 1) : all);

describe('eSign Status Trigger: seeded simulation', () => {
	test.each(seeds([11, 2024, 90210]))('seed %i, forward moves only: every transition exactly once, within budget', async (seed) => {
		const report = await simulate(seed, { polls: 80, allowSwaps: false, rescanEvery: 0 });
		expect(report.events).toBeGreaterThan(20);
		expect(report.quiet).toBeGreaterThan(5);
	});

	test.each(seeds([7, 31337]))('seed %i, with draft⇄sent moves: exactly once, and the truth at every rescan', async (seed) => {
		const report = await simulate(seed, { polls: 80, allowSwaps: true, rescanEvery: 5 });
		expect(report.events).toBeGreaterThan(20);
	});

	test.each(seeds([5, 4242, 777]))('seed %i, 2–3 signers per document and signer events: every signer move exactly once, within budget', async (seed) => {
		const report = await simulate(seed, { polls: 80, allowSwaps: false, rescanEvery: 0, signers: true });
		expect(report.signerEvents).toBeGreaterThan(15);
		expect(report.multiSigner).toBeGreaterThan(10);
		expect(report.events).toBeGreaterThan(20);
	});

	test.each(seeds([99]))('seed %i, signer events with draft⇄sent moves and rescans: signer moves exactly once', async (seed) => {
		const report = await simulate(seed, { polls: 60, allowSwaps: true, rescanEvery: 5, signers: true });
		expect(report.signerEvents).toBeGreaterThan(10);
	});
});
