#!/usr/bin/env node
// `npm run wordpress`: a throwaway WordPress site with the eSign plugin (test/wordpress), on Debian's
// WordPress, PHP and MariaDB, served by PHP's built-in server. Prints the API URL, keys, the webhook
// secret and a curl line, then serves until Ctrl-C (which stops only what this started). A second run
// reuses the site and its data (node_modules/.cache/esign-wordpress).
// Options: --port N (default 8890, env WORDPRESS_PORT), --plain (plain permalinks: ?rest_route= only),
//          --fresh (delete the site first).
import fs from 'node:fs';
import { DEFAULT_DIR, startWordPress } from './lib/wordpress.mjs';

const args = process.argv.slice(2);
const opt = (name) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : undefined;
};
const port = Number(opt('--port') ?? process.env.WORDPRESS_PORT ?? 8890);
const permalinks = args.includes('--plain') ? 'plain' : 'pretty';
const say = (...a) => console.log('[wordpress]', ...a);

if (args.includes('--fresh')) fs.rmSync(DEFAULT_DIR, { recursive: true, force: true });
let wp;
try {
	wp = await startWordPress({ port, permalinks, say });
} catch (e) {
	console.error(`[wordpress] ${e.message}`);
	process.exit(1);
}
const { admin, adminReadOnly, user } = wp.keys;
console.log(`
eSign WordPress test site (WordPress 6.1 from Debian, ${permalinks} permalinks)
  Site URL (credential)   ${wp.url}${permalinks === 'plain' ? '   REST API URL Style: ?rest_route=' : ''}
  API                     ${wp.apiUrl}
  Admin, Full Access      key ${admin.key}   secret ${admin.secret}
  Admin, Read Only        key ${adminReadOnly.key}   secret ${adminReadOnly.secret}
  Uma (non-admin), Full   key ${user.key}   secret ${user.secret}
  Webhook secret          ${wp.webhookSecret}
  Test controls           ${wp.controlUrl('/keys')} (outbox, requests, signers, webhooks, …: test/sandbox/CONTRACT.md)
  Files                   ${wp.dir}

  curl -s -H 'X-ESIGN-API-Key: ${admin.key}' -H 'X-ESIGN-API-Secret: ${admin.secret}' '${wp.apiUrl}/stats'

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
