#!/usr/bin/env node
// Measures the PDF reader (nodes/ESign/pdf) on the hostile files of test/support/pdfHostile.js: each file is read in
// its own Node process (test/support/pdfReader.js: the reader compiled from the current sources), which reports
// how the read ended, its time and the process's peak resident memory (typed-array data included, which a worker's
// heap limit would not see). test/unit/pdf/hostile.slow.test.ts checks the outcomes in jest; this script measures.
//
//   node scripts/pdf-hostile.mjs [words…]      only the cases whose name contains one of the words
//
// Bounds (reported, not asserted, as the repository's tests never hold a wall clock): BOUND_MS per read and
// BOUND_RSS_MB of peak memory; a read over BOUND_MS × 6 is stopped and counted as a hang.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { CASES } = require('../test/support/pdfHostile.js');
const { readBounded } = require('../test/support/pdfReader.js');
const { pagesPdf } = require('../test/support/pdfRaw.js');

const BOUND_MS = Number(process.env.BOUND_MS ?? 10_000);
const BOUND_RSS_MB = Number(process.env.BOUND_RSS_MB ?? 1024);
const words = process.argv.slice(2).map((w) => w.toLowerCase());

/** One read in a fresh child, as the fuzzer and hostile.slow.test.ts read (every page's lines, tags and anchor texts). */
const readInChild = (bytes) => readBounded(bytes, { heapMb: 4096, timeoutMs: BOUND_MS * 6 });

const baseline = await readInChild(pagesPdf([{ content: 'BT /F1 12 Tf 72 700 Td (baseline) Tj ET' }]));
console.log(`baseline (a one-line PDF): ${baseline.ms.toFixed(0)} ms, peak RSS ${baseline.rssMb.toFixed(0)} MB (Node and the reader)\n`);

let failures = 0;
const rows = [];
for (const testCase of CASES) {
	if (words.length && !words.some((w) => testCase.name.toLowerCase().includes(w))) continue;
	const bytes = testCase.build();
	const result = await readInChild(bytes);
	const expected = testCase.expect;
	const matches = result.outcome === expected.outcome && (expected.kind === undefined || result.kind === expected.kind);
	const bounded = result.ms <= BOUND_MS && (result.rssMb ?? 0) <= BOUND_RSS_MB;
	if (!matches || !bounded) failures++;
	const outcome = result.outcome === 'PdfError' ? `PdfError ${result.kind}` : result.outcome;
	rows.push([matches && bounded ? 'ok  ' : 'FAIL', testCase.name, `${(bytes.length / 1024).toFixed(0)} KB`, outcome, `${result.ms.toFixed(0)} ms`, result.rssMb ? `${result.rssMb.toFixed(0)} MB` : '-']);
	console.log(rows[rows.length - 1].join(' | '));
	if (!matches) console.log(`     expected ${expected.outcome}${expected.kind ? ` ${expected.kind}` : ''}; ${result.message ?? ''}`.slice(0, 400));
}
console.log(`\n${rows.length} hostile files, ${failures} over the bounds (${BOUND_MS} ms, ${BOUND_RSS_MB} MB peak RSS) or with another outcome`);
process.exitCode = failures ? 1 : 0;
