// One real n8n instance with this package installed, as every script that drives n8n needs it: a user folder
// with the packed package as a community package, `n8n start` (plus, for queue mode, workers and a webhook
// processor with the same settings), the owner and an API key, and what the scripts do through them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LINES, createApiKey, executeWorkflow, exportNodes, importWorkflow, installPackageTarball, publicApi, runCli, setupOwner, sleep, startN8n, webhookUrls } from './runtime.mjs';
import { CREDENTIAL, NODE_TYPES, TRIGGER_WORKFLOW_ID, prepareExamples, waitForWebhook } from './esign.mjs';
import { assert, runError } from './expectations.mjs';

/** An execution that has ended (the public API's status, or finished with a stop time). */
export const isDone = (e) => ['success', 'error', 'crashed', 'canceled'].includes(e.status) || Boolean(e.finished && e.stoppedAt);

/**
 * Prepares an instance of n8n `line`: a user folder (a new temporary one unless given) with `tarball` installed
 * where n8n scans for community packages. Nothing runs until start().
 * env: n8n settings for every process and CLI run of this instance (queue mode's shared database and Redis).
 * cleanups: the script's list of stop functions; the instance adds one that stops its processes, copies their
 * logs (`<name>-<version>.log`) to logDir and removes the user folder (unless keep or the folder was given).
 */
export async function createInstance({ line = '2', tarball, userFolder, keep = false, logDir, env = {}, cleanups }) {
	const { version } = LINES[line];
	const temporary = !userFolder;
	userFolder ??= fs.mkdtempSync(path.join(os.tmpdir(), `esign-n8n-${version}-`));
	fs.mkdirSync(userFolder, { recursive: true });
	const withEnv = (opts = {}) => ({ ...opts, extraEnv: { ...env, ...opts.extraEnv } });
	const rest = (method, p, body) => n8n.client.request(method, p, body);

	const n8n = {
		line,
		version,
		tag: `[n8n ${version}]`,
		userFolder,
		procs: [], // [main, ...others] while running
		cli: (args, opts) => runCli(line, userFolder, args, withEnv(opts)),
		exportNodes: () => exportNodes(line, userFolder, withEnv()),
		/** `n8n execute --id` (res.data: the run; opts.check as executeWorkflow). */
		execute: (id, opts) => executeWorkflow(line, userFolder, id, withEnv(opts)),
		/** Runs a workflow with `n8n execute`; asserts it gave run data with the expected status; resolves that data. */
		async run(id, status = 'success') {
			const res = await n8n.execute(id, { check: false });
			assert(res.data, `no run data (exit ${res.code}):\n${(res.stdout + res.stderr).slice(-1500)}`);
			assert(res.data.status === status, `status ${res.data.status}${status === 'success' ? `: ${runError(res.data)}` : ''}`);
			return res.data;
		},
		/** Imports a workflow file or folder, or workflow objects (written to a folder here first); always inactive. */
		async import(what) {
			if (typeof what === 'string') return importWorkflow(line, userFolder, what, withEnv());
			const dir = fs.mkdtempSync(path.join(userFolder, 'import-'));
			try {
				for (const wf of [].concat(what)) fs.writeFileSync(path.join(dir, `${wf.id}.json`), JSON.stringify(wf, null, 2));
				return await importWorkflow(line, userFolder, dir, withEnv());
			} finally {
				fs.rmSync(dir, { recursive: true, force: true });
			}
		},
		/** Imports the examples rewritten for `site` (its URL, its controls) and credentialId; only: workflow ids. */
		async importExamples(site, credentialId, only) {
			const dir = fs.mkdtempSync(path.join(userFolder, 'examples-'));
			try {
				prepareExamples(dir, { sandboxUrl: site.url, controlBase: site.controlBase, credentialId, only });
				return await importWorkflow(line, userFolder, dir, withEnv());
			} finally {
				fs.rmSync(dir, { recursive: true, force: true });
			}
		},

		/**
		 * Starts `n8n start` as process `name` (its log: <userFolder>/<name>.log), then `processes`
		 * ([{ command: 'worker' | 'webhook', name }]) at once; with login, the owner's session and an API key.
		 * serverEnv: settings for these server processes only (not for CLI runs).
		 */
		async start({ port, name = 'n8n', processes = [], serverEnv = {}, login = true, apiKey = true } = {}) {
			const spawn = (command, procName, p) =>
				startN8n(line, { userFolder, command, port: p, logFile: path.join(userFolder, `${procName}.log`), extraEnv: { ...env, ...serverEnv } });
			const main = await spawn('start', name, port);
			n8n.procs.push(main);
			Object.assign(n8n, { main, url: main.url, port: main.port, logFile: main.logFile, serverEnv });
			n8n.procs.push(...(await Promise.all(processes.map((p) => spawn(p.command, p.name)))));
			if (login) await n8n.login({ apiKey });
			return n8n;
		},
		/** The owner's cookie session (created on a fresh instance) and, with apiKey, a new public-API key. */
		async login({ apiKey = true } = {}) {
			n8n.client = await setupOwner(n8n.url);
			if (apiKey) n8n.apiKey = await createApiKey(n8n.client);
			return n8n.client;
		},
		/** Stops every process (newest first, each by its PID). */
		async stop() {
			const procs = n8n.procs.splice(0).reverse();
			for (const p of procs) await p.stop();
		},
		/** Stops and starts again on the same port (serverEnv: replaces the server-only settings). */
		async restart({ serverEnv = n8n.serverEnv } = {}) {
			await n8n.stop();
			return n8n.start({ port: n8n.port, serverEnv, apiKey: false });
		},

		rest,
		/** Public API call (`/api/v1/...`) with the instance's API key. */
		api: (method, p, body) => publicApi(n8n.url, n8n.apiKey, method, p, body),

		/**
		 * Creates the credential, or updates the data of the single existing one with that name and type
		 * (n8n matches imported workflows' credentials by name only when exactly one has that name).
		 */
		async ensureCredential(data, { name = CREDENTIAL.name, type = CREDENTIAL.type } = {}) {
			const [same] = (await rest('GET', '/rest/credentials')).filter((c) => c.name === name && c.type === type);
			if (!same) return rest('POST', '/rest/credentials', { name, type, data });
			await rest('PATCH', `/rest/credentials/${same.id}`, { name, type, data });
			return { ...same };
		},
		/**
		 * n8n's own credential test, as the editor's "Test" button does it: the data given is what gets tested,
		 * under a stored credential's id. Resolves { status: 'OK' | 'Error', message }.
		 */
		testCredential: (credential, data) => rest('POST', '/rest/credentials/test', { credentials: { id: String(credential.id), name: CREDENTIAL.name, type: CREDENTIAL.type, data } }),

		/** Activates (2.x: publishes) a workflow's current version; its webhooks register a moment later. */
		async activate(id) {
			const { versionId } = await rest('GET', `/rest/workflows/${id}`);
			return rest('POST', `/rest/workflows/${id}/activate`, { versionId });
		},
		deactivate: (id) => rest('POST', `/rest/workflows/${id}/deactivate`, {}),
		/**
		 * Activates a workflow with an eSign Trigger (unless active), waits for its production webhook and
		 * resolves { url, testUrl, status } where status is the answer to an unsigned probe (401 expected).
		 */
		async activateTrigger(id = TRIGGER_WORKFLOW_ID) {
			const wf = await rest('GET', `/rest/workflows/${id}`);
			if (!wf.active) await n8n.activate(id);
			const hooks = await webhookUrls(n8n.client, id);
			const hook = hooks.find((h) => h.type === NODE_TYPES.trigger);
			if (!hook) throw new Error(`workflow ${id} has no ${NODE_TYPES.trigger} webhook (got ${JSON.stringify(hooks)})`);
			return { url: hook.url, testUrl: hook.testUrl, status: await waitForWebhook(hook.url) };
		},

		/** Every execution of a workflow through the public API (all pages), newest first; plain JSON run data. */
		async executions(workflowId, { includeData = false } = {}) {
			const all = [];
			let cursor;
			do {
				const q = new URLSearchParams({ workflowId, includeData: String(includeData), limit: '250' });
				if (cursor) q.set('cursor', cursor);
				const page = await n8n.api('GET', `/executions?${q}`);
				all.push(...page.data);
				cursor = page.nextCursor;
			} while (cursor);
			return all;
		},
		/** Waits until `count` executions of the workflow exist and all have ended; resolves them. */
		async waitForExecutions(workflowId, count, timeoutMs = 60000) {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const list = await n8n.executions(workflowId);
				if (list.length >= count && list.every(isDone)) return list;
				assert(Date.now() < deadline, `${list.length} executions of ${workflowId} (${list.filter(isDone).length} ended) after ${timeoutMs / 1000} s, expected ${count}`);
				await sleep(500);
			}
		},
		/**
		 * waitForExecutions, then settleMs more (would anything start another run?), then asserts there are
		 * exactly `count`; resolves them with their run data, newest first.
		 */
		async expectExecutions(workflowId, count, { timeoutMs = 60000, settleMs = 3000 } = {}) {
			await n8n.waitForExecutions(workflowId, count, timeoutMs);
			await sleep(settleMs);
			const list = await n8n.executions(workflowId, { includeData: true });
			assert(list.length === count, `${list.length} executions of ${workflowId}, expected exactly ${count}`);
			return list;
		},
	};

	cleanups?.push(async () => {
		await n8n.stop();
		if (logDir) {
			fs.mkdirSync(logDir, { recursive: true });
			for (const f of fs.readdirSync(userFolder)) if (f.endsWith('.log')) fs.copyFileSync(path.join(userFolder, f), path.join(logDir, f.replace(/\.log$/, `-${version}.log`)));
		}
		if (temporary && !keep) fs.rmSync(userFolder, { recursive: true, force: true });
	});
	await installPackageTarball(userFolder, tarball);
	return n8n;
}
