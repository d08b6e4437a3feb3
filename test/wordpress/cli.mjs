#!/usr/bin/env node
// `npm run wordpress`: a throwaway WordPress site with the eSign plugin (test/wordpress), on Debian's
// WordPress, PHP and MariaDB, served by nginx and PHP-FPM. Prints the API URL, keys, the webhook secret
// and a curl line, then serves until Ctrl-C (which stops only what this started). A second run reuses
// the site and its data (node_modules/.cache/esign-wordpress).
// Options: --port N (default 8890, env WORDPRESS_PORT), --plain (plain permalinks: ?rest_route= only),
//          --fresh (delete the site first), --php-server (PHP's built-in server instead of nginx),
//          fronts on the site's address (combine freely; the same site stays reachable without them on a
//          second, direct address): --basic-auth [user:password], --cache (a page cache keyed by URL),
//          --tls (HTTPS with a self-signed certificate); or, alone, --waf (Apache 2.4 + ModSecurity 2.9 + OWASP
//          CRS 3.3 with their defaults, Debian's packages, at http://localhost:PORT: test/wordpress/apache.mjs).
//          --strict-recipe: WordPress's documented nginx recipe exactly (nginx then answers PUT/PATCH/DELETE on
//          /?rest_route= with 405 itself).
import fs from 'node:fs';
import { DEFAULT_DIR, startWordPress } from './site.mjs';

const args = process.argv.slice(2);
const opt = (name) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : undefined;
};
const port = Number(opt('--port') ?? process.env.WORDPRESS_PORT ?? 8890);
const permalinks = args.includes('--plain') ? 'plain' : 'pretty';
const server = args.includes('--php-server') ? 'php' : 'nginx';
const strictRecipe = args.includes('--strict-recipe');
const say = (...a) => console.log('[wordpress]', ...a);

/** --basic-auth alone: the site's saved (or a new) password for user esign; --basic-auth user:password: those. */
function basicAuthOption() {
	if (!args.includes('--basic-auth')) return false;
	const value = opt('--basic-auth');
	if (value === undefined || value.startsWith('--')) return true;
	const at = value.indexOf(':');
	if (at < 1 || at === value.length - 1) {
		console.error('[wordpress] --basic-auth takes user:password (or nothing, for user esign and a generated password)');
		process.exit(1);
	}
	return { user: value.slice(0, at), password: value.slice(at + 1) };
}
const front = { basicAuth: basicAuthOption(), cache: args.includes('--cache'), tls: args.includes('--tls'), waf: args.includes('--waf') };

if (args.includes('--fresh')) fs.rmSync(DEFAULT_DIR, { recursive: true, force: true });
let wp;
try {
	wp = await startWordPress({ port, permalinks, server, front, strictRecipe, say });
} catch (e) {
	console.error(`[wordpress] ${e.message}`);
	process.exit(1);
}
const { admin, adminReadOnly, user } = wp.keys;
const served = wp.server === 'php' ? "PHP's built-in server" : 'nginx + PHP-FPM';
const fronts = [wp.front.basicAuth && 'basic auth', wp.front.cache && 'page cache', wp.front.tls && 'TLS', wp.front.waf && 'firewall: Apache 2.4 + ModSecurity 2.9 + OWASP CRS 3.3 (defaults), then PHP-FPM'].filter(Boolean);
const curlAuth = [wp.tls ? `--cacert ${wp.tls.cert}` : '', wp.basicAuth ? `-u '${wp.basicAuth.user}:${wp.basicAuth.password}'` : ''].filter(Boolean).join(' ');
const frontLines = !fronts.length ? '' : `
  Fronts on the Site URL  ${fronts.join(', ')}${wp.basicAuth ? `
  Basic auth              user ${wp.basicAuth.user}   password ${wp.basicAuth.password}` : ''}${wp.tls ? `
  TLS certificate         ${wp.tls.cert} (self-signed: in n8n, turn on Ignore SSL Issues)` : ''}${wp.front.cache ? `
  Page cache              GET answers (200) kept 10 min by URL, whoever asks; header X-Cache: HIT/MISS` : ''}${wp.waf ? `
  Firewall logs           ${wp.waf.errorLog} (rule ids), ${wp.waf.auditLog}` : ''}
  Direct (no fronts)      ${wp.directUrl}   API ${wp.directApiUrl}`;
console.log(`
eSign WordPress test site (WordPress 6.1 from Debian, ${served}, ${permalinks} permalinks)
  Site URL (credential)   ${wp.url}${permalinks === 'plain' ? '   REST API URL Style: ?rest_route=' : ''}
  API                     ${wp.apiUrl}${frontLines}
  Admin, Full Access      key ${admin.key}   secret ${admin.secret}
  Admin, Read Only        key ${adminReadOnly.key}   secret ${adminReadOnly.secret}
  Uma (non-admin), Full   key ${user.key}   secret ${user.secret}
  Webhook secret          ${wp.webhookSecret}
  Test controls           ${wp.controlUrl('/keys')} (outbox, requests, signers, webhooks, …: test/sandbox/CONTRACT.md)
  Files                   ${wp.dir}

  curl -s ${curlAuth ? `${curlAuth} ` : ''}-H 'X-ESIGN-API-Key: ${admin.key}' -H 'X-ESIGN-API-Secret: ${admin.secret}' '${wp.apiUrl}/stats'

Webhooks: POST {"url": "<your eSign Trigger's production URL>", "replace": true} to ${wp.controlUrl('/webhooks')}
Ctrl-C stops the site and its database.`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, async () => {
		if (stopping) return;
		stopping = true;
		say('stopping');
		await wp.stop();
		process.exit(0);
	});
}
