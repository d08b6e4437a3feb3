// How the test scripts report (PASS/FAIL lines, `N passed, M failed`, cleanups) and what the example workflows
// must make a site do: the API routes, each Manual-Trigger example's expected calls and checks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { secs } from './esign.mjs';
import { signedOverTags } from './textTags.mjs';
import { signedInFormFields } from './formFields.mjs';
import { signedFilled } from './fill.mjs';
import { buildAndPack, stopChildren, stopServers } from './runtime.mjs';
import { currentWaits } from './waits.mjs';
import { CheckError, assert } from './assert.mjs';

// The scripts import the check's error and assert from here, beside the frame that reports them.
export { CheckError, assert } from './assert.mjs';

/**
 * The frame of a test script. check(label, fn) runs fn and prints PASS with the note it resolves, or FAIL with the
 * error; it never throws and resolves to whether it passed. measure(label, fn) is for a step that only measures
 * (asserts nothing about the figures): it prints MEASURED with the note fn resolves, counted apart from the passes;
 * if fn throws (the measurement could not be taken) it is a FAIL. Everything the script starts is pushed to `cleanups`
 * (a function that stops it) and stopped in reverse order, and only that: stopSince(mark) stops what came after
 * `mark`. main(body) runs the script; its own error counts as a failure; then CLI runs and n8n servers still
 * starting are stopped, then the cleanups; `N passed, M failed` is printed last (with `; K measured` when there
 * were measurements) and the failures set the exit code. Ctrl-C
 * and SIGTERM count as a failure and finish the same way. pack() is the `build and pack` check: the tarball or undefined.
 * watchdog(envName, minutes): a script opts into a time limit (the variable `envName` overrides `minutes`), armed
 * when called (after installs, which have their own pace): past it, a FAIL names the check in progress and what it
 * was waiting for (scripts/lib/waits.mjs), and the run stops like on Ctrl-C.
 */
export function testScript(label) {
	const t0 = Date.now();
	const counts = { passed: 0, failed: 0, skipped: 0, measured: 0 };
	const cleanups = [];
	const say = (...a) => console.log(`[${label}]`, ...a);
	let current; // the check or measurement in progress: { name, since }
	let last; // the name of the last one that ended
	/** One step: `done` counts it when fn resolves (printed as `label`); a throw is a FAIL (`failNote` before its time). */
	async function step(name, fn, { done, label, failNote = '' }) {
		const start = Date.now();
		current = { name, since: start };
		try {
			const note = await fn();
			counts[done]++;
			console.log(`${label} ${name}${note ? ` — ${note}` : ''} (${secs(Date.now() - start)})`);
			return true;
		} catch (err) {
			counts.failed++;
			const detail = err instanceof CheckError ? err.message : err.stack || String(err);
			console.log(`FAIL ${name} (${failNote}${secs(Date.now() - start)})\n     ${detail.split('\n').join('\n     ')}`);
			return false;
		} finally {
			[current, last] = [undefined, name];
		}
	}
	const check = (name, fn) => step(name, fn, { done: 'passed', label: 'PASS' });
	const measure = (name, fn) => step(name, fn, { done: 'measured', label: 'MEASURED', failNote: 'measurement not taken, ' });
	function watchdog(envName, minutes) {
		const limit = Number(process.env[envName] || minutes);
		const armedAt = Date.now();
		const timer = setTimeout(() => {
			counts.failed++;
			const now = Date.now();
			const inCheck = current ? `"${current.name}" (for ${secs(now - current.since)})` : last ? `no check: the last one to end was "${last}"` : 'setup, before any check';
			const waits = currentWaits(now);
			console.log(`FAIL watchdog: ${label} still running ${limit} min after ${secs(armedAt - t0)} of installs (${envName}=${limit}); stopping everything
     in: ${inCheck}
     waiting for: ${waits.length ? waits.join('; ') : 'nothing this script names (its own code)'}`);
			finish(1);
		}, limit * 60000);
		timer.unref();
		say(`watchdog: ${limit} min from now (${envName})`);
	}
	function skip(name, why) {
		counts.skipped++;
		console.log(`SKIP ${name} — ${why}`);
	}
	async function stopSince(mark = 0) {
		for (const fn of cleanups.splice(mark).reverse()) await Promise.resolve().then(fn).catch((e) => say(`cleanup: ${e.message}`));
	}
	let finishing = false;
	async function finish(code) {
		if (finishing) return;
		finishing = true;
		// A CLI run in flight (n8n execute, npm) and an n8n still starting first: they write into the user folder.
		await stopChildren();
		await stopServers();
		await stopSince(0);
		console.log(`\n${label} total ${secs(Date.now() - t0)}${counts.skipped ? `, ${counts.skipped} skipped` : ''}`);
		console.log(`${counts.passed} passed, ${counts.failed} failed${counts.measured ? `; ${counts.measured} measured (not counted as passes)` : ''}`);
		process.exit(code ?? (counts.failed ? 1 : 0));
	}
	for (const sig of ['SIGINT', 'SIGTERM']) {
		process.on(sig, () => {
			counts.failed++;
			console.log(`FAIL interrupted by ${sig}: stopping what this run started`);
			finish(130);
		});
	}
	const main = (body) =>
		body()
			.catch((err) => {
				counts.failed++;
				console.log(`FAIL ${label}: ${err.stack || err}`);
			})
			.finally(() => finish());
	async function pack() {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), `esign-${label}-pack-`));
		cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
		let tarball;
		await check('build and pack n8n-nodes-esign', async () => path.basename((tarball = await buildAndPack(dir))));
		return tarball;
	}
	return { counts, check, measure, skip, say, cleanups, stopSince, finish, main, pack, watchdog };
}

// The API's routes (spec), named for the expectations below; matched on the request log's method + path.
export const ROUTES = [
	['GET', /^\/documents$/, 'listDocuments'],
	['POST', /^\/documents\/upload$/, 'upload'],
	['POST', /^\/documents$/, 'create'],
	['GET', /^\/documents\/[^/]+$/, 'getDocument'],
	['PUT', /^\/documents\/[^/]+$/, 'update'],
	['DELETE', /^\/documents\/[^/]+$/, 'delete'],
	['GET', /^\/documents\/[^/]+\/signers$/, 'listSigners'],
	['POST', /^\/documents\/[^/]+\/signers$/, 'addSigner'],
	['GET', /^\/documents\/[^/]+\/fields$/, 'listFields'],
	['POST', /^\/documents\/[^/]+\/fields$/, 'saveFields'],
	['POST', /^\/documents\/[^/]+\/send$/, 'send'],
	['POST', /^\/documents\/[^/]+\/remind$/, 'remind'],
	['POST', /^\/documents\/[^/]+\/expire$/, 'expire'],
	['GET', /^\/documents\/[^/]+\/file$/, 'getFile'],
	['GET', /^\/documents\/[^/]+\/audit$/, 'getAudit'],
	['GET', /^\/templates$/, 'listTemplates'],
	['GET', /^\/templates\/[^/]+$/, 'getTemplate'],
	['POST', /^\/templates\/[^/]+\/documents$/, 'createFromTemplate'],
	['GET', /^\/stats$/, 'stats'],
];
export const routeOf = (e) => {
	const p = e.path.replace(/^\/wp-json\/esign\/v1/, '').replace(/\/+$/, '');
	return ROUTES.find(([m, re]) => m === e.method && re.test(p))?.[2] ?? `${e.method} ${e.path}`;
};

/** API calls a site (siteClient) logged, by route, since its log was cleared, and any that failed. */
export async function siteCalls(site) {
	const log = (await site.control('GET', '/requests')).map((e) => ({ ...e, route: routeOf(e) }));
	const routes = {};
	for (const e of log) routes[e.route] = (routes[e.route] ?? 0) + 1;
	const failed = log.filter((e) => !(e.status >= 200 && e.status < 300)).map((e) => `${e.method} ${e.path} → ${e.status}`);
	return { log, routes, failed };
}

export const fmtRoutes = (r) => Object.entries(r).map(([k, v]) => `${k}×${v}`).join(', ');

/** First item's json/binary of a node's output in a run (`n8n execute --rawOutput` or the public API). */
export function nodeOutput(runData, node) {
	return runData?.[node]?.[0]?.data?.main?.[0] ?? [];
}

export function runError(data) {
	const err = data?.data?.resultData?.error;
	if (!err) return '';
	return `${err.node?.name ?? data?.data?.resultData?.lastNodeExecuted ?? '?'}: ${err.message}${err.description ? ` — ${err.description}` : ''}`;
}

/** The sorted recipients of the outbox's mails of one kind ('invitation', 'reminder') for a document. */
const mailsTo = (outbox, docId, kind) => outbox.filter((m) => String(m.document_id) === String(docId) && m.kind === kind).map((m) => m.to).sort();

/** What each Manual-Trigger example must make the site do (`site`: a siteClient). */
export const EXPECTED = {
	esignExample0001: {
		// Each Add Signer (Signing Order 0) reads the signers first, to send the next position, and reads its signer back
		// (GET /signers: the spec shows no answer for adding one), then Get signers.
		routes: { upload: 1, addSigner: 2, listSigners: 5, saveFields: 1, send: 1, remind: 1, listFields: 1 },
		async verify({ site, runData, outbox }) {
			const docId = String(nodeOutput(runData, 'Upload document')[0]?.json?.id ?? '');
			assert(docId, 'Upload document gave no id');
			const [invited, reminded] = [mailsTo(outbox, docId, 'invitation'), mailsTo(outbox, docId, 'reminder')];
			assert(JSON.stringify(invited) === JSON.stringify(['ann@example.org', 'bob@example.org']), `invitations in the outbox: ${JSON.stringify(invited)}`);
			assert(reminded.length === 2, `reminders in the outbox: ${JSON.stringify(reminded)}`);
			const doc = await site.document(docId);
			assert(doc?.status === 'sent', `document ${docId} status ${doc?.status}`);
			const fields = nodeOutput(runData, 'List placed fields');
			return `document ${docId} sent, invitations to ${invited.join(', ')}, ${reminded.length} reminders, ${fields.length} fields listed`;
		},
	},
	esignExample0002: {
		routes: { listTemplates: 1, getTemplate: 1, createFromTemplate: 1 },
		async verify({ runData, outbox }) {
			const out = nodeOutput(runData, 'Create document from template')[0]?.json ?? {};
			const docId = String(out.document_id ?? out.id ?? '');
			assert(docId && out.sent === true, `Create document output: ${JSON.stringify(out).slice(0, 300)}`);
			const invited = mailsTo(outbox, docId, 'invitation');
			assert(invited.includes('dana@example.org'), `invitations in the outbox: ${JSON.stringify(invited)}`);
			return `document ${docId} from the template, sent to ${invited.join(', ')}`;
		},
	},
	esignExample0003: {
		routes: { upload: 1, getDocument: 1, update: 1, getFile: 1, getAudit: 1, listDocuments: 1, stats: 1, create: 1, delete: 1 },
		async verify({ site, runData }) {
			const docId = Number(nodeOutput(runData, 'Upload document')[0]?.json?.id);
			const doc = await site.document(docId);
			assert(doc?.title === 'Quarterly report (final)', `document ${docId} title ${doc?.title}`);
			const dl = nodeOutput(runData, 'Download file')[0];
			assert(dl?.binary?.file, `Download file has no binary "file": ${JSON.stringify(dl ?? {}).slice(0, 200)}`);
			const placeholder = (await site.documents()).find((d) => d.title === 'Placeholder (deleted next)');
			assert(!placeholder, 'the placeholder draft was not deleted');
			return `document ${docId} renamed and downloaded (${dl.binary.file.mimeType}), placeholder deleted`;
		},
	},
	esignExample0004: {
		routes: { upload: 1, addSigner: 2, listSigners: 1, saveFields: 1, send: 1 },
		async verify({ site, runData, outbox }) {
			const docId = String(nodeOutput(runData, 'Create and send')[0]?.json?.id ?? '');
			const doc = await site.document(docId);
			assert(doc?.status === 'sent', `document ${docId} status ${doc?.status}`);
			const invited = mailsTo(outbox, docId, 'invitation');
			assert(invited.length === 2, `invitations in the outbox: ${JSON.stringify(invited)}`);
			return `document ${docId} sent, invitations to ${invited.join(', ')}`;
		},
	},
	esignExample0008: {
		// Create and Send from the PDF's text tags; the sandbox-only nodes sign for both signers; Download gets the signed PDF.
		routes: { upload: 1, addSigner: 2, listSigners: 1, saveFields: 1, send: 1, getFile: 1 },
		async verify({ site, runData }) {
			const docId = String(nodeOutput(runData, 'Create and send from tags')[0]?.json?.id ?? '');
			assert(docId, 'Create and send from tags gave no id');
			const download = nodeOutput(runData, 'Download signed PDF');
			assert(download.length === 1 && download[0]?.binary?.data?.mimeType === 'application/pdf', `Download signed PDF: ${JSON.stringify(download.map((d) => d.binary?.data?.mimeType))}`);
			return `document ${docId}: ${await signedOverTags(site, docId)}`;
		},
	},
	esignExample0009: {
		// Create and Send from the PDF's form fields; the sandbox-only nodes sign for both signers; Download gets the signed PDF.
		routes: { upload: 1, addSigner: 2, listSigners: 1, saveFields: 1, send: 1, getFile: 1 },
		async verify({ site, runData }) {
			const docId = String(nodeOutput(runData, 'Create and send from form fields')[0]?.json?.id ?? '');
			assert(docId, 'Create and send from form fields gave no id');
			const download = nodeOutput(runData, 'Download signed PDF');
			assert(download.length === 1 && download[0]?.binary?.data?.mimeType === 'application/pdf', `Download signed PDF: ${JSON.stringify(download.map((d) => d.binary?.data?.mimeType))}`);
			// The form fields left out, named with why, in one hint on the node's output (as n8n keeps it in the run).
			const hints = (runData['Create and send from form fields']?.[0]?.hints ?? []).map((h) => h.message);
			assert(hints.length === 1 && ['"Reference" (read-only', '"Internal" (hidden', '"Print" (a push button', '"Pets" (radio buttons'].every((part) => hints[0].includes(part)), `the node's hints: ${JSON.stringify(hints)}`);
			return `document ${docId}: ${await signedInFormFields(site, docId)}; hint: ${hints[0].slice(0, 60)}…`;
		},
	},
	esignExample0010: {
		// Fill PDF sends nothing; Create and Send from the form fields the row left; the sandbox-only nodes sign for both
		// signers; Download gets the signed PDF.
		routes: { upload: 1, addSigner: 2, listSigners: 1, saveFields: 1, send: 1, getFile: 1 },
		async verify({ site, runData }) {
			const filled = nodeOutput(runData, 'Fill PDF');
			assert(filled.length === 1 && filled[0]?.binary?.data?.mimeType === 'application/pdf', `Fill PDF: ${JSON.stringify(filled.map((d) => d.binary?.data?.mimeType))}`);
			const docId = String(nodeOutput(runData, 'Create and send')[0]?.json?.id ?? '');
			assert(docId, 'Create and send gave no id');
			return `document ${docId}: ${await signedFilled(site, docId)}`;
		},
	},
	esignExample0005: {
		routes: { upload: 1, addSigner: 1, listSigners: 1, saveFields: 1, send: 1, expire: 1 },
		async verify({ site, runData, log }) {
			const expire = log.filter((e) => e.route === 'expire');
			assert(expire.length === 1 && expire[0].status === 200, `expire answered ${expire.map((e) => e.status)}`);
			const docId = Number(nodeOutput(runData, 'Create and send')[0]?.json?.id);
			const doc = await site.document(docId);
			assert(doc?.status === 'expired', `document ${docId} status ${doc?.status}`);
			const out = nodeOutput(runData, 'Expire document')[0]?.json ?? {};
			return `expire → 200, document ${docId} expired (node output ${JSON.stringify(out).slice(0, 80)})`;
		},
	},
};
