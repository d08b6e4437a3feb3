#!/usr/bin/env node
// `npm run test:queue`: the package in n8n 2.41.1 queue mode — one main, two workers (`n8n worker`) and one
// webhook processor (`n8n webhook`), EXECUTIONS_MODE=queue, a throwaway PostgreSQL and Redis from Debian's
// packages (installed with apt-get when missing, as root), everything on 127.0.0.1 and free ports, the
// packed package installed once as a community package in the user folder every process loads.
// Checks: every manual example runs on a worker with the same API calls as in single mode; 200 distinct
// signed deliveries sent at once to the webhook processor give exactly 200 executions; 50 forgeries get
// 401 and none; 50 repeats of an accepted body across main and webhook processor give none; and the
// throughput of queue mode against single mode, measured in the same run. Prints `N passed, M failed` last.
// Env: QUEUE_EVENTS=200 (distinct deliveries), QUEUE_KEEP=1 (keep the temporary folder and logs),
//      QUEUE_N8N_ENV='{"N8N_…":"…"}' (more n8n settings for every n8n process, e.g. to measure one).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
	LINES,
	ROOT,
	RUNTIME_ROOT,
	createApiKey,
	ensureCredential,
	ensureRuntime,
	freePort,
	importWorkflow,
	installPackageTarball,
	publicApi,
	setupOwner,
	startN8n,
} from './lib/runtime.mjs';
import {
	CREDENTIAL,
	TRIGGER_WORKFLOW_ID,
	activateTrigger,
	buildAndPack,
	credentialData,
	isManual,
	prepareExamples,
	readExamples,
	sandboxControl,
	sandboxModule,
	secs,
	waitForWebhook,
} from './lib/esign.mjs';
import { EXPECTED, assert, createChecks, createLifecycle, fmtRoutes, nodeOutput, runError, sandboxCalls, sandboxView } from './lib/expectations.mjs';
import { ensureDebianPackages, postgresBinDir, serviceTempDir, startPostgres, startRedis } from './lib/services.mjs';

const LINE = '2';
const EVENTS = Number(process.env.QUEUE_EVENTS || 200);
const FORGED = 50;
const REPEATS = 50;
const KEEP = process.env.QUEUE_KEEP === '1';
// Extra n8n settings for every process this script starts (main, workers, webhook processor, single mode).
const N8N_EXTRA_ENV = JSON.parse(process.env.QUEUE_N8N_ENV || '{}');
const LOG_DIR = path.join(RUNTIME_ROOT, 'queue-logs');
const ENCRYPTION_KEY = crypto.randomBytes(24).toString('hex');

const { counts, check, skip } = createChecks();
const say = (...a) => console.log('[queue]', ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Everything this script started, stopped in reverse order (and only that).
const { cleanups, finish, stopSince } = createLifecycle({ label: 'queue', say, counts });

// ---------------------------------------------------------------- n8n helpers

/** Every execution of a workflow through the public API (all pages). */
async function executionsOf(n8nUrl, apiKey, workflowId, { includeData = false } = {}) {
	const all = [];
	let cursor;
	do {
		const q = new URLSearchParams({ workflowId, includeData: String(includeData), limit: '250' });
		if (cursor) q.set('cursor', cursor);
		const page = await publicApi(n8nUrl, apiKey, 'GET', `/executions?${q}`);
		all.push(...page.data);
		cursor = page.nextCursor;
	} while (cursor);
	return all;
}

const isDone = (e) => ['success', 'error', 'crashed', 'canceled'].includes(e.status) || (e.finished && e.stoppedAt);

/** Waits until `count` executions of the workflow exist and all have ended; returns them. */
async function waitForExecutions(n8nUrl, apiKey, workflowId, count, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const list = await executionsOf(n8nUrl, apiKey, workflowId);
		if (list.length >= count && list.every(isDone)) return list;
		assert(Date.now() < deadline, `${list.length} executions (${list.filter(isDone).length} ended) after ${timeoutMs / 1000} s, expected ${count}`);
		await sleep(500);
	}
}

/**
 * Delivers signed document.completed events through the sandbox, all at once; returns the deliveries
 * (each with its answer time `ms`). The site's one attempt waits 5 s; with 200 at once on 2 cores the
 * slowest answers take longer, so the sandbox waits up to a minute here and the answer times are reported.
 */
async function deliverAll(sb, url, docIds) {
	return await Promise.all(
		docIds.map((id) =>
			sandboxControl(sb.url, 'POST', '/__sandbox/webhooks/test', {
				url,
				event: 'document.completed',
				data: { document_id: Number(id), document_title: `Queue contract ${id}`, status: 'completed' },
				timeoutMs: 60000,
			}, 90000),
		),
	);
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

/** Throughput of a run of deliveries: executions per second from the first send to the last stop. */
function throughput(executions, startedAt) {
	const last = Math.max(...executions.map((e) => Date.parse(e.stoppedAt)));
	const seconds = (last - startedAt) / 1000;
	return { perSecond: executions.length / seconds, seconds };
}

/**
 * Example 6 with the trigger's default options (no Download Document), as its own workflow and webhook;
 * `alone`: the trigger only (no Get node), to compare with n8n's own Webhook node.
 */
async function importDefaultTrigger(line, userFolder, extraEnv, credentialId, { alone = false } = {}) {
	const { workflow } = readExamples().find(({ workflow }) => workflow.id === TRIGGER_WORKFLOW_ID);
	const wf = JSON.parse(JSON.stringify(workflow));
	wf.id = alone ? 'esignQueueTriggerAlone' : 'esignQueueDefaults';
	wf.name = `eSign queue test: trigger with default options${alone ? ', alone' : ''}`;
	if (alone) {
		wf.nodes = wf.nodes.filter((n) => n.type.endsWith('.eSignTrigger'));
		wf.connections = {};
	}
	for (const node of wf.nodes) {
		if (node.credentials?.[CREDENTIAL.type]) node.credentials[CREDENTIAL.type] = { id: String(credentialId), name: CREDENTIAL.name };
		if (node.type.endsWith('.eSignTrigger')) {
			node.parameters = { events: ['document.completed'] };
			node.webhookId = alone ? 'c0ffee01-5d1a-4c3e-9a44-0e5a1c2d3e4f' : 'c0ffee00-5d1a-4c3e-9a44-0e5a1c2d3e4f';
		}
	}
	const file = path.join(userFolder, `${wf.id}.json`);
	fs.writeFileSync(file, JSON.stringify(wf, null, 2));
	await importWorkflow(line, userFolder, file, { extraEnv });
	return wf;
}

// ---------------------------------------------------------------- queue mode

async function queueMode(tarball, sb) {
	const root = serviceTempDir('esign-queue-');
	cleanups.push(() => {
		fs.mkdirSync(LOG_DIR, { recursive: true });
		for (const f of fs.readdirSync(root)) if (f.endsWith('.log')) fs.copyFileSync(path.join(root, f), path.join(LOG_DIR, f));
		if (KEEP) say(`kept ${root}`);
		else fs.rmSync(root, { recursive: true, force: true });
	});
	const userFolder = path.join(root, 'n8n');
	fs.mkdirSync(userFolder, { recursive: true });

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

	const queueEnv = {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: pg.host,
		DB_POSTGRESDB_PORT: String(pg.port),
		DB_POSTGRESDB_DATABASE: pg.database,
		DB_POSTGRESDB_USER: pg.user,
		DB_POSTGRESDB_PASSWORD: '',
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		// Manual runs go to the workers too (2.x default from 3.0).
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		...N8N_EXTRA_ENV,
	};
	await installPackageTarball(LINE, userFolder, tarball);

	const procs = {};
	const started = await check('main, 2 workers and a webhook processor start, each loading the package', async () => {
		const begin = Date.now();
		procs.main = await startN8n(LINE, { userFolder, logFile: path.join(root, 'main.log'), extraEnv: queueEnv });
		cleanups.push(() => procs.main.stop());
		const webhookPort = await freePort();
		const [w1, w2, wh] = await Promise.all([
			startN8n(LINE, { userFolder, command: 'worker', logFile: path.join(root, 'worker-1.log'), extraEnv: queueEnv }),
			startN8n(LINE, { userFolder, command: 'worker', logFile: path.join(root, 'worker-2.log'), extraEnv: queueEnv }),
			startN8n(LINE, { userFolder, command: 'webhook', port: webhookPort, logFile: path.join(root, 'webhook.log'), extraEnv: queueEnv }),
		]);
		Object.assign(procs, { workers: [w1, w2], webhook: wh });
		for (const p of [w1, w2, wh]) cleanups.push(() => p.stop());
		// Each process logs the community package it loaded; a process without it could not run our nodes.
		for (const [name, p] of Object.entries({ main: procs.main, 'worker 1': w1, 'worker 2': w2, webhook: wh })) {
			assert(!/Unrecognized node type: n8n-nodes-esign|Error loading package "n8n-nodes-esign"/.test(p.log()), `${name} could not load the package:\n${p.log().slice(-1500)}`);
		}
		return `main ${procs.main.url}, webhook processor ${wh.url}; ready in ${secs(Date.now() - begin)}`;
	});
	if (!started) return undefined;

	const client = await setupOwner(procs.main.url);
	const apiKey = await createApiKey(client);
	const credential = await ensureCredential(client, { ...CREDENTIAL, data: credentialData(sb) });
	const dir = path.join(root, 'examples');
	prepareExamples(dir, { sandboxUrl: sb.url, credentialId: credential.id });
	await importWorkflow(LINE, userFolder, dir, { extraEnv: queueEnv });

	// ---- actions: every manual example, on a worker, same calls as in single mode
	const workerLogs = () => procs.workers.map((w) => w.log());
	for (const { file, workflow } of readExamples().filter(({ workflow }) => isManual(workflow))) {
		await check(`actions: ${file} runs on a worker and makes the same API calls as in single mode`, async () => {
			const exp = EXPECTED[workflow.id];
			assert(exp, `no expectations written for ${workflow.id}`);
			await sandboxControl(sb.url, 'DELETE', '/__sandbox/requests');
			const outboxBefore = sb.state.outbox.length;
			const trigger = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
			// n8n's public API has no "run workflow" endpoint: this is the editor's own Execute Workflow call.
			const started = await client.request('POST', `/rest/workflows/${workflow.id}/run`, { triggerToStartFrom: { name: trigger.name } });
			const executionId = String(started?.executionId ?? '');
			assert(executionId, `no execution id in ${JSON.stringify(started).slice(0, 200)}`);
			const deadline = Date.now() + 60000;
			let exec;
			for (;;) {
				exec = await publicApi(procs.main.url, apiKey, 'GET', `/executions/${executionId}?includeData=true`).catch(() => undefined);
				if (exec && isDone(exec)) break;
				assert(Date.now() < deadline, `execution ${executionId} not finished within 60 s`);
				await sleep(300);
			}
			assert(exec.status === 'success', `status ${exec.status}: ${runError(exec)}`);
			const ranOn = workerLogs().findIndex((log) => log.includes(`Worker started execution ${executionId} `));
			assert(ranOn >= 0, `no worker log says it started execution ${executionId}`);
			const { log, routes, failed } = await sandboxCalls(sb);
			assert(!failed.length, `failed API calls: ${failed.join('; ')}`);
			assert(JSON.stringify(Object.entries(routes).sort()) === JSON.stringify(Object.entries(exp.routes).sort()), `API calls ${fmtRoutes(routes)}; expected ${fmtRoutes(exp.routes)}`);
			const note = await exp.verify({ site: sandboxView(sb), runData: exec.data.resultData.runData, outbox: sb.state.outbox.slice(outboxBefore), log });
			return `execution ${executionId} on worker ${ranOn + 1}; ${fmtRoutes(routes)}; ${note}`;
		});
	}

	// ---- trigger: deliveries to the webhook processor
	let hookUrl;
	const active = await check('trigger: example 6 active; its production URL answers on the webhook processor', async () => {
		const hook = await activateTrigger(client, TRIGGER_WORKFLOW_ID);
		hookUrl = hook.url.replace(procs.main.url, procs.webhook.url);
		const status = await waitForWebhook(hookUrl, 60000);
		assert(status === 401, `an unsigned POST to the webhook processor got ${status}`);
		return `${hookUrl} (unsigned POST → 401)`;
	});
	if (!active) return undefined;

	let rate;
	await check(`trigger: ${EVENTS} distinct signed deliveries at once → exactly ${EVENTS} executions, none lost or doubled, all on workers`, async () => {
		const ids = await seedCompleted(sb, EVENTS, 'Queue contract');
		const startedAt = Date.now();
		const deliveries = await deliverAll(sb, hookUrl, ids);
		const notOk = deliveries.filter((d) => d.status !== 200);
		assert(!notOk.length, `${notOk.length} deliveries not answered 200: ${notOk.slice(0, 5).map((d) => d.status ?? d.error).join(', ')}`);
		const list = await waitForExecutions(procs.main.url, apiKey, TRIGGER_WORKFLOW_ID, EVENTS, 300000);
		rate = { ...throughput(list, startedAt), times: answerTimes(deliveries) };
		await sleep(3000);
		const all = await executionsOf(procs.main.url, apiKey, TRIGGER_WORKFLOW_ID, { includeData: true });
		assert(all.length === EVENTS, `${all.length} executions, expected ${EVENTS}`);
		const failed = all.filter((e) => e.status !== 'success');
		assert(!failed.length, `${failed.length} executions failed, e.g. ${failed[0] && runError(failed[0])}`);
		const docs = all.map((e) => String(nodeOutput(e.data.resultData.runData, 'eSign Trigger')[0]?.json?.data?.document_id));
		const distinct = new Set(docs);
		assert(distinct.size === EVENTS && ids.every((id) => distinct.has(String(id))), `executions cover ${distinct.size} distinct documents of ${EVENTS}`);
		const withFile = all.filter((e) => nodeOutput(e.data.resultData.runData, 'eSign Trigger')[0]?.binary).length;
		assert(withFile === EVENTS, `${withFile} executions carry the downloaded PDF`);
		const perWorker = workerLogs().map((log) => all.filter((e) => log.includes(`Worker started execution ${e.id} `)).length);
		assert(perWorker[0] + perWorker[1] === EVENTS, `worker logs show ${perWorker.join(' + ')} of ${EVENTS} executions`);
		return `${EVENTS} executions, ${distinct.size} distinct documents, each with its PDF; worker 1 ran ${perWorker[0]}, worker 2 ran ${perWorker[1]}; ${rate.perSecond.toFixed(1)} executions/s; ${fmtTimes(rate.times)}`;
	});

	// What n8n keeps of a trigger's static data (its accepted-delivery hashes) in the database.
	const storedHashes = (workflowId = TRIGGER_WORKFLOW_ID) => {
		const raw = pg.psql(`SELECT "staticData" FROM workflow_entity WHERE id = '${workflowId}'`);
		const data = raw ? JSON.parse(raw) : {};
		return data?.['node:eSign Trigger']?.acceptedDeliveries ?? [];
	};
	const kept = storedHashes().length;
	say(`static data after ${EVENTS} concurrent deliveries: ${kept} of ${EVENTS} accepted-delivery hashes stored (each webhook call saves the whole static data: the last writer wins)`);

	await check(`trigger: ${FORGED} forged deliveries → 401 each, no execution`, async () => {
		const before = (await executionsOf(procs.main.url, apiKey, TRIGGER_WORKFLOW_ID)).length;
		const answers = await Promise.all(
			Array.from({ length: FORGED }, async (_, i) => {
				const body = JSON.stringify({ event: 'document.completed', data: { document_id: i + 1, document_title: 'Forged' }, timestamp: '2026-11-22 12:00:00' });
				const signature = `sha256=${crypto.createHmac('sha256', 'not-the-secret').update(body).digest('hex')}`;
				const res = await fetch(i % 2 ? procs.main.url + new URL(hookUrl).pathname : hookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'X-ESIGN-Signature': signature }, body });
				await res.arrayBuffer();
				return res.status;
			}),
		);
		assert(answers.every((s) => s === 401), `answers: ${[...new Set(answers)].join(', ')}`);
		await sleep(5000);
		const after = (await executionsOf(procs.main.url, apiKey, TRIGGER_WORKFLOW_ID)).length;
		assert(after === before, `${after - before} executions after forged deliveries`);
		return `${FORGED} × 401 (half to main, half to the webhook processor), 0 executions`;
	});

	/** One accepted body, then REPEATS repeats of it split between the webhook processor and main. */
	const repeatsGiveOneExecution = (label, workflowId, url) => check(`trigger (${label}): ${REPEATS} repeats of one accepted body across main and webhook processor → exactly one execution`, async () => {
		const [id] = await seedCompleted(sb, 1, 'Queue repeat');
		const before = (await executionsOf(procs.main.url, apiKey, workflowId)).length;
		const [first] = await deliverAll(sb, url, [id]);
		assert(first.status === 200, `first delivery answered ${first.status ?? first.error}`);
		await waitForExecutions(procs.main.url, apiKey, workflowId, before + 1, 60000);
		const hash = crypto.createHash('sha256').update(first.body).digest('hex');
		// A worker writes back the static data it loaded when its run started: give it time to do so.
		await sleep(3000);
		const stored = storedHashes(workflowId);
		assert(stored.includes(hash), `the accepted delivery's hash ${hash.slice(0, 12)}… is not in the stored static data after its run (stored: ${stored.map((h) => h.slice(0, 12)).join(', ') || 'none'})`);
		const targets = [url, procs.main.url + new URL(url).pathname];
		const answers = await Promise.all(
			Array.from({ length: REPEATS }, async (_, i) => {
				const res = await fetch(targets[i % 2], { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8', 'X-ESIGN-Signature': first.signature }, body: first.body });
				return { status: res.status, text: await res.text() };
			}),
		);
		assert(answers.every((a) => a.status === 200 && /repeated_delivery/.test(a.text)), `answers: ${[...new Set(answers.map((a) => `${a.status} ${a.text.slice(0, 60)}`))].join(' | ')}`);
		await sleep(5000);
		const after = (await executionsOf(procs.main.url, apiKey, workflowId)).length;
		assert(after === before + 1, `${after - before} executions for the body and its ${REPEATS} repeats, expected 1`);
		return `1 execution; ${REPEATS} × 200 repeated_delivery (half to main, half to the webhook processor)`;
	});
	await repeatsGiveOneExecution('example 6, Download Document on', TRIGGER_WORKFLOW_ID, hookUrl);
	const plain = await importDefaultTrigger(LINE, userFolder, queueEnv, credential.id);
	let plainUrl;
	if (await check('trigger with default options (no download) active on the webhook processor', async () => {
		const hook = await activateTrigger(client, plain.id);
		plainUrl = hook.url.replace(procs.main.url, procs.webhook.url);
		assert((await waitForWebhook(plainUrl, 60000)) === 401, 'unsigned POST not refused');
		return plainUrl;
	})) {
		await repeatsGiveOneExecution('default options', plain.id, plainUrl);
	}

	// The race the README describes: identical deliveries arriving at the same moment, before any has saved.
	{
		const [id] = await seedCompleted(sb, 1, 'Queue race');
		const before = (await executionsOf(procs.main.url, apiKey, TRIGGER_WORKFLOW_ID)).length;
		const body = JSON.stringify({ event: 'document.completed', data: { document_id: Number(id), document_title: 'Race' }, timestamp: sb.now() });
		const signature = `sha256=${crypto.createHmac('sha256', sb.webhookSecret).update(body).digest('hex')}`;
		await Promise.all(Array.from({ length: 10 }, () => fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'X-ESIGN-Signature': signature }, body }).then((r) => r.arrayBuffer())));
		await sleep(5000);
		const ran = (await executionsOf(procs.main.url, apiKey, TRIGGER_WORKFLOW_ID)).length - before;
		say(`race (measured, not a check): 10 identical deliveries sent at the same moment started ${ran} execution(s)`);
	}
	await client.request('POST', `/rest/workflows/${TRIGGER_WORKFLOW_ID}/deactivate`, {}).catch(() => {});
	return { rate, kept };
}

// ---------------------------------------------------------------- single mode (the throughput baseline)

async function singleMode(tarball, sb) {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'esign-queue-single-'));
	cleanups.push(() => fs.rmSync(userFolder, { recursive: true, force: true }));
	await installPackageTarball(LINE, userFolder, tarball);
	const n8n = await startN8n(LINE, { userFolder, logFile: path.join(userFolder, 'n8n.log'), extraEnv: N8N_EXTRA_ENV });
	cleanups.push(() => n8n.stop());
	const client = await setupOwner(n8n.url);
	const apiKey = await createApiKey(client);
	const credential = await ensureCredential(client, { ...CREDENTIAL, data: credentialData(sb) });
	const dir = path.join(userFolder, 'examples');
	prepareExamples(dir, { sandboxUrl: sb.url, credentialId: credential.id, only: [TRIGGER_WORKFLOW_ID] });
	await importWorkflow(LINE, userFolder, dir);
	const hook = await activateTrigger(client, TRIGGER_WORKFLOW_ID);
	const ids = await seedCompleted(sb, EVENTS, 'Single contract');
	const startedAt = Date.now();
	const deliveries = await deliverAll(sb, hook.url, ids);
	assert(deliveries.every((d) => d.status === 200), 'single mode: not every delivery answered 200');
	const list = await waitForExecutions(n8n.url, apiKey, TRIGGER_WORKFLOW_ID, EVENTS, 300000);
	assert(list.length === EVENTS && list.every((e) => e.status === 'success'), `single mode: ${list.length} executions, ${list.filter((e) => e.status !== 'success').length} not successful`);
	const ours = { ...throughput(list, startedAt), times: answerTimes(deliveries) };

	// The same burst to the trigger alone with its default options, and to n8n's own Webhook node
	// (nothing verified): what this package's trigger costs over n8n's own handling.
	const alone = await importDefaultTrigger(LINE, userFolder, undefined, credential.id, { alone: true });
	const aloneHook = await activateTrigger(client, alone.id);
	const aloneIds = await seedCompleted(sb, EVENTS, 'Alone contract');
	const aloneStart = Date.now();
	const aloneDeliveries = await deliverAll(sb, aloneHook.url, aloneIds);
	const aloneList = await waitForExecutions(n8n.url, apiKey, alone.id, EVENTS, 300000);
	const triggerAlone = { ...throughput(aloneList, aloneStart), times: answerTimes(aloneDeliveries) };

	const plainPath = 'esign-queue-plain-webhook';
	const plain = {
		id: 'esignQueuePlainHook',
		name: 'eSign queue test: n8n Webhook node',
		active: false,
		settings: { executionOrder: 'v1' },
		connections: {},
		nodes: [{ parameters: { httpMethod: 'POST', path: plainPath, options: {} }, id: 'e5f0c1a2-0000-4000-8000-00000000c0de', name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: 'e5f0c1a2-0000-4000-8000-00000000beef' }],
	};
	const plainFile = path.join(userFolder, 'plain-webhook.json');
	fs.writeFileSync(plainFile, JSON.stringify(plain));
	await importWorkflow(LINE, userFolder, plainFile);
	await client.request('POST', `/rest/workflows/${plain.id}/activate`, { versionId: (await client.request('GET', `/rest/workflows/${plain.id}`)).versionId });
	const plainUrl = `${n8n.url}/webhook/${plainPath}`;
	await waitForWebhook(plainUrl, 30000);
	const plainStart = Date.now();
	const plainDeliveries = await deliverAll(sb, plainUrl, ids);
	const plainList = await waitForExecutions(n8n.url, apiKey, plain.id, EVENTS + 1, 300000); // +1: the readiness probe
	await n8n.stop();
	const plainRate = throughput(plainList, plainStart);
	plainRate.perSecond = EVENTS / plainRate.seconds; // the probe ran before the burst
	return { ...ours, triggerAlone, webhookNode: { ...plainRate, times: answerTimes(plainDeliveries) } };
}

// ---------------------------------------------------------------- main

async function main() {
	say(`n8n ${LINES[LINE].version} in queue mode; ${os.cpus().length} cores`);
	await check('PostgreSQL and Redis installed (Debian packages)', async () => {
		ensureDebianPackages(
			[
				{ command: 'redis-server', package: 'redis-server' },
				{ command: 'postgres', package: 'postgresql', find: postgresBinDir },
				{ command: 'psql', package: 'postgresql-client' },
			],
			say,
		);
		return `redis-server, ${postgresBinDir()}`;
	});
	if (counts.failed) return;
	await ensureRuntime(LINE);
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'esign-queue-pack-'));
	cleanups.push(() => fs.rmSync(packDir, { recursive: true, force: true }));
	const tarball = await buildAndPack(packDir);
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
	await check(`throughput: ${EVENTS} deliveries, queue mode ÷ single mode (same run, same machine; a measurement, not a goal)`, async () => {
		const single = await singleMode(tarball, sb);
		const ratio = queue.rate.perSecond / single.perSecond;
		const result = {
			date: new Date().toISOString(),
			n8n: LINES[LINE].version,
			machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
			events: EVENTS,
			n8nEnv: N8N_EXTRA_ENV,
			queue: { executionsPerSecond: queue.rate.perSecond, seconds: queue.rate.seconds, workers: 2, answerMs: queue.rate.times },
			single: { executionsPerSecond: single.perSecond, seconds: single.seconds, answerMs: single.times },
			singleTriggerAloneDefaults: { executionsPerSecond: single.triggerAlone.perSecond, answerMs: single.triggerAlone.times },
			singleN8nWebhookNode: { executionsPerSecond: single.webhookNode.perSecond, answerMs: single.webhookNode.times },
			ratio,
			staticDataHashesKeptAfterConcurrentDeliveries: queue.kept,
		};
		const out = path.join(ROOT, 'bench', 'results', `queue-${result.date.replace(/[:.]/g, '-')}.json`);
		fs.mkdirSync(path.dirname(out), { recursive: true });
		fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
		return `queue ${queue.rate.perSecond.toFixed(1)}/s (${secs(queue.rate.seconds * 1000)}) ÷ single ${single.perSecond.toFixed(1)}/s (${secs(single.seconds * 1000)}) = ${ratio.toFixed(2)}×; single-mode ${fmtTimes(single.times)}; single mode, eSign Trigger alone with default options: ${single.triggerAlone.perSecond.toFixed(1)}/s, ${fmtTimes(single.triggerAlone.times)}; n8n's own Webhook node alone: ${single.webhookNode.perSecond.toFixed(1)}/s, ${fmtTimes(single.webhookNode.times)}; ${path.relative(ROOT, out)}`;
	});
}


main()
	.catch((err) => {
		counts.failed++;
		console.log(`FAIL queue: ${err.stack || err}`);
	})
	.finally(() => finish());
