// Debian services for the scale-out tests: installs the packages when missing (as root), and runs a
// throwaway PostgreSQL and Redis on 127.0.0.1 that stop with the script and leave nothing behind.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './runtime.mjs';

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

function waitForExit(child, ms) {
	return new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) return resolve();
		const t = setTimeout(resolve, ms);
		child.once('exit', () => {
			clearTimeout(t);
			resolve();
		});
	});
}

/**
 * Spawns a service with its output in logFile; stop() ends it (SIGTERM, then SIGKILL) and only it.
 * group: the service forks workers (PHP's built-in server with PHP_CLI_SERVER_WORKERS): it gets its own
 * process group and stop() signals the whole group, so no worker outlives it.
 */
export function spawnService(cmd, args, { logFile, uid, gid, cwd, env, group = false }) {
	const fd = fs.openSync(logFile, 'a');
	const child = spawn(cmd, args, { stdio: ['ignore', fd, fd], uid, gid, cwd, env, detached: group });
	fs.closeSync(fd);
	const signal = (sig) => {
		try {
			if (group) process.kill(-child.pid, sig);
			else child.kill(sig);
		} catch {
			/* gone */
		}
	};
	const onExit = () => signal('SIGKILL');
	process.on('exit', onExit);
	return {
		child,
		async stop(sig = 'SIGTERM') {
			process.removeListener('exit', onExit);
			if (child.exitCode === null && child.signalCode === null) {
				signal(sig);
				await waitForExit(child, 15000);
				if (child.exitCode === null && child.signalCode === null) signal('SIGKILL');
			}
			// Workers may still be finishing a request after the parent left.
			if (group) signal('SIGKILL');
		},
	};
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A throwaway PostgreSQL cluster on 127.0.0.1 with database `dbName` owned by `user` (trust auth,
 * local only). As root it runs as Debian's `postgres` user (PostgreSQL refuses to run as root).
 * Returns { host, port, user, database, psql(sql), stop() }.
 */
export async function startPostgres({ dir, dbName = 'n8n', user = 'n8n' }) {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
	fs.mkdirSync(dir, { recursive: true });
	const data = path.join(dir, 'data');
	const logFile = path.join(dir, 'postgres.log');
	let uid;
	let gid;
	if (isRoot()) {
		const id = (flag) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
		uid = id('-u');
		gid = id('-g');
		if (!Number.isInteger(uid)) throw new Error('running as root, but there is no "postgres" user to run PostgreSQL as');
		fs.chownSync(dir, uid, gid);
	}
	const asPg = { uid, gid, cwd: dir, encoding: 'utf8' };
	const init = spawnSync(path.join(bin, 'initdb'), ['-D', data, '-U', user, '-A', 'trust', '-E', 'UTF8', '--no-sync'], asPg);
	if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
	const port = await freePort();
	const svc = spawnService(
		path.join(bin, 'postgres'),
		['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'max_connections=200'],
		{ logFile, uid, gid, cwd: dir },
	);
	const deadline = Date.now() + 30000;
	while (spawnSync(path.join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]).status !== 0) {
		if (Date.now() > deadline || svc.child.exitCode !== null) {
			await svc.stop();
			throw new Error(`PostgreSQL did not start: ${fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-1500) : ''}`);
		}
		await sleep(200);
	}
	const psqlArgs = (db) => ['-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', db, '-v', 'ON_ERROR_STOP=1', '-tA'];
	const created = spawnSync(path.join(bin, 'psql'), [...psqlArgs('postgres'), '-c', `CREATE DATABASE ${dbName}`], { encoding: 'utf8' });
	if (created.status !== 0) throw new Error(`CREATE DATABASE failed: ${created.stderr}`);
	return {
		host: '127.0.0.1',
		port,
		user,
		database: dbName,
		psql(sql) {
			const r = spawnSync(path.join(bin, 'psql'), [...psqlArgs(dbName), '-c', sql], { encoding: 'utf8' });
			if (r.status !== 0) throw new Error(`psql: ${r.stderr}`);
			return r.stdout.trim();
		},
		// SIGINT: PostgreSQL's fast shutdown.
		stop: () => svc.stop('SIGINT'),
	};
}

/** A throwaway Redis on 127.0.0.1 without persistence. Returns { host, port, stop() }. */
export async function startRedis({ dir }) {
	fs.mkdirSync(dir, { recursive: true });
	const port = await freePort();
	const svc = spawnService('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'], {
		logFile: path.join(dir, 'redis.log'),
		cwd: dir,
	});
	const deadline = Date.now() + 15000;
	for (;;) {
		const log = fs.existsSync(path.join(dir, 'redis.log')) ? fs.readFileSync(path.join(dir, 'redis.log'), 'utf8') : '';
		if (/Ready to accept connections/.test(log)) break;
		if (Date.now() > deadline || svc.child.exitCode !== null) {
			await svc.stop();
			throw new Error(`Redis did not start: ${log.slice(-1500)}`);
		}
		await sleep(100);
	}
	return { host: '127.0.0.1', port, stop: () => svc.stop() };
}

/** A temporary folder any local user can enter (PostgreSQL runs as another user inside it). */
export function serviceTempDir(prefix) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	fs.chmodSync(dir, 0o755);
	return dir;
}
