// Free ports and the environment of a throwaway n8n instance.
import net from 'node:net';
import path from 'node:path';
import { nodeBin } from './install.mjs';

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
