// The WordPress test site: Debian's own WordPress 6.1, PHP and MariaDB, the eSign plugin from
// test/wordpress/plugin and the test controls from test/wordpress/mu-plugins, served by nginx and
// PHP-FPM (nginx.mjs), or by PHP's built-in server when asked. Everything lives in one
// folder; a second start reuses it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, sleep } from '../../scripts/lib/runtime.mjs';
import { ensureDebianPackages, spawnService, waitUntilStarted } from '../../scripts/lib/services.mjs';
import { NGINX, PHP_FPM, normaliseFront, startNginxSite } from './nginx.mjs';
import { WAF_PACKAGES } from './apache.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const SOURCE = path.join(ROOT, 'test', 'wordpress');
const WP_CORE = '/usr/share/wordpress';
/** Inside node_modules/.cache: out of git and of the strict lint (which must not be configured). */
export const DEFAULT_DIR = path.join(ROOT, 'node_modules', '.cache', 'esign-wordpress');

const phpHas = (ext) => spawnSync('php', ['-m'], { encoding: 'utf8' }).stdout?.split('\n').some((l) => l.trim().toLowerCase() === ext);

/**
 * Installs what is missing (as root, with apt-get; otherwise a message naming the packages).
 * server: 'nginx' (also nginx and php8.2-fpm) or 'php' (PHP's built-in server); tls: also openssl; waf: also
 * apache2, libapache2-mod-security2 and modsecurity-crs.
 */
export function ensureWordPressPackages(say, { server = 'nginx', tls = false, waf = false } = {}) {
	const onDisk = (file) => () => fs.existsSync(file);
	ensureDebianPackages([
		{ command: 'php', package: 'php-cli' },
		{ command: 'php-mysqli', package: 'php-mysql', find: () => phpHas('mysqli') },
		{ command: 'php-gd', package: 'php-gd', find: () => phpHas('gd') },
		{ command: 'mariadbd', package: 'mariadb-server', find: onDisk('/usr/sbin/mariadbd') },
		{ command: 'wordpress', package: 'wordpress', find: onDisk(path.join(WP_CORE, 'wp-load.php')) },
		...(server === 'nginx' ? [{ command: 'nginx', package: 'nginx', find: onDisk(NGINX) }, { command: 'php-fpm8.2', package: 'php8.2-fpm', find: onDisk(PHP_FPM) }] : []),
		...(tls ? [{ command: 'openssl', package: 'openssl' }] : []),
		...(waf ? WAF_PACKAGES : []),
	], say);
}

function copyDir(from, to) {
	fs.rmSync(to, { recursive: true, force: true });
	fs.cpSync(from, to, { recursive: true, dereference: true });
}

/** The site's users and keys: the same as the Node sandbox's, so one contract suite drives both. */
function siteConfig(url, permalinks) {
	const { USERS, KEYS } = require(path.join(ROOT, 'test', 'sandbox', 'store.js'));
	const { DEFAULT_WEBHOOK_SECRET } = require(path.join(ROOT, 'test', 'sandbox', 'index.js'));
	return { url, permalinks, users: USERS, keys: KEYS, webhookSecret: DEFAULT_WEBHOOK_SECRET };
}

async function writeSamples(dir) {
	const { getSamples } = require(path.join(ROOT, 'test', 'sandbox', 'pdf.js'));
	fs.mkdirSync(dir, { recursive: true });
	for (const [name, sample] of Object.entries(await getSamples())) {
		const file = path.join(dir, name);
		// Rewritten when a sample changed (the tagged contract's tags turned black, issue 42), so a kept site serves the new one.
		if (!fs.existsSync(file) || !fs.readFileSync(file).equals(sample.data)) fs.writeFileSync(file, sample.data);
	}
}

/** MariaDB on a unix socket inside `dir` (and a free 127.0.0.1 port), database `wordpress`. */
async function startMariaDb(dir, say) {
	const data = path.join(dir, 'mysql');
	const socket = path.join(dir, 'mysqld.sock');
	const user = process.getuid?.() === 0 ? 'root' : os.userInfo().username;
	if (!fs.existsSync(path.join(data, 'mysql'))) {
		say('creating the MariaDB data folder');
		const init = spawnSync('mariadb-install-db', [`--user=${user}`, `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db'], { encoding: 'utf8' });
		if (init.status !== 0) throw new Error(`mariadb-install-db failed: ${init.stderr || init.stdout}`);
	}
	const port = await freePort();
	fs.rmSync(socket, { force: true });
	const logFile = path.join(dir, 'mariadb.log');
	const svc = spawnService('/usr/sbin/mariadbd', [
		'--no-defaults', `--user=${user}`, `--datadir=${data}`, `--socket=${socket}`, `--port=${port}`, '--bind-address=127.0.0.1',
		`--pid-file=${path.join(dir, 'mysqld.pid')}`, '--innodb-flush-log-at-trx-commit=2', '--skip-log-bin', '--max-connections=200',
	], { logFile, cwd: dir });
	const mysql = (sql) => spawnSync('mariadb', ['--no-defaults', '-uroot', `--socket=${socket}`, '-e', sql], { encoding: 'utf8' });
	await waitUntilStarted(svc, 'MariaDB', logFile, () => mysql('SELECT 1').status === 0, 60000);
	const created = mysql("CREATE DATABASE IF NOT EXISTS wordpress CHARACTER SET utf8mb4; CREATE USER IF NOT EXISTS 'wordpress'@'localhost' IDENTIFIED BY 'wordpress'; GRANT ALL ON wordpress.* TO 'wordpress'@'localhost';");
	if (created.status !== 0) throw new Error(`creating the database failed: ${created.stderr}`);
	return { socket, port, stop: () => svc.stop() };
}

function writeConfig(core, { url, socket, dir }) {
	const salts = path.join(dir, 'salts.php');
	if (!fs.existsSync(salts)) {
		const names = ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT'];
		const rnd = () => require('node:crypto').randomBytes(32).toString('hex');
		fs.writeFileSync(salts, `<?php\n${names.map((n) => `define('${n}', '${rnd()}');`).join('\n')}\n`);
	}
	fs.writeFileSync(path.join(core, 'wp-config.php'), `<?php
// Written by test/wordpress/site.mjs for the throwaway test site.
define('DB_NAME', 'wordpress');
define('DB_USER', 'wordpress');
define('DB_PASSWORD', 'wordpress');
define('DB_HOST', 'localhost:${socket}');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
require ${JSON.stringify(salts)};
$table_prefix = 'wp_';
// nginx names the address each request came in on (the fronted one or the direct one), so WordPress's
// links and canonical redirects stay on that address; elsewhere (PHP's server, setup.php) it is the site URL.
$esign_url = $_SERVER['ESIGN_SITE_URL'] ?? ${JSON.stringify(url)};
define('WP_HOME', $esign_url);
define('WP_SITEURL', $esign_url);
define('WP_DEBUG', false);
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_HTTP_BLOCK_EXTERNAL', false);
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`);
}

/** The API and control URL builders of one address in a permalink style. */
function addressUrls(url, permalinks) {
	const base = permalinks === 'plain' ? `${url}/?rest_route=` : `${url}/wp-json`;
	return {
		apiUrl: `${base}/esign/v1`,
		controlUrl: (p) => (permalinks === 'plain' ? `${base}/esign-test/v1${p.replace('?', '&')}` : `${base}/esign-test/v1${p}`),
	};
}

/** PHP's built-in server (the fallback): `workers` processes, the router in test/wordpress. */
function startPhpServer({ dir, core, port, workers }) {
	const logFile = path.join(dir, 'php-server.log');
	const server = spawnService('php', [
		'-d', 'opcache.enable_cli=1', '-d', 'opcache.validate_timestamps=1', '-d', 'opcache.revalidate_freq=0',
		'-S', `127.0.0.1:${port}`, '-t', core, path.join(SOURCE, 'router.php'),
	], { logFile, cwd: core, env: { ...process.env, PHP_CLI_SERVER_WORKERS: String(workers) }, group: true });
	const url = `http://127.0.0.1:${port}`;
	const tail = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-1500) : '');
	return { url, directUrl: url, basicAuth: null, tls: null, front: normaliseFront(), servers: [server], cleanup: () => {}, logTail: tail };
}

/**
 * Starts the site. Options:
 * - `dir` (site folder, reused), `port` (the site's port; 0 = a free one), `say` (progress lines);
 * - `permalinks`: 'pretty' (the API under /wp-json/) or 'plain' (only /?rest_route=/);
 * - `workers`: PHP workers (a webhook sent during a request whose receiver calls back needs > 1);
 * - `server`: 'nginx' (nginx + PHP-FPM, the default) or 'php' (PHP's built-in server, no fronts);
 * - `front`: { basicAuth: true | {user, password}, cache: true, tls: true } on `url` (nginx only); or
 *   { waf: true }: Apache + ModSecurity + OWASP CRS 3.3 on `url` (http://localhost:<port>; apache.mjs);
 * - `strictRecipe` (nginx): WordPress's documented nginx recipe exactly, where nginx itself answers PUT,
 *   PATCH and DELETE on /?rest_route=… with 405 (by default `/` goes to WordPress for every method).
 * Returns { url, apiUrl, controlUrl(path), keys, webhookSecret, permalinks, dir, core, server, front,
 * directUrl, directApiUrl, directControlUrl(path), basicAuth: {user, password} | null,
 * tls: {cert} | null, waf: {errorLog, auditLog} | null, stop() }. `url`/`apiUrl` carry the fronts; the direct ones are the same site
 * on plain HTTP without auth or cache (equal to `url` without fronts); `controlUrl` is the direct one,
 * so the test controls always answer scripts.
 */
export async function startWordPress({ dir = DEFAULT_DIR, port = 0, permalinks = 'pretty', workers = 4, server = 'nginx', front = {}, strictRecipe = false, say = () => {} } = {}) {
	if (!['nginx', 'php'].includes(server)) throw new Error(`server must be 'nginx' or 'php', not ${JSON.stringify(server)}`);
	const fronts = normaliseFront(front);
	if (server === 'php' && (fronts.basicAuth || fronts.cache || fronts.tls || fronts.waf)) throw new Error('the fronts (basic auth, cache, TLS, firewall) need nginx: leave out the PHP built-in server option');
	ensureWordPressPackages(say, { server, tls: fronts.tls, waf: fronts.waf });
	fs.mkdirSync(dir, { recursive: true });
	const core = path.join(dir, 'core');
	if (!fs.existsSync(path.join(core, 'wp-load.php'))) {
		say(`copying WordPress from ${WP_CORE}`);
		copyDir(WP_CORE, core);
	}
	// The plugin and the controls are copied on every start, so edits in test/wordpress take effect.
	const content = path.join(core, 'wp-content');
	copyDir(path.join(SOURCE, 'plugin', 'esign'), path.join(content, 'plugins', 'esign'));
	fs.mkdirSync(path.join(content, 'mu-plugins'), { recursive: true });
	fs.copyFileSync(path.join(SOURCE, 'mu-plugins', 'esign-test.php'), path.join(content, 'mu-plugins', 'esign-test.php'));
	await writeSamples(path.join(content, 'esign-samples'));

	const db = await startMariaDb(dir, say);
	const stops = [db.stop];
	const stopAll = async () => {
		for (const stop of stops.reverse()) await stop().catch(() => {});
	};
	try {
		// The web servers start before setup.php writes the URL into the site: they only need the folder.
		const site = server === 'php'
			? startPhpServer({ dir, core, port: port || (await freePort()), workers })
			: await startNginxSite({ dir, core, port, workers, front: fronts, strictRecipe });
		stops.push(async () => site.cleanup());
		for (const svc of site.servers) stops.push(() => svc.stop());
		const { url, directUrl } = site;
		writeConfig(core, { url, socket: db.socket, dir });
		const configFile = path.join(dir, 'site.json');
		fs.writeFileSync(configFile, JSON.stringify(siteConfig(url, permalinks)));
		const setup = spawnSync('php', [path.join(SOURCE, 'setup.php'), core, configFile], { encoding: 'utf8', cwd: core });
		if (setup.status !== 0) throw new Error(`WordPress setup failed: ${setup.stderr || setup.stdout}`);
		const { apiUrl } = addressUrls(url, permalinks);
		const direct = addressUrls(directUrl, permalinks);
		const deadline = Date.now() + 30000;
		for (;;) {
			const res = await fetch(direct.controlUrl('/health'), { signal: AbortSignal.timeout(5000) }).catch(() => null);
			if (res?.ok) break;
			if (Date.now() > deadline || site.servers.some((s) => s.child.exitCode !== null)) {
				throw new Error(`the ${server === 'php' ? 'PHP built-in server' : 'nginx and PHP-FPM site'} did not answer: ${site.logTail()}`);
			}
			await sleep(200);
		}
		const { webhookSecret, ...keys } = await (await fetch(direct.controlUrl('/keys'))).json();
		return {
			url, apiUrl, controlUrl: direct.controlUrl, keys, webhookSecret, permalinks, dir, core, server, front: site.front,
			directUrl, directApiUrl: direct.apiUrl, directControlUrl: direct.controlUrl, basicAuth: site.basicAuth, tls: site.tls, waf: site.waf ?? null, stop: stopAll,
		};
	} catch (e) {
		await stopAll();
		throw e;
	}
}
