#!/usr/bin/env node
// `npm run test:queue`: the package in n8n 2.41.1 queue mode (one main, two workers, one webhook processor, a
// throwaway PostgreSQL and Redis from Debian's packages): the examples on workers, then 200 signed deliveries at
// once with n8n's defaults (only 5xx may fail, never a 401; redelivered until accepted) and again with the settings
// docs/queue-mode.md recommends (none failed by n8n, one run each), forgeries, repeats across processes, and throughput against
// single mode. Each step counts only its own executions: by the documents it delivered, from n8n's own records.
// Env: QUEUE_EVENTS=200 (distinct deliveries), QUEUE_KEEP=1 (keep the temporary folder and logs),
//      QUEUE_N8N_ENV='{"N8N_…":"…"}' (more n8n settings for every n8n process, e.g. to measure one).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LINES, ROOT, RUNTIME_ROOT, ensureRuntime, sleep } from './lib/runtime.mjs';
import { CREDENTIAL, TRIGGER_WORKFLOW_ID, chain, credRef, credentialData, node, readExamples, sandboxControl, sandboxModule, sandboxSite, secs, signature, waitForWebhook } from './lib/esign.mjs';
import { assert, nodeOutput, runError, testScript } from './lib/expectations.mjs';
import { examplesRun, promiseKept } from './lib/checks.mjs';
import { createInstance, isDone } from './lib/instance.mjs';
import { ensureDebianPackages, postgresBinDir, serviceTempDir, startPostgres, startRedis } from './lib/services.mjs';

const EVENTS = Number(process.env.QUEUE_EVENTS || 200);
const FORGED = 50;
const REPEATS = 50;
const KEEP = process.env.QUEUE_KEEP === '1';
// Extra n8n settings for every process this script starts (main, workers, webhook processor, single mode).
const N8N_EXTRA_ENV = JSON.parse(process.env.QUEUE_N8N_ENV || '{}');
const LOG_DIR = path.join(RUNTIME_ROOT, 'queue-logs');
/**
 * What docs/queue-mode.md recommends for a busy signing site, on every n8n process (issue 25): isolates taken only
 * when an expression needs one (each webhook call's credential read otherwise waits for the pool's one isolate), and
 * a database pool and wait that a burst does not exhaust (n8n's defaults: 2 connections, 20 s).
 */
const RECOMMENDED_ENV = { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true', DB_POSTGRESDB_POOL_SIZE: '20', DB_POSTGRESDB_CONNECTION_TIMEOUT: '60000' };
/** A site that retries: how many times a delivery answered 5xx (or not at all) is sent again. */
const REDELIVERIES = 8;

const { counts, check, measure, skip, say, cleanups, stopSince, main, pack, watchdog } = testScript('queue');

/**
 * Delivers signed document.completed events through the sandbox, all at once; returns the deliveries
 * (each with its answer time `ms`). The site's one attempt waits 5 s; with 200 at once on 2 cores the
 * slowest answers take longer, so the sandbox waits up to a minute here and the answer times are reported.
 */
function deliverAll(sb, url, docIds) {
	const deliver = (id) => ({ url, event: 'document.completed', data: { document_id: Number(id), document_title: `Queue contract ${id}`, status: 'completed' }, timeoutMs: 60000 });
	return Promise.all(docIds.map((id) => sandboxControl(sb.url, 'POST', '/__sandbox/webhooks/test', deliver(id), 90000)));
}

/** Median, 95th percentile and maximum of the deliveries' answer times. */
function answerTimes(deliveries) {
	const ms = deliveries.map((d) => d.ms).sort((a, b) => a - b);
	const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
	return { median: at(0.5), p95: at(0.95), max: ms[ms.length - 1], over5s: ms.filter((m) => m > 5000).length };
}
const fmtTimes = (t) => `answers: median ${t.median} ms, p95 ${t.p95} ms, max ${t.max} ms, ${t.over5s} over the site's 5 s`;

/**
 * Seeds `count` completed documents; returns their ids. Each signed PDF is built once here, so the
 * sandbox (in this process, on the same 2 cores) does not build 200 PDFs while n8n is being measured.
 */
async function seedCompleted(sb, count, titlePrefix) {
	const { ids } = await sandboxControl(sb.url, 'POST', '/__sandbox/seed/documents', { status: 'completed', count, titlePrefix });
	for (const id of ids) await (await fetch(`${sb.url}/__sandbox/documents/${id}/file`)).arrayBuffer();
	return ids;
}

/** A burst of deliveries to url, each answered 200; waits for the executions: { perSecond, seconds, times, list } (from the first send to the last stop). */
async function burst(n8n, sb, url, workflowId, ids, expected = EVENTS) {
	const startedAt = Date.now();
	const deliveries = await deliverAll(sb, url, ids);
	const notOk = deliveries.filter((d) => d.status !== 200);
	assert(!notOk.length, `${notOk.length} deliveries not answered 200: ${notOk.slice(0, 5).map((d) => d.status ?? d.error).join(', ')}`);
	const list = await n8n.waitForExecutions(workflowId, expected, 300000);
	const seconds = (Math.max(...list.map((e) => Date.parse(e.stoppedAt))) - startedAt) / 1000;
	return { perSecond: ids.length / seconds, seconds, times: answerTimes(deliveries), deliveries, list };
}

/**
 * Example 6 with the trigger's default options (no Download Document), as its own workflow and webhook;
 * `alone`: the trigger only (no Get node), to compare with n8n's own Webhook node.
 */
async function importDefaultTrigger(n8n, credentialId, { alone = false } = {}) {
	const { workflow } = readExamples().find(({ workflow }) => workflow.id === TRIGGER_WORKFLOW_ID);
	const wf = { ...structuredClone(workflow), id: alone ? 'esignQueueTriggerAlone' : 'esignQueueDefaults', name: `eSign queue test: trigger with default options${alone ? ', alone' : ''}` };
	if (alone) Object.assign(wf, { nodes: wf.nodes.filter((n) => n.type.endsWith('.eSignTrigger')), connections: {} });
	for (const n of wf.nodes) {
		if (n.credentials?.[CREDENTIAL.type]) n.credentials = credRef(credentialId);
		if (n.type.endsWith('.eSignTrigger')) Object.assign(n, { parameters: { events: ['document.completed'] }, webhookId: `c0ffee0${alone ? 1 : 0}-5d1a-4c3e-9a44-0e5a1c2d3e4f` });
	}
	await n8n.import(wf);
	return wf;
}

// ---------------------------------------------------------------- queue mode

/** The document a trigger execution ran for (from its output), or undefined while it has no data yet. */
const docOf = (e) => {
	const id = nodeOutput(e.data?.resultData?.runData ?? {}, 'eSign Trigger')[0]?.json?.data?.document_id;
	return id === undefined ? undefined : String(id);
};

/**
 * The executions of a workflow that ran for these documents, grouped by document, from n8n's own records: waits
 * until each document has `atLeast` and no execution of the workflow is still running. Counting by document keeps a step
 * apart from a late run of an earlier one. `giveUpMs` (a measurement): stop waiting then; what is missing is lost.
 */
async function executionsForDocs(n8n, workflowId, docIds, { giveUpMs, atLeast = 1 } = {}) {
	const want = new Set(docIds.map(String));
	const deadline = Date.now() + (giveUpMs ?? 300000);
	for (;;) {
		const all = await n8n.executions(workflowId, { includeData: true });
		const byDoc = new Map();
		for (const e of all) {
			const doc = docOf(e);
			if (doc !== undefined && want.has(doc)) byDoc.set(doc, [...(byDoc.get(doc) ?? []), e]);
		}
		const running = all.filter((e) => !isDone(e)).length;
		if (byDoc.size === want.size && [...byDoc.values()].every((l) => l.length >= atLeast) && !running) return { byDoc, missing: [] };
		if (Date.now() > deadline) {
			assert(giveUpMs !== undefined, `${byDoc.size} of ${want.size} documents have an execution after 300 s (${running} running)`);
			return { byDoc, missing: [...want].filter((d) => !byDoc.has(d)) };
		}
		await sleep(2000);
	}
}

/** Sends one delivery again, as a site that retries does: the same bytes and signature. */
async function redeliver(url, d) {
	const started = Date.now();
	const startsBefore = starts(d);
	try {
		const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8', 'X-ESIGN-Signature': d.signature }, body: d.body, signal: AbortSignal.timeout(60000) });
		Object.assign(d, { status: res.status, answer: (await res.text()).slice(0, 500), retryAfter: Number(res.headers.get('retry-after')) || undefined, error: null });
		d.starts = startsBefore + (STARTED.test(d.answer) ? 1 : 0);
	} catch (e) {
		Object.assign(d, { status: null, error: String(e.message) });
	}
	d.attempts = (d.attempts ?? 1) + 1;
	d.lastMs = Date.now() - started;
}

/** Until every delivery is answered 200 (or REDELIVERIES rounds), sends the others again after their Retry-After. */
async function redeliverUntilAccepted(url, deliveries) {
	let pending = deliveries.filter((d) => d.status !== 200);
	for (let round = 1; pending.length && round <= REDELIVERIES; round++) {
		await sleep(1000 * Math.max(1, ...pending.map((d) => d.retryAfter ?? 10)));
		await Promise.all(pending.map((d) => redeliver(url, d)));
		pending = pending.filter((d) => d.status !== 200);
	}
	return pending;
}

/** Sends the deliveries not answered 200 again, as a site does; every one must end accepted, having started one run. */
async function acceptAsASiteDoes(url, deliveries) {
	const notAccepted = await redeliverUntilAccepted(url, deliveries);
	assert(!notAccepted.length, `${notAccepted.length} deliveries still not answered 200 after ${REDELIVERIES} redeliveries: ${statusCounts(notAccepted.map((d) => d.status ?? d.error))}`);
	const startedTwice = deliveries.filter((d) => starts(d) !== 1);
	assert(!startedTwice.length, `${startedTwice.length} deliveries started ${statusCounts(startedTwice.map(starts))} runs, not one`);
}

/** The answer the trigger gives when it starts a run; any other answer starts none. */
const STARTED = /Workflow was started/;
const starts = (d) => d.starts ?? (STARTED.test(d.answer ?? '') ? 1 : 0);
/** The 503s the trigger itself gives (docs/triggers.md): nothing was checked or run, send it again. */
const TRIGGER_503_CODES = new Set(['credential_unavailable', 'delivery_in_progress']);
const codeOf = (answer) => /"code":"([a-z_]+)"/.exec(answer ?? '')?.[1] ?? '';
const statusCounts = (list) => Object.entries(list.reduce((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {})).map(([s, n]) => `${n}×${s}`).join(', ');
/**
 * The short id the trigger remembers a delivery by, computed here on its own: base64url of SHA-256's first 12 bytes
 * over what the site sent as the trigger's item carries it (event, data, then the other members, as compact JSON).
 */
const shortId = (body) => {
	const { event, data, ...rest } = JSON.parse(body);
	const text = JSON.stringify({ event, data: data ?? {}, ...rest });
	return crypto.createHash('sha256').update(text).digest().subarray(0, 12).toString('base64url');
};

async function queueMode(tarball, sb) {
	const root = serviceTempDir('esign-queue-');
	cleanups.push(() => (KEEP ? say(`kept ${root}`) : fs.rmSync(root, { recursive: true, force: true })));
	let pg;
	let redis;
	const services = await check('PostgreSQL and Redis (throwaway, 127.0.0.1)', async () => {
		pg = await startPostgres({ dir: path.join(root, 'postgres') });
		cleanups.push(() => pg.stop());
		redis = await startRedis({ dir: path.join(root, 'redis') });
		cleanups.push(() => redis.stop());
		return `PostgreSQL on ${pg.port}, Redis on ${redis.port}`;
	});
	if (!services) return undefined;

	const env = {
		...{ DB_TYPE: 'postgresdb', DB_POSTGRESDB_HOST: pg.host, DB_POSTGRESDB_PORT: String(pg.port), DB_POSTGRESDB_DATABASE: pg.database, DB_POSTGRESDB_USER: pg.user, DB_POSTGRESDB_PASSWORD: '' },
		...{ EXECUTIONS_MODE: 'queue', QUEUE_BULL_REDIS_HOST: redis.host, QUEUE_BULL_REDIS_PORT: String(redis.port), N8N_ENCRYPTION_KEY: crypto.randomBytes(24).toString('hex') },
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true', // manual runs go to the workers too (2.x default from 3.0)
		...N8N_EXTRA_ENV,
	};
	const n8n = await createInstance({ tarball, userFolder: path.join(root, 'n8n'), env, logDir: LOG_DIR, cleanups });
	const processes = [{ command: 'worker', name: 'worker-1' }, { command: 'worker', name: 'worker-2' }, { command: 'webhook', name: 'webhook' }];
	/** Starts main, 2 workers and the webhook processor with `serverEnv` on all four; resolves [workers, webhook]. */
	const startCluster = async (serverEnv) => {
		await n8n.start({ name: 'main', processes, serverEnv });
		// Each process logs the community package it loaded; a process without it could not run our nodes.
		for (const p of n8n.procs) {
			assert(!/Unrecognized node type: n8n-nodes-esign|Error loading package "n8n-nodes-esign"/.test(p.log()), `${path.basename(p.logFile)} could not load the package:\n${p.log().slice(-1500)}`);
		}
		const [, ...others] = n8n.procs;
		return [others.slice(0, 2), others[2]];
	};
	let workers;
	let webhook;
	const started = await check("main, 2 workers and a webhook processor start with n8n's defaults, each loading the package", async () => {
		const begin = Date.now();
		[workers, webhook] = await startCluster({});
		return `main ${n8n.url}, webhook processor ${webhook.url}; ready in ${secs(Date.now() - begin)}`;
	});
	if (!started) return undefined;
	const site = sandboxSite(sb);
	const credential = await n8n.ensureCredential(credentialData(sb));
	await n8n.importExamples(site, credential.id);

	// ---- actions: every manual example, on a worker, the same calls as in single mode
	await examplesRun(check, 'actions:', n8n, site, {
		how: 'runs on a worker',
		async run(workflow) {
			const trigger = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
			// n8n's public API has no "run workflow" endpoint: this is the editor's own Execute Workflow call.
			const executionId = String((await n8n.rest('POST', `/rest/workflows/${workflow.id}/run`, { triggerToStartFrom: { name: trigger.name } }))?.executionId ?? '');
			assert(executionId, `no execution id for ${workflow.id}`);
			const deadline = Date.now() + 60000;
			let exec;
			while (!(exec = await n8n.api('GET', `/executions/${executionId}?includeData=true`).catch(() => undefined)) || !isDone(exec)) {
				assert(Date.now() < deadline, `execution ${executionId} not finished within 60 s`);
				await sleep(300);
			}
			assert(exec.status === 'success', `status ${exec.status}: ${runError(exec)}`);
			const worker = workers.findIndex((w) => w.log().includes(`Worker started execution ${executionId} `));
			assert(worker >= 0, `no worker log says it started execution ${executionId}`);
			return { runData: exec.data.resultData.runData, note: `execution ${executionId} on worker ${worker + 1}` };
		},
	});

	// ---- trigger: deliveries to the webhook processor
	const onWebhookProcessor = async (id) => {
		const url = (await n8n.activateTrigger(id)).url.replace(n8n.url, webhook.url);
		assert((await waitForWebhook(url, 60000)) === 401, `an unsigned POST to the webhook processor at ${url} was not refused with 401`);
		return url;
	};
	let hookUrl;
	const active = await check('trigger: example 6 active; its production URL answers on the webhook processor', async () => `${(hookUrl = await onWebhookProcessor(TRIGGER_WORKFLOW_ID))} (unsigned POST → 401)`);
	if (!active) return undefined;

	// What n8n keeps of a trigger's remembered deliveries in the database: the short ids.
	const storedIds = (workflowId) => {
		const raw = pg.psql(`SELECT "staticData" FROM workflow_entity WHERE id = '${workflowId}'`);
		const text = (raw ? JSON.parse(raw) : {})?.['node:eSign Trigger']?.acceptedIds ?? '';
		return new Set(text.match(/.{16}/g) ?? []);
	};

	// ---- 1. n8n's defaults: what an operator sees before tuning. Only 5xx may fail (the site may send it again).
	let defaults;
	await check(`n8n's defaults: ${EVENTS} distinct signed deliveries at once → none refused as forged (every non-200 is a 5xx), each accepted once a site sends it again, every accepted one run exactly once (none lost after its 200, none twice)`, async () => {
		const ids = await seedCompleted(sb, EVENTS, 'Queue defaults');
		const deliveries = await deliverAll(sb, hookUrl, ids);
		const first = deliveries.map((d) => d.status ?? 'no answer');
		const refused = deliveries.filter((d) => d.status >= 400 && d.status < 500);
		assert(!refused.length, `${refused.length} genuine deliveries answered 4xx: ${refused.slice(0, 3).map((d) => `${d.status} ${d.answer?.slice(0, 120)}`).join(' | ')}`);
		await acceptAsASiteDoes(hookUrl, deliveries);
		const again = deliveries.filter((d) => (d.attempts ?? 1) > 1);
		const { byDoc, missing } = await executionsForDocs(n8n, TRIGGER_WORKFLOW_ID, ids, { giveUpMs: 120000 });
		const doubled = [...byDoc.values()].filter((list) => list.length > 1);
		assert(!doubled.length, `${doubled.length} documents ran more than once (e.g. executions ${doubled[0]?.map((e) => e.id).join(', ')})`);
		// A 200 is a promise (issue 31): n8n answers it once the run exists, so no accepted delivery may lack its run.
		assert(!missing.length, `${missing.length} deliveries answered 200 have no run (e.g. document ${missing[0]})`);
		const times = answerTimes(deliveries);
		const stored = storedIds(TRIGGER_WORKFLOW_ID);
		defaults = { first: statusCounts(first), redelivered: again.length, executions: byDoc.size, lost: missing.length, times, stored: ids.filter((_, i) => stored.has(shortId(deliveries[i].body))).length };
		const answered = again.length ? ` (answered ${statusCounts(again.map((d) => d.status))})` : '';
		return `first answers ${defaults.first}; ${again.length} sent again${answered}`;
	});
	if (defaults) {
		await measure(`n8n's defaults: what the burst left`, async () =>
			`${defaults.executions} of ${EVENTS} documents ran once, ${defaults.lost} lost, 0 twice; ${fmtTimes(defaults.times)}; ${defaults.stored} of ${EVENTS} ids in the stored static data`);
	}

	// ---- 2. The recommended settings on every process: the same burst, all accepted at once, exactly one run each.
	const restarted = await check(`restart main, workers and webhook processor with ${Object.entries(RECOMMENDED_ENV).map(([k, v]) => `${k}=${v}`).join(', ')}`, async () => {
		await n8n.stop();
		[workers, webhook] = await startCluster(RECOMMENDED_ENV);
		hookUrl = await onWebhookProcessor(TRIGGER_WORKFLOW_ID);
		return `webhook processor ${webhook.url}`;
	});
	if (!restarted) return undefined;
	let rate;
	await check(`recommended settings: ${EVENTS} distinct signed deliveries at once → none failed by n8n (every non-200 is the trigger's 503 with Retry-After, accepted when sent again), exactly ${EVENTS} executions (one per document, each with its PDF), on workers`, async () => {
		const ids = await seedCompleted(sb, EVENTS, 'Queue contract');
		const startedAt = Date.now();
		const deliveries = await deliverAll(sb, hookUrl, ids);
		// With these settings n8n itself fails none (no 500: every execution is created and queued). On a machine
		// busy with other work a credential read can still time out: the trigger then answers 503 with Retry-After
		// (its documented "send it again"), which a site does; those are counted, and must then run once like the rest.
		const first = deliveries.map((d) => (d.status === 503 ? `503 ${codeOf(d.answer)}` : String(d.status ?? 'no answer')));
		const notRetryable = deliveries.filter((d) => d.status !== 200 && !(d.status === 503 && d.retryAfter && TRIGGER_503_CODES.has(codeOf(d.answer))));
		assert(!notRetryable.length, `${notRetryable.length} deliveries answered neither 200 nor the trigger's 503 with Retry-After: ${statusCounts(notRetryable.map((d) => d.status ?? d.error))}, e.g. ${notRetryable[0]?.answer?.slice(0, 160)}`);
		await acceptAsASiteDoes(hookUrl, deliveries);
		const { byDoc } = await executionsForDocs(n8n, TRIGGER_WORKFLOW_ID, ids);
		const all = [...byDoc.values()].flat();
		assert(all.length === EVENTS && byDoc.size === EVENTS, `${all.length} executions for ${byDoc.size} of ${EVENTS} documents`);
		const failed = all.filter((e) => e.status !== 'success');
		assert(!failed.length, `${failed.length} executions failed, e.g. ${failed[0] && runError(failed[0])}`);
		const withFile = all.filter((e) => nodeOutput(e.data.resultData.runData, 'eSign Trigger')[0]?.binary).length;
		assert(withFile === EVENTS, `${withFile} executions carry the downloaded PDF`);
		const perWorker = workers.map((w) => all.filter((e) => w.log().includes(`Worker started execution ${e.id} `)).length);
		assert(perWorker[0] + perWorker[1] === EVENTS, `worker logs show ${perWorker.join(' + ')} of ${EVENTS} executions`);
		const seconds = (Math.max(...all.map((e) => Date.parse(e.stoppedAt))) - startedAt) / 1000;
		rate = { perSecond: EVENTS / seconds, seconds, times: answerTimes(deliveries) };
		const stored = storedIds(TRIGGER_WORKFLOW_ID);
		rate.stored = deliveries.filter((d) => stored.has(shortId(d.body))).length;
		rate.bodies = deliveries.map((d) => d.body);
		const again = deliveries.filter((d) => (d.attempts ?? 1) > 1).length;
		return `first answers ${statusCounts(first)}${again ? ` (${again} sent again after Retry-After: all accepted)` : ''}; ${EVENTS} executions for ${byDoc.size} documents, each with its PDF; worker 1 ran ${perWorker[0]}, worker 2 ran ${perWorker[1]}; ${rate.perSecond.toFixed(1)} executions/s; ${fmtTimes(rate.times)}; ${rate.stored} of ${EVENTS} ids in the stored static data`;
	});

	// ---- 3. A 200 is a promise (issue 31): with the database, then Redis, refusing for a moment, the delivery is
	// answered 5xx (never 2xx without its run), and sent again it runs once.
	const [promiseDoc] = await seedCompleted(sb, 1, 'Queue promise');
	const webhookLog = () => webhook.log();
	await check('while PostgreSQL refuses new executions: a delivery to the webhook processor is answered 5xx, never 200 without its run; sent again, it runs once on a worker; a third time, repeated', () =>
		promiseKept(n8n, site, hookUrl, promiseDoc, {
			what: 'PostgreSQL refused new executions',
			refuse: async () => pg.psql("CREATE OR REPLACE FUNCTION esign_queue_refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by the queue test'; END $$ LANGUAGE plpgsql; CREATE TRIGGER esign_queue_refuse BEFORE INSERT ON execution_entity FOR EACH ROW EXECUTE FUNCTION esign_queue_refuse();"),
			restore: async () => pg.psql('DROP TRIGGER IF EXISTS esign_queue_refuse ON execution_entity;'),
			refusedLog: /refused by the queue test/g,
			logOf: webhookLog,
		}),
	);
	await check('while Redis refuses writes (maxmemory reached): a delivery is answered 5xx, never 200 without its run; sent again, it runs once; a third time, repeated', () =>
		promiseKept(n8n, site, hookUrl, promiseDoc, {
			what: 'Redis refused writes',
			refuse: async () => redis.cli('CONFIG', 'SET', 'maxmemory', '1'),
			restore: async () => redis.cli('CONFIG', 'SET', 'maxmemory', '0'),
			refusedLog: /OOM command not allowed/g,
			logOf: webhookLog,
		}),
	);

	if (rate?.bodies) {
		// Each worker's runs save the ids that worker knows, the last save winning; the webhook processor answers
		// repeats from its memory. Measured, not checked: which worker saves last decides (docs/queue-mode.md).
		await measure('ids of the burst in the stored static data, after the burst and after the next accepted deliveries ran', async () => {
			const stored = storedIds(TRIGGER_WORKFLOW_ID);
			return `${rate.stored} of ${EVENTS} right after the burst; ${rate.bodies.filter((b) => stored.has(shortId(b))).length} of ${EVENTS} now`;
		});
	}
	const halfToMain = (url, i) => (i % 2 ? n8n.url + new URL(url).pathname : url);
	await check(`trigger: ${FORGED} forged deliveries → 401 each, no execution`, async () => {
		const forgedIds = Array.from({ length: FORGED }, (_, i) => 900000 + i);
		const answers = await Promise.all(
			forgedIds.map(async (id, i) => {
				const body = JSON.stringify({ event: 'document.completed', data: { document_id: id, document_title: 'Forged' } });
				const res = await fetch(halfToMain(hookUrl, i), { method: 'POST', headers: { 'content-type': 'application/json', 'X-ESIGN-Signature': signature(body, 'not-the-secret') }, body });
				await res.arrayBuffer();
				return res.status;
			}),
		);
		assert(answers.every((s) => s === 401), `answers: ${statusCounts(answers)}`);
		// A 401 is given in the step that returns no run, so none can start later: n8n's records say so now.
		const ran = (await n8n.executions(TRIGGER_WORKFLOW_ID, { includeData: true })).filter((e) => forgedIds.map(String).includes(docOf(e) ?? '')).length;
		assert(ran === 0, `${ran} executions for forged documents`);
		return `${FORGED} × 401 (half to main, half to the webhook processor), 0 executions`;
	});

	/** One accepted body, then REPEATS repeats of it one after another, alternating webhook processor and main. */
	const repeatsGiveOneExecution = (label, workflowId, url) =>
		check(`trigger (${label}): ${REPEATS} repeats of one accepted delivery, one after another across main and webhook processor → exactly one execution`, async () => {
			const [id] = await seedCompleted(sb, 1, 'Queue repeat');
			const [first] = await deliverAll(sb, url, [id]);
			assert(first.status === 200, `first delivery answered ${first.status ?? first.error}`);
			await executionsForDocs(n8n, workflowId, [id]);
			assert(storedIds(workflowId).has(shortId(first.body)), 'the accepted delivery is not remembered in the stored static data after its run');
			const answers = [];
			for (let i = 0; i < REPEATS; i++) {
				const res = await fetch(halfToMain(url, i), { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8', 'X-ESIGN-Signature': first.signature }, body: first.body });
				answers.push({ status: res.status, text: await res.text() });
			}
			assert(answers.every((a) => a.status === 200 && /repeated_delivery/.test(a.text)), `answers: ${[...new Set(answers.map((a) => `${a.status} ${a.text.slice(0, 60)}`))].join(' | ')}`);
			const { byDoc } = await executionsForDocs(n8n, workflowId, [id]);
			assert(byDoc.get(String(id)).length === 1, `${byDoc.get(String(id)).length} executions for the repeated document`);
			return `1 execution; ${REPEATS} × 200 repeated_delivery (half to main, half to the webhook processor)`;
		});
	await repeatsGiveOneExecution('example 6, Download Document on', TRIGGER_WORKFLOW_ID, hookUrl);
	const plain = await importDefaultTrigger(n8n, credential.id);
	let plainUrl;
	if (await check('trigger with default options (no download) active on the webhook processor', async () => (plainUrl = await onWebhookProcessor(plain.id)))) {
		await repeatsGiveOneExecution('default options', plain.id, plainUrl);
	}

	// Identical copies at the same moment (issue 33: the documented outcome is checked). One process: the first is handed
	// to n8n, the others wait for n8n's answer to it and are repeats (or, while it is unanswered, 503 and sent again
	// later): exactly one run. Two processes do not see each other's copies (docs/queue-mode.md): measured.
	const race = async (split) => {
		const [id] = await seedCompleted(sb, 1, 'Queue race');
		const body = JSON.stringify({ event: 'document.completed', data: { document_id: Number(id), document_title: 'Race' } });
		const signed = signature(body, sb.webhookSecret);
		const copies = await Promise.all(
			Array.from({ length: 10 }, async (_, i) => {
				const d = { body, signature: signed };
				const res = await fetch(split ? halfToMain(hookUrl, i) : hookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'X-ESIGN-Signature': signed }, body });
				Object.assign(d, { status: res.status, answer: (await res.text()).slice(0, 300), retryAfter: Number(res.headers.get('retry-after')) || undefined });
				return d;
			}),
		);
		const firstAnswers = statusCounts(copies.map((d) => `${d.status} ${/repeated_delivery/.test(d.answer) ? 'repeated' : STARTED.test(d.answer) ? 'started' : d.answer.slice(0, 40)}`));
		const notAccepted = await redeliverUntilAccepted(split ? halfToMain(hookUrl, 1) : hookUrl, copies);
		assert(!notAccepted.length, `${notAccepted.length} copies still not answered 200`);
		const started = copies.reduce((n, d) => n + starts(d), 0);
		const { byDoc } = await executionsForDocs(n8n, TRIGGER_WORKFLOW_ID, [id], { atLeast: Math.max(1, started), giveUpMs: 120000 });
		return { runs: byDoc.get(String(id))?.length ?? 0, started, firstAnswers };
	};
	await check('race: 10 identical deliveries at the same moment to the webhook processor → exactly one execution (the others repeats, or 503 and repeats when sent again)', async () => {
		const { runs, started, firstAnswers } = await race(false);
		assert(runs === 1 && started === 1, `${runs} executions, ${started} answers "Workflow was started"; first answers ${firstAnswers}`);
		return `1 execution; first answers ${firstAnswers}`;
	});
	await measure('race: 10 identical deliveries at the same moment, split between main and the webhook processor', async () => {
		const { runs, firstAnswers } = await race(true);
		return `${runs} execution(s); first answers ${firstAnswers}`;
	});
	await n8n.deactivate(TRIGGER_WORKFLOW_ID).catch(() => {});
	return { rate, defaults };
}

// ---------------------------------------------------------------- single mode (the throughput baseline)

async function singleMode(tarball, sb) {
	const n8n = await createInstance({ tarball, cleanups });
	await n8n.start({ serverEnv: { ...RECOMMENDED_ENV, ...N8N_EXTRA_ENV } }); // the same settings as the queue figures it is compared with
	const credential = await n8n.ensureCredential(credentialData(sb));
	await n8n.importExamples(sandboxSite(sb), credential.id, [TRIGGER_WORKFLOW_ID]);
	const hook = await n8n.activateTrigger(TRIGGER_WORKFLOW_ID);
	const ids = await seedCompleted(sb, EVENTS, 'Single contract');
	const ours = await burst(n8n, sb, hook.url, TRIGGER_WORKFLOW_ID, ids);
	assert(ours.list.length === EVENTS && ours.list.every((e) => e.status === 'success'), `single mode: ${ours.list.length} executions, ${ours.list.filter((e) => e.status !== 'success').length} not successful`);

	// The same burst to the trigger alone with its default options, and to n8n's own Webhook node
	// (nothing verified): what this package's trigger costs over n8n's own handling.
	const alone = await importDefaultTrigger(n8n, credential.id, { alone: true });
	const aloneHook = await n8n.activateTrigger(alone.id);
	const triggerAlone = await burst(n8n, sb, aloneHook.url, alone.id, await seedCompleted(sb, EVENTS, 'Alone contract'));

	const plainPath = 'esign-queue-plain-webhook';
	const plain = chain('esignQueuePlainHook', 'eSign queue test: n8n Webhook node', [node('Webhook', 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path: plainPath, options: {} }, { webhookId: 'e5f0c1a2-0000-4000-8000-00000000beef' })]);
	await n8n.import(plain);
	await n8n.activate(plain.id);
	const plainUrl = `${n8n.url}/webhook/${plainPath}`;
	await waitForWebhook(plainUrl, 30000);
	const webhookNode = await burst(n8n, sb, plainUrl, plain.id, ids, EVENTS + 1); // +1: the readiness probe, which ran before the burst
	await n8n.stop();
	return { ...ours, triggerAlone, webhookNode };
}

// ---------------------------------------------------------------- main

main(async () => {
	say(`n8n ${LINES['2'].version} in queue mode; ${os.cpus().length} cores`);
	await check('PostgreSQL and Redis installed (Debian packages)', async () => {
		const needs = [{ command: 'redis-server', package: 'redis-server' }, { command: 'postgres', package: 'postgresql', find: postgresBinDir }, { command: 'psql', package: 'postgresql-client' }];
		ensureDebianPackages(needs, say);
		return `redis-server, ${postgresBinDir()}`;
	});
	if (counts.failed) return;
	await ensureRuntime('2');
	watchdog('QUEUE_TIMEOUT_MIN', 15); // after the Debian packages and the runtime install
	const tarball = await pack();
	if (!tarball) return;
	const { createSandbox } = sandboxModule();
	const sb = await createSandbox({ port: 0, host: '127.0.0.1', rateLimits: false });
	cleanups.push(() => sb.close());

	const mark = cleanups.length;
	const queue = await queueMode(tarball, sb);
	await stopSince(mark); // the queue cluster stops before the baseline runs (the sandbox stays)
	if (!queue?.rate) {
		skip('throughput: queue mode ÷ single mode', 'queue mode did not finish its deliveries');
		return;
	}
	await measure(`throughput: ${EVENTS} deliveries, queue mode (recommended settings) ÷ single mode (same run, same machine)`, async () => {
		const single = await singleMode(tarball, sb);
		const ratio = queue.rate.perSecond / single.perSecond;
		const figures = (r, more) => ({ executionsPerSecond: r.perSecond, seconds: r.seconds, ...more, answerMs: r.times });
		const result = {
			...{ date: new Date().toISOString(), n8n: LINES['2'].version, machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`, events: EVENTS, n8nEnv: N8N_EXTRA_ENV },
			...{ queue: figures(queue.rate, { workers: 2 }), single: figures(single), singleTriggerAloneDefaults: figures(single.triggerAlone), singleN8nWebhookNode: figures(single.webhookNode) },
			...{ ratio, recommendedEnv: RECOMMENDED_ENV, queueDefaults: queue.defaults, storedIdsAfterConcurrentDeliveries: queue.rate.stored },
		};
		const out = path.join(ROOT, 'bench', 'results', `queue-${result.date.replace(/[:.]/g, '-')}.json`);
		fs.mkdirSync(path.dirname(out), { recursive: true });
		fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
		return `queue ${queue.rate.perSecond.toFixed(1)}/s (${secs(queue.rate.seconds * 1000)}) ÷ single ${single.perSecond.toFixed(1)}/s (${secs(single.seconds * 1000)}) = ${ratio.toFixed(2)}×; single-mode ${fmtTimes(single.times)}; single mode, eSign Trigger alone with default options: ${single.triggerAlone.perSecond.toFixed(1)}/s, ${fmtTimes(single.triggerAlone.times)}; n8n's own Webhook node alone: ${single.webhookNode.perSecond.toFixed(1)}/s, ${fmtTimes(single.webhookNode.times)}; ${path.relative(ROOT, out)}`;
	});
});
