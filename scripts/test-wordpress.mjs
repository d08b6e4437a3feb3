#!/usr/bin/env node
// `npm run test:wordpress`: the package against a real WordPress site (test/wordpress: the eSign API as
// a WordPress plugin on Debian's WordPress 6.1, PHP 8.2 and MariaDB, default php.ini), in a fresh
// throwaway folder. It runs:
//   - the contract suite (test/contract: the API over HTTP and the node through the engine);
//   - real n8n 2.41.1 executing every Manual-Trigger example against the site;
//   - the eSign Trigger activated and fired by a real wp_remote_post delivery after a signer signs on the
//     WordPress signing page, with the signed PDF attached; a forged delivery answered 401;
//   - the polling example (eSign Status Trigger) activated: a document signed between polls, one execution;
//   - then the same site with Plain permalinks: the contract suite and the examples again through
//     ?rest_route=, and the /wp-json/ style refused with a message that names the cause.
// Prints PASS/FAIL per check and ends with the line `N passed, M failed`; exits 1 on any failure.
// Env: WP_KEEP=1 keeps the site and n8n folders.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
	ROOT,
	activateWorkflow,
	createApiKey,
	deactivateWorkflow,
	ensureCredential,
	ensureRuntime,
	executeWorkflow,
	importWorkflow,
	installPackageTarball,
	listExecutionsWithData,
	npmEnv,
	run,
	setupOwner,
	startN8n,
	testCredential,
} from './lib/runtime.mjs';
import { CREDENTIAL, STATUS_TRIGGER_WORKFLOW_ID, TRIGGER_WORKFLOW_ID, activateTrigger, buildAndPack, isManual, prepareExamples, readExamples, secs } from './lib/esign.mjs';
import { EXPECTED, assert, createChecks, createLifecycle, fmtRoutes, nodeOutput, runError, siteCalls } from './lib/expectations.mjs';
import { startWordPress } from './lib/wordpress.mjs';

const LINE = '2';
const KEEP = process.env.WP_KEEP === '1';
const say = (...a) => console.log('[wordpress]', ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const { counts, check } = createChecks();
const { cleanups, finish } = createLifecycle({ label: 'wordpress', say, counts });

// ---------------------------------------------------------------- the site, in either URL style

/** API and control URLs of the site in a permalink style (plain: only ?rest_route= is served). */
function urls(wp, style) {
	const base = style === 'plain' ? `${wp.url}/?rest_route=` : `${wp.url}/wp-json`;
	const join = (root, p) => (root.includes('?') ? root + p.replace('?', '&') : root + p);
	return {
		style,
		apiBase: `${base}/esign/v1`,
		controlBase: `${base}/esign-test/v1`,
		api: (p) => join(`${base}/esign/v1`, p),
		control: (p) => join(`${base}/esign-test/v1`, p),
	};
}

async function control(u, method, p, body) {
	const res = await fetch(u.control(p), {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(30000),
	});
	const text = await res.text();
	if (res.status >= 400) throw new Error(`control ${method} ${p} → ${res.status}: ${text.slice(0, 300)}`);
	return text ? JSON.parse(text) : undefined;
}

async function api(wp, u, method, p, { json, form, key = 'admin' } = {}) {
	const headers = { 'X-ESIGN-API-Key': wp.keys[key].key, 'X-ESIGN-API-Secret': wp.keys[key].secret };
	if (json !== undefined) headers['content-type'] = 'application/json';
	const res = await fetch(u.api(p), { method, headers, body: form ?? (json === undefined ? undefined : JSON.stringify(json)), redirect: 'manual' });
	const text = await res.text();
	let body = text;
	try {
		body = JSON.parse(text);
	} catch {
		// a redirect or a web page
	}
	return { status: res.status, body, headers: res.headers };
}

/** What the example checks read of the site's documents, through its API. */
const siteView = (wp, u) => ({
	async document(id) {
		const res = await api(wp, u, 'GET', `/documents/${id}`);
		return res.status === 200 ? res.body : null;
	},
	async documents() {
		return (await api(wp, u, 'GET', '/documents?per_page=100')).body;
	},
});

const credentialData = (wp, style, key = wp.keys.admin) => ({
	siteUrl: wp.url,
	restUrlStyle: style,
	apiKey: key.key,
	apiSecret: key.secret,
	webhookSecret: wp.webhookSecret,
	ignoreSslIssues: false,
});

/** test/contract against the site (in band: the suites reset the one site). */
async function contractSuite(wp, u) {
	const site = { kind: 'wordpress', url: wp.url, apiBase: u.apiBase, controlBase: u.controlBase, keys: wp.keys, webhookSecret: wp.webhookSecret };
	const res = await run('npx', ['jest', '--runInBand', '--colors=false', 'test/contract'], {
		cwd: ROOT,
		env: npmEnv({ ESIGN_CONTRACT_SITE: JSON.stringify(site) }),
		check: false,
		timeoutMs: 10 * 60000,
	});
	const out = res.stdout + res.stderr;
	const summary = /Tests:\s+(.*)/.exec(out)?.[1] ?? 'no summary';
	assert(res.code === 0, `jest exited ${res.code}: ${summary}\n${out.split('\n').filter((l) => /●|✕|Expected|Received/.test(l)).slice(0, 40).join('\n')}`);
	return summary;
}

/** A draft of contract.pdf with one signer and a signature field, sent: what a user does before signing. */
async function sentDocument(wp, u, title) {
	const pdf = Buffer.from(await (await fetch(u.control('/samples/contract.pdf'))).arrayBuffer());
	const form = new FormData();
	form.append('file', new Blob([new Uint8Array(pdf)]), 'contract.pdf');
	form.append('title', title);
	const doc = (await api(wp, u, 'POST', '/documents/upload', { form })).body;
	assert(doc.id, `upload: ${JSON.stringify(doc).slice(0, 300)}`);
	const signer = (await api(wp, u, 'POST', `/documents/${doc.id}/signers`, { json: { name: 'Ann Tenant', email: 'ann@example.org' } })).body;
	const fields = [{ signer_id: Number(signer.id), field_type: 'signature', page_number: 2, position_x: 72, position_y: 530 }];
	assert((await api(wp, u, 'POST', `/documents/${doc.id}/fields`, { json: { fields } })).status === 200, 'fields not saved');
	const sent = await api(wp, u, 'POST', `/documents/${doc.id}/send`);
	assert(sent.body?.sent === true, `send: ${JSON.stringify(sent.body).slice(0, 300)}`);
	return String(doc.id);
}

/** The signer's way: open the signing link from the invitation email, then submit the page's Sign form. */
async function signOnPage(wp, u, docId) {
	const mail = (await control(u, 'GET', `/outbox?document_id=${docId}`)).find((m) => m.kind === 'invitation');
	assert(mail?.signing_url, `no invitation with a signing link for document ${docId}`);
	const page = await fetch(mail.signing_url);
	const html = await page.text();
	assert(page.status === 200, `signing page answered ${page.status}`);
	const form = /<form[^>]*action="([^"]+)"[^>]*id="sign"[^>]*>([\s\S]*?)<\/form>/.exec(html);
	assert(form, `no Sign form on the signing page: ${html.slice(0, 300)}`);
	const body = new URLSearchParams();
	for (const [tag] of form[2].matchAll(/<input\b[^>]*>/g)) {
		const attr = (name) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
		if (attr('name')) body.append(attr('name'), attr('value') ?? '');
	}
	const action = form[1].replace(/&#038;|&amp;/g, '&');
	const started = Date.now();
	const signed = await fetch(action, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
	const after = await signed.text();
	assert(signed.status === 200 && /you signed the document/.test(after), `Sign answered ${signed.status}: ${after.slice(0, 300)}`);
	return { url: mail.signing_url, ms: Date.now() - started };
}

// ---------------------------------------------------------------- n8n

async function runExamples({ tag, wp, u, userFolder, credentialId }) {
	const dir = path.join(userFolder, `examples-${u.style}`);
	prepareExamples(dir, { sandboxUrl: wp.url, controlBase: u.controlBase, credentialId });
	await importWorkflow(LINE, userFolder, dir);
	for (const { file, workflow } of readExamples().filter(({ workflow }) => isManual(workflow))) {
		const exp = EXPECTED[workflow.id];
		await check(`${tag} ${file} runs with n8n execute against WordPress and makes its API calls`, async () => {
			assert(exp, `no expectations written for ${workflow.id}`);
			await control(u, 'DELETE', '/requests');
			const outboxBefore = (await control(u, 'GET', '/outbox')).length;
			const res = await executeWorkflow(LINE, userFolder, workflow.id, { check: false });
			assert(res.data, `no run data (exit ${res.code}):\n${(res.stdout + res.stderr).slice(-1500)}`);
			assert(res.data.status === 'success', `status ${res.data.status}: ${runError(res.data)}`);
			const { log, routes, failed } = await siteCalls((p) => control(u, 'GET', p));
			assert(!failed.length, `failed API calls: ${failed.join('; ')}`);
			assert(JSON.stringify(Object.entries(routes).sort()) === JSON.stringify(Object.entries(exp.routes).sort()), `API calls ${fmtRoutes(routes)}; expected ${fmtRoutes(exp.routes)}`);
			if (u.style === 'plain') assert(log.every((e) => e.url.startsWith('/?rest_route=/esign/v1')), `not all requests used ?rest_route=: ${log.map((e) => e.url).join(', ')}`);
			const outbox = (await control(u, 'GET', '/outbox')).slice(outboxBefore);
			const note = await exp.verify({ site: siteView(wp, u), runData: res.data.data.resultData.runData, outbox, log });
			return `success; ${fmtRoutes(routes)}; ${note}`;
		});
	}
}

async function triggerChecks({ tag, wp, u, client, n8n, apiKey }) {
	let hook;
	const active = await check(`${tag} trigger example active; its URL registered as the site's webhook receiver`, async () => {
		hook = await activateTrigger(client, TRIGGER_WORKFLOW_ID);
		assert(hook.status === 401, `an unsigned POST got ${hook.status}, expected 401`);
		await control(u, 'POST', '/webhooks', { url: hook.url, replace: true });
		return hook.url;
	});
	if (!active) return;
	const executions = () => listExecutionsWithData(n8n.url, apiKey, { workflowId: TRIGGER_WORKFLOW_ID, includeData: true });
	let docId;
	await check(`${tag} a signer signs on the WordPress signing page → wp_remote_post delivers document.completed → exactly one execution, with the signed PDF`, async () => {
		const before = (await executions()).length;
		docId = await sentDocument(wp, u, 'Signed on the WordPress page');
		const signing = await signOnPage(wp, u, docId);
		const doc = (await api(wp, u, 'GET', `/documents/${docId}`)).body;
		assert(doc.status === 'completed', `document ${docId} is ${doc.status}`);
		// WordPress sent each event with wp_remote_post while handling the signer's request.
		const deliveries = (await control(u, 'GET', '/webhooks')).deliveries.filter((d) => JSON.parse(d.body).data?.document_id === Number(docId));
		const completed = deliveries.filter((d) => d.event === 'document.completed');
		assert(completed.length === 1 && completed[0].status === 200, `document.completed deliveries: ${JSON.stringify(completed.map((d) => d.status ?? d.error))}`);
		assert(deliveries.every((d) => d.status === 200), `deliveries: ${deliveries.map((d) => `${d.event}→${d.status ?? d.error}`).join(', ')}`);
		assert(/\\\//.test(completed[0].body) || !completed[0].body.includes('/'), 'the body is not wp_json_encode output (slashes unescaped)');
		const deadline = Date.now() + 60000;
		let list;
		for (;;) {
			list = await executions();
			if (list.length > before && list.every((e) => e.finished || ['success', 'error', 'crashed', 'canceled'].includes(e.status))) break;
			assert(Date.now() < deadline, `no finished execution within 60 s (${list.length - before} new)`);
			await sleep(500);
		}
		await sleep(3000);
		list = await executions();
		assert(list.length === before + 1, `${list.length - before} executions, expected exactly 1 (${deliveries.length} events were delivered)`);
		const exec = list[0];
		assert(exec.status === 'success', `execution ${exec.id} status ${exec.status}: ${runError(exec)}`);
		const [item] = nodeOutput(exec.data?.resultData?.runData, 'eSign Trigger');
		assert(item?.json?.event === 'document.completed' && String(item.json.data?.document_id) === docId, `trigger output ${JSON.stringify(item?.json ?? {}).slice(0, 300)}`);
		const bin = item.binary && Object.values(item.binary)[0];
		assert(bin?.mimeType === 'application/pdf', `binary: ${JSON.stringify(bin ?? null).slice(0, 200)}`);
		assert(/-signed\.pdf$/.test(bin.fileName ?? ''), `binary file name ${bin.fileName}`);
		return `execution ${exec.id}: document ${docId}, ${bin.fileName} (${bin.fileSize ?? '?'}); ${deliveries.map((d) => `${d.event} ${d.ms} ms`).join(', ')}; the Sign request took ${signing.ms} ms (WordPress waits for each delivery)`;
	});
	await check(`${tag} a forged delivery gets 401 and starts no execution`, async () => {
		const before = (await executions()).length;
		const body = JSON.stringify({ event: 'document.completed', data: { document_id: Number(docId ?? 1), document_title: 'Forged', status: 'completed' }, timestamp: '2026-01-01 00:00:00' });
		const forged = `sha256=${crypto.createHmac('sha256', 'not-the-secret').update(body).digest('hex')}`;
		const res = await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json', 'X-ESIGN-Signature': forged }, body });
		await res.arrayBuffer();
		assert(res.status === 401, `forged delivery answered ${res.status}`);
		await sleep(3000);
		assert((await executions()).length === before, 'a forged delivery started an execution');
		return '401, no execution';
	});
}

/** The polling example (every minute) against the site: a document signed after its first poll → one execution. */
async function pollingCheck({ tag, wp, u, client, n8n, apiKey }) {
	await check(`${tag} polling example: a document signed on WordPress between polls gives exactly one execution, with the signed PDF`, async () => {
		const executions = () => listExecutionsWithData(n8n.url, apiKey, { workflowId: STATUS_TRIGGER_WORKFLOW_ID, includeData: true });
		const polls = async () => (await control(u, 'GET', '/requests')).filter((r) => r.method === 'GET' && r.path.endsWith('/stats')).length;
		const waitForPoll = async (count) => {
			const deadline = Date.now() + 150000;
			while ((await polls()) <= count) {
				assert(Date.now() < deadline, 'no poll (GET /stats) within 150 s');
				await sleep(1000);
			}
		};
		await control(u, 'DELETE', '/requests');
		const activatedAt = Date.now();
		await activateWorkflow(client, STATUS_TRIGGER_WORKFLOW_ID);
		try {
			await waitForPoll(0); // the first poll records what exists
			assert((await executions()).length === 0, 'the first poll started an execution');
			const docId = await sentDocument(wp, u, 'Polled on WordPress');
			await signOnPage(wp, u, docId);
			const deadline = Date.now() + 150000;
			let list;
			for (;;) {
				list = await executions();
				if (list.length > 0 && list.every((e) => e.finished || ['success', 'error', 'crashed', 'canceled'].includes(e.status))) break;
				assert(Date.now() < deadline, `no finished execution within 150 s of signing (${list.length} executions)`);
				await sleep(1000);
			}
			const detectedIn = Date.now() - activatedAt;
			await waitForPoll(await polls()); // one more poll: nothing new may run
			await sleep(3000);
			list = await executions();
			assert(list.length === 1, `${list.length} executions of the polling workflow, expected exactly 1`);
			const exec = list[0];
			assert(exec.status === 'success', `execution ${exec.id} status ${exec.status}: ${runError(exec)}`);
			const items = nodeOutput(exec.data?.resultData?.runData, 'eSign Status Trigger');
			assert(items.length === 1 && items[0].json.event === 'document.completed' && String(items[0].json.document?.id) === docId, `items: ${JSON.stringify(items.map((i) => i.json)).slice(0, 300)}`);
			const bin = items[0].binary && Object.values(items[0].binary)[0];
			assert(bin?.mimeType === 'application/pdf', `binary: ${JSON.stringify(bin ?? null).slice(0, 200)}`);
			return `execution ${exec.id} ${secs(detectedIn)} after activation, document ${docId}, ${bin.fileName}; the next poll started none`;
		} finally {
			await deactivateWorkflow(client, STATUS_TRIGGER_WORKFLOW_ID).catch(() => {});
		}
	});
}

// ---------------------------------------------------------------- main

async function main() {
	await ensureRuntime(LINE);
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'esign-wordpress-test-'));
	cleanups.push(() => (KEEP ? say(`kept ${work}`) : fs.rmSync(work, { recursive: true, force: true })));

	let wp;
	const up = await check('WordPress test site starts (Debian WordPress 6.1, PHP 8.2, MariaDB; the eSign plugin active; pretty permalinks)', async () => {
		const started = Date.now();
		wp = await startWordPress({ dir: path.join(work, 'site'), say });
		cleanups.push(() => wp.stop());
		return `${wp.url} in ${secs(Date.now() - started)}`;
	});
	if (!up) return;
	const pretty = urls(wp, 'pretty');
	const plain = urls(wp, 'plain');

	await check('the site answers like WordPress: Link header, WP_Error shape, latency of a real site', async () => {
		const res = await api(wp, pretty, 'GET', '/stats', { key: 'admin' });
		assert(res.status === 200 && typeof res.body.total === 'number', `stats ${res.status}`);
		assert(/rel="https:\/\/api\.w\.org\/"/.test(res.headers.get('link') ?? ''), `Link header ${res.headers.get('link')}`);
		const denied = await fetch(pretty.api('/stats'));
		const body = await denied.json();
		assert(denied.status === 401 && body.code === 'rest_forbidden' && body.data?.status === 401, `unauthenticated: ${denied.status} ${JSON.stringify(body)}`);
		const times = [];
		for (let i = 0; i < 20; i++) {
			const t = performance.now();
			await api(wp, pretty, 'GET', '/documents');
			times.push(performance.now() - t);
		}
		times.sort((a, b) => a - b);
		return `GET /documents: median ${times[10].toFixed(0)} ms, max ${times[19].toFixed(0)} ms (a measurement)`;
	});

	await check('contract suite (test/contract) against WordPress, pretty permalinks', () => contractSuite(wp, pretty));

	const packDir = path.join(work, 'pack');
	let tarball;
	if (!(await check('build and pack n8n-nodes-esign', async () => path.basename((tarball = await buildAndPack(packDir)))))) return;
	const userFolder = path.join(work, 'n8n');
	fs.mkdirSync(userFolder, { recursive: true });
	await installPackageTarball(LINE, userFolder, tarball);
	const tag = '[n8n 2.41.1]';
	let n8n;
	if (!(await check(`${tag} n8n starts with the package installed`, async () => {
		n8n = await startN8n(LINE, { userFolder, logFile: path.join(userFolder, 'n8n.log') });
		cleanups.push(() => n8n.stop());
		return n8n.url;
	}))) return;
	const client = await setupOwner(n8n.url);
	const apiKey = await createApiKey(client);
	let credential = await ensureCredential(client, { ...CREDENTIAL, data: credentialData(wp, 'pretty') });

	await check(`${tag} credential test against WordPress: good key OK, bad secret Error`, async () => {
		const good = await testCredential(client, { id: credential.id, name: CREDENTIAL.name, type: CREDENTIAL.type, data: credentialData(wp, 'pretty') });
		assert(good?.status === 'OK', `good key: ${JSON.stringify(good)}`);
		const bad = await testCredential(client, { id: credential.id, name: CREDENTIAL.name, type: CREDENTIAL.type, data: { ...credentialData(wp, 'pretty'), apiSecret: 'wrong' } });
		assert(bad?.status === 'Error' && /401/.test(bad.message), `bad secret: ${JSON.stringify(bad)}`);
		return `bad secret → "${bad.message}"`;
	});
	await control(pretty, 'POST', '/rate-limits', { enabled: false });
	await control(pretty, 'POST', '/reset');
	await runExamples({ tag, wp, u: pretty, userFolder, credentialId: credential.id });
	await triggerChecks({ tag, wp, u: pretty, client, n8n, apiKey });
	await pollingCheck({ tag, wp, u: pretty, client, n8n, apiKey });

	// Plain permalinks: WordPress then serves the API only as ?rest_route=.
	const switched = await check('the site switched to Plain permalinks: /wp-json/ redirects (301, WordPress canonical), ?rest_route= answers', async () => {
		await control(pretty, 'POST', '/permalinks', { structure: 'plain' });
		const old = await api(wp, pretty, 'GET', '/stats');
		assert(old.status === 301, `/wp-json/ answered ${old.status}`);
		const now = await api(wp, plain, 'GET', '/stats');
		assert(now.status === 200, `?rest_route= answered ${now.status}`);
		return `/wp-json/esign/v1/stats → 301 ${old.headers.get('location')}`;
	});
	if (!switched) return;
	await check('contract suite (test/contract) against WordPress, plain permalinks (?rest_route=)', () => contractSuite(wp, plain));
	await check(`${tag} credential test with Plain permalinks: the /wp-json/ style fails naming the URL style, ?rest_route= passes`, async () => {
		const wrong = await testCredential(client, { id: credential.id, name: CREDENTIAL.name, type: CREDENTIAL.type, data: credentialData(wp, 'pretty') });
		assert(wrong?.status === 'Error' && /\?rest_route= as the REST API URL Style/.test(wrong.message), `/wp-json/ style: ${JSON.stringify(wrong)}`);
		const right = await testCredential(client, { id: credential.id, name: CREDENTIAL.name, type: CREDENTIAL.type, data: credentialData(wp, 'plain') });
		assert(right?.status === 'OK', `?rest_route= style: ${JSON.stringify(right)}`);
		return `/wp-json/ style → "${wrong.message.slice(0, 120)}…"`;
	});
	credential = await ensureCredential(client, { ...CREDENTIAL, data: credentialData(wp, 'plain') });
	await control(plain, 'POST', '/rate-limits', { enabled: false });
	await control(plain, 'POST', '/reset');
	await runExamples({ tag: `${tag} [plain permalinks]`, wp, u: plain, userFolder, credentialId: credential.id });
}

main()
	.catch((err) => {
		counts.failed++;
		console.log(`FAIL test:wordpress: ${err.stack || err}`);
	})
	.finally(() => finish());
