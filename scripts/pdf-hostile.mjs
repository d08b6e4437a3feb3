#!/usr/bin/env node
// Measures the PDF reader (nodes/ESign/pdf) on the hostile files of test/support/pdfHostile.js: each file is read in
// its own Node process (the reader compiled from the current sources by test/support/pdfReader.js), which reports
// how the read ended, its time and the process's peak resident memory (typed-array data included, which a worker's
// heap limit would not see). test/unit/pdf/hostile.test.ts checks the outcomes in jest; this script measures.
//
//   node scripts/pdf-hostile.mjs [words…]      only the cases whose name contains one of the words
//
// Bounds (reported, not asserted, as the repository's tests never hold a wall clock): BOUND_MS per read and
// BOUND_RSS_MB of peak memory; a read over BOUND_MS × 6 is stopped and counted as a hang.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const { CASES } = require('../test/support/pdfHostile.js');
const { compileReader } = require('../test/support/pdfReader.js');
const { pagesPdf } = require('../test/support/pdfRaw.js');

const BOUND_MS = Number(process.env.BOUND_MS ?? 10_000);
const BOUND_RSS_MB = Number(process.env.BOUND_RSS_MB ?? 1024);
const words = process.argv.slice(2).map((w) => w.toLowerCase());

const reader = join(compileReader(), 'index.js');
const temp = mkdtempSync(join(tmpdir(), 'esign-hostile-'));

const CHILD = `
const { readFileSync } = require('node:fs');
const { PdfText, PdfError } = require(process.argv[1]);
const bytes = new Uint8Array(readFileSync(process.argv[2]));
const started = performance.now();
const done = (result) => {
	const usage = process.resourceUsage();
	process.stdout.write(JSON.stringify({ ...result, ms: performance.now() - started, rssMb: usage.maxRSS / 1024 }));
};
(async () => {
	try {
		const pdf = await PdfText.open(bytes);
		const texts = [];
		for (const page of pdf.pages) for (const line of await pdf.lines(page.number)) if (texts.length < 5) texts.push(line.text.slice(0, 40));
		done({ outcome: 'ok', pages: pdf.pages.length, texts });
	} catch (error) {
		if (error instanceof PdfError) done({ outcome: 'PdfError', kind: error.kind, message: error.message });
		else done({ outcome: 'crash', message: String(error && error.stack) });
	}
})();
`;

function readInChild(file) {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, ['--max-old-space-size=4096', '-e', CHILD, reader, file], { stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		let err = '';
		child.stdout.on('data', (d) => (out += d));
		child.stderr.on('data', (d) => (err += d));
		const started = Date.now();
		const timer = setTimeout(() => child.kill('SIGKILL'), BOUND_MS * 6);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			if (out) return resolve(JSON.parse(out));
			if (signal === 'SIGKILL') return resolve({ outcome: 'hang', ms: Date.now() - started });
			resolve({ outcome: /heap out of memory/i.test(err) ? 'oom' : 'crash', message: err.slice(-300), ms: Date.now() - started });
		});
	});
}

const baselineFile = join(temp, 'baseline.pdf');
writeFileSync(baselineFile, pagesPdf([{ content: 'BT /F1 12 Tf 72 700 Td (baseline) Tj ET' }]));
const baseline = await readInChild(baselineFile);
console.log(`baseline (a one-line PDF): ${baseline.ms.toFixed(0)} ms, peak RSS ${baseline.rssMb.toFixed(0)} MB (Node and the reader)\n`);

let failures = 0;
const rows = [];
for (const testCase of CASES) {
	if (words.length && !words.some((w) => testCase.name.toLowerCase().includes(w))) continue;
	const bytes = testCase.build();
	const file = join(temp, 'case.pdf');
	writeFileSync(file, bytes);
	const result = await readInChild(file);
	const expected = testCase.expect;
	const matches = result.outcome === expected.outcome && (expected.kind === undefined || result.kind === expected.kind);
	const bounded = result.ms <= BOUND_MS && (result.rssMb ?? 0) <= BOUND_RSS_MB;
	if (!matches || !bounded) failures++;
	const outcome = result.outcome === 'PdfError' ? `PdfError ${result.kind}` : result.outcome;
	rows.push([matches && bounded ? 'ok  ' : 'FAIL', testCase.name, `${(bytes.length / 1024).toFixed(0)} KB`, outcome, `${result.ms.toFixed(0)} ms`, result.rssMb ? `${result.rssMb.toFixed(0)} MB` : '-']);
	console.log(rows[rows.length - 1].join(' | '));
	if (!matches) console.log(`     expected ${expected.outcome}${expected.kind ? ` ${expected.kind}` : ''}; ${result.message ?? ''}`.slice(0, 400));
}
rmSync(temp, { recursive: true, force: true });
console.log(`\n${rows.length} hostile files, ${failures} over the bounds (${BOUND_MS} ms, ${BOUND_RSS_MB} MB peak RSS) or with another outcome`);
process.exitCode = failures ? 1 : 0;
