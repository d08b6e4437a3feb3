// Starting and stopping `n8n start`, waiting until it is ready.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RUNTIME_ROOT, log, n8nBin, nodeBin, pidAlive, sleep } from './install.mjs';
import { env, freePort, portIsFree } from './env.mjs';

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

/** What each n8n process prints once it is ready (queue mode's `worker` and `webhook` have no editor). */
const READY = {
	start: /Editor is now accessible/,
	worker: /n8n worker is now ready/,
	webhook: /Webhook listener waiting for requests/,
};

/**
 * Starts `n8n start` (or `n8n worker` / `n8n webhook`, with `command`) on 127.0.0.1 and resolves once
 * it is ready: for `start`, /healthz/readiness is 200 and the log says "Editor is now accessible"
 * (/healthz alone answers before migrations end); for the others, their ready line in the log.
 * Returns { url, port, brokerPort, pid, logFile, child, log(), exited(), stop() }.
 */
export async function startN8n(line, { userFolder, port, brokerPort, logFile, timeoutMs = 180000, extraEnv, command = 'start' } = {}) {
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
	const child = spawn(nodeBin(), [n8nBin(line), command], {
		cwd: userFolder,
		env: env(line, { userFolder, port, brokerPort, extra: extraEnv }),
		stdio: ['ignore', fd, fd],
	});
	fs.closeSync(fd);
	child.on('error', (err) => onData(`\nspawn error: ${err.message}\n`));
	const pid = child.pid;
	let buf = ''; // the log's newest megabytes (the ready lines, the errors shown on failure)
	function onData(d) {
		buf += d;
		if (buf.length > 2_000_000) buf = buf.slice(-1_000_000);
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
			resolve(exited);
		}),
	);
	// If this script dies, do not leave n8n behind.
	const onExit = () => {
		if (!exited) try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ }
	};
	process.on('exit', onExit);

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

	const handle = { line: String(line), url, port, brokerPort, pid, userFolder, logFile, child, log: () => buf, stop, exited: () => exited };
	try {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			if (exited) throw new Error(`n8n exited (${exited.code ?? exited.signal}) during start\n${buf.slice(-4000)}`);
			if (Date.now() > deadline) throw new Error(`n8n did not become ready within ${timeoutMs} ms; log: ${logFile}\n${buf.slice(-3000)}`);
			if (command !== 'start') {
				if (READY[command]?.test(buf)) break;
			} else {
				try {
					const r = await fetch(`${url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
					if (r.status === 200 && READY.start.test(buf)) break;
				} catch { /* not listening yet */ }
			}
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
