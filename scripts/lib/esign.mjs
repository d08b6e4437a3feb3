// What `npm start` and `npm run test:e2e` share: build + pack this package, the sandbox, the
// "eSign account" credential, the example workflows rewritten for the running sandbox, the trigger's
// production URL. The n8n side (install, start, REST) lives in runtime.mjs.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT, npmEnv, packPackage, run, webhookUrls, activateWorkflow, getWorkflow } from './runtime.mjs';

export const PACKAGE_NAME = 'n8n-nodes-esign';
export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.eSign`,
	trigger: `${PACKAGE_NAME}.eSignTrigger`,
	statusTrigger: `${PACKAGE_NAME}.eSignStatusTrigger`,
};
export const CREDENTIAL = { name: 'eSign account', type: 'eSignApi' };
export const EXAMPLES_DIR = path.join(ROOT, 'examples');
// What the committed examples contain; rewritten to the real values when imported.
export const EXAMPLE_SANDBOX_ORIGIN = 'http://127.0.0.1:8787';
export const EXAMPLE_CREDENTIAL_ID = 'esignSandboxCred1';
export const TRIGGER_WORKFLOW_ID = 'esignExample0006';
export const STATUS_TRIGGER_WORKFLOW_ID = 'esignExample0007';

const require = createRequire(import.meta.url);

/** The sandbox module (CommonJS, test/sandbox): { createSandbox, SPEC_RATE_LIMITS, DEFAULT_WEBHOOK_SECRET }. */
export function sandboxModule() {
	return require(path.join(ROOT, 'test', 'sandbox'));
}

/** `npm run build`, then `npm pack` into destDir; returns the tarball path. Output is shown only on failure. */
export async function buildAndPack(destDir) {
	await run('npm', ['run', 'build', '--silent'], { cwd: ROOT, env: npmEnv() });
	// A tarball of a stale build would test the wrong code: make sure both nodes are in dist/.
	for (const f of ['dist/nodes/ESign/ESign.node.js', 'dist/nodes/ESignTrigger/ESignTrigger.node.js', 'dist/nodes/ESignStatusTrigger/ESignStatusTrigger.node.js', 'dist/credentials/ESignApi.credentials.js']) {
		if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`build did not produce ${f}`);
	}
	fs.mkdirSync(destDir, { recursive: true });
	for (const old of fs.readdirSync(destDir)) if (old.endsWith('.tgz')) fs.rmSync(path.join(destDir, old), { force: true });
	return packPackage(ROOT, destDir);
}

/** The credential's data for a sandbox: its URL, the admin Full Access key, its webhook secret. */
export function credentialData(sb, key = sb.keys.admin) {
	return { siteUrl: sb.url, apiKey: key.key, apiSecret: key.secret, webhookSecret: sb.webhookSecret, ignoreSslIssues: false };
}

/** Example workflows as [{file, workflow}] in file order. */
export function readExamples() {
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({ file, workflow: JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) }));
}

/** True when a workflow starts from a Manual Trigger (the only kind `n8n execute` can run). */
export const isManual = (wf) => wf.nodes.some((n) => n.type === 'n8n-nodes-base.manualTrigger');

/**
 * Writes the examples into destDir ready to import: sample-file URLs point at the running sandbox (or at
 * `controlBase`, the test controls of another site) and
 * the eSign credential reference carries the real credential id (n8n matches by id first).
 * only: a list of workflow ids to write (default all). Returns the written file paths.
 */
export function prepareExamples(destDir, { sandboxUrl, controlBase, credentialId, only } = {}) {
	fs.mkdirSync(destDir, { recursive: true });
	const written = [];
	for (const { file, workflow } of readExamples()) {
		if (only && !only.includes(workflow.id)) continue;
		let text = JSON.stringify(workflow, null, 2);
		// Another site (WordPress) serves the sandbox's controls (sample files, expiry) under controlBase.
		if (controlBase) text = text.split(`${EXAMPLE_SANDBOX_ORIGIN}/__sandbox`).join(controlBase);
		if (sandboxUrl && sandboxUrl !== EXAMPLE_SANDBOX_ORIGIN) text = text.split(EXAMPLE_SANDBOX_ORIGIN).join(sandboxUrl);
		const wf = JSON.parse(text);
		for (const node of wf.nodes) {
			if (node.credentials?.[CREDENTIAL.type]) node.credentials[CREDENTIAL.type] = { id: String(credentialId), name: CREDENTIAL.name };
		}
		wf.active = false; // import is always inactive; the trigger is activated through the API
		const out = path.join(destDir, file);
		fs.writeFileSync(out, JSON.stringify(wf, null, 2) + '\n');
		written.push(out);
	}
	return written;
}

/** JSON call to the sandbox's control endpoints. */
export async function sandboxControl(sandboxUrl, method, p, body, timeoutMs = 15000) {
	const res = await fetch(sandboxUrl + p, {
		method,
		headers: body !== undefined ? { 'content-type': 'application/json' } : {},
		body: body !== undefined ? JSON.stringify(body) : undefined,
		signal: AbortSignal.timeout(timeoutMs),
	});
	const text = await res.text();
	if (res.status >= 400) throw new Error(`sandbox ${method} ${p} → ${res.status}: ${text.slice(0, 300)}`);
	return text ? JSON.parse(text) : undefined;
}

/**
 * Polls the trigger's production URL until n8n has registered it: an unsigned POST then gets the
 * trigger's 401 instead of n8n's 404 (the webhook registers a moment after activation).
 */
export async function waitForWebhook(url, timeoutMs = 30000) {
	const deadline = Date.now() + timeoutMs;
	let last;
	for (;;) {
		try {
			const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"event":"probe"}', signal: AbortSignal.timeout(5000) });
			last = r.status;
			await r.arrayBuffer();
			if (r.status !== 404) return r.status;
		} catch (e) {
			last = e.message;
		}
		if (Date.now() > deadline) throw new Error(`webhook ${url} not registered after ${timeoutMs} ms (last answer ${last})`);
		await new Promise((r) => setTimeout(r, 500));
	}
}

/**
 * Activates the trigger example (unless active), waits for its production webhook and returns
 * { url, status } where status is the answer to an unsigned probe (401 expected).
 */
export async function activateTrigger(client, id = TRIGGER_WORKFLOW_ID) {
	const wf = await getWorkflow(client, id);
	if (!wf.active) await activateWorkflow(client, id);
	const hooks = await webhookUrls(client, id);
	const hook = hooks.find((h) => h.type === NODE_TYPES.trigger);
	if (!hook) throw new Error(`workflow ${id} has no ${NODE_TYPES.trigger} webhook (got ${JSON.stringify(hooks)})`);
	const status = await waitForWebhook(hook.url);
	return { url: hook.url, testUrl: hook.testUrl, status, wasActive: Boolean(wf.active) };
}

/** Registers url as the sandbox's only webhook receiver (what pasting it into the site's settings does). */
export function registerSandboxWebhook(sandboxUrl, url) {
	return sandboxControl(sandboxUrl, 'POST', '/__sandbox/webhooks', { url, replace: true });
}

/** Human-readable duration. */
export const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
