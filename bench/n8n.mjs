#!/usr/bin/env node
// `npm run bench:n8n`: the package's speed and memory in REAL n8n (the `.n8n-runtime/` install), each figure a
// ratio (P6's tag removal: a difference in seconds) against a baseline measured in the same run, against the sandbox
// on free 127.0.0.1 ports.
//   P1  Return All over 5,000 documents vs a raw page loop (and the request count: 50), and vs n8n's HTTP Request
//       node paginating the same pages
//   P2  1,000 × Document Get vs the HTTP Request node with plain headers, with the eSign credential, and a raw
//       keep-alive fetch loop; and both nodes again against a server that sends one stored answer
//   P3  peak RSS growth of `n8n execute` downloading / uploading a PDF of 1, 5, 10 and 20 MB, per file size
//   P4  median round trip of 500 signed deliveries to an active eSign Trigger (verifying them, remembering them) vs
//       n8n's own Webhook node alone (nothing verified) — the trigger had no "skip verification" to compare with
//       since 0.1.0; again on an instance whose expression engine creates no isolate it does not need: P4_VARIANTS
//   P5  a burst of items over the site's per-minute limit: run time vs the limit's floor, every item succeeding
//   P6  Document → Create and Send of the 300-page contract (test/fixtures/pdf, served by this script) with its 402
//       text tags vs the same upload with two coordinate rows, and vs the 402 fields given as JSON coordinates: the
//       node's executionTime; and the peak RSS of `n8n execute` for each. The tags run removes the tags from the file
//       it uploads (the default); a fourth run leaves them in (Remove Tags From the PDF off): the removal's cost,
//       stated as users feel it (issue 50): the seconds it adds, removal on − off, the median of the per-repetition
//       differences (each repetition runs both, so a slow minute of the machine hits both), in `n8n execute` and in
//       the server; target at most 0.5 s slower. Not a ratio: a ratio moves with the baseline's own speed.
// Prints one line per figure (a ratio, or for the removal a difference, with both absolute values), writes
// bench/results/n8n-<version>-<time>.json.
// Env: BENCH_LINES=2 (or 2,1), BENCH_REPS=3 (median of runs for P1/P2/P6), BENCH_SKIP=P5,P3 (skip figures),
//      BENCH_CPU_PROF=<dir> (a CPU profile of each `n8n execute` and of the n8n server).
// It is a benchmark, not a test: it exits 1 only when a run fails functionally (an error, a wrong count).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { LINES, ROOT, buildAndPack, ensureRuntime, stopChildren, stopServers } from '../scripts/lib/runtime.mjs';
import { CREDENTIAL, NODE_TYPES, chain, credRef, credentialData, manual, node, sandboxControl, sandboxModule, sandboxSite, waitForWebhook } from '../scripts/lib/esign.mjs';
import { createInstance } from '../scripts/lib/instance.mjs';

const ORDER = (process.env.BENCH_LINES || '2').split(',').map((s) => s.trim()).filter(Boolean);
const REPS = Number(process.env.BENCH_REPS || 3);
const SKIP = new Set((process.env.BENCH_SKIP || '').split(',').map((s) => s.trim().toUpperCase()).filter(Boolean));
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');
const MB = 1024 * 1024;
// P4 is measured again on an instance started with these n8n settings (see runLine).
const P4_VARIANTS = {
	2: { env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' }, text: 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true' },
	1: { env: { N8N_EXPRESSION_ENGINE: 'legacy' }, text: 'N8N_EXPRESSION_ENGINE=legacy' },
};
const say = (...a) => console.log('[bench:n8n]', ...a);
let functionalFailures = 0;

const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (n, unit = 'ms') => `${Math.round(n).toLocaleString('en-US')} ${unit}`;

// ---------------------------------------------------------------- workflows

const items = (count) => node('Items', 'n8n-nodes-base.code', 2, { jsCode: `return Array.from({ length: ${count} }, (_, i) => ({ json: { i } }));` });
const cred = (credentialId) => ({ credentials: credRef(credentialId) });
const rl = (value) => ({ __rl: true, mode: 'id', value: String(value) });
/** The admin key and secret as plain request headers (raw loops, setup calls, the HTTP Request node). */
const apiHeaders = (sb) => ({ 'X-ESIGN-API-Key': sb.keys.admin.key, 'X-ESIGN-API-Secret': sb.keys.admin.secret });
const headerParameters = (sb) => ({ parameters: Object.entries(apiHeaders(sb)).map(([name, value]) => ({ name, value })) });

function workflows({ sb, credentialId, docId, count, constant }) {
	const url = `${sb.apiUrl}/documents/${docId}`;
	const esignGet = (id, name, credId) =>
		chain(id, name, [manual(), items(count), node('Measured', NODE_TYPES.action, 1, { resource: 'document', operation: 'get', documentId: rl(docId) }, cred(credId))]);
	const httpPlainGet = (id, name, getUrl) =>
		chain(id, name, [manual(), items(count), node('Measured', 'n8n-nodes-base.httpRequest', 4.2, { url: getUrl, sendHeaders: true, headerParameters: headerParameters(sb), options: {} })]);
	return {
		get: esignGet('benchEsignGet00001', 'bench: eSign Document Get', credentialId),
		httpPlain: httpPlainGet('benchHttpPlain0001', 'bench: HTTP Request, plain headers', url),
		// The same two Gets against a server that answers every request with the same stored bytes: what is left
		// is the nodes' and n8n's own work per request, without the sandbox's.
		constGet: esignGet('benchConstGet00001', 'bench: eSign Document Get, constant answer', constant.credentialId),
		constHttp: httpPlainGet('benchConstHttp0001', 'bench: HTTP Request, plain headers, constant answer', `${constant.url}/wp-json/esign/v1/documents/${docId}`),
		httpCred: chain('benchHttpCred00001', 'bench: HTTP Request, eSign credential', [
			manual(),
			items(count),
			node('Measured', 'n8n-nodes-base.httpRequest', 4.2, { url, authentication: 'predefinedCredentialType', nodeCredentialType: CREDENTIAL.type, options: {} }, cred(credentialId)),
		]),
		all: chain('benchEsignAll00001', 'bench: eSign Document Get Many, Return All', [manual(), node('Measured', NODE_TYPES.action, 1, { resource: 'document', operation: 'getMany', returnAll: true }, cred(credentialId))]),
		// n8n's own node doing the same Return All: 50 pages of 100 through its pagination option.
		httpPages: chain('benchHttpPages0001', 'bench: HTTP Request, pagination, plain headers', [
			manual(),
			node('Measured', 'n8n-nodes-base.httpRequest', 4.2, {
				url: `${sb.apiUrl}/documents`,
				sendQuery: true,
				queryParameters: { parameters: [{ name: 'per_page', value: '100' }] },
				sendHeaders: true,
				headerParameters: headerParameters(sb),
				options: {
					pagination: {
						pagination: {
							paginationMode: 'updateAParameterInEachRequest',
							parameters: { parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }] },
							paginationCompleteWhen: 'other',
							completeExpression: '={{ $response.body.length < 100 }}',
							limitPagesFetched: true,
							maxRequests: 60,
						},
					},
				},
			}),
		]),
	};
}

// ---------------------------------------------------------------- running `n8n execute`

/** `n8n execute --id` under /usr/bin/time: { data, maxRssKb }. */
async function execute(n8n, id) {
	// Binary data on disk, as n8n 2.x does by default (1.x keeps it in memory unless told otherwise).
	const extraEnv = { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' };
	// BENCH_CPU_PROF=<dir>: a V8 CPU profile of every `n8n execute`, to see where the time goes.
	if (process.env.BENCH_CPU_PROF) extraEnv.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`;
	const res = await n8n.execute(id, { check: false, extraEnv, wrap: ['/usr/bin/time', '-f', 'MAXRSS=%M'], timeoutMs: 15 * 60000 });
	if (!res.data) throw new Error(`n8n execute --id=${id}: no run data (exit ${res.code})\n${res.stderr.slice(-1500)}`);
	const rss = /MAXRSS=(\d+)/.exec(res.stderr);
	return { data: res.data, maxRssKb: rss ? Number(rss[1]) : NaN };
}

/** A workflow run with `n8n execute`, checked to have succeeded: the "Measured" node's run, and the process's peak RSS. */
async function measuredRun(n8n, id) {
	const { data, maxRssKb } = await execute(n8n, id);
	const err = data?.data?.resultData?.error;
	if (data?.status !== 'success' || err) throw new Error(`${id}: ${data?.status} ${err?.message ?? ''} ${err?.description ?? ''}`);
	return { run: data.data.resultData.runData.Measured[0], maxRssKb };
}

/** Each name of `order` run `reps` times, interleaved and rotated each round (no name always first). */
async function interleaved(order, reps, fn) {
	for (let r = 0; r < reps; r++) for (let k = 0; k < order.length; k++) await fn(order[(r + k) % order.length]);
}

/** The measured node's own executionTime (what n8n shows), checking the run succeeded with `expect` items. */
async function nodeTime(n8n, id, expectItems) {
	const { run } = await measuredRun(n8n, id);
	const count = run.data.main[0].length;
	if (expectItems !== undefined && count !== expectItems) throw new Error(`${id}: ${count} items, expected ${expectItems}`);
	return run.executionTime;
}

/** Median executionTime of REPS runs of a workflow, and the sandbox requests its first run made. */
async function timedWithRequests(n8n, sb, id, expectItems) {
	await sandboxControl(sb.url, 'DELETE', '/__sandbox/requests');
	const times = [await nodeTime(n8n, id, expectItems)];
	const requests = (await sandboxControl(sb.url, 'GET', '/__sandbox/requests')).length;
	for (let r = 1; r < REPS; r++) times.push(await nodeTime(n8n, id, expectItems));
	return { ms: median(times), requests };
}

async function repeat(fn) {
	const times = [];
	for (let r = 0; r < REPS; r++) times.push(await fn());
	return median(times);
}

// ---------------------------------------------------------------- baselines measured here

async function rawGets(sb, docId, count) {
	const headers = apiHeaders(sb);
	const start = performance.now();
	for (let i = 0; i < count; i++) await (await fetch(`${sb.apiUrl}/documents/${docId}`, { headers })).json();
	return performance.now() - start;
}

async function rawPages(sb, pages) {
	const headers = apiHeaders(sb);
	const start = performance.now();
	let total = 0;
	for (let page = 1; page <= pages; page++) total += (await (await fetch(`${sb.apiUrl}/documents?per_page=100&page=${page}`, { headers })).json()).length;
	return { ms: performance.now() - start, total };
}

/** A valid PDF of about `bytes` (an incompressible attachment), built with pdf-lib like the sandbox's samples. */
async function bigPdf(bytes) {
	const { PDFDocument } = await import('pdf-lib');
	const doc = await PDFDocument.create();
	doc.addPage([612, 792]);
	await doc.attach(crypto.randomBytes(Math.max(1024, bytes - 2048)), 'padding.bin', { mimeType: 'application/octet-stream' });
	return Buffer.from(await doc.save({ useObjectStreams: false }));
}

const uploadDoc = async (sb, pdf, title) => (await sandboxSite(sb).upload(pdf, title)).id;

// ---------------------------------------------------------------- one n8n line

async function runLine(line, tarball) {
	const { version } = LINES[line];
	const figures = [];
	const report = (key, label, ratio, ours, base, extra = {}) => {
		figures.push({ key, label, ratio: Number(ratio.toFixed(3)), ours, baseline: base, ...extra });
		console.log(`${key} ${label}: ratio ${ratio.toFixed(2)} (${ours.text} vs ${base.text})${extra.note ? ` — ${extra.note}` : ''}`);
	};
	/** A figure stated as a difference in seconds (ours − base), with its target; `met` when a limit is given. */
	const reportDifference = (key, label, seconds, ours, base, extra = {}) => {
		const met = extra.limitSeconds === undefined ? undefined : seconds <= extra.limitSeconds;
		figures.push({ key, label, differenceSeconds: Number(seconds.toFixed(3)), ours, baseline: base, met, ...extra });
		const verdict = met === undefined ? '' : met ? ', met' : ', NOT met';
		console.log(`${key} ${label}: ${seconds >= 0 ? '+' : ''}${seconds.toFixed(3)} s (${ours.text} vs ${base.text}; target ${extra.goal}${verdict})${extra.note ? ` — ${extra.note}` : ''}`);
	};
	let constantServer;
	let constantCount = 0;
	const { createSandbox } = sandboxModule();
	const sb = await createSandbox({ port: 0, rateLimits: false });
	let n8n;
	try {
		n8n = await createInstance({ line, tarball });
		// BENCH_CPU_PROF also profiles the n8n server (P4's webhook deliveries); written when it stops.
		const profDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;
		const serverEnv = profDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profDir}` } : {};
		await n8n.start({ serverEnv, apiKey: false });
		const credential = await n8n.ensureCredential(credentialData(sb));
		const onePage = await sandboxSite(sb).sample('one-page.pdf');
		const docId = await uploadDoc(sb, onePage, 'Benchmark document');
		// A constant-answer server: the sandbox's own answer for the document, stored once and sent as it is.
		const docAnswer = await fetch(`${sb.apiUrl}/documents/${docId}`, { headers: apiHeaders(sb) });
		const constantBody = Buffer.from(await docAnswer.arrayBuffer());
		constantServer = http.createServer((req, res) => {
			constantCount++;
			res.writeHead(200, { 'content-type': docAnswer.headers.get('content-type') ?? 'application/json', 'content-length': constantBody.length });
			res.end(constantBody);
		});
		await new Promise((r) => constantServer.listen(0, '127.0.0.1', r));
		const constantUrl = `http://127.0.0.1:${constantServer.address().port}`;
		const constantCredential = await n8n.ensureCredential({ ...credentialData(sb), siteUrl: constantUrl }, { name: 'eSign constant answer' });
		await sandboxControl(sb.url, 'POST', '/__sandbox/seed/documents', { count: 4999, owner: 'admin' });
		const wfs = workflows({ sb, credentialId: credential.id, docId, count: 1000, constant: { url: constantUrl, credentialId: constantCredential.id } });
		await n8n.import(Object.values(wfs));

		if (!SKIP.has('P2')) {
			say(`n8n ${version}: P2, 1,000 × Document Get (${REPS} runs each, median)`);
			await sandboxControl(sb.url, 'DELETE', '/__sandbox/requests');
			await nodeTime(n8n, wfs.get.id, 1000); // warm-up: caches, first connection
			const getRequests = (await sandboxControl(sb.url, 'GET', '/__sandbox/requests')).length;
			if (getRequests !== 1000) {
				functionalFailures++;
				say(`P2: 1,000 Document Gets made ${getRequests} requests, expected 1,000`);
			}
			// Interleaved runs (ours, plain, credential, raw, then again), so each sees the same machine state.
			const runs = { ours: [], plain: [], withCred: [], raw: [] };
			for (let r = 0; r < REPS; r++) {
				runs.ours.push(await nodeTime(n8n, wfs.get.id, 1000));
				runs.plain.push(await nodeTime(n8n, wfs.httpPlain.id, 1000));
				runs.withCred.push(await nodeTime(n8n, wfs.httpCred.id, 1000));
				runs.raw.push(await rawGets(sb, docId, 1000));
			}
			const [ours, plain, withCred, raw] = [runs.ours, runs.plain, runs.withCred, runs.raw].map(median);
			const o = { ms: ours, text: fmt(ours) };
			report('P2', 'eSign Get ÷ HTTP Request (plain headers)', ours / plain, o, { ms: plain, text: fmt(plain) }, { goal: '≤ 1.0' });
			report('P2', 'eSign Get ÷ HTTP Request (eSign credential)', ours / withCred, o, { ms: withCred, text: fmt(withCred) }, { goal: '≤ 0.25 against the old generic-expression credential; both now use the same credential' });
			report('P2', 'eSign Get ÷ raw keep-alive fetch loop', ours / raw, o, { ms: raw, text: fmt(raw) }, { goal: 'stretch ≤ 1.2' });
			const constRuns = { ours: [], http: [] };
			constantCount = 0;
			for (let r = 0; r < REPS; r++) {
				constRuns.ours.push(await nodeTime(n8n, wfs.constGet.id, 1000));
				constRuns.http.push(await nodeTime(n8n, wfs.constHttp.id, 1000));
			}
			if (constantCount !== REPS * 2000) {
				functionalFailures++;
				say(`P2: the constant-answer server got ${constantCount} requests, expected ${REPS * 2000}`);
			}
			const [constOurs, constHttp] = [constRuns.ours, constRuns.http].map(median);
			report('P2', 'same against a constant answer: eSign Get ÷ HTTP Request (plain headers)', constOurs / constHttp, { ms: constOurs, text: fmt(constOurs) }, { ms: constHttp, text: fmt(constHttp) }, { goal: '≤ 1.0 (the nodes’ own share)' });
		}

		if (!SKIP.has('P1')) {
			say(`n8n ${version}: P1, Return All over 5,000 documents`);
			const { ms: ours, requests } = await timedWithRequests(n8n, sb, wfs.all.id, 5000);
			if (requests !== 50) {
				functionalFailures++;
				say(`P1: Return All made ${requests} requests, expected 50`);
			}
			const o = { ms: ours, text: fmt(ours) };
			const raw = await repeat(async () => {
				const { ms, total } = await rawPages(sb, 50);
				if (total !== 5000) throw new Error(`raw page loop read ${total}`);
				return ms;
			});
			report('P1', 'Return All (5,000) ÷ raw page loop', ours / raw, o, { ms: raw, text: fmt(raw) }, { goal: '≤ 1.5', requests, note: `${requests} requests` });
			// n8n's floor for the same job: its own HTTP Request node with pagination (plain headers, no credential).
			const httpPages = await timedWithRequests(n8n, sb, wfs.httpPages.id, 5000);
			report('P1', 'Return All (5,000) ÷ HTTP Request node with pagination', ours / httpPages.ms, o, { ms: httpPages.ms, text: fmt(httpPages.ms) }, { goal: 'n8n’s own floor (a measurement)', note: `the HTTP Request node made ${httpPages.requests} requests` });
		}

		if (!SKIP.has('P4')) {
			say(`n8n ${version}: P4, 500 signed deliveries, eSign Trigger vs n8n's Webhook node`);
			const reportP4 = (label, p4) =>
				report('P4', label, p4.verified / p4.skipped, { ms: p4.verified, text: `${p4.verified.toFixed(2)} ms` }, { ms: p4.skipped, text: `${p4.skipped.toFixed(2)} ms` }, { goal: 'a measurement (n8n’s own floor)', note: `${p4.count} deliveries each, all answered 200` });
			const p4 = await triggerLatency({ n8n, sb, credentialId: credential.id });
			reportP4('median delivery round trip, eSign Trigger ÷ n8n’s Webhook node', p4);
			reportP4('same, eSign Trigger with Download Document (the site answers for the file after 1 s) ÷ n8n’s Webhook node', { ...p4, verified: p4.downloading });
			reportP4('median delivery round trip, eSign Trigger ÷ n8n’s Webhook node with Header Auth (its own authenticated webhook: a credential read per request)', { ...p4, skipped: p4.headerAuth });
			// Where the difference comes from: n8n runs the webhook call of a community trigger with an expression
			// isolate, and a credential read inside it takes a second one; both are single-use (a new one is created
			// after every use). The same deliveries again on an instance whose expression engine creates no isolate
			// that no expression needs (2.x: lazy acquisition; 1.x has no such setting: its legacy engine).
			const variant = P4_VARIANTS[line];
			say(`n8n ${version}: P4 again, n8n restarted with ${variant.text}`);
			await n8n.stop();
			await n8n.restart({ serverEnv: { ...serverEnv, ...variant.env } });
			const p4v = await triggerLatency({ n8n, sb, credentialId: credential.id, tag: 'V' });
			reportP4(`same, n8n with ${variant.text}`, p4v);
			reportP4(`same ÷ n8n’s Webhook node with Header Auth, n8n with ${variant.text}`, { ...p4v, skipped: p4v.headerAuth });
		}

		if (!SKIP.has('P3')) {
			say(`n8n ${version}: P3, peak RSS of n8n execute for downloads and uploads of 1-20 MB`);
			const rows = await memory({ n8n, sb, credentialId: credential.id });
			for (const r of rows) {
				report('P3', `${r.kind} ${r.mb} MB: peak RSS growth ÷ file size`, r.ratio, { ms: r.growthMb, text: `+${r.growthMb.toFixed(1)} MB` }, { ms: r.mb, text: `${r.mb} MB file` }, { goal: r.kind === 'download' ? '≤ 3 (at 20 MB)' : r.kind === 'upload' ? '≤ 2 (at 20 MB)' : 'a measurement' });
			}
		}

		if (!SKIP.has('P5')) {
			say(`n8n ${version}: P5, a burst over the per-minute limit (takes about a minute)`);
			const p5 = await rateBurst({ n8n, sb, credentialId: credential.id, docId });
			report('P5', 'burst run time ÷ the limit’s floor', p5.ms / p5.floor, { ms: p5.ms, text: fmt(p5.ms) }, { ms: p5.floor, text: fmt(p5.floor) }, { goal: '≤ 1.1', note: `${p5.items} items, limit ${p5.limit}/min, all succeeded` });
		}
		if (!SKIP.has('P6')) {
			// P4 left n8n running with its variant setting: P6's server runs are on n8n's defaults.
			if (!SKIP.has('P4')) await n8n.restart({ serverEnv });
			say(`n8n ${version}: P6, Create and Send of the 300-page contract: text tags vs coordinates (${REPS} runs each, median)`);
			const p6 = await textTags({ n8n, sb, credentialId: credential.id });
			const t = (ms) => ({ ms, text: fmt(ms) });
			const spread = (xs) => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))} ms`;
			const note = (v) => `402 fields from tags, 2 from rows; ${Math.round(p6.fileKb)} KB file; runs: tags ${spread(v.runs.tags)}, rows ${spread(v.runs.coords)}, JSON ${spread(v.runs.json)}`;
			const split = (v) => `reading the text and placing the tags ${fmt(v.tags - v.json)}; 400 more fields ${fmt(v.json - v.coords)}`;
			report('P6', '`n8n execute` (a new process each run): Create and Send, text tags ÷ two coordinate rows, the node’s executionTime', p6.tags / p6.coords, t(p6.tags), t(p6.coords), { goal: 'a measurement', note: note(p6), runs: p6.runs });
			report('P6', '`n8n execute`: text tags ÷ the same 402 fields as JSON coordinates', p6.tags / p6.json, t(p6.tags), t(p6.json), { goal: 'a measurement', note: split(p6) });
			report('P6', 'n8n server (webhook-started runs, after 2 each): text tags ÷ two coordinate rows', p6.warm.tags / p6.warm.coords, t(p6.warm.tags), t(p6.warm.coords), { goal: 'a measurement', note: note(p6.warm), runs: p6.warm.runs });
			report('P6', 'n8n server: text tags ÷ the same 402 fields as JSON coordinates', p6.warm.tags / p6.warm.json, t(p6.warm.tags), t(p6.warm.json), { goal: 'a measurement', note: split(p6.warm) });
			// The removal's cost (issue 50): removal on − off, per repetition (interleaved: both ran in each), median.
			const removal = (v) => {
				const diffs = v.runs.tags.map((ms, i) => ms - v.runs.kept[i]);
				return { seconds: median(diffs) / 1000, note: `per repetition ${(Math.min(...diffs) / 1000).toFixed(3)} – ${(Math.max(...diffs) / 1000).toFixed(3)} s; runs: removed ${spread(v.runs.tags)}, kept ${spread(v.runs.kept)}; ratio of the medians ${(v.tags / v.kept).toFixed(2)} (context)`, differences: diffs };
			};
			const removalExecute = removal(p6);
			const removalServer = removal(p6.warm);
			reportDifference('P6', '`n8n execute`: Create and Send with removal − without (Remove Tags From the PDF on − off)', removalExecute.seconds, t(p6.tags), t(p6.kept), { goal: 'at most 0.5 s slower', limitSeconds: 0.5, note: removalExecute.note, differencesMs: removalExecute.differences });
			reportDifference('P6', 'n8n server: Create and Send with removal − without (Remove Tags From the PDF on − off)', removalServer.seconds, t(p6.warm.tags), t(p6.warm.kept), { goal: 'at most 0.5 s slower', limitSeconds: 0.5, note: removalServer.note, differencesMs: removalServer.differences });
			const rss = (k) => ({ ms: p6.rssMb[k], text: `${p6.rssMb[k].toFixed(1)} MB` });
			report('P6', 'peak RSS of n8n execute, tags removed − tags kept, ÷ file size', (p6.rssMb.tags - p6.rssMb.kept) / (p6.fileKb / 1024), rss('tags'), rss('kept'), { goal: 'a measurement' });
			report('P6', 'peak RSS of n8n execute, text tags − coordinates, ÷ file size', (p6.rssMb.tags - p6.rssMb.coords) / (p6.fileKb / 1024), rss('tags'), rss('coords'), { goal: 'a measurement', note: `JSON coordinates ${p6.rssMb.json.toFixed(1)} MB` });
		}
	} finally {
		await n8n?.stop();
		constantServer?.close();
		await sb.close();
		if (n8n) fs.rmSync(n8n.userFolder, { recursive: true, force: true });
	}
	return { version, figures };
}

async function triggerLatency({ n8n, sb, credentialId, count = 500, tag = 'D' }) {
	const verified = chain(`benchTriggerVerif${tag}`, `bench trigger ${tag}`, [node('eSign Trigger', NODE_TYPES.trigger, 1, { events: ['*'] }, { webhookId: crypto.randomUUID(), ...cred(credentialId) })]);
	// The same trigger with Download Document on, for a site slow to answer for the file (1 s): the file is fetched in
	// the run, after n8n has answered, so the answer should not wait for it (issue 31).
	const downloading = chain(`benchTriggerDownl${tag}`, `bench trigger download ${tag}`, [node('eSign Trigger', NODE_TYPES.trigger, 1, { events: ['*'], options: { downloadDocument: true } }, { webhookId: crypto.randomUUID(), ...cred(credentialId) })]);
	// The baselines: n8n's own Webhook node, alone, answering on receipt (what a workflow without verification uses),
	// and the same with Header Auth, n8n's own authenticated webhook, which also reads a credential per request.
	const hookPath = `bench-plain-${tag.toLowerCase()}-${crypto.randomBytes(3).toString('hex')}`;
	const skipped = chain(`benchPlainHook0${tag}`, `bench webhook ${tag}`, [node('Webhook', 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path: hookPath, options: {} }, { webhookId: crypto.randomUUID() })]);
	const headerToken = `bench-${crypto.randomBytes(8).toString('hex')}`;
	const headerCred = await n8n.ensureCredential({ name: 'X-Bench-Token', value: headerToken }, { name: `Bench header auth ${tag}`, type: 'httpHeaderAuth' });
	const authPath = `${hookPath}-auth`;
	const headerAuthed = chain(`benchAuthHook0${tag}`, `bench webhook header auth ${tag}`, [
		node('Webhook', 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path: authPath, authentication: 'headerAuth', options: {} }, { webhookId: crypto.randomUUID(), credentials: { httpHeaderAuth: { id: String(headerCred.id), name: `Bench header auth ${tag}` } } }),
	]);
	await n8n.import([verified, downloading, skipped, headerAuthed]);
	const urls = { [verified.id]: (await n8n.activateTrigger(verified.id)).url, [downloading.id]: (await n8n.activateTrigger(downloading.id)).url };
	await n8n.activate(skipped.id);
	await n8n.activate(headerAuthed.id);
	urls[skipped.id] = `${n8n.url}/webhook/${hookPath}`;
	urls[headerAuthed.id] = `${n8n.url}/webhook/${authPath}`;
	await waitForWebhook(urls[skipped.id], 30000);
	const fileDoc = await uploadDoc(sb, await sandboxSite(sb).sample('one-page.pdf'), `bench trigger file ${tag}`);
	await sandboxSite(sb).control('POST', '/faults', { method: 'GET', path: `documents/${fileDoc}/file`, mode: 'delay', delayMs: 1000, count: count + 10 });
	const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
	const post = (url, body, headers) =>
		new Promise((resolve, reject) => {
			const start = performance.now();
			const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
				res.resume();
				res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - start) : reject(new Error(`delivery to ${url} answered ${res.statusCode}`))));
			});
			req.on('error', reject);
			req.end(body);
		});
	const times = { [verified.id]: [], [downloading.id]: [], [skipped.id]: [], [headerAuthed.id]: [] };
	const order = [skipped.id, verified.id, headerAuthed.id, downloading.id];
	// Interleaved (the order rotating), so all see the same machine load.
	for (let i = 0; i < count; i++) {
		const body = JSON.stringify({ event: 'document.completed', data: { document_id: String(fileDoc), document_title: `Bench ${i}` }, timestamp: '2026-11-22 12:00:00' });
		const signature = `sha256=${crypto.createHmac('sha256', sb.webhookSecret).update(body).digest('hex')}`;
		for (let k = 0; k < order.length; k++) {
			const id = order[(i + k) % order.length];
			times[id].push(await post(urls[id], body, id === headerAuthed.id ? { 'x-bench-token': headerToken } : { 'x-esign-signature': signature }));
		}
	}
	agent.destroy();
	await sandboxSite(sb).control('DELETE', '/faults');
	return { verified: median(times[verified.id]), downloading: median(times[downloading.id]), skipped: median(times[skipped.id]), headerAuth: median(times[headerAuthed.id]), count };
}

async function memory({ n8n, sb, credentialId }) {
	const sizes = [1, 5, 10, 20];
	const files = {};
	for (const mb of sizes) files[mb] = await bigPdf(mb === 20 ? 20 * MB - 64 * 1024 : mb * MB);
	const small = await sandboxSite(sb).sample('one-page.pdf');
	// A local file server for the upload workflows' HTTP Request node.
	const server = http.createServer((req, res) => {
		const mb = Number(/\/(\d+)\.pdf$/.exec(req.url)?.[1]);
		const body = mb ? files[mb] : small;
		res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': body.length });
		res.end(body);
	});
	await new Promise((r) => server.listen(0, '127.0.0.1', r));
	const fileUrl = (mb) => `http://127.0.0.1:${server.address().port}/${mb}.pdf`;
	const ids = {};
	const wfs = [];
	const docs = { 0: await uploadDoc(sb, small, 'bench small') };
	for (const mb of sizes) docs[mb] = await uploadDoc(sb, files[mb], `bench ${mb} MB`);
	for (const mb of [0, ...sizes]) {
		const down = chain(`benchDownload${String(mb).padStart(5, '0')}`, `bench download ${mb}`, [manual(), node('Measured', NODE_TYPES.action, 1, { resource: 'document', operation: 'download', documentId: rl(docs[mb]), binaryPropertyName: 'data', options: {} }, cred(credentialId))]);
		const up = chain(`benchUpload00${String(mb).padStart(5, '0')}`, `bench upload ${mb}`, [
			manual(),
			node('Fetch file', 'n8n-nodes-base.httpRequest', 4.2, { url: fileUrl(mb), options: { response: { response: { responseFormat: 'file' } } } }),
			node('Measured', NODE_TYPES.action, 1, { resource: 'document', operation: 'upload', binaryPropertyName: 'data' }, cred(credentialId)),
		]);
		// The upload's input alone: what the HTTP Request node costs to bring the file into n8n.
		const fetchOnly = chain(`benchFetch000${String(mb).padStart(5, '0')}`, `bench fetch ${mb}`, [
			manual(),
			node('Fetch file', 'n8n-nodes-base.httpRequest', 4.2, { url: fileUrl(mb), options: { response: { response: { responseFormat: 'file' } } } }),
		]);
		ids[`download${mb}`] = down.id;
		ids[`upload${mb}`] = up.id;
		ids[`fetch${mb}`] = fetchOnly.id;
		wfs.push(down, up, fetchOnly);
	}
	await n8n.import(wfs);
	const peak = async (id) => {
		const { data, maxRssKb } = await execute(n8n, id);
		if (data?.status !== 'success') throw new Error(`${id}: ${data?.status} ${data?.data?.resultData?.error?.message ?? ''}`);
		return maxRssKb / 1024;
	};
	const rows = [];
	try {
		const growth = {};
		for (const kind of ['download', 'upload', 'fetch']) {
			const base = median([await peak(ids[`${kind}0`]), await peak(ids[`${kind}0`])]);
			for (const mb of sizes) {
				const growthMb = median([await peak(ids[`${kind}${mb}`]), await peak(ids[`${kind}${mb}`])]) - base;
				growth[`${kind}${mb}`] = growthMb;
				const fileMb = files[mb].length / MB;
				rows.push({ kind: kind === 'fetch' ? 'upload input (HTTP Request node alone)' : kind, mb, growthMb, ratio: growthMb / fileMb, baseMb: base });
			}
		}
		// The eSign node's own share of the upload workflow: beyond what fetching the file already took.
		for (const mb of sizes) {
			const growthMb = growth[`upload${mb}`] - growth[`fetch${mb}`];
			rows.push({ kind: 'upload, eSign node beyond its input', mb, growthMb, ratio: growthMb / (files[mb].length / MB) });
		}
	} finally {
		server.close();
	}
	return rows;
}

async function rateBurst({ n8n, sb, credentialId, docId, limit = 30, itemsCount = 60 }) {
	const wf = chain('benchRateBurst0001', 'bench rate burst', [manual(), items(itemsCount), node('Measured', NODE_TYPES.action, 1, { resource: 'document', operation: 'get', documentId: rl(docId), requestOptions: { maxRateLimitWait: 120 } }, cred(credentialId))]);
	await n8n.import(wf);
	// Start just after a minute boundary (the sandbox counts per clock minute), so the floor is one full window.
	const now = new Date();
	const wait = (60 - now.getUTCSeconds()) * 1000 - now.getUTCMilliseconds() + 200;
	await new Promise((r) => setTimeout(r, wait));
	await sandboxControl(sb.url, 'POST', '/__sandbox/rate-limits', { perKeyPerHour: 100000, perIpPerMinute: limit });
	const started = Date.now();
	try {
		const ms = await nodeTime(n8n, wf.id, itemsCount);
		// n8n execute starts the node a few seconds into the minute; the floor is from its first request to the
		// start of the window that admits the last batch: windows needed after the first × 60 s, less the offset.
		const windowsAfterFirst = Math.ceil(itemsCount / limit) - 1;
		const log = await sandboxControl(sb.url, 'GET', '/__sandbox/requests');
		const first = log.find((e) => e.path.endsWith(`/documents/${docId}`));
		const firstAt = new Date(`${first.at.replace(' ', 'T')}Z`).getTime();
		const windowStart = firstAt - (firstAt % 60000);
		const floor = windowStart + windowsAfterFirst * 60000 - firstAt;
		return { ms, floor, items: itemsCount, limit, started };
	} finally {
		await sandboxControl(sb.url, 'POST', '/__sandbox/rate-limits', { enabled: false });
	}
}

/**
 * P6: the 300-page contract (402 text tags: signer 1 initials every page and signs, signer 2 initials every third
 * page and dates) fetched by n8n's HTTP Request node from a file server here (it is not one of the sandbox's samples),
 * then Document → Create and Send three ways: fields from its text tags; two coordinate rows (the baseline: the node
 * still opens the PDF for its page sizes); the 402 fields the tags gave, as JSON coordinates (all but the reading).
 * Signer 2 has no signature tag, so it is an approver, a role of the plugin family: the sandbox plays that family's
 * roles for this figure and returns to its profile after.
 */
async function textTags({ n8n, sb, credentialId }) {
	const pdf = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'pdf', 'contract-300-pages.pdf'));
	const server = http.createServer((req, res) => {
		res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length, 'content-disposition': 'attachment; filename="contract-300-pages.pdf"' });
		res.end(pdf);
	});
	await new Promise((r) => server.listen(0, '127.0.0.1', r));
	const { profile } = await sandboxControl(sb.url, 'GET', '/__sandbox/profile');
	await sandboxControl(sb.url, 'POST', '/__sandbox/profile', { ...profile, roles: 'family' });
	const flow = (id, name, parameters) =>
		chain(id, name, [
			manual(),
			node('Fetch contract', 'n8n-nodes-base.httpRequest', 4.2, { url: `http://127.0.0.1:${server.address().port}/contract-300-pages.pdf`, options: { response: { response: { responseFormat: 'file' } } } }),
			node('Measured', NODE_TYPES.action, 1, { resource: 'document', operation: 'createAndSend', binaryPropertyName: 'data', title: 'Bench contract, 300 pages', signers: { signer: [{ name: 'Ann Client', email: 'ann@example.org', role: 'signer', signingOrder: 0 }, { name: 'Bob Approver', email: 'bob@example.org', role: 'approver', signingOrder: 0 }] }, ...parameters, options: {} }, cred(credentialId)),
		]);
	const runMeasured = async (id, expectFields) => {
		const { run, maxRssKb } = await measuredRun(n8n, id);
		const out = run.data.main[0][0].json;
		if (out.status !== 'sent' || out.fields?.length !== expectFields) throw new Error(`${id}: status ${out.status}, ${out.fields?.length} fields, expected ${expectFields}`);
		return { ms: run.executionTime, out, rssMb: maxRssKb / 1024 };
	};
	try {
		const tags = flow('benchTextTags00001', 'bench: Create and Send, text tags', { fieldsInput: 'tags' });
		// The same with the tags left in the file (Options → Remove Tags From the PDF off): what the removal costs.
		const kept = flow('benchTagsKept00001', 'bench: Create and Send, text tags kept in the file', { fieldsInput: 'tags' });
		kept.nodes[2].parameters.options = { removeTags: false };
		const coords = flow('benchTagCoords0001', 'bench: Create and Send, two coordinate rows', {
			fieldsInput: 'ui',
			fieldsUi: {
				field: [
					{ signer: '1', field_type: 'signature', page_number: 300, position_x: 72, position_y: 600, width: 0, height: 0 },
					{ signer: '2', field_type: 'date', page_number: 300, position_x: 300, position_y: 600, width: 0, height: 0 },
				],
			},
		});
		await n8n.import([tags, kept, coords]);
		// The file the site holds: with the removal, the contract followed by an update; without, the contract itself.
		const uploaded = async (out) => {
			const res = await fetch(`${sb.apiUrl}/documents/${out.id}/file`, { headers: apiHeaders(sb) });
			if (!res.ok) throw new Error(`GET /documents/${out.id}/file answered ${res.status}`);
			return Buffer.from((await res.json()).content, 'base64');
		};
		// First runs, untimed: the tags run also gives the 402 fields for the JSON workflow (signer ids → positions).
		const first = await runMeasured(tags.id, 402);
		const withUpdate = await uploaded(first.out);
		if (!(withUpdate.length > pdf.length && withUpdate.subarray(0, pdf.length).equals(pdf))) throw new Error(`the tags run uploaded ${withUpdate.length} bytes, not the ${pdf.length}-byte contract followed by an update`);
		const position = new Map(first.out.signers.map((signer, index) => [String(signer.id), index + 1]));
		const rows = first.out.fields.map((f) => ({ signer: position.get(String(f.signer_id)), field_type: f.field_type, page_number: f.page_number, position_x: f.position_x, position_y: f.position_y, width: f.width, height: f.height, is_required: f.is_required }));
		const json = flow('benchTagJson00001', 'bench: Create and Send, 402 fields as JSON', { fieldsInput: 'json', fieldsJson: JSON.stringify(rows) });
		await n8n.import(json);
		const asIs = await uploaded((await runMeasured(kept.id, 402)).out);
		if (!asIs.equals(pdf)) throw new Error(`with Remove Tags From the PDF off the upload is ${asIs.length} bytes, not the contract as it is`);
		await runMeasured(coords.id, 2);
		await runMeasured(json.id, 402);
		const runs = { tags: [], kept: [], coords: [], json: [] };
		const rssMb = { tags: [], kept: [], coords: [], json: [] };
		const expect = { tags: 402, kept: 402, coords: 2, json: 402 };
		const byName = { tags, kept, coords, json };
		const order = ['tags', 'kept', 'coords', 'json'];
		await interleaved(order, REPS, async (which) => {
			const got = await runMeasured(byName[which].id, expect[which]);
			runs[which].push(got.ms);
			rssMb[which].push(got.rssMb);
		});
		// The same three in the n8n server, started by a webhook (answered when the run ends), so the reader runs in a
		// process that has run it before, as in a long-running n8n; the node's executionTime from the public API.
		if (!n8n.apiKey) await n8n.login({ apiKey: true });
		const hooked = {};
		for (const which of order) {
			const wf = byName[which];
			const hookPath = `bench-tags-${which}-${crypto.randomBytes(3).toString('hex')}`;
			const hook = { ...wf, id: `${wf.id.slice(0, 14)}Hook`, name: `${wf.name} (webhook)`, nodes: [node('Webhook', 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path: hookPath, responseMode: 'lastNode', options: {} }, { webhookId: crypto.randomUUID() }), ...wf.nodes.slice(1)] };
			hook.connections = chain(hook.id, hook.name, hook.nodes).connections;
			await n8n.import(hook);
			await n8n.activate(hook.id);
			hooked[which] = { id: hook.id, url: `${n8n.url}/webhook/${hookPath}` };
		}
		const runHooked = async (which) => {
			const { id, url } = hooked[which];
			for (const deadline = Date.now() + 30000; ; ) {
				const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal: AbortSignal.timeout(10 * 60000) });
				await res.arrayBuffer();
				if (res.status === 200) break;
				// The webhook registers a moment after activation: n8n's 404 until then.
				if (res.status !== 404 || Date.now() > deadline) throw new Error(`${id}: the webhook answered ${res.status}`);
				await new Promise((r) => setTimeout(r, 500));
			}
			const [execution] = (await n8n.api('GET', `/executions?${new URLSearchParams({ workflowId: id, includeData: 'true', limit: '1' })}`)).data;
			const run = execution?.data?.resultData?.runData?.Measured?.[0];
			const out = run?.data?.main?.[0]?.[0]?.json;
			if (execution?.status !== 'success' || out?.status !== 'sent' || out.fields?.length !== expect[which]) {
				throw new Error(`${id}: execution ${execution?.id} ${execution?.status}, ${out?.fields?.length} fields (expected ${expect[which]}): ${execution?.data?.resultData?.error?.message ?? ''}`);
			}
			return run.executionTime;
		};
		for (const which of order) for (let k = 0; k < 2; k++) await runHooked(which); // warm-up, untimed
		const warm = { tags: [], kept: [], coords: [], json: [] };
		await interleaved(order, REPS, async (which) => warm[which].push(await runHooked(which)));
		for (const which of order) await n8n.deactivate(hooked[which].id);
		return {
			tags: median(runs.tags),
			kept: median(runs.kept),
			coords: median(runs.coords),
			json: median(runs.json),
			runs,
			warm: { tags: median(warm.tags), kept: median(warm.kept), coords: median(warm.coords), json: median(warm.json), runs: warm },
			rssMb: { tags: median(rssMb.tags), kept: median(rssMb.kept), coords: median(rssMb.coords), json: median(rssMb.json) },
			fileKb: pdf.length / 1024,
		};
	} finally {
		await sandboxControl(sb.url, 'POST', '/__sandbox/profile', profile);
		server.close();
	}
}

// ---------------------------------------------------------------- main

async function main() {
	for (const line of ORDER) await ensureRuntime(line);
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'esign-bench-pack-'));
	const tarball = await buildAndPack(packDir);
	const machine = { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryGb: Math.round(os.totalmem() / 1024 ** 3), node: process.version };
	for (const line of ORDER) {
		const result = await runLine(line, tarball);
		fs.mkdirSync(RESULTS_DIR, { recursive: true });
		const file = path.join(RESULTS_DIR, `n8n-${result.version}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
		fs.writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), n8n: result.version, reps: REPS, machine, figures: result.figures }, null, 2) + '\n');
		say(`results: ${path.relative(ROOT, file)}`);
	}
	fs.rmSync(packDir, { recursive: true, force: true });
}

main()
	.catch((err) => {
		functionalFailures++;
		console.log(`bench:n8n failed: ${err.stack || err}`);
	})
	.finally(async () => {
		await stopChildren();
		await stopServers();
		process.exit(functionalFailures ? 1 : 0);
	});
