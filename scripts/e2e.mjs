#!/usr/bin/env node
// `npm run test:e2e`: the package in real n8n, headless, for n8n 2.41.1 and then 1.123.81.
// Per line: fresh user folder with the packed package installed as a community package, the sandbox
// and n8n on free 127.0.0.1 ports; node/credential types loaded, every example imported and run with
// `n8n execute` (checked against the sandbox's request log), the trigger example fired by a real signed
// document.completed, a forged delivery refused, the credential test; on 2.x the README screenshots.
// Prints PASS/FAIL per check and ends with the line `N passed, M failed`; exits 1 on any failure.
// Env: E2E_LINES=2,1 (which lines, in order), E2E_KEEP=1 (keep the temporary user folders),
//      E2E_SCREENSHOTS=0 (skip screenshots), E2E_TIMEOUT_MIN=30 (watchdog after the runtime install).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
	LINES,
	RUNTIME_ROOT,
	ROOT,
	activateWorkflow,
	createApiKey,
	deactivateWorkflow,
	ensureCredential,
	ensureRuntime,
	executeWorkflow,
	exportNodes,
	importWorkflow,
	installPackageTarball,
	listExecutionsWithData,
	listWorkflows,
	serverVersion,
	setupOwner,
	startN8n,
	testCredential,
} from './lib/runtime.mjs';
import {
	CREDENTIAL,
	NODE_TYPES,
	STATUS_TRIGGER_WORKFLOW_ID,
	TRIGGER_WORKFLOW_ID,
	activateTrigger,
	buildAndPack,
	credentialData,
	isManual,
	prepareExamples,
	readExamples,
	registerSandboxWebhook,
	sandboxControl,
	sandboxModule,
	secs,
} from './lib/esign.mjs';
import { EXPECTED, assert, createChecks, createLifecycle, fmtRoutes, nodeOutput, runError, sandboxCalls, sandboxView } from './lib/expectations.mjs';
import { ensureChromium, takeScreenshots } from './lib/screenshots.mjs';

const ORDER = (process.env.E2E_LINES || '2,1').split(',').map((s) => s.trim()).filter(Boolean);
const KEEP = process.env.E2E_KEEP === '1';
const SCREENSHOTS = process.env.E2E_SCREENSHOTS !== '0';
const TIMEOUT_MIN = Number(process.env.E2E_TIMEOUT_MIN || 30);
const LOG_DIR = path.join(RUNTIME_ROOT, 'e2e-logs');
const DOCS_DIR = path.join(ROOT, 'docs');
const WEBHOOK_ID = '7b0f3c2e-5d1a-4c3e-9a44-0e5a1c2d3e4f';

// ---------------------------------------------------------------- reporting

const { counts, check, skip } = createChecks();
const say = (...a) => console.log('[e2e]', ...a);

// ---------------------------------------------------------------- cleanup (everything we start, by handle/PID)

const { cleanups, finish, t0 } = createLifecycle({ label: 'e2e', say, counts });

// ---------------------------------------------------------------- helpers

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The eSign API of the sandbox with its admin key (what the site's own UI would do). */
async function esignApi(sb, method, p, { json, form } = {}) {
	const headers = { 'X-ESIGN-API-Key': sb.keys.admin.key, 'X-ESIGN-API-Secret': sb.keys.admin.secret };
	let body;
	if (json !== undefined) {
		headers['content-type'] = 'application/json';
		body = JSON.stringify(json);
	} else if (form) body = form;
	const res = await fetch(sb.apiUrl + p, { method, headers, body, signal: AbortSignal.timeout(15000) });
	const text = await res.text();
	if (!res.ok) throw new Error(`eSign API ${method} ${p} → ${res.status}: ${text.slice(0, 300)}`);
	return text ? JSON.parse(text) : undefined;
}

/** Another origin that records whatever reaches it (a redirect target that must receive nothing). */
async function startRecorder() {
	const requests = [];
	const server = http.createServer((req, res) => {
		requests.push({ method: req.method, url: req.url, headers: req.headers });
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{"total":0}');
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		requests,
		close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
	};
}

const PROBE_ID = 'esignE2eProbeStats';
/** A Manual Trigger → eSign Statistics workflow, imported once per line, for the misbehaving-site checks. */
async function importProbe(line, userFolder, credentialId) {
	const file = path.join(userFolder, 'probe-stats.json');
	if (!fs.existsSync(file)) {
		const wf = {
			id: PROBE_ID,
			name: 'eSign e2e probe: statistics',
			active: false,
			settings: { executionOrder: 'v1' },
			connections: { 'Run probe': { main: [[{ node: 'Statistics', type: 'main', index: 0 }]] } },
			nodes: [
				{ parameters: {}, id: 'b1a4c1e2-0000-4000-8000-000000000001', name: 'Run probe', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] },
				{
					parameters: { resource: 'stats', operation: 'get' },
					id: 'b1a4c1e2-0000-4000-8000-000000000002',
					name: 'Statistics',
					type: NODE_TYPES.action,
					typeVersion: 1,
					position: [220, 0],
					credentials: { [CREDENTIAL.type]: { id: String(credentialId), name: CREDENTIAL.name } },
				},
			],
		};
		fs.writeFileSync(file, JSON.stringify(wf, null, 2));
		await importWorkflow(line, userFolder, file);
	}
	return PROBE_ID;
}

/** The site's side of a signing: upload, two signers, their fields, send, then each signer signs. Returns the id. */
async function signedDocument(sb, title) {
	const pdf = Buffer.from(await (await fetch(`${sb.url}/__sandbox/samples/one-page.pdf`)).arrayBuffer());
	const form = new FormData();
	form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'e2e-contract.pdf');
	form.append('title', title);
	const doc = await esignApi(sb, 'POST', '/documents/upload', { form });
	const docId = String(doc.id);
	for (const [name, email] of [['Erin Signer', 'erin@example.org'], ['Finn Signer', 'finn@example.org']]) {
		await esignApi(sb, 'POST', `/documents/${docId}/signers`, { json: { name, email } });
	}
	const signers = await esignApi(sb, 'GET', `/documents/${docId}/signers`);
	const fields = signers.map((s, i) => ({ signer_id: Number(s.id), field_type: 'signature', page_number: 1, position_x: 72, position_y: 500 + i * 90 }));
	await esignApi(sb, 'POST', `/documents/${docId}/fields`, { json: { fields } });
	await esignApi(sb, 'POST', `/documents/${docId}/send`);
	for (const s of await sandboxControl(sb.url, 'GET', `/__sandbox/signers?document_id=${docId}`)) {
		await sandboxControl(sb.url, 'POST', `/__sandbox/sign/${encodeURIComponent(s.token)}/sign`, {});
	}
	return docId;
}

/** How many GET /stats requests the sandbox has logged (the polling trigger's first request each poll). */
const statsPolls = (sb) => sb.state.requestLog.filter((r) => r.method === 'GET' && r.path.endsWith('/stats')).length;

/** Waits until the sandbox has logged more than `count` GET /stats requests (one more poll). */
async function waitForPoll(sb, count, timeoutMs = 150000) {
	const deadline = Date.now() + timeoutMs;
	while (statsPolls(sb) <= count) {
		assert(Date.now() < deadline, `no poll (GET /stats) within ${timeoutMs / 1000} s`);
		await sleep(500);
	}
}

// ---------------------------------------------------------------- one n8n line

async function runLine(line, tarball) {
	const { version } = LINES[line];
	const tag = `[n8n ${version}]`;
	const lineStart = Date.now();
	say(`---- n8n ${version} ----`);
	const lineCleanups = cleanups.length; // everything pushed after this belongs to this line
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `esign-e2e-n8n-${version}-`));
	const logFile = path.join(userFolder, 'n8n.log');
	let failedBefore = counts.failed;
	cleanups.push(() => {
		// Keep n8n's log where it can be found after a failure; drop the temporary instance.
		fs.mkdirSync(LOG_DIR, { recursive: true });
		if (fs.existsSync(logFile)) fs.copyFileSync(logFile, path.join(LOG_DIR, `n8n-${version}.log`));
		if (counts.failed > failedBefore) say(`n8n ${version} log: ${path.relative(ROOT, path.join(LOG_DIR, `n8n-${version}.log`))}`);
		if (KEEP) say(`kept ${userFolder}`);
		else fs.rmSync(userFolder, { recursive: true, force: true });
	});

	try {
		await installPackageTarball(line, userFolder, tarball);

		// 1. Types: offline export of every node type n8n loads.
		await check(`${tag} 1. node types loaded (n8n export:nodes)`, async () => {
			const types = await exportNodes(line, userFolder);
			const names = new Set(types.map((t) => t.name));
			for (const n of Object.values(NODE_TYPES)) assert(names.has(n), `${n} not among the ${types.length} exported types`);
			return Object.values(NODE_TYPES).join(', ');
		});

		const { createSandbox } = sandboxModule();
		const sb = await createSandbox({ port: 0, host: '127.0.0.1', rateLimits: false }); // limits off: tests (clarifications)
		cleanups.push(() => sb.close());

		let n8n;
		const started = await check(`${tag} n8n starts with the package installed`, async () => {
			n8n = await startN8n(line, { userFolder, logFile });
			cleanups.push(() => n8n.stop());
			return `${n8n.url}, ready in ${secs(Date.now() - lineStart)} since the line began`;
		});
		if (!started) return;

		let client = await setupOwner(n8n.url);
		const apiKey = await createApiKey(client);

		await check(`${tag} 1. types served to the editor (/types/nodes.json, /types/credentials.json)`, async () => {
			assert((await serverVersion(client)) === version, `server reports ${await serverVersion(client)}`);
			const nodes = await client.request('GET', '/types/nodes.json');
			const creds = await client.request('GET', '/types/credentials.json');
			for (const n of Object.values(NODE_TYPES)) assert(nodes.some((t) => t.name === n), `${n} not in /types/nodes.json`);
			assert(creds.some((c) => c.name === CREDENTIAL.type), `${CREDENTIAL.type} not in /types/credentials.json`);
			return `${Object.keys(NODE_TYPES).length} node types and credential type ${CREDENTIAL.type}`;
		});

		const credential = await ensureCredential(client, { ...CREDENTIAL, data: credentialData(sb) });

		// 2. Examples: import all, run every Manual-Trigger one with `n8n execute` (n8n keeps running).
		const examples = readExamples();
		const imported = await check(`${tag} 2. all ${examples.length} examples imported`, async () => {
			const dir = path.join(userFolder, 'examples');
			prepareExamples(dir, { sandboxUrl: sb.url, credentialId: credential.id });
			await importWorkflow(line, userFolder, dir);
			const have = new Map((await listWorkflows(client)).map((w) => [String(w.id), w]));
			const missing = examples.filter(({ workflow }) => !have.has(workflow.id)).map(({ file }) => file);
			assert(!missing.length, `not imported: ${missing.join(', ')}`);
			return `credential "${CREDENTIAL.name}" ${credential.id}`;
		});

		for (const { file, workflow } of imported ? examples.filter(({ workflow }) => isManual(workflow)) : []) {
			const exp = EXPECTED[workflow.id];
			await check(`${tag} 2. ${file} runs with n8n execute and makes its API calls`, async () => {
				assert(exp, `no expectations written for ${workflow.id}`);
				await sandboxControl(sb.url, 'DELETE', '/__sandbox/requests');
				const outboxBefore = sb.state.outbox.length;
				const res = await executeWorkflow(line, userFolder, workflow.id, { check: false });
				assert(res.data, `no run data (exit ${res.code}):\n${(res.stdout + res.stderr).slice(-1500)}`);
				assert(res.data.status === 'success', `status ${res.data.status}: ${runError(res.data)}`);
				const { log, routes, failed } = await sandboxCalls(sb);
				assert(!failed.length, `failed API calls: ${failed.join('; ')}`);
				assert(JSON.stringify(Object.entries(routes).sort()) === JSON.stringify(Object.entries(exp.routes).sort()), `API calls ${fmtRoutes(routes)}; expected ${fmtRoutes(exp.routes)}`);
				const note = await exp.verify({ site: sandboxView(sb), runData: res.data.data.resultData.runData, outbox: sb.state.outbox.slice(outboxBefore), log });
				return `success; ${fmtRoutes(routes)}; ${note}`;
			});
		}

		// 3. Trigger: active, fired by the sandbox's real signed document.completed.
		let hook;
		const active = await check(`${tag} 3. trigger workflow active, production webhook registered`, async () => {
			hook = await activateTrigger(client, TRIGGER_WORKFLOW_ID);
			assert(hook.url === `${n8n.url}/webhook/${WEBHOOK_ID}/esign`, `production URL ${hook.url}`);
			assert(hook.status === 401, `an unsigned POST got ${hook.status}, expected 401`);
			await registerSandboxWebhook(sb.url, hook.url);
			return `${hook.url} (unsigned POST → 401)`;
		});
		if (active) {
			const executions = () => listExecutionsWithData(n8n.url, apiKey, { workflowId: TRIGGER_WORKFLOW_ID, includeData: true });
			const before = (await executions()).length;
			let docId;
			await check(`${tag} 3. signing a document fires exactly one successful execution with the signed file`, async () => {
				assert(before === 0, `${before} executions before signing`);
				docId = await signedDocument(sb, 'E2E trigger contract');
				assert(sb.state.documents.get(Number(docId))?.status === 'completed', `document ${docId} is ${sb.state.documents.get(Number(docId))?.status}`);
				await sb.idle(); // every webhook delivery settled
				const ofDoc = (d) => String(JSON.parse(d.body).data?.document_id) === docId;
				const completed = sb.state.deliveries.filter((d) => d.event === 'document.completed' && ofDoc(d));
				assert(completed.length === 1 && completed[0].status === 200, `document.completed deliveries: ${JSON.stringify(completed.map((d) => d.status ?? d.error))}`);
				const others = sb.state.deliveries.filter((d) => d.event !== 'document.completed');
				assert(others.every((d) => d.status === 200), `other deliveries: ${others.map((d) => `${d.event}→${d.status ?? d.error}`).join(', ')}`);

				// n8n answers the site at once; the run (with the download) finishes shortly after.
				const deadline = Date.now() + 60000;
				let list;
				for (;;) {
					list = await executions();
					if (list.length > before && list.every((e) => e.finished || ['success', 'error', 'crashed', 'canceled'].includes(e.status))) break;
					assert(Date.now() < deadline, `no finished execution within 60 s (${list.length} executions: ${list.map((e) => e.status).join(', ')})`);
					await sleep(500);
				}
				await sleep(3000); // would a second delivery (document.signed ×2, viewed, sent) start another run?
				list = await executions();
				assert(list.length === before + 1, `${list.length - before} executions of the trigger workflow, expected exactly 1 (${others.length} other events were delivered too)`);
				const exec = list[0];
				assert(exec.status === 'success', `execution ${exec.id} status ${exec.status}: ${runError(exec)}`);
				const runData = exec.data?.resultData?.runData;
				const [item] = nodeOutput(runData, 'eSign Trigger');
				assert(item?.json?.event === 'document.completed', `trigger output event ${item?.json?.event}`);
				assert(String(item.json.data?.document_id) === docId, `trigger output document ${item.json.data?.document_id}, expected ${docId}`);
				const bin = item.binary && Object.values(item.binary)[0];
				assert(bin, `no binary in the trigger output (Download Document is on); json: ${JSON.stringify(item.json).slice(0, 300)}`);
				assert(bin.mimeType === 'application/pdf', `binary mimeType ${bin.mimeType}`);
				const got = nodeOutput(runData, 'Get completed document')[0]?.json;
				assert(got?.status === 'completed', `Get completed document: status ${got?.status}`);
				return `execution ${exec.id}: event document.completed, document ${docId}, binary ${bin.fileName ?? '?'} (${bin.mimeType}${bin.fileSize ? `, ${bin.fileSize}` : ''}); ${others.length} other events answered 200 without a run`;
			});

			await check(`${tag} 3. a forged delivery gets 401 and starts no execution`, async () => {
				const countBefore = (await executions()).length;
				const body = JSON.stringify({ event: 'document.completed', data: { document_id: docId ?? '1', document_title: 'Forged', status: 'completed' }, timestamp: '2026-01-01 00:00:00' });
				const forged = `sha256=${crypto.createHmac('sha256', 'not-the-secret').update(body).digest('hex')}`;
				const res = await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json', 'X-ESIGN-Signature': forged, 'X-ESIGN-Event': 'document.completed' }, body });
				await res.arrayBuffer();
				assert(res.status === 401, `forged delivery answered ${res.status}`);
				await sleep(3000);
				const countAfter = (await executions()).length;
				assert(countAfter === countBefore, `${countAfter - countBefore} new executions after the forged delivery`);
				return '401, no new execution';
			});
			await check(`${tag} 3. repeating the real signed delivery byte for byte starts no second execution`, async () => {
				const original = sb.state.deliveries.find((d) => d.event === 'document.completed' && String(JSON.parse(d.body).data?.document_id) === docId);
				assert(original, 'no document.completed delivery to repeat');
				const countBefore = (await executions()).length;
				const res = await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json', 'X-ESIGN-Signature': original.signature, 'X-ESIGN-Event': original.event }, body: original.body });
				const answer = await res.text();
				assert(res.status === 200, `repeat answered ${res.status}: ${answer.slice(0, 200)}`);
				assert(/repeated_delivery/.test(answer), `repeat answer: ${answer.slice(0, 200)}`);
				await sleep(3000);
				const countAfter = (await executions()).length;
				assert(countAfter === countBefore, `${countAfter - countBefore} new executions after the repeat`);
				return '200 repeated_delivery, no new execution (the accepted hash came from the workflow\'s stored static data)';
			});
		}

		// 3b. Polling trigger: active, it polls every minute; a document signed after its first poll
		// gives exactly one execution, and the next poll gives none.
		await check(`${tag} 3b. polling trigger: a document signed between polls gives exactly one execution, with the signed file`, async () => {
			const statusExecutions = () => listExecutionsWithData(n8n.url, apiKey, { workflowId: STATUS_TRIGGER_WORKFLOW_ID, includeData: true });
			await sandboxControl(sb.url, 'DELETE', '/__sandbox/requests');
			const activatedAt = Date.now();
			await activateWorkflow(client, STATUS_TRIGGER_WORKFLOW_ID);
			cleanups.push(() => deactivateWorkflow(client, STATUS_TRIGGER_WORKFLOW_ID).catch(() => {}));
			await waitForPoll(sb, 0); // the first poll records what exists
			const firstPollAfter = Date.now() - activatedAt;
			assert((await statusExecutions()).length === 0, 'the first poll started an execution');
			const docId = await signedDocument(sb, 'E2E polled contract');
			const deadline = Date.now() + 150000;
			let list;
			for (;;) {
				list = await statusExecutions();
				if (list.length > 0 && list.every((e) => e.finished || ['success', 'error', 'crashed', 'canceled'].includes(e.status))) break;
				assert(Date.now() < deadline, `no finished execution within 150 s of signing (${list.length} executions)`);
				await sleep(1000);
			}
			const detectedIn = Date.now() - activatedAt;
			await waitForPoll(sb, statsPolls(sb)); // one more poll: nothing new may run
			await sleep(3000);
			list = await statusExecutions();
			assert(list.length === 1, `${list.length} executions of the polling workflow, expected exactly 1`);
			const exec = list[0];
			assert(exec.status === 'success', `execution ${exec.id} status ${exec.status}: ${runError(exec)}`);
			const runData = exec.data?.resultData?.runData;
			const items = nodeOutput(runData, 'eSign Status Trigger');
			assert(items.length === 1, `${items.length} items from the polling trigger`);
			const [item] = items;
			assert(item.json.event === 'document.completed', `event ${item.json.event}`);
			assert(String(item.json.document?.id) === docId && item.json.document?.status === 'completed', `document ${JSON.stringify(item.json.document).slice(0, 200)}`);
			const bin = item.binary && Object.values(item.binary)[0];
			assert(bin?.mimeType === 'application/pdf', `binary: ${JSON.stringify(bin ?? null).slice(0, 200)}`);
			const got = nodeOutput(runData, 'Get completed document')[0]?.json;
			assert(got?.status === 'completed', `Get completed document: status ${got?.status}`);
			return `first poll ${secs(firstPollAfter)} after activation; execution ${exec.id} ${secs(detectedIn)} after it (previousStatus ${item.json.previousStatus}), binary ${bin.fileName}; the next poll started none`;
		});

		// 3c. The polling trigger's state survives a restart: a document signed while n8n is down is
		// reported once after the restart (no new baseline that would swallow it, no repeat of the first).
		await check(`${tag} 3c. polling trigger: a document signed while n8n is stopped is reported once after the restart`, async () => {
			const statusExecutions = () => listExecutionsWithData(n8n.url, apiKey, { workflowId: STATUS_TRIGGER_WORKFLOW_ID, includeData: true });
			const before = await statusExecutions();
			assert(before.length === 1, `${before.length} executions before the restart (step 3b must run first)`);
			await n8n.stop();
			const docId = await signedDocument(sb, 'E2E contract signed during downtime');
			const polls = statsPolls(sb);
			n8n = await startN8n(line, { userFolder, logFile, port: n8n.port });
			cleanups.push(() => n8n.stop());
			client = await setupOwner(n8n.url);
			const restartedAt = Date.now();
			const deadline = Date.now() + 150000;
			let list;
			for (;;) {
				list = await statusExecutions();
				if (list.length > 1 && list.every((e) => e.finished || ['success', 'error', 'crashed', 'canceled'].includes(e.status))) break;
				assert(Date.now() < deadline, `no new execution within 150 s of the restart (${statsPolls(sb) - polls} polls since; the state may not have survived)`);
				await sleep(1000);
			}
			await waitForPoll(sb, statsPolls(sb));
			await sleep(3000);
			list = await statusExecutions();
			assert(list.length === 2, `${list.length} executions of the polling workflow, expected 2`);
			const newest = list.find((e) => !before.some((b) => b.id === e.id));
			const [item] = nodeOutput(newest.data?.resultData?.runData, 'eSign Status Trigger');
			assert(String(item?.json?.document?.id) === docId && item.json.event === 'document.completed', `the new execution reports ${JSON.stringify(item?.json ?? null).slice(0, 200)}`);
			await deactivateWorkflow(client, STATUS_TRIGGER_WORKFLOW_ID);
			return `execution ${newest.id} for document ${docId} ${secs(Date.now() - restartedAt)} after the restart; the next poll started none`;
		});

		// 4. Credential test through n8n's own endpoint (the editor's "Test" button).
		await check(`${tag} 4. credential test: good key OK, bad key Error`, async () => {
			const good = await testCredential(client, { id: credential.id, name: CREDENTIAL.name, type: CREDENTIAL.type, data: credentialData(sb) });
			assert(good?.status === 'OK', `good key: ${JSON.stringify(good)}`);
			const bad = await testCredential(client, { id: credential.id, name: CREDENTIAL.name, type: CREDENTIAL.type, data: { ...credentialData(sb), apiSecret: 'wrong-secret' } });
			assert(bad?.status === 'Error', `bad key: ${JSON.stringify(bad)}`);
			// 2.x shows the credential's rules message; 1.x a generic "Authorization failed" text.
			if (line === '2') assert(/rejected the API key or secret \(401\)/.test(bad.message), `bad key message: ${bad.message}`);
			return `bad key → "${bad.message}"`;
		});

		// 5. A misbehaving site (issue 8): a redirect to another origin and an HTML page with 200.
		await check(`${tag} 5. a redirect to another origin fails naming it; the key and secret never reach it (node and credential test)`, async () => {
			const other = await startRecorder();
			try {
				const wfId = await importProbe(line, userFolder, credential.id);
				const stats = `/wp-json/esign/v1/stats`;
				await sandboxControl(sb.url, 'POST', '/__sandbox/faults', { path: stats, answer: 'redirect', status: 301, location: `${other.url}${stats}`, count: 1 });
				const res = await executeWorkflow(line, userFolder, wfId, { check: false });
				assert(res.data, `no run data (exit ${res.code}):\n${(res.stdout + res.stderr).slice(-1500)}`);
				assert(res.data.status === 'error', `status ${res.data.status}`);
				const message = runError(res.data);
				assert(message.includes(`The site redirects ${sb.url}${stats} to ${other.url}${stats}: use ${other.url} as the Site URL`), `error: ${message}`);
				await sandboxControl(sb.url, 'POST', '/__sandbox/faults', { path: stats, answer: 'redirect', status: 302, location: `${other.url}${stats}`, count: 1 });
				const tested = await testCredential(client, { id: credential.id, name: CREDENTIAL.name, type: CREDENTIAL.type, data: credentialData(sb) });
				assert(tested?.status === 'Error', `credential test: ${JSON.stringify(tested)}`);
				if (line === '2') assert(/redirects this address elsewhere \(HTTP 302\)/.test(tested.message), `credential test message: ${tested.message}`);
				assert(other.requests.length === 0, `the other origin received ${other.requests.length} requests: ${JSON.stringify(other.requests).slice(0, 300)}`);
				return `node: "${message.split(' — ')[0]}"; credential test: "${tested.message.slice(0, 80)}…"; other origin: 0 requests`;
			} finally {
				await sandboxControl(sb.url, 'DELETE', '/__sandbox/faults');
				await other.close();
			}
		});

		await check(`${tag} 5. an HTML page answered with 200 fails the item instead of becoming output`, async () => {
			const wfId = await importProbe(line, userFolder, credential.id);
			await sandboxControl(sb.url, 'POST', '/__sandbox/faults', { path: '/wp-json/esign/v1/stats', answer: 'html-200', count: 1 });
			try {
				const res = await executeWorkflow(line, userFolder, wfId, { check: false });
				assert(res.data, `no run data (exit ${res.code}):\n${(res.stdout + res.stderr).slice(-1500)}`);
				assert(res.data.status === 'error', `status ${res.data.status}; output ${JSON.stringify(nodeOutput(res.data.data?.resultData?.runData, 'Statistics')).slice(0, 200)}`);
				const message = runError(res.data);
				assert(/answered GET \/stats with something other than the eSign API's JSON \(HTTP 200, text\/html/.test(message), `error: ${message}`);
				return message.split(' — ')[0];
			} finally {
				await sandboxControl(sb.url, 'DELETE', '/__sandbox/faults');
			}
		});

		// 6. Screenshots for the README (2.x only).
		if (line === '2') {
			if (!SCREENSHOTS) skip(`${tag} 6. screenshots`, 'E2E_SCREENSHOTS=0');
			else {
				const chromium = ensureChromium(say);
				if (!chromium.ok) skip(`${tag} 6. screenshots`, chromium.reason);
				else {
					await check(`${tag} 6. screenshots of the node panel and the eSign actions (headless Chromium)`, async () => {
						const shot = await takeScreenshots({ url: n8n.url, workflowId: 'esignExample0002', outDir: DOCS_DIR });
						assert(shot.items.includes('eSign'), `the search listed ${JSON.stringify(shot.items)}`);
						assert(shot.actions.length >= 10, `the eSign page listed ${shot.actions.length} actions`);
						for (const f of Object.values(shot.files)) assert(fs.statSync(f).size > 10000, `${f} is only ${fs.statSync(f).size} bytes`);
						return `${Object.values(shot.files).map((f) => path.relative(ROOT, f)).join(', ')}; search: ${shot.items.join(', ')}; ${shot.categories.join(', ')}`;
					});
				}
			}
		}
	} catch (err) {
		// Setup outside a check failed (install, sandbox, owner, API key): count it and go on.
		counts.failed++;
		console.log(`FAIL ${tag} setup: ${err.stack || err}`);
	} finally {
		// Stop this line's n8n and sandbox before the next line starts.
		while (cleanups.length > lineCleanups) {
			const fn = cleanups.pop();
			try {
				await fn();
			} catch (e) {
				say(`cleanup: ${e.message}`);
			}
		}
		failedBefore = counts.failed;
		say(`n8n ${version} done in ${secs(Date.now() - lineStart)}`);
	}
}

// ---------------------------------------------------------------- main

async function main() {
	for (const line of ORDER) if (!LINES[line]) throw new Error(`E2E_LINES: unknown line ${line}`);
	// First run on a fresh clone: installs both runtimes (~8 min); later runs reuse them.
	for (const line of ORDER) await ensureRuntime(line);
	const watchdog = setTimeout(() => {
		counts.failed++;
		console.log(`FAIL watchdog: e2e still running after ${TIMEOUT_MIN} min (runtime install excluded); stopping everything`);
		finish(1);
	}, TIMEOUT_MIN * 60000);
	watchdog.unref();

	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'esign-e2e-pack-'));
	cleanups.push(() => fs.rmSync(packDir, { recursive: true, force: true }));
	let tarball;
	const built = await check('build and pack n8n-nodes-esign', async () => {
		tarball = await buildAndPack(packDir);
		return path.basename(tarball);
	});
	if (!built) return;
	for (const line of ORDER) await runLine(line, tarball);
}

main()
	.catch((err) => {
		counts.failed++;
		console.log(`FAIL e2e: ${err.stack || err}`);
	})
	.finally(() => finish());
