#!/usr/bin/env node
'use strict';
/**
 * `npm run sandbox`: the sandbox on 127.0.0.1:8787 (--port / SANDBOX_PORT) with the spec's rate limits.
 * `--tls[=expired|wrong-host]` serves HTTPS with a self-signed certificate (plain HTTP on another port);
 * `--fronts '<json>'` starts it behind fronts (the body of POST /__sandbox/fronts).
 * `--data <dir>` keeps the site's data in that folder across restarts; `--reset` (with --data) starts it over.
 * `--strict` plays the spec alone (the strict profile: CONTRACT.md → Profiles) instead of the default's guesses;
 * `--family` plays a site of the same plugin family (WPsigner: X-WP-* count headers, order 1 by default, three roles).
 */

const { createSandbox, SPEC_RATE_LIMITS } = require('./index');

function option(name) {
	const args = process.argv.slice(2);
	const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
	if (i === -1) return undefined;
	return args[i].includes('=') ? args[i].split('=').slice(1).join('=') : args[i + 1];
}

const PROFILE_LINES = {
	strict: 'strict: the spec alone (declines in declined_at only, webhook bodies {event, data}, minimal Add Signer answers, order 1 when none is given, roles signer/viewer/approver)',
	family: 'family: a site like WPsigner (X-WP-Total/TotalPages instead of X-ESIGN-*, order 1 when none is given, roles signer/viewer/approver)',
	default: 'default: the sandbox\'s guesses where the spec says "not shown" (--strict plays the spec alone, --family a WPsigner-like site)',
};

async function main() {
	const port = Number(option('port') ?? process.env.SANDBOX_PORT ?? 8787);
	if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port: ${port}`);
	const host = option('host') ?? process.env.SANDBOX_HOST ?? '127.0.0.1';
	const tlsArg = process.argv.slice(2).find((a) => a === '--tls' || a.startsWith('--tls='));
	const tls = tlsArg === undefined ? false : tlsArg === '--tls' || tlsArg.slice(6);
	const fronts = option('fronts');
	const dataDir = option('data');
	const resetData = process.argv.slice(2).includes('--reset');
	const args = process.argv.slice(2);
	const profile = args.includes('--strict') ? 'strict' : args.includes('--family') ? 'family' : 'default';
	if (dataDir === undefined && resetData) throw new Error('--reset starts over the data kept with --data <dir>: give --data too.');
	if (dataDir !== undefined && (dataDir === '' || dataDir.startsWith('--'))) throw new Error('--data needs a folder, e.g. --data .n8n-runtime/sandbox-data');
	const sb = await createSandbox({ port, host, rateLimits: SPEC_RATE_LIMITS, tls, fronts: fronts ? JSON.parse(fronts) : undefined, dataDir, resetData, profile });
	const kept = sb.persistence;
	const { admin } = sb.keys;
	const lines = [
		`eSign sandbox running at ${sb.url}`,
		'',
		`API URL:        ${sb.apiUrl}`,
		`Base URL:       ${sb.url}   (what the n8n credential needs)`,
		`Controls:       ${sb.url}/  (index page), ${sb.url}/__sandbox/...`,
		`Webhooks:       ${sb.url}/__sandbox/settings  (add an eSign Trigger's URL, send test events)`,
		kept
			? `Data:           kept in ${kept.dir} (${kept.restored ? `${sb.state.documents.size} document(s) restored` : 'fresh'}); --reset starts over`
			: 'Data:           in memory only (--data <dir> keeps it across restarts)',
		...(kept && kept.warning ? [`Warning:        ${kept.warning}`] : []),
		...(sb.tls ? [`TLS:            ${sb.tls.variant} certificate (curl -k); the same site over plain HTTP: ${sb.plain.url}`] : []),
		...(Object.keys(sb.state.fronts).length ? [`Fronts:         ${JSON.stringify(sb.state.fronts)}`] : []),
		`Profile:        ${PROFILE_LINES[profile]}`,
		`Webhook secret: ${sb.webhookSecret}`,
		`Rate limits:    ${SPEC_RATE_LIMITS.perKeyPerHour} per key per hour, ${SPEC_RATE_LIMITS.perIpPerMinute} per IP per minute`,
		'',
		'Keys:',
		...Object.entries(sb.keys).map(([name, k]) => `  ${name.padEnd(14)} key ${k.key}   secret ${k.secret}`),
		'',
		'Try:',
		`  curl -i -H 'X-ESIGN-API-Key: ${admin.key}' -H 'X-ESIGN-API-Secret: ${admin.secret}' '${sb.apiUrl}/documents?per_page=5'`,
		'',
		'Ctrl-C stops it.',
	];
	console.log(lines.join('\n'));

	let stopping = false;
	const stop = async (signal) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: closing the sandbox...`);
		await sb.close();
		process.exit(0);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error) => {
	console.error(`Sandbox failed to start: ${error.message}`);
	process.exit(1);
});
