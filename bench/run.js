#!/usr/bin/env node
// Benchmarks: each case runs the package's code and a plain baseline doing the same work in the
// same process and run, and reports the ratio (subject / baseline). Absolute times vary by machine;
// the ratios are what to compare between commits. Results also go to bench/results/latest.json.
//
//   npm run bench            (Node 24 via node_modules/.bin)
//   npm run bench -- --quick (fewer repetitions)
require('./ts-register');

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { createSandbox } = require('../test/sandbox');
const harness = require('../test/harness');

const quick = process.argv.includes('--quick');
const REPEAT = quick ? 3 : 7;

function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

async function timeIt(fn) {
	const runs = [];
	for (let n = 0; n < REPEAT; n++) {
		const started = process.hrtime.bigint();
		await fn();
		runs.push(Number(process.hrtime.bigint() - started) / 1e6);
	}
	return median(runs);
}

/** Peak growth of RSS while fn runs, sampled every 2 ms, after a GC when available. */
async function peakMemory(fn) {
	if (global.gc) global.gc();
	const start = process.memoryUsage().rss;
	let peak = start;
	const timer = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage().rss);
	}, 2);
	try {
		await fn();
	} finally {
		clearInterval(timer);
	}
	peak = Math.max(peak, process.memoryUsage().rss);
	return (peak - start) / (1024 * 1024);
}

async function main() {
	const sb = await createSandbox({ port: 0, rateLimits: false });
	const headers = { 'X-ESIGN-API-Key': sb.keys.admin.key, 'X-ESIGN-API-Secret': sb.keys.admin.secret };
	const credentials = { siteUrl: sb.url, apiKey: sb.keys.admin.key, apiSecret: sb.keys.admin.secret, webhookSecret: sb.webhookSecret };
	const results = [];
	try {
		// 1. Return All over 1,000 documents: node through the engine vs a bare fetch loop.
		await fetch(`${sb.url}/__sandbox/seed/documents`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ count: 1000, owner: 'admin' }),
		});
		const baselineList = await timeIt(async () => {
			const all = [];
			for (let page = 1; ; page++) {
				const res = await fetch(`${sb.apiUrl}/documents?page=${page}&per_page=100`, { headers });
				const items = await res.json();
				all.push(...items);
				if (page >= Number(res.headers.get('x-esign-totalpages'))) break;
			}
			if (all.length !== 1000) throw new Error(`baseline listed ${all.length}`);
		});
		const nodeList = await timeIt(async () => {
			const res = await harness.runNode({
				type: 'n8n-nodes-esign.eSign',
				parameters: { resource: 'document', operation: 'getMany', returnAll: true },
				credentials,
			});
			if (res.error || res.items.length !== 1000) throw new Error(`node listed ${res.items.length}: ${res.error?.message}`);
		});
		results.push({ case: 'Document Get Many, Return All, 1000 documents', unit: 'ms (median)', baseline: baselineList, subject: nodeList });

		// 2. Webhook signature check: the trigger's verifier vs inline HMAC + timingSafeEqual.
		const { verifySignature } = require('../nodes/ESignTrigger/verifySignature');
		const body = Buffer.from(JSON.stringify({ event: 'document.completed', data: { document_id: '1', document_title: 'x'.repeat(2000) } }));
		const secret = crypto.randomBytes(24).toString('hex');
		const header = 'sha256=' + crypto.createHmac('sha256', secret).update(body).digest('hex');
		const N = 20000;
		const baselineVerify = await timeIt(async () => {
			for (let n = 0; n < N; n++) {
				const expected = Buffer.from('sha256=' + crypto.createHmac('sha256', secret).update(body).digest('hex'));
				const given = Buffer.from(header);
				if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw new Error('baseline mismatch');
			}
		});
		const subjectVerify = await timeIt(async () => {
			for (let n = 0; n < N; n++) {
				if (!verifySignature(body, header, secret).valid) throw new Error('verifier rejected a valid signature');
			}
		});
		results.push({ case: `Signature verification, ${N} x 2 KB bodies`, unit: 'ms (median)', baseline: baselineVerify, subject: subjectVerify });

		// 3. Download of a 12 MB file: peak memory of the node (filesystem binary mode) vs fetch + decode.
		const big = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), crypto.randomBytes(12 * 1024 * 1024)]);
		const form = new FormData();
		form.append('file', new Blob([big]), 'big.png');
		const uploaded = await (await fetch(`${sb.apiUrl}/documents/upload`, { method: 'POST', headers, body: form })).json();
		const baselineMem = await peakMemory(async () => {
			const res = await fetch(`${sb.apiUrl}/documents/${uploaded.id}/file`, { headers });
			const json = await res.json();
			const bytes = Buffer.from(json.content, 'base64');
			if (bytes.length !== big.length) throw new Error('baseline size');
		});
		const subjectMem = await peakMemory(async () => {
			const res = await harness.runNode({
				type: 'n8n-nodes-esign.eSign',
				parameters: { resource: 'document', operation: 'download', documentId: { __rl: true, mode: 'id', value: String(uploaded.id) } },
				credentials,
				binaryMode: 'filesystem',
			});
			if (res.error || res.items[0].binary.data.bytes !== big.length) throw new Error(`node download: ${res.error?.message}`);
		});
		results.push({ case: 'Download 12 MB file, peak RSS growth', unit: 'MiB', baseline: baselineMem, subject: subjectMem });
	} finally {
		await sb.close();
	}

	for (const r of results) r.ratio = r.baseline > 0 ? r.subject / r.baseline : null;
	const rows = results.map((r) => [r.case, r.unit, r.baseline.toFixed(1), r.subject.toFixed(1), r.ratio === null ? 'n/a' : r.ratio.toFixed(2)]);
	const widths = [0, 1, 2, 3, 4].map((c) => Math.max(...[['case', 'unit', 'baseline', 'subject', 'ratio'], ...rows].map((row) => row[c].length)));
	for (const row of [['case', 'unit', 'baseline', 'subject', 'ratio'], ...rows]) {
		console.log(row.map((cell, c) => cell.padEnd(widths[c])).join('  '));
	}
	const outDir = path.join(__dirname, 'results');
	fs.mkdirSync(outDir, { recursive: true });
	fs.writeFileSync(
		path.join(outDir, 'latest.json'),
		JSON.stringify({ at: new Date().toISOString(), node: process.version, repeat: REPEAT, results }, null, 2),
	);
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
