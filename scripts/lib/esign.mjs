// What the scripts share about this package and the sites it talks to: node and credential types, the
// example workflows rewritten for a running site, small workflow builders, and one client for any site
// with the eSign API and the test controls (the sandbox, or the WordPress test site).
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './runtime.mjs';
import { waitFor } from './waits.mjs';

export const NODE_TYPES = { action: 'n8n-nodes-esign.eSign', trigger: 'n8n-nodes-esign.eSignTrigger', statusTrigger: 'n8n-nodes-esign.eSignStatusTrigger' };
export const CREDENTIAL = { name: 'eSign account', type: 'eSignApi' };
const EXAMPLES_DIR = path.join(ROOT, 'examples');
// What the committed examples contain; rewritten to the real values when imported.
export const EXAMPLE_SANDBOX_ORIGIN = 'http://127.0.0.1:8787';
export const TRIGGER_WORKFLOW_ID = 'esignExample0006';
export const STATUS_TRIGGER_WORKFLOW_ID = 'esignExample0007';

const require = createRequire(import.meta.url);

/** The sandbox module (CommonJS, test/sandbox): { createSandbox, SPEC_RATE_LIMITS, DEFAULT_WEBHOOK_SECRET }. */
export function sandboxModule() {
	return require(path.join(ROOT, 'test', 'sandbox'));
}

/** The credential's data for a site (a sandbox or siteClient()): its URL, the admin Full Access key, its webhook secret. */
export function credentialData(site, key = site.keys.admin) {
	return { siteUrl: site.url, ...(site.style && { restUrlStyle: site.style }), apiKey: key.key, apiSecret: key.secret, webhookSecret: site.webhookSecret, ignoreSslIssues: false };
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

/** Credential reference of an eSign node. */
export const credRef = (credentialId, name = CREDENTIAL.name) => ({ [CREDENTIAL.type]: { id: String(credentialId), name } });

/**
 * How often the test scripts' polling workflows poll, in seconds (ESIGN_POLL_SECONDS, default 10; a divisor of 60;
 * 60 is n8n's Every Minute, the examples' own setting). Every check of the Status Trigger waits for polls (the one
 * after a signing, and two more to see that nothing else runs), so at a minute each the real-n8n suites spent most
 * of their time waiting. n8n refuses a Poll Times cron that fires more than once a minute, but runs one cron per
 * Poll Times entry: n8n-workflow's toCronExpression (dist/cjs/cron.js) keeps a Custom entry's 6-field cron (seconds
 * first) as given; n8n-core 2.41.1 ActiveWorkflowTriggers.activatePollTrigger
 * (dist/execution-engine/active-workflow-triggers.js) refuses only an entry that isSubMinuteCron (its seconds field
 * not a single number: "The polling interval is too short. It has to be at least a minute."), polls once at
 * activation, then registers each entry with ScheduledTaskManager.register; n8n-core 1.123.81
 * ActiveWorkflows.activatePollTrigger (dist/execution-engine/active-workflows.js) refuses only a `*` in the seconds
 * field. So six entries, `0 * * * * *`, `10 * * * * *`, …, poll every 10 s in both lines, as a user could set it.
 */
export const POLL_SECONDS = Number(process.env.ESIGN_POLL_SECONDS || 10);

/** The Status Trigger's Poll Times for a poll every `seconds` (a divisor of 60; 60: Every Minute). */
export function pollTimes(seconds = POLL_SECONDS) {
	if (!Number.isInteger(seconds) || seconds < 1 || 60 % seconds !== 0) throw new Error(`ESIGN_POLL_SECONDS must divide 60 (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30 or 60); it is ${seconds}`);
	if (seconds === 60) return { item: [{ mode: 'everyMinute' }] };
	return { item: Array.from({ length: 60 / seconds }, (_, i) => ({ mode: 'custom', cronExpression: `${i * seconds} * * * * *` })) };
}

/** The workflow with every Status Trigger polling every `seconds` (see POLL_SECONDS); the others as they are. */
export function withPollTimes(workflow, seconds = POLL_SECONDS) {
	const nodes = workflow.nodes.map((n) => (n.type === NODE_TYPES.statusTrigger ? { ...n, parameters: { ...n.parameters, pollTimes: pollTimes(seconds) } } : n));
	return { ...workflow, nodes };
}

/**
 * Writes the examples into destDir ready to import: sample-file URLs point at the running sandbox (or at
 * `controlBase`, the test controls of another site) and the eSign credential reference carries the real
 * credential id (n8n matches by id first). only: a list of workflow ids to write (default all). pollSeconds: the
 * polling example polls that often (pollTimes; default: as committed, every minute).
 */
export function prepareExamples(destDir, { sandboxUrl, controlBase, credentialId, only, pollSeconds } = {}) {
	fs.mkdirSync(destDir, { recursive: true });
	for (const { file, workflow } of readExamples()) {
		if (only && !only.includes(workflow.id)) continue;
		let text = JSON.stringify(workflow, null, 2);
		// Another site (WordPress) serves the sandbox's controls (sample files, expiry) under controlBase.
		if (controlBase) text = text.split(`${EXAMPLE_SANDBOX_ORIGIN}/__sandbox`).join(controlBase);
		if (sandboxUrl && sandboxUrl !== EXAMPLE_SANDBOX_ORIGIN) text = text.split(EXAMPLE_SANDBOX_ORIGIN).join(sandboxUrl);
		const wf = pollSeconds ? withPollTimes(JSON.parse(text), pollSeconds) : JSON.parse(text);
		for (const node of wf.nodes) if (node.credentials?.[CREDENTIAL.type]) node.credentials = { ...node.credentials, ...credRef(credentialId) };
		wf.active = false; // import is always inactive; the trigger is activated through the API
		fs.writeFileSync(path.join(destDir, file), JSON.stringify(wf, null, 2) + '\n');
	}
}

// Workflow builders: nodes get fixed ids and positions; chain() connects them in order.
let nodeSeq = 0;
export const node = (name, type, typeVersion, parameters, extra = {}) => ({
	...{ id: `00000000-0000-4000-8000-${String(++nodeSeq).padStart(12, '0')}`, name, type, typeVersion, position: [nodeSeq * 220, 0], parameters },
	...extra,
});
export const chain = (id, name, nodes) => ({
	...{ id, name, active: false, settings: { executionOrder: 'v1' }, nodes },
	connections: Object.fromEntries(nodes.slice(0, -1).map((n, i) => [n.name, { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] }])),
});
export const manual = (name = 'Start') => node(name, 'n8n-nodes-base.manualTrigger', 1, {});

/** JSON call to a site's test controls (or any JSON endpoint); rejects on a status ≥ 400. */
export async function sandboxControl(base, method, p, body, timeoutMs = 15000) {
	const { res, text } = await waitFor(`the site's answer to ${method} ${p.split('?')[0]}`, async () => {
		const answer = await fetch(base + p, {
			method,
			headers: body !== undefined ? { 'content-type': 'application/json' } : {},
			body: body !== undefined ? JSON.stringify(body) : undefined,
			signal: AbortSignal.timeout(timeoutMs),
		});
		return { res: answer, text: await answer.text() };
	});
	if (res.status >= 400) throw new Error(`control ${method} ${p} → ${res.status}: ${text.slice(0, 300)}`);
	return text ? JSON.parse(text) : undefined;
}

/**
 * A site with the eSign API and the test controls of test/sandbox/CONTRACT.md, in either URL style:
 * control(method, p, body) calls a control (p like '/requests'), api(method, p, opts) the API with a key.
 * style: 'plain' or 'pretty' for the WordPress site (the credential's REST API URL Style), unset for the sandbox.
 */
export function siteClient({ url, apiBase, controlBase, keys, webhookSecret, style }) {
	const join = (base, p) => (base.includes('?') ? base + p.replace('?', '&') : base + p);
	const site = {
		...{ url, apiBase, controlBase, keys, webhookSecret, style },
		api: (p) => join(apiBase, p),
		control: (method, p, body, timeoutMs = 30000) => sandboxControl('', method, join(controlBase, p), body, timeoutMs),
		/** The API with a key: { status, body (JSON or text), headers }; redirects are not followed. */
		async call(method, p, { json, form, key = 'admin' } = {}) {
			const headers = { 'X-ESIGN-API-Key': keys[key].key, 'X-ESIGN-API-Secret': keys[key].secret };
			if (json !== undefined) headers['content-type'] = 'application/json';
			const res = await fetch(join(apiBase, p), { method, headers, body: form ?? (json === undefined ? undefined : JSON.stringify(json)), redirect: 'manual', signal: AbortSignal.timeout(30000) });
			const text = await res.text();
			let body = text;
			try { body = JSON.parse(text); } catch { /* a redirect or a web page */ }
			return { status: res.status, body, headers: res.headers };
		},
		/** A document as the API shows it, or null. */
		async document(id) {
			const res = await site.call('GET', `/documents/${id}`);
			return res.status === 200 ? res.body : null;
		},
		documents: async () => (await site.call('GET', '/documents?per_page=100')).body,
		/** A sample file of the site's test controls (e.g. 'one-page.pdf') as a Buffer. */
		sample: async (name) => Buffer.from(await (await fetch(join(controlBase, `/samples/${name}`))).arrayBuffer()),
		/** Uploads a PDF as a new draft; resolves the document (201 expected). */
		async upload(pdf, title, fileName = `${title}.pdf`) {
			const form = new FormData();
			form.append('file', new Blob([pdf], { type: 'application/pdf' }), fileName);
			form.append('title', title);
			const res = await site.call('POST', '/documents/upload', { form });
			if (res.status !== 201) throw new Error(`upload ${title} → ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
			return res.body;
		},
	};
	return site;
}

/** The sandbox (createSandbox's handle) as a siteClient, keeping the handle as .sb. */
export const sandboxSite = (sb) => ({ ...siteClient({ url: sb.url, apiBase: sb.apiUrl, controlBase: `${sb.url}/__sandbox`, keys: sb.keys, webhookSecret: sb.webhookSecret }), sb });

/** The X-ESIGN-Signature a site sends for body. */
export const signature = (body, secret) => `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Polls the trigger's production URL until n8n has registered it: an unsigned POST then gets the
 * trigger's 401 instead of n8n's 404 (the webhook registers a moment after activation).
 */
export async function waitForWebhook(url, timeoutMs = 30000) {
	return waitFor(`the webhook ${url} to be served`, () => probeWebhook(url, timeoutMs));
}

async function probeWebhook(url, timeoutMs) {
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

/** Human-readable duration. */
export const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
