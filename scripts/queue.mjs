#!/usr/bin/env node
// `npm run test:queue`: the package in n8n 2.41.1 queue mode (one main, two workers, one webhook processor, a
// throwaway PostgreSQL and Redis from Debian's packages): the examples on workers, 200 signed deliveries at once,
// forgeries, repeats across processes, and throughput against single mode. docs/queue-mode.md says what and why.
// Env: QUEUE_EVENTS=200 (distinct deliveries), QUEUE_KEEP=1 (keep the temporary folder and logs),
//      QUEUE_N8N_ENV='{"N8N_…":"…"}' (more n8n settings for every n8n process, e.g. to measure one).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LINES, ROOT, RUNTIME_ROOT, ensureRuntime, sleep } from './lib/runtime.mjs';
import { CREDENTIAL, TRIGGER_WORKFLOW_ID, chain, credRef, credentialData, node, readExamples, sandboxControl, sandboxModule, sandboxSite, secs, signature, waitForWebhook } from './lib/esign.mjs';
import { assert, nodeOutput, runError, testScript } from './lib/expectations.mjs';
import { examplesRun } from './lib/checks.mjs';
import { createInstance, isDone } from './lib/instance.mjs';
import { ensureDebianPackages, postgresBinDir, serviceTempDir, startPostgres, startRedis } from './lib/services.mjs';

const EVENTS = Number(process.env.QUEUE_EVENTS || 200);
const FORGED = 50;
const REPEATS = 50;
const KEEP = process.env.QUEUE_KEEP === '1';
// Extra n8n settings for every process this script starts (main, workers, webhook processor, single mode).
const N8N_EXTRA_ENV = JSON.parse(process.env.QUEUE_N8N_ENV || '{}');
const LOG_DIR = path.join(RUNTIME_ROOT, 'queue-logs');

const { counts, check, skip, say, cleanups, stopSince, main, pack } = testScript('queue');

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
	const started = await check('main, 2 workers and a webhook processor start, each loading the package', async () => {
		const begin = Date.now();
		await n8n.start({ name: 'main', processes: [{ command: 'worker', name: 'worker-1' }, { command: 'worker', name: 'worker-2' }, { command: 'webhook', name: 'webhook' }] });
		// Each process logs the community package it loaded; a process without it could not run our nodes.
		for (const p of n8n.procs) {
			assert(!/Unrecognized node type: n8n-nodes-esign|Error loading package "n8n-nodes-esign"/.test(p.log()), `${path.basename(p.logFile)} could not load the package:\n${p.log().slice(-1500)}`);
		}
		return `main ${n8n.url}, webhook processor ${n8n.procs[3].url}; ready in ${secs(Date.now() - begin)}`;
	});
	if (!started) return undefined;
	const [, ...workers] = n8n.procs;
	const webhook = workers.pop();
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

	let rate;
	await check(`trigger: ${EVENTS} distinct signed deliveries at once → exactly ${EVENTS} executions, none lost or doubled, all on workers`, async () => {
		const ids = await seedCompleted(sb, EVENTS, 'Queue contract');
		rate = await burst(n8n, sb, hookUrl, TRIGGER_WORKFLOW_ID, ids);
		const all = await n8n.expectExecutions(TRIGGER_WORKFLOW_ID, EVENTS);
		const failed = all.filter((e) => e.status !== 'success');
		assert(!failed.length, `${failed.length} executions failed, e.g. ${failed[0] && runError(failed[0])}`);
		const distinct = new Set(all.map((e) => String(nodeOutput(e.data.resultData.runData, 'eSign Trigger')[0]?.json?.data?.document_id)));
		assert(distinct.size === EVENTS && ids.every((id) => distinct.has(String(id))), `executions cover ${distinct.size} distinct documents of ${EVENTS}`);
		const withFile = all.filter((e) => nodeOutput(e.data.resultData.runData, 'eSign Trigger')[0]?.binary).length;
		assert(withFile === EVENTS, `${withFile} executions carry the downloaded PDF`);
		const perWorker = workers.map((w) => all.filter((e) => w.log().includes(`Worker started execution ${e.id} `)).length);
		assert(perWorker[0] + perWorker[1] === EVENTS, `worker logs show ${perWorker.join(' + ')} of ${EVENTS} executions`);
		return `${EVENTS} executions, ${distinct.size} distinct documents, each with its PDF; worker 1 ran ${perWorker[0]}, worker 2 ran ${perWorker[1]}; ${rate.perSecond.toFixed(1)} executions/s; ${fmtTimes(rate.times)}`;
	});

	// What n8n keeps of a trigger's static data (its accepted-delivery hashes) in the database.
	const storedHashes = (workflowId = TRIGGER_WORKFLOW_ID) => {
		const raw = pg.psql(`SELECT "staticData" FROM workflow_entity WHERE id = '${workflowId}'`);
		return (raw ? JSON.parse(raw) : {})?.['node:eSign Trigger']?.acceptedDeliveries ?? [];
	};
	const kept = storedHashes().length;
	say(`static data after ${EVENTS} concurrent deliveries: ${kept} of ${EVENTS} accepted-delivery hashes stored (each webhook call saves the whole static data: the last writer wins)`);
	const halfToMain = (url, i) => (i % 2 ? n8n.url + new URL(url).pathname : url);

	await check(`trigger: ${FORGED} forged deliveries → 401 each, no execution`, async () => {
		const before = (await n8n.executions(TRIGGER_WORKFLOW_ID)).length;
		const answers = await Promise.all(
			Array.from({ length: FORGED }, async (_, i) => {
				const body = JSON.stringify({ event: 'document.completed', data: { document_id: i + 1, document_title: 'Forged' }, timestamp: '2026-11-22 12:00:00' });
				const res = await fetch(halfToMain(hookUrl, i), { method: 'POST', headers: { 'content-type': 'application/json', 'X-ESIGN-Signature': signature(body, 'not-the-secret') }, body });
				await res.arrayBuffer();
				return res.status;
			}),
		);
		assert(answers.every((s) => s === 401), `answers: ${[...new Set(answers)].join(', ')}`);
		await n8n.expectExecutions(TRIGGER_WORKFLOW_ID, before, { settleMs: 5000 });
		return `${FORGED} × 401 (half to main, half to the webhook processor), 0 executions`;
	});

	/** One accepted body, then REPEATS repeats of it split between the webhook processor and main. */
	const repeatsGiveOneExecution = (label, workflowId, url) => check(`trigger (${label}): ${REPEATS} repeats of one accepted body across main and webhook processor → exactly one execution`, async () => {
		const [id] = await seedCompleted(sb, 1, 'Queue repeat');
		const before = (await n8n.executions(workflowId)).length;
		const [first] = await deliverAll(sb, url, [id]);
		assert(first.status === 200, `first delivery answered ${first.status ?? first.error}`);
		await n8n.waitForExecutions(workflowId, before + 1);
		const hash = crypto.createHash('sha256').update(first.body).digest('hex');
		// A worker writes back the static data it loaded when its run started: give it time to do so.
		await sleep(3000);
		const stored = storedHashes(workflowId);
		assert(stored.includes(hash), `the accepted delivery's hash ${hash.slice(0, 12)}… is not in the stored static data after its run (stored: ${stored.map((h) => h.slice(0, 12)).join(', ') || 'none'})`);
		const answers = await Promise.all(
			Array.from({ length: REPEATS }, async (_, i) => {
				const res = await fetch(halfToMain(url, i), { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8', 'X-ESIGN-Signature': first.signature }, body: first.body });
				return { status: res.status, text: await res.text() };
			}),
		);
		assert(answers.every((a) => a.status === 200 && /repeated_delivery/.test(a.text)), `answers: ${[...new Set(answers.map((a) => `${a.status} ${a.text.slice(0, 60)}`))].join(' | ')}`);
		await n8n.expectExecutions(workflowId, before + 1, { settleMs: 5000 });
		return `1 execution; ${REPEATS} × 200 repeated_delivery (half to main, half to the webhook processor)`;
	});
	await repeatsGiveOneExecution('example 6, Download Document on', TRIGGER_WORKFLOW_ID, hookUrl);
	const plain = await importDefaultTrigger(n8n, credential.id);
	let plainUrl;
	if (await check('trigger with default options (no download) active on the webhook processor', async () => (plainUrl = await onWebhookProcessor(plain.id)))) {
		await repeatsGiveOneExecution('default options', plain.id, plainUrl);
	}

	// The race docs/queue-mode.md describes: identical deliveries arriving at the same moment, before any has saved.
	{
		const [id] = await seedCompleted(sb, 1, 'Queue race');
		const before = (await n8n.executions(TRIGGER_WORKFLOW_ID)).length;
		const body = JSON.stringify({ event: 'document.completed', data: { document_id: Number(id), document_title: 'Race' }, timestamp: sb.now() });
		await Promise.all(Array.from({ length: 10 }, () => fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'X-ESIGN-Signature': signature(body, sb.webhookSecret) }, body }).then((r) => r.arrayBuffer())));
		await sleep(5000);
		const ran = (await n8n.executions(TRIGGER_WORKFLOW_ID)).length - before;
		say(`race (measured, not a check): 10 identical deliveries sent at the same moment started ${ran} execution(s)`);
	}
	await n8n.deactivate(TRIGGER_WORKFLOW_ID).catch(() => {});
	return { rate, kept };
}

// ---------------------------------------------------------------- single mode (the throughput baseline)

async function singleMode(tarball, sb) {
	const n8n = await createInstance({ tarball, cleanups });
	await n8n.start({ serverEnv: N8N_EXTRA_ENV });
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
	await check(`throughput: ${EVENTS} deliveries, queue mode ÷ single mode (same run, same machine; a measurement, not a goal)`, async () => {
		const single = await singleMode(tarball, sb);
		const ratio = queue.rate.perSecond / single.perSecond;
		const figures = (r, more) => ({ executionsPerSecond: r.perSecond, seconds: r.seconds, ...more, answerMs: r.times });
		const result = {
			...{ date: new Date().toISOString(), n8n: LINES['2'].version, machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`, events: EVENTS, n8nEnv: N8N_EXTRA_ENV },
			...{ queue: figures(queue.rate, { workers: 2 }), single: figures(single), singleTriggerAloneDefaults: figures(single.triggerAlone), singleN8nWebhookNode: figures(single.webhookNode) },
			...{ ratio, staticDataHashesKeptAfterConcurrentDeliveries: queue.kept },
		};
		const out = path.join(ROOT, 'bench', 'results', `queue-${result.date.replace(/[:.]/g, '-')}.json`);
		fs.mkdirSync(path.dirname(out), { recursive: true });
		fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
		return `queue ${queue.rate.perSecond.toFixed(1)}/s (${secs(queue.rate.seconds * 1000)}) ÷ single ${single.perSecond.toFixed(1)}/s (${secs(single.seconds * 1000)}) = ${ratio.toFixed(2)}×; single-mode ${fmtTimes(single.times)}; single mode, eSign Trigger alone with default options: ${single.triggerAlone.perSecond.toFixed(1)}/s, ${fmtTimes(single.triggerAlone.times)}; n8n's own Webhook node alone: ${single.webhookNode.perSecond.toFixed(1)}/s, ${fmtTimes(single.webhookNode.times)}; ${path.relative(ROOT, out)}`;
	});
});
