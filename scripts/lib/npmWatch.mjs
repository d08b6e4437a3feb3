// `npm install` under a watchdog, for the big installs of real n8n. A CI run (2026-11-28) saw `npm install` of
// n8n 2.41.1 print nothing for 80 minutes, until CI's own limit, while 1.123.81 installed beside it in 2 minutes:
// npm's fetch-timeout never fired. npm writes every step (each fetch, each tarball, the reify) to its debug log
// whatever --loglevel says, so a debug log that stops changing means npm is stuck. Then npm is stopped, its last
// log lines are printed (what it was waiting for), and the install is tried again from an empty tree (npm's cache
// keeps what was downloaded). A failure that is not a stall (an exit code) is tried again the same way: a dropped
// connection is the usual cause here. A big tarball on a slow registry takes minutes (233 s measured here with a
// busy machine) and logs only when it ends, so the bytes npm's cache is receiving (its tmp folder, where downloads
// stream) count as progress too; npm's own fetch-timeout (5 min) gets its chance before the stall window ends.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const minutes = (name, fallback) => {
	const v = Number(process.env[name]);
	return (Number.isFinite(v) && v > 0 ? v : fallback) * 60_000;
};
/** No change in npm's debug log nor in its downloads for this long: stuck (N8N_RUNTIME_STALL_MIN, default 6). */
export const STALL_MS = minutes('N8N_RUNTIME_STALL_MIN', 6);
/** One attempt may take at most this long, stalled or not (N8N_RUNTIME_INSTALL_MAX_MIN, default 20). */
export const MAX_MS = minutes('N8N_RUNTIME_INSTALL_MAX_MIN', 20);

/** What the folders look like now: their files' names and sizes; any change is progress. */
function folderState(dirs) {
	return dirs
		.map((dir) => {
			try {
				return fs
					.readdirSync(dir)
					.sort()
					.map((f) => `${f}:${fs.statSync(path.join(dir, f), { throwIfNoEntry: false })?.size}`)
					.join('|');
			} catch {
				return '';
			}
		})
		.join('\n');
}

/** Where npm, run with env, streams its downloads (<cache>/_cacache/tmp), or undefined when npm cannot say. */
export function npmDownloadsDir(env) {
	const got = spawnSync('npm', ['config', 'get', 'cache'], { env, encoding: 'utf8' });
	const cache = got.status === 0 ? got.stdout.trim() : '';
	return cache ? path.join(cache, '_cacache', 'tmp') : undefined;
}

/** The last `lines` lines of the newest debug log, or '' when there is none. */
export function logTail(logsDir, lines = 25) {
	try {
		const newest = fs.readdirSync(logsDir).filter((f) => f.endsWith('.log')).sort().pop();
		if (!newest) return '';
		return fs.readFileSync(path.join(logsDir, newest), 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

/**
 * One run of `npm <args>` in cwd, stopped when its debug log (in logsDir) and the folders `progressDirs` (its
 * downloads) stay unchanged for stallMs, or the run passes maxMs. Resolves on exit 0; rejects with `.stalled = true`
 * when stopped, with the exit code otherwise.
 */
export function npmOnce({ cwd, env, args, logsDir, progressDirs = [], stallMs = STALL_MS, maxMs = MAX_MS, pollMs = 5000, inherit = false, onSpawn = () => {} }) {
	fs.mkdirSync(logsDir, { recursive: true });
	return new Promise((resolve, reject) => {
		const child = spawn('npm', [...args, `--logs-dir=${logsDir}`], { cwd, env, stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
		onSpawn(child);
		let stderr = '';
		child.stderr?.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
		child.stdout?.resume();
		const started = Date.now();
		const watchedDirs = [logsDir, ...progressDirs];
		let state = folderState(watchedDirs);
		let changedAt = started;
		let stopped;
		const stop = (why) => {
			stopped = why;
			child.kill('SIGTERM');
			setTimeout(() => child.kill('SIGKILL'), 5000).unref();
		};
		const timer = setInterval(() => {
			if (stopped) return; // stopping once; its close ends the watch
			const now = Date.now();
			const next = folderState(watchedDirs);
			if (next !== state) (state = next), (changedAt = now);
			if (now - changedAt >= stallMs) stop(`neither its debug log nor its downloads have changed for ${Math.round((now - changedAt) / 1000)} s`);
			else if (now - started >= maxMs) stop(`it has run for ${Math.round((now - started) / 1000)} s, the limit of one attempt`);
		}, pollMs);
		child.on('error', (e) => (clearInterval(timer), reject(e)));
		child.on('close', (code, signal) => {
			clearInterval(timer);
			if (code === 0 && !stopped) return resolve();
			const what = stopped ? `stopped: ${stopped}` : `exited with ${code ?? signal}`;
			const tail = logTail(logsDir);
			const err = new Error(`npm ${args.join(' ')} in ${cwd} ${what}${stderr ? `\n${stderr.trim()}` : ''}${tail ? `\nnpm's debug log ends:\n${tail}` : ''}`);
			reject(Object.assign(err, { stalled: Boolean(stopped), code, signal }));
		});
	});
}

/**
 * npmOnce, tried `attempts` times in all; before each retry the tree npm was building (`clean`, paths in cwd) is
 * removed, so a half-written node_modules cannot pass for a whole one; beforeAttempt() runs before each attempt (after
 * the cleaning). `log` reports each failed attempt.
 */
export async function npmInstallWatched({ attempts = 2, clean = ['node_modules', 'package-lock.json'], beforeAttempt = () => {}, log = console.log, ...opts }) {
	for (let attempt = 1; ; attempt++) {
		try {
			if (attempt === 1) {
				beforeAttempt();
				return await npmOnce(opts);
			}
			return await oneAtATime(() => {
				for (const p of clean) fs.rmSync(path.join(opts.cwd, p), { recursive: true, force: true });
				beforeAttempt();
				return npmOnce(opts);
			});
		} catch (e) {
			if (attempt >= attempts || e.code === 'ENOENT') throw e;
			log(`npm attempt ${attempt} of ${attempts} failed; trying again from an empty tree.\n${e.message}`);
		}
	}
}

// Retries wait for each other: a second stuck npm beside the first helps neither.
let retryTurn = Promise.resolve();
function oneAtATime(fn) {
	const result = retryTurn.then(fn);
	retryTurn = result.catch(() => {});
	return result;
}
