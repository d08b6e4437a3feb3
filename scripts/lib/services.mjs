// Debian services for the scale-out tests: installs the packages when missing (as root), and runs a
// throwaway PostgreSQL and Redis on 127.0.0.1 that stop with the script and leave nothing behind.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, sleep } from './runtime.mjs';

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * Makes sure each command exists; installs the Debian packages that provide the missing ones with
 * apt-get when running as root, else throws a message saying what to install.
 * needs: [{ command: 'redis-server', package: 'redis-server', find?: () => path | undefined }]
 */
export function ensureDebianPackages(needs, say = console.log) {
	const found = (n) => (n.find ? n.find() : spawnSync('sh', ['-c', `command -v ${n.command}`]).status === 0);
	const missing = needs.filter((n) => !found(n));
	if (!missing.length) return;
	const pkgs = [...new Set(missing.map((n) => n.package))];
	if (!isRoot()) {
		throw new Error(`missing ${missing.map((n) => n.command).join(', ')}: install the Debian packages first (as root: apt-get install -y ${pkgs.join(' ')}), or run this as root`);
	}
	say(`installing ${pkgs.join(' ')} with apt-get (first run only)`);
	const opts = { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } };
	if (spawnSync('apt-get', ['update', '-q'], opts).status !== 0) throw new Error('apt-get update failed');
	// Debian starts services it installs where it can; nothing here needs them, so let policy-rc.d refuse.
	const policy = '/usr/sbin/policy-rc.d';
	const hadPolicy = fs.existsSync(policy);
	if (!hadPolicy) fs.writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
	try {
		const r = spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...pkgs], opts);
		if (r.status !== 0) throw new Error(`apt-get install ${pkgs.join(' ')} failed`);
	} finally {
		if (!hadPolicy) fs.rmSync(policy, { force: true });
	}
	const still = needs.filter((n) => !found(n));
	if (still.length) throw new Error(`still missing after apt-get: ${still.map((n) => n.command).join(', ')}`);
}

/** The newest PostgreSQL server bin folder Debian installed (/usr/lib/postgresql/<major>/bin). */
export function postgresBinDir() {
	const base = '/usr/lib/postgresql';
	if (!fs.existsSync(base)) return undefined;
	const majors = fs.readdirSync(base).filter((d) => fs.existsSync(path.join(base, d, 'bin', 'postgres'))).sort((a, b) => Number(b) - Number(a));
	return majors.length ? path.join(base, majors[0], 'bin') : undefined;
}

/**
 * Spawns a service with its output in logFile; stop() ends it (SIGTERM, then SIGKILL) and only it.
 * group: the service forks workers (PHP-FPM, nginx, PHP's built-in server): it gets its own process group and
 * stop() signals the whole group, so no worker outlives it.
 */
export function spawnService(cmd, args, { logFile, uid, gid, cwd, env, group = false }) {
	const fd = fs.openSync(logFile, 'a');
	const child = spawn(cmd, args, { stdio: ['ignore', fd, fd], uid, gid, cwd, env, detached: group });
	fs.closeSync(fd);
	const running = () => child.exitCode === null && child.signalCode === null;
	const signal = (sig) => {
		try { process.kill(group ? -child.pid : child.pid, sig); } catch { /* gone */ }
	};
	const onExit = () => signal('SIGKILL');
	process.on('exit', onExit);
	return {
		child,
		async stop(sig = 'SIGTERM') {
			process.removeListener('exit', onExit);
			if (running()) {
				const exited = new Promise((resolve) => child.once('exit', resolve));
				signal(sig);
				await Promise.race([exited, sleep(15000)]);
				if (running()) signal('SIGKILL');
			}
			if (group) signal('SIGKILL'); // workers may still be finishing a request after the parent left
		},
	};
}

/** Waits until ready() is true; if it is not within timeoutMs or the service exits, stops it and throws naming logFile's end. */
export async function waitUntilStarted(svc, name, logFile, ready, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	while (!ready()) {
		if (Date.now() > deadline || svc.child.exitCode !== null) {
			await svc.stop();
			throw new Error(`${name} did not start: ${fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-1500) : ''}`);
		}
		await sleep(200);
	}
}

/**
 * A throwaway PostgreSQL cluster on 127.0.0.1 with database `dbName` owned by `user` (trust auth, local only). As
 * root it runs as Debian's `postgres` user (PostgreSQL refuses to run as root). Resolves { host, port, user,
 * database, psql(sql), stop() }.
 */
export async function startPostgres({ dir, dbName = 'n8n', user = 'n8n' }) {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
	fs.mkdirSync(dir, { recursive: true });
	const logFile = path.join(dir, 'postgres.log');
	let uid;
	let gid;
	if (isRoot()) {
		const id = (flag) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
		[uid, gid] = [id('-u'), id('-g')];
		if (!Number.isInteger(uid)) throw new Error('running as root, but there is no "postgres" user to run PostgreSQL as');
		fs.chownSync(dir, uid, gid);
	}
	const init = spawnSync(path.join(bin, 'initdb'), ['-D', path.join(dir, 'data'), '-U', user, '-A', 'trust', '-E', 'UTF8', '--no-sync'], { uid, gid, cwd: dir, encoding: 'utf8' });
	if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
	const port = await freePort();
	const settings = ['listen_addresses=127.0.0.1', 'fsync=off', 'synchronous_commit=off', 'max_connections=200'].flatMap((c) => ['-c', c]);
	const svc = spawnService(path.join(bin, 'postgres'), ['-D', path.join(dir, 'data'), '-p', String(port), '-k', dir, ...settings], { logFile, uid, gid, cwd: dir });
	await waitUntilStarted(svc, 'PostgreSQL', logFile, () => spawnSync(path.join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]).status === 0, 30000);
	const psql = (db, sql) => {
		const r = spawnSync(path.join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', db, '-v', 'ON_ERROR_STOP=1', '-tA', '-c', sql], { encoding: 'utf8' });
		if (r.status !== 0) throw new Error(`psql: ${r.stderr}`);
		return r.stdout.trim();
	};
	psql('postgres', `CREATE DATABASE ${dbName}`);
	// SIGINT: PostgreSQL's fast shutdown.
	return { host: '127.0.0.1', port, user, database: dbName, psql: (sql) => psql(dbName, sql), stop: () => svc.stop('SIGINT') };
}

/** A throwaway Redis on 127.0.0.1 without persistence. Resolves { host, port, cli(...args), stop() }. */
export async function startRedis({ dir }) {
	fs.mkdirSync(dir, { recursive: true });
	const port = await freePort();
	const logFile = path.join(dir, 'redis.log');
	const svc = spawnService('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'], { logFile, cwd: dir });
	await waitUntilStarted(svc, 'Redis', logFile, () => fs.existsSync(logFile) && /Ready to accept connections/.test(fs.readFileSync(logFile, 'utf8')), 15000);
	const cli = (...args) => {
		const r = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' });
		if (r.status !== 0 || /^ERR/.test(r.stdout)) throw new Error(`redis-cli ${args.join(' ')}: ${r.stderr || r.stdout}`);
		return r.stdout.trim();
	};
	return { host: '127.0.0.1', port, cli, stop: () => svc.stop() };
}

/** A temporary folder any local user can enter (PostgreSQL runs as another user inside it). */
export function serviceTempDir(prefix) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	fs.chmodSync(dir, 0o755);
	return dir;
}
