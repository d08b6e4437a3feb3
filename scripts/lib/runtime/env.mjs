// Free ports, the environment of a throwaway n8n instance, and installing this package into it.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { nodeBin, npmEnv, run } from './install.mjs';

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
