#!/usr/bin/env node
// `npm start`: real n8n 2.41.1 with this package installed as a community package, next to the
// sandbox eSign site, with the owner, the "eSign account" credential and the examples ready.
// Idempotent: the user folder in .n8n-runtime/start-user keeps the owner, credential and workflows.
import path from 'node:path';
import { LINES, RUNTIME_ROOT, ROOT, buildAndPack, ensureRuntime, portIsFree, stopChildren, stopServers } from './lib/runtime.mjs';
import { CREDENTIAL, EXAMPLE_SANDBOX_ORIGIN, TRIGGER_WORKFLOW_ID, credentialData, readExamples, sandboxModule, sandboxSite, secs } from './lib/esign.mjs';
import { DEFAULT_OWNER, createInstance } from './lib/instance.mjs';

const LINE = '2';
const N8N_PORT = Number(process.env.N8N_PORT || 5678);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT || 8787);
const USER_FOLDER = path.join(RUNTIME_ROOT, 'start-user');
const PACK_DIR = path.join(RUNTIME_ROOT, 'packages');
const SANDBOX_DATA = path.join(RUNTIME_ROOT, 'sandbox-data');
const RESET_SANDBOX = process.argv.includes('--reset-sandbox');

const say = (...a) => console.log('[start]', ...a);
const started = Date.now();

// What this script started, stopped by handle on Ctrl-C, SIGTERM or SIGHUP (a second signal does not wait).
let n8n = null;
let sandbox = null;
let stopping = null;
let deliveryWatch = null;
const stopAll = (reason) =>
	(stopping ??= (async () => {
		if (reason) say(`${reason}: stopping n8n and the sandbox...`);
		clearInterval(deliveryWatch);
		await stopChildren(); // an install, build or import still running
		const r = await n8n?.main?.stop().catch((e) => say(`stopping n8n: ${e.message}`));
		if (n8n?.main) say(`n8n (pid ${n8n.main.pid}) stopped${r ? ` (${r.signal ?? `exit ${r.code}`})` : ''}`);
		await stopServers(); // an n8n interrupted while still starting (no handle yet)
		if (sandbox) await sandbox.close().then(() => say('sandbox stopped'));
	})());
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(sig, () => {
		if (stopping) {
			try { process.kill(-n8n?.main?.pid, 'SIGKILL'); } catch { /* not started, or gone */ }
			process.exit(130);
		}
		stopAll(sig).then(() => process.exit(sig === 'SIGINT' ? 130 : 143));
	});
}
// `npm start` runs this under npm and `sh -c`: when they go (e.g. SIGTERM to npm, whose shell does not pass it on),
// this process is re-parented; stop what it started instead of leaving n8n orphaned.
const parentPid = process.ppid;
setInterval(() => process.ppid !== parentPid && stopAll('parent process gone').then(() => process.exit(1)), 1000).unref();

async function checkPort(port, what, envName) {
	if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${envName}=${port} is not a valid port`);
	if (!(await portIsFree(port))) {
		throw new Error(`port ${port} on 127.0.0.1 (${what}) is already in use — is another \`npm start\`, n8n or sandbox running? Stop it, or pick another port: ${envName}=<port> npm start`);
	}
}

async function main() {
	if (N8N_PORT === SANDBOX_PORT) throw new Error(`N8N_PORT and SANDBOX_PORT are both ${N8N_PORT}`);
	// Fail fast, before minutes of install/build, if the ports are taken.
	await checkPort(N8N_PORT, 'n8n', 'N8N_PORT');
	await checkPort(SANDBOX_PORT, 'sandbox', 'SANDBOX_PORT');

	await ensureRuntime(LINE); // first run: installs n8n with progress; later: "ready"

	say('building and packing n8n-nodes-esign...');
	const tarball = await buildAndPack(PACK_DIR);
	// The package is reinstalled every run; the owner, credential and workflows stay in the user folder.
	const instance = await createInstance({ line: LINE, tarball, userFolder: USER_FOLDER });
	say(`installed ${path.basename(tarball)} as a community package in ${path.relative(ROOT, USER_FOLDER)}/.n8n/nodes`);

	// Ports again: the install took a while.
	await checkPort(N8N_PORT, 'n8n', 'N8N_PORT');
	await checkPort(SANDBOX_PORT, 'sandbox', 'SANDBOX_PORT');

	const { createSandbox, SPEC_RATE_LIMITS } = sandboxModule();
	// The spec's limits, as `npm run sandbox`: running all five manual examples takes ~35 API requests and
	// an editor list search one per page, well under 100 per IP per minute and 1000 per key per hour.
	// Its documents are kept across runs (n8n keeps the executions that point at them): `npm start -- --reset-sandbox`.
	sandbox = await createSandbox({ port: SANDBOX_PORT, host: '127.0.0.1', rateLimits: SPEC_RATE_LIMITS, dataDir: SANDBOX_DATA, resetData: RESET_SANDBOX });
	if (sandbox.persistence?.warning) say(`warning: ${sandbox.persistence.warning}`);
	const kept = sandbox.persistence?.restored ? `, ${sandbox.state.documents.size} documents kept from the last run` : RESET_SANDBOX ? ', data reset' : '';
	say(`sandbox eSign site on ${sandbox.url}${kept} (data: ${path.relative(ROOT, SANDBOX_DATA)})`);

	const logFile = path.join(USER_FOLDER, 'n8n.log');
	say(`starting n8n ${LINES[LINE].version} on http://127.0.0.1:${N8N_PORT} (log: ${path.relative(ROOT, logFile)})...`);
	n8n = instance;
	await n8n.start({ port: N8N_PORT, login: false });
	// If n8n dies on its own, do not leave the sandbox running with nothing to serve.
	n8n.main.child.on('exit', (code, signal) => {
		if (stopping) return;
		say(`n8n exited unexpectedly (${signal ?? `exit ${code}`}); see ${logFile}`);
		n8n = null;
		stopAll().then(() => process.exit(1));
	});

	await n8n.login({ apiKey: false }).catch((err) => {
		throw new Error(
			`could not log in as ${DEFAULT_OWNER.email} (${err.message.split('\n')[0]}). If the owner's login was changed in the editor, ` +
				'change it back, or start over with `rm -rf .n8n-runtime/start-user`.',
		);
	});
	const credential = await n8n.ensureCredential(credentialData(sandbox));
	say(`owner ${DEFAULT_OWNER.email}; credential "${CREDENTIAL.name}" (id ${credential.id}) → ${sandbox.url}`);

	// Import only the examples that are not there yet (by id; import keeps ids), so a second run
	// neither duplicates them nor overwrites changes made in the editor.
	const existing = new Set((await n8n.rest('GET', '/rest/workflows')).map((w) => String(w.id)));
	const examples = readExamples();
	const missing = examples.filter(({ workflow }) => !existing.has(String(workflow.id))).map(({ workflow }) => workflow.id);
	if (missing.length) await n8n.importExamples(sandboxSite(sandbox), credential.id, missing); // n8n keeps running: the CLI gets its own broker port
	say(`examples: ${missing.length} imported, ${examples.length - missing.length} already there`);
	// Workflows kept from an earlier run are not rewritten: point out the ones that no longer match.
	const stale = [];
	for (const { workflow } of examples) {
		if (!existing.has(String(workflow.id))) continue;
		const w = await n8n.rest('GET', `/rest/workflows/${workflow.id}`);
		const text = JSON.stringify(w.nodes);
		const creds = w.nodes.flatMap((n) => (n.credentials?.[CREDENTIAL.type] ? [String(n.credentials[CREDENTIAL.type].id)] : []));
		const wrongCred = creds.some((id) => id !== String(credential.id));
		const wrongSandbox = JSON.stringify(workflow.nodes).includes(EXAMPLE_SANDBOX_ORIGIN) && !text.includes(sandbox.url);
		if (wrongCred || wrongSandbox) stale.push(`"${w.name}" (${[wrongCred && 'another credential', wrongSandbox && 'another sandbox URL'].filter(Boolean).join(', ')})`);
	}
	if (stale.length) {
		say(`note: workflows kept from an earlier run use ${stale.join('; ')}.`);
		say('      Delete them in the editor and run `npm start` again to re-import them, or start over with `rm -rf .n8n-runtime/start-user`.');
	}

	const trigger = await n8n.activateTrigger(TRIGGER_WORKFLOW_ID);
	if (trigger.status !== 401) say(`warning: an unsigned POST to the trigger answered ${trigger.status} (expected 401)`);
	// Added once: URLs the user registered on the sandbox's settings page stay.
	const registered = await sandboxSite(sandbox).control('GET', '/webhooks');
	if (!registered.webhooks.some((r) => r.url === trigger.url)) await sandboxSite(sandbox).control('POST', '/webhooks', { url: trigger.url });

	// Show the sandbox's webhook deliveries as they happen: the trigger example runs on document.completed.
	let seen = sandbox.state.deliveries.length; // not the ones restored from the last run
	deliveryWatch = setInterval(() => {
		const list = sandbox.state.deliveries;
		for (; seen < list.length; seen++) {
			const d = list[seen];
			if (d.status === null && d.error === null) break; // still in flight: report once settled
			const doc = String(d.body).match(/"document_id":\s*"?(\d+)/)?.[1] ?? '?';
			say(`sandbox → n8n webhook: ${d.event} (document ${doc}) → ${d.status ?? d.error}`);
		}
	}, 1000);

	const { admin, adminReadOnly } = sandbox.keys;
	const lines = [
		'',
		`n8n-nodes-esign is running (ready in ${secs(Date.now() - started)})`,
		'',
		`  n8n editor      ${n8n.url}/home/workflows`,
		`    login         ${DEFAULT_OWNER.email} / ${DEFAULT_OWNER.password}`,
		`    workflows     ${examples.length} eSign examples, credential "${CREDENTIAL.name}" set to the sandbox`,
		`    trigger       "${examples.find((e) => e.workflow.id === TRIGGER_WORKFLOW_ID)?.workflow.name}" is published`,
		`                  production URL ${trigger.url} (registered with the sandbox)`,
		'',
		`  sandbox site    ${sandbox.url}/   (documents, signing pages, keys, outbox, request log)`,
		`    API URL       ${sandbox.apiUrl}`,
		`    signing page  ${sandbox.url}/sign/<token> — one per signer, linked from the index page once a document is sent`,
		`    admin key     ${admin.key}   secret ${admin.secret}   (Full Access, used by "${CREDENTIAL.name}")`,
		`    read-only key ${adminReadOnly.key}   secret ${adminReadOnly.secret}`,
		`    webhook secret ${sandbox.webhookSecret}`,
		`    settings      ${sandbox.url}/__sandbox/settings   (webhook URLs, recent deliveries, send a test event)`,
		`    data          kept in ${path.relative(ROOT, SANDBOX_DATA)}; \`npm start -- --reset-sandbox\` starts it empty`,
		`    rate limits   ${SPEC_RATE_LIMITS.perKeyPerHour}/key/hour, ${SPEC_RATE_LIMITS.perIpPerMinute}/IP/minute (the spec's)`,
		'',
		'  Try it: open the editor, run "eSign example 1", then sign as Ann and Bob on the sandbox index page:',
		'  the trigger example runs with the signed PDF (example 6 → Executions → its eSign Trigger node → Binary).',
		'',
		`  Logs: ${path.relative(ROOT, logFile)}`,
		'',
		'Ctrl-C to stop (stops n8n and the sandbox).',
	];
	console.log(lines.join('\n'));
}

main().catch(async (err) => {
	console.error(`\n[start] failed: ${err.message}`);
	await stopAll();
	process.exit(1);
});
