// nginx + PHP-FPM for the WordPress test site, as real sites are served: Debian's nginx and php8.2-fpm run
// as throwaway processes with their own config, pid, logs and socket inside the site folder and free ports,
// so they never touch the system's nginx or php-fpm services and several sites can run at once.
// Optional fronts on the site's address, the way sites are often set up: HTTP Basic auth, a page cache
// (fastcgi_cache) and TLS; or, alone, a firewall: Apache with ModSecurity and the OWASP Core Rule Set
// (apache.mjs) on the site's address, to the same PHP-FPM. With any front, a server block on a second
// address (the direct address: plain HTTP, no auth, no cache, no firewall) serves the same site for the
// scripts' test controls and the signing page.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/lib/runtime.mjs';
import { spawnService } from '../../scripts/lib/services.mjs';
import { startApacheWaf } from './apache.mjs';

export const NGINX = '/usr/sbin/nginx';
export const PHP_FPM = '/usr/sbin/php-fpm8.2';
/** The user and password `basicAuth: true` uses on a new site; kept in the site folder afterwards. */
const DEFAULT_BASIC_AUTH_USER = 'esign';
const isRoot = () => process.getuid?.() === 0;

/** The fronts asked for, normalised: { basicAuth: false | true | {user, password}, cache, tls, waf: bool }. */
export function normaliseFront(front = {}) {
	const fronts = { basicAuth: front.basicAuth || false, cache: Boolean(front.cache), tls: Boolean(front.tls), waf: Boolean(front.waf) };
	if (fronts.waf && (fronts.basicAuth || fronts.cache || fronts.tls)) throw new Error('the firewall (Apache + ModSecurity) is a front of its own: leave out basic auth, cache and TLS with it');
	return fronts;
}

const anyFront = (front) => Boolean(front.basicAuth || front.cache || front.tls || front.waf);

/** A self-signed certificate for 127.0.0.1 and localhost, made once per site folder with the openssl CLI. */
function certificate(dir) {
	const cert = path.join(dir, 'tls-cert.pem');
	const key = path.join(dir, 'tls-key.pem');
	if (!fs.existsSync(cert) || !fs.existsSync(key)) {
		const r = spawnSync('openssl', [
			'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '3650', '-keyout', key, '-out', cert,
			'-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
		], { encoding: 'utf8' });
		if (r.status !== 0) throw new Error(`openssl could not make the test certificate: ${r.stderr || r.stdout}`);
	}
	return { cert, key };
}

/**
 * The Basic auth user and password: the ones given, else the ones this site folder used before, else
 * `esign` and a new random password. The htpasswd line is {SSHA} (salted SHA-1), which nginx reads.
 */
function basicAuthFile(dir, wanted) {
	const saved = path.join(dir, 'basic-auth.json');
	let creds = typeof wanted === 'object' ? { user: String(wanted.user), password: String(wanted.password) } : null;
	if (!creds && fs.existsSync(saved)) creds = JSON.parse(fs.readFileSync(saved, 'utf8'));
	if (!creds) creds = { user: DEFAULT_BASIC_AUTH_USER, password: crypto.randomBytes(12).toString('base64url') };
	if (!creds.user || creds.user.includes(':') || !creds.password) throw new Error('basicAuth needs a user without ":" and a non-empty password');
	fs.writeFileSync(saved, JSON.stringify(creds), { mode: 0o600 });
	const salt = crypto.randomBytes(8);
	const digest = crypto.createHash('sha1').update(creds.password).update(salt).digest();
	const file = path.join(dir, 'htpasswd');
	fs.writeFileSync(file, `${creds.user}:{SSHA}${Buffer.concat([digest, salt]).toString('base64')}\n`, { mode: 0o644 });
	return { file, creds };
}

/**
 * What nginx tells PHP about a request: Debian's /etc/nginx/fastcgi_params, except HTTP_HOST, which
 * Debian sets to $host (the port dropped: harmless on 80/443, but here WordPress's canonical redirects
 * would then add it back with a 301), and with SCRIPT_FILENAME.
 */
const FASTCGI_PARAMS = {
	SCRIPT_FILENAME: '$document_root$fastcgi_script_name',
	QUERY_STRING: '$query_string',
	REQUEST_METHOD: '$request_method',
	CONTENT_TYPE: '$content_type',
	CONTENT_LENGTH: '$content_length',
	SCRIPT_NAME: '$fastcgi_script_name',
	REQUEST_URI: '$request_uri',
	DOCUMENT_URI: '$document_uri',
	DOCUMENT_ROOT: '$document_root',
	SERVER_PROTOCOL: '$server_protocol',
	REQUEST_SCHEME: '$scheme',
	HTTPS: '$https if_not_empty',
	GATEWAY_INTERFACE: 'CGI/1.1',
	SERVER_SOFTWARE: 'nginx/$nginx_version',
	REMOTE_ADDR: '$remote_addr',
	REMOTE_PORT: '$remote_port',
	REMOTE_USER: '$remote_user',
	SERVER_ADDR: '$server_addr',
	SERVER_PORT: '$server_port',
	SERVER_NAME: '$server_name',
	REDIRECT_STATUS: '200',
	HTTP_HOST: '$http_host',
};

/** One server block. `siteUrl` goes to PHP as ESIGN_SITE_URL: wp-config.php makes it WP_HOME for that address. */
function serverBlock({ port, core, siteUrl, front, tls, htpasswd, strictRecipe }) {
	const lines = [
		`listen 127.0.0.1:${port}${front.tls ? ' ssl' : ''};`,
		'server_name _;',
		`root ${core};`,
		'index index.php;',
	];
	if (front.tls) lines.push(`ssl_certificate ${tls.cert};`, `ssl_certificate_key ${tls.key};`);
	if (front.basicAuth) lines.push('auth_basic "eSign test site";', `auth_basic_user_file ${htpasswd};`);
	const php = [
		'try_files $uri =404;',
		...Object.entries(FASTCGI_PARAMS).map(([name, value]) => `fastcgi_param ${name} ${value};`),
		`fastcgi_param ESIGN_SITE_URL ${siteUrl};`,
		'fastcgi_pass php;',
	];
	if (front.cache) {
		// A page cache set up for speed, not for APIs: GET answers (200) kept by URL for 10 minutes,
		// whoever asks and whatever the client or WordPress say about caching. Only a URL that differs
		// (such as a new `_=` value) reaches WordPress again.
		php.push(
			'fastcgi_cache esign;',
			'fastcgi_cache_key $scheme$request_method$host$request_uri;',
			'fastcgi_cache_valid 200 10m;',
			'fastcgi_ignore_headers Cache-Control Expires Set-Cookie Vary;',
			'add_header X-Cache $upstream_cache_status always;',
		);
	}
	return `	server {
${lines.map((l) => `		${l}`).join('\n')}
		# Pretty permalinks: anything that is not a file goes to WordPress's index.php.
		location / {
			try_files $uri $uri/ /index.php?$args;
		}
${strictRecipe ? '' : `		# WordPress's documented recipe alone lets nginx's index module answer PUT, PATCH, DELETE and OPTIONS
		# on /?rest_route=… (the REST API under Plain permalinks) with its own 405: \`/\` goes to WordPress.
		location = / {
			rewrite ^ /index.php last;
		}
`}		location ~ \\.php$ {
${php.map((l) => `			${l}`).join('\n')}
		}
	}
`;
}

function nginxConfig({ dir, core, fpmAddress, blocks, cache }) {
	const tmp = (name) => `${name}_temp_path ${path.join(dir, 'nginx', 'tmp', name)};`;
	return `# Written by test/wordpress/nginx.mjs for one run of the throwaway test site.
daemon off;
worker_processes 2;
pid ${path.join(dir, 'nginx', 'nginx.pid')};
error_log ${path.join(dir, 'nginx', 'error.log')} warn;
${isRoot() ? 'user root root; # the site folder may be private to this user' : ''}
events {
	worker_connections 512;
}
http {
	include /etc/nginx/mime.types;
	default_type application/octet-stream;
	log_format esign '$remote_addr [$time_local] "$request" $status $body_bytes_sent $request_time cache=$upstream_cache_status';
	access_log ${path.join(dir, 'nginx', 'access.log')} esign;
	${tmp('client_body')}
	${tmp('proxy')}
	${tmp('fastcgi')}
	${tmp('uwsgi')}
	${tmp('scgi')}
	# PHP's own upload_max_filesize and post_max_size (Debian's php.ini: 2M and 8M) decide, not nginx's 1m.
	client_max_body_size 64m;
	fastcgi_read_timeout 300s;
	upstream php {
		server ${fpmAddress};
	}
${cache ? `	fastcgi_cache_path ${path.join(dir, 'nginx', 'cache')} levels=1:2 keys_zone=esign:10m max_size=256m inactive=60m;\n` : ''}${blocks.join('')}}
`;
}

function fpmConfig({ dir, listen, workers }) {
	return `; Written by test/wordpress/nginx.mjs for one run of the throwaway test site.
[global]
pid = ${path.join(dir, 'php-fpm.pid')}
error_log = ${path.join(dir, 'php-fpm.log')}
daemonize = no

[esign]
${isRoot() ? 'user = root\ngroup = root\n' : ''}listen = ${listen}
listen.mode = 0660
; A fixed number of workers: a webhook sent during a request whose receiver calls back needs a second one.
pm = static
pm.max_children = ${workers}
catch_workers_output = yes
php_admin_value[error_log] = ${path.join(dir, 'php-error.log')}
php_admin_value[opcache.revalidate_freq] = 0
`;
}

/** A unix socket path must stay under ~108 bytes; a deep site folder gets its socket in the temp folder. */
function socketPath(runDir) {
	const inside = path.join(runDir, 'php-fpm.sock');
	if (Buffer.byteLength(inside) < 100) return { socket: inside, cleanup: () => {} };
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'esign-fpm-'));
	return { socket: path.join(tmp, 'php-fpm.sock'), cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }) };
}

/**
 * Writes the configs and starts PHP-FPM and nginx for `core`. strictRecipe: WordPress's documented
 * nginx recipe exactly, without the `location = /` that lets PUT/PATCH/DELETE reach /?rest_route=.
 * Returns { url, directUrl, basicAuth, tls, waf: {errorLog, auditLog} | null, front, servers: [service],
 * cleanup(), logTail() }. `url` carries the fronts (with the firewall: Apache's, http://localhost:<port>);
 * `directUrl` is the front-free address (the same as `url` without fronts).
 */
export async function startNginxSite({ dir, core, port = 0, workers = 4, front: wanted, strictRecipe = false }) {
	const front = normaliseFront(wanted);
	const runDir = path.join(dir, 'nginx');
	fs.rmSync(runDir, { recursive: true, force: true });
	for (const name of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(runDir, 'tmp', name), { recursive: true });
	const { socket, cleanup } = socketPath(runDir);
	// With the firewall, Apache reaches PHP-FPM too: over TCP on the loopback, which its www-data workers can
	// use (the socket lives in the site folder, which may be private to this user).
	const fpmTcp = front.waf ? `127.0.0.1:${await freePort()}` : null;
	const frontPort = port || (await freePort());
	const url = `${front.tls ? 'https' : 'http'}://127.0.0.1:${frontPort}`;
	const tls = front.tls ? certificate(dir) : null;
	const auth = front.basicAuth ? basicAuthFile(dir, front.basicAuth) : null;
	const blocks = front.waf ? [] : [serverBlock({ port: frontPort, core, siteUrl: url, front, tls, htpasswd: auth?.file, strictRecipe })];
	let directUrl = url;
	if (anyFront(front)) {
		const directPort = await freePort();
		directUrl = `http://127.0.0.1:${directPort}`;
		blocks.push(serverBlock({ port: directPort, core, siteUrl: directUrl, front: normaliseFront(), strictRecipe }));
	}
	const fpmConf = path.join(runDir, 'php-fpm.conf');
	fs.writeFileSync(fpmConf, fpmConfig({ dir: runDir, listen: fpmTcp ?? socket, workers }));
	const nginxConf = path.join(runDir, 'nginx.conf');
	fs.writeFileSync(nginxConf, nginxConfig({ dir, core, fpmAddress: fpmTcp ?? `unix:${socket}`, blocks, cache: front.cache }));

	const servers = [];
	const fpmLog = path.join(runDir, 'php-fpm.log');
	servers.push(spawnService(PHP_FPM, ['-F', '-y', fpmConf, '-p', runDir, ...(isRoot() ? ['-R'] : [])], { logFile: fpmLog, cwd: core, group: true }));
	const nginxLog = path.join(runDir, 'error.log');
	servers.push(spawnService(NGINX, ['-p', runDir, '-c', nginxConf, '-e', nginxLog], { logFile: path.join(runDir, 'nginx.out'), cwd: runDir, group: true }));
	const waf = front.waf ? startApacheWaf({ runDir: path.join(runDir, 'apache'), port: frontPort, core, fpm: fpmTcp }) : null;
	if (waf) servers.push(waf.service);
	const read = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
	/** Why the site did not answer, in plain words where the cause is known; else the logs' ends. */
	const logTail = () => {
		const busy = /bind\(\) to 127\.0\.0\.1:(\d+) failed \(98/.exec(read(nginxLog));
		if (busy) return `port ${busy[1]} is already in use, so nginx could not listen on it: choose another port (--port N, or 0 for a free one)`;
		return `php-fpm log: ${read(fpmLog).slice(-1200)}\nnginx log: ${read(nginxLog).slice(-1200) || read(path.join(runDir, 'nginx.out')).slice(-1200)}${waf ? `\n${waf.logTail()}` : ''}`;
	};
	return {
		url: waf ? waf.url : url,
		waf: waf ? { errorLog: waf.errorLog, auditLog: waf.auditLog } : null,
		directUrl,
		basicAuth: auth ? auth.creds : null,
		tls: tls ? { cert: tls.cert } : null,
		front,
		servers,
		cleanup,
		logTail,
	};
}
