// One real n8n instance with this package installed, as every script that drives n8n needs it: a user folder with
// the packed package as a community package; `n8n start` (for queue mode also workers and a webhook processor with
// the same settings) on free 127.0.0.1 ports; its CLI; the owner's REST session and an API key; and what the
// scripts do through them (credentials, imports, runs, activation, executions).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LINES, activeServers, freePort, installPackageTarball, n8nBin, n8nEnv, nodeBin, portIsFree, run, sleep } from './runtime.mjs';
import { CREDENTIAL, NODE_TYPES, TRIGGER_WORKFLOW_ID, prepareExamples, waitForWebhook } from './esign.mjs';
import { assert, runError } from './expectations.mjs';
import { waitingFor } from './waits.mjs';

export const DEFAULT_OWNER = { email: 'owner@example.com', firstName: 'eSign', lastName: 'Owner', password: 'ESign-Sandbox-2026' };

/** An execution that has ended (the public API's status, or finished with a stop time). */
export const isDone = (e) => ['success', 'error', 'crashed', 'canceled'].includes(e.status) || Boolean(e.finished && e.stoppedAt);

/** What each n8n process logs once it is ready (queue mode's `worker` and `webhook` have no editor). */
const READY = { start: /Editor is now accessible/, worker: /n8n worker is now ready/, webhook: /Webhook listener waiting for requests/ };

/** Starts `n8n <command>`; resolves { url, port, pid, logFile, child, log(), exited(), stop() } once it is ready. */
async function startProcess(line, { userFolder, command, port, logFile, extraEnv, timeoutMs = 180000 }) {
	port ??= await freePort();
	const brokerPort = await freePort();
	if (!(await portIsFree(port))) throw new Error(`port ${port} on 127.0.0.1 is in use`);
	const url = `http://127.0.0.1:${port}`;
	// n8n writes straight to its log file, not to a pipe: if this script dies, a broken pipe would leave n8n spinning
	// at 100% CPU instead of shutting down on SIGTERM. Its own process group, so its task runners stop with it.
	const fd = fs.openSync(logFile, 'a');
	let readPos = fs.fstatSync(fd).size;
	const child = spawn(nodeBin(), [n8nBin(line), command], { cwd: userFolder, env: n8nEnv(line, { userFolder, port, brokerPort, extra: extraEnv }), stdio: ['ignore', fd, fd], detached: true });
	fs.closeSync(fd);
	let buf = ''; // the log's newest megabyte: the ready lines, the errors shown on failure
	const readLog = () => {
		try {
			const size = fs.statSync(logFile).size;
			if (size <= readPos) return;
			const chunk = Buffer.alloc(size - readPos);
			const rfd = fs.openSync(logFile, 'r');
			fs.readSync(rfd, chunk, 0, chunk.length, readPos);
			fs.closeSync(rfd);
			readPos = size;
			buf = (buf + chunk.toString('utf8')).slice(-1_000_000);
		} catch { /* log file removed */ }
	};
	const tail = setInterval(readLog, 200);
	child.on('error', (err) => (buf += `\nspawn error: ${err.message}\n`));
	let exited = null;
	const exitPromise = new Promise((resolve) => child.on('exit', (code, signal) => (clearInterval(tail), readLog(), resolve((exited = { code, signal })))));
	const signalGroup = (sig) => {
		try { process.kill(-child.pid, sig); } catch { /* gone */ }
	};
	const onExit = () => signalGroup('SIGTERM'); // if this script dies, do not leave n8n behind
	process.on('exit', onExit);
	let stopping = null;
	const stop = (graceMs = 20000) =>
		(stopping ??= (async () => {
			if (!exited) {
				try { process.kill(child.pid, 'SIGTERM'); } catch { /* gone */ }
				const t = setTimeout(() => signalGroup('SIGKILL'), graceMs);
				await exitPromise;
				clearTimeout(t);
			}
			signalGroup('SIGKILL'); // a task runner n8n left behind
			process.removeListener('exit', onExit);
			clearInterval(tail);
			return exited;
		})());
	activeServers.add(stop);
	exitPromise.then(() => stop()).finally(() => activeServers.delete(stop));
	const starting = waitingFor(`n8n ${command} on ${url} to be ready (log ${logFile})`);
	try {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			if (exited) throw new Error(`n8n ${command} exited (${exited.code ?? exited.signal}) during start\n${buf.slice(-4000)}`);
			if (Date.now() > deadline) throw new Error(`n8n ${command} did not become ready within ${timeoutMs} ms; log: ${logFile}\n${buf.slice(-3000)}`);
			if (READY[command].test(buf)) {
				if (command !== 'start') break;
				// and readiness, as /healthz alone answers before the migrations end
				const r = await fetch(`${url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
				if (r?.status === 200) break;
			}
			await sleep(300);
		}
	} catch (err) {
		await stop(5000);
		throw err;
	} finally {
		starting.done();
	}
	return { url, port, pid: child.pid, logFile, child, log: () => buf, stop, exited: () => exited };
}

/** JSON printed by a CLI command: log lines (some start with `[`) share stdout; the JSON starts on a `{` line. */
function parseCliJson(stdout) {
	const lines = stdout.split('\n');
	for (let i = 0; i < lines.length; i++) {
		if (!lines[i].startsWith('{')) continue;
		// Log lines may also follow the JSON: try the longest block ending on a `}` line first.
		for (let j = lines.length - 1; j >= i; j--) {
			if (!lines[j].trimEnd().endsWith('}')) continue;
			try {
				return JSON.parse(lines.slice(i, j + 1).join('\n'));
			} catch { /* try a shorter block */ }
		}
	}
	return undefined;
}

/** A cookie-keeping REST client: (method, path, body) resolves the answer, or with unwrap its `data` member. */
function restClient(url, { headers = {}, unwrap = true } = {}) {
	let cookie = '';
	return async (method, p, body) => {
		const res = await fetch(url + p, {
			method,
			headers: { accept: 'application/json', ...(body !== undefined && { 'content-type': 'application/json' }), ...(cookie && { cookie }), ...headers },
			body: body !== undefined ? JSON.stringify(body) : undefined,
		});
		for (const c of res.headers.getSetCookie?.() ?? []) if (c.startsWith('n8n-auth=')) cookie = c.split(';')[0];
		const text = await res.text();
		if (res.status >= 400) throw Object.assign(new Error(`${method} ${p} → ${res.status}: ${text.slice(0, 500)}`), { status: res.status });
		let json;
		try { json = text ? JSON.parse(text) : undefined; } catch { json = text; }
		return unwrap && json && typeof json === 'object' && 'data' in json ? json.data : json;
	};
}

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
	const rest = (method, p, body) => n8n.client(method, p, body);

	const n8n = {
		line,
		version,
		tag: `[n8n ${version}]`,
		userFolder,
		procs: [], // [main, ...others] while running
		/** `n8n <args>` on this instance (while it runs too: the CLI gets its own broker port); wrap: a command to run it under. */
		async cli(args, { check = true, timeoutMs = 180000, extraEnv, wrap = [] } = {}) {
			const e = n8nEnv(line, { userFolder, brokerPort: await freePort(), extra: { ...env, ...extraEnv } });
			const [cmd, ...pre] = [...wrap, nodeBin()];
			return run(cmd, [...pre, n8nBin(line), ...args], { cwd: userFolder, env: e, check, timeoutMs });
		},
		/** Runs SQL on the instance's SQLite database (single mode) with n8n's own sqlite3 module, while n8n runs. */
		async sqlite(sql) {
			const db = path.join(userFolder, '.n8n', 'database.sqlite');
			const script = `const s=require('sqlite3');const d=new s.Database(${JSON.stringify(db)});d.exec(${JSON.stringify(sql)},(e)=>{d.close();if(e){console.error(e.message);process.exit(1)}})`;
			await run(nodeBin(), ['-e', script], { cwd: path.dirname(path.dirname(n8nBin(line))) });
		},
		/** Makes the database refuse (on) or accept (off) new executions: what a full disk or a locked database does to n8n. */
		async refuseExecutions(on) {
			await n8n.sqlite(on ? "CREATE TRIGGER IF NOT EXISTS esign_e2e_refuse BEFORE INSERT ON execution_entity BEGIN SELECT RAISE(ABORT, 'refused by the e2e test'); END;" : 'DROP TRIGGER IF EXISTS esign_e2e_refuse;');
		},
		/** Every node type n8n loads (offline); entries have .name like `n8n-nodes-esign.eSign`. */
		async exportNodes() {
			const out = path.join(fs.mkdtempSync(path.join(userFolder, 'export-')), 'nodes.json');
			await n8n.cli(['export:nodes', `--output=${out}`]);
			const types = JSON.parse(fs.readFileSync(out, 'utf8'));
			fs.rmSync(path.dirname(out), { recursive: true, force: true });
			return types;
		},
		/** `n8n execute --id` (only Manual-Trigger workflows): { code, stdout, stderr, data }; a failure rejects unless check: false. */
		async execute(id, opts = {}) {
			const res = await n8n.cli(['execute', `--id=${id}`, '--rawOutput'], { ...opts, check: false });
			const data = parseCliJson(res.stdout);
			if (opts.check !== false && (!data || res.code !== 0)) throw new Error(`n8n execute --id=${id} exited with ${res.code}\n${res.stdout.slice(-3000)}${res.stderr.slice(-2000)}`);
			return { ...res, data };
		},
		/** Runs a workflow with `n8n execute`; asserts it gave run data with the expected status; resolves that data. */
		async run(id, status = 'success') {
			const res = await n8n.execute(id, { check: false });
			assert(res.data, `no run data (exit ${res.code}):\n${(res.stdout + res.stderr).slice(-1500)}`);
			assert(res.data.status === status, `status ${res.data.status}${status === 'success' ? `: ${runError(res.data)}` : ''}`);
			return res.data;
		},
		/** Imports workflow objects, or (folder) the files written by write(dir); always inactive, ids kept. */
		async import(what, write) {
			const dir = fs.mkdtempSync(path.join(userFolder, 'import-'));
			try {
				if (write) write(dir);
				else for (const wf of [].concat(what)) fs.writeFileSync(path.join(dir, `${wf.id}.json`), JSON.stringify(wf, null, 2));
				return await n8n.cli(['import:workflow', `--input=${dir}`, '--separate']);
			} finally {
				fs.rmSync(dir, { recursive: true, force: true });
			}
		},
		/** Imports the examples rewritten for `site` (its URL, its controls) and credentialId; only: workflow ids; pollSeconds: as prepareExamples. */
		importExamples: (site, credentialId, only, { pollSeconds } = {}) => n8n.import(undefined, (dir) => prepareExamples(dir, { sandboxUrl: site.url, controlBase: site.controlBase, credentialId, only, pollSeconds })),

		/**
		 * Starts `n8n start` as process `name` (log: <userFolder>/<name>.log), then `processes` ([{ command: 'worker' |
		 * 'webhook', name }]); with login, the owner's session and an API key. serverEnv: for these processes only.
		 */
		async start({ port, name = 'n8n', processes = [], serverEnv = {}, login = true, apiKey = true } = {}) {
			const launch = (command, procName, p) => startProcess(line, { userFolder, command, port: p, logFile: path.join(userFolder, `${procName}.log`), extraEnv: { ...env, ...serverEnv } });
			const main = await launch('start', name, port);
			n8n.procs.push(main);
			Object.assign(n8n, { main, url: main.url, port: main.port, logFile: main.logFile, serverEnv });
			n8n.procs.push(...(await Promise.all(processes.map((p) => launch(p.command, p.name)))));
			if (login) await n8n.login({ apiKey });
			return n8n;
		},
		/** The owner's cookie session (the owner is created on a fresh instance) and, with apiKey, a new public-API key. */
		async login({ apiKey = true } = {}) {
			n8n.client = restClient(n8n.url);
			const o = DEFAULT_OWNER;
			if ((await rest('GET', '/rest/settings'))?.userManagement?.showSetupOnFirstLoad) await rest('POST', '/rest/owner/setup', o);
			else await rest('POST', '/rest/login', { emailOrLdapLoginId: o.email, password: o.password });
			if (apiKey) {
				const scopes = await rest('GET', '/rest/api-keys/scopes');
				n8n.apiKey = (await rest('POST', '/rest/api-keys', { label: `scripts ${new Date().toISOString()}`, expiresAt: null, scopes })).rawApiKey;
			}
		},
		/** Stops every process (newest first). */
		async stop() {
			for (const p of n8n.procs.splice(0).reverse()) await p.stop();
		},
		/** Stops and starts again on the same port (serverEnv: replaces the server-only settings). */
		async restart({ serverEnv = n8n.serverEnv } = {}) {
			await n8n.stop();
			return n8n.start({ port: n8n.port, serverEnv, apiKey: false });
		},

		rest,
		/** Public API call (`/api/v1/...`) with the instance's API key. */
		api: (method, p, body) => restClient(`${n8n.url}/api/v1`, { headers: { 'X-N8N-API-KEY': n8n.apiKey }, unwrap: false })(method, p, body),

		/** Creates the credential, or updates the one with that name and type (imports match credentials by a unique name). */
		async ensureCredential(data, { name = CREDENTIAL.name, type = CREDENTIAL.type } = {}) {
			const [same] = (await rest('GET', '/rest/credentials')).filter((c) => c.name === name && c.type === type);
			if (!same) return rest('POST', '/rest/credentials', { name, type, data });
			await rest('PATCH', `/rest/credentials/${same.id}`, { name, type, data });
			return { ...same };
		},
		/** n8n's credential test as the editor's "Test" button runs it (the data given, under a stored id): { status, message }. */
		testCredential: (credential, data) => rest('POST', '/rest/credentials/test', { credentials: { id: String(credential.id), name: CREDENTIAL.name, type: CREDENTIAL.type, data } }),

		/** Activates (2.x: publishes) a workflow's current version; its webhooks register a moment later. */
		async activate(id) {
			const { versionId } = await rest('GET', `/rest/workflows/${id}`);
			return rest('POST', `/rest/workflows/${id}/activate`, { versionId });
		},
		deactivate: (id) => rest('POST', `/rest/workflows/${id}/deactivate`, {}),
		/**
		 * Activates a workflow with an eSign Trigger (unless active), waits for its production webhook and resolves
		 * { url, status }: the URL is /webhook/<webhookId>/esign (the trigger's fixed path), and status
		 * is the answer to an unsigned probe (401, not n8n's 404, once n8n serves the trigger there).
		 */
		async activateTrigger(id = TRIGGER_WORKFLOW_ID) {
			const wf = await rest('GET', `/rest/workflows/${id}`);
			if (!wf.active) await n8n.activate(id);
			const trigger = wf.nodes.find((n) => n.type === NODE_TYPES.trigger);
			assert(trigger?.webhookId, `workflow ${id} has no ${NODE_TYPES.trigger} with a webhookId`);
			const url = `${n8n.url}/webhook/${trigger.webhookId}/esign`;
			return { url, status: await waitForWebhook(url) };
		},

		/** Every execution of a workflow through the public API (all pages), newest first; plain JSON run data. */
		async executions(workflowId, { includeData = false } = {}) {
			const all = [];
			let cursor;
			do {
				const q = new URLSearchParams({ workflowId, includeData: String(includeData), limit: '250', ...(cursor && { cursor }) });
				const page = await n8n.api('GET', `/executions?${q}`);
				all.push(...page.data);
				cursor = page.nextCursor;
			} while (cursor);
			return all;
		},
		/** Waits until `count` executions of the workflow exist and all have ended; resolves them. */
		async waitForExecutions(workflowId, count, timeoutMs = 60000) {
			const deadline = Date.now() + timeoutMs;
			const wait = waitingFor(`${count} ended executions of ${workflowId} in n8n ${version}`);
			try {
				for (;;) {
					const list = await n8n.executions(workflowId);
					if (list.length >= count && list.every(isDone)) return list;
					wait.update(`${count} ended executions of ${workflowId} in n8n ${version} (${list.length} so far, ${list.filter(isDone).length} ended)`);
					assert(Date.now() < deadline, `${list.length} executions of ${workflowId} (${list.filter(isDone).length} ended) after ${timeoutMs / 1000} s, expected ${count}`);
					await sleep(500);
				}
			} finally {
				wait.done();
			}
		},
		/**
		 * Exactly `count` executions of the workflow, all ended, counted from n8n's own list once nothing more can
		 * start one; resolves them with their run data. There is no settle time: the caller knows when nothing more
		 * can arrive, and says so by when it calls this, or with `after`:
		 * - Webhook deliveries: call it once every delivery has been answered (the site's record of each says so).
		 *   A delivery that starts a run is answered by n8n "Workflow was started" (2.x once the execution exists, 1.x
		 *   just before it creates it); so such runs are among the `count` waited for here (the caller counts those
		 *   answers). Every other answer is given after the node returned no run: n8n's own
		 *   "Webhook call received" for an event not selected, or the trigger's refusals (401, repeated or stale
		 *   delivery), which return no workflowData in the same step as the answer. n8n starts a run only from
		 *   workflowData, so such a delivery starts none, then or later.
		 * - Polls: after = () => pollEnded(site): the poll that began after these runs has ended.
		 * `after` runs once the `count` executions have ended, before the final listing.
		 */
		async expectExecutions(workflowId, count, { timeoutMs = 60000, after, settleMs } = {}) {
			if (settleMs !== undefined) throw new Error('expectExecutions: settleMs is gone (a settle window can miss a late run): call it once every delivery was answered, or pass after: () => pollEnded(site) for a polling trigger');
			await n8n.waitForExecutions(workflowId, count, timeoutMs);
			if (after) await after();
			const list = await n8n.executions(workflowId, { includeData: true });
			assert(list.length === count, `${list.length} executions of ${workflowId}, expected exactly ${count}`);
			assert(list.every(isDone), `executions of ${workflowId} still running: ${list.filter((e) => !isDone(e)).map((e) => e.id).join(', ')}`);
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
