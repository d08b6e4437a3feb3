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
const { buildPdf, pagesPdf } = require('../test/support/pdfRaw.js');

/**
 * Forms the reader reads whole, made for the form-widget removal (widgetRemoval.ts) the child runs on every file
 * that reads (test/support/pdfRewriteCheck.js): each must read, and its upload be written with `removed` widgets
 * gone, within the same bounds. (pdfHostile.js's form cases mostly stop at the reader's limits, before any removal.)
 */
const widget = (extra) => `<< /Type /Annot /Subtype /Widget /FT /Tx /Rect [100 100 200 120] /P 10 0 R ${extra} >>`;
const form = (catalog, pageAnnots, objects, pageCount = 1) =>
	buildPdf([
		[1, `<< /Type /Catalog /Pages 2 0 R ${catalog} >>`],
		[2, `<< /Type /Pages /Kids [${Array.from({ length: pageCount }, (_, i) => `${10 + i} 0 R`).join(' ')}] /Count ${pageCount} >>`],
		...Array.from({ length: pageCount }, (_, i) => [10 + i, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [${pageAnnots}] >>`]),
		...objects,
	]).bytes;
const WRITER_CASES = [
	{
		name: 'widget removal: a field tree 60 levels deep, its one widget removed (every level left empty, up to /Fields)',
		expect: { outcome: 'ok', removed: 1 },
		build: () => {
			const depth = 60;
			const base = 5000;
			const nodes = Array.from({ length: depth }, (_, i) => [base + i, `<< /T (n${i}) /Kids [${base + i + 1} 0 R] >>`]);
			return form(`/AcroForm << /Fields [${base} 0 R] /CO [${base} 0 R ${base + depth} 0 R] >>`, `${base + depth} 0 R`, [...nodes, [base + depth, widget(`/Parent ${base + depth - 1} 0 R`)]]);
		},
	},
	{
		name: 'widget removal: 9,999 widgets on one page (just under the widget limit), all removed',
		expect: { outcome: 'ok', removed: 9_999 },
		build: () => {
			const refs = Array.from({ length: 9_999 }, (_, i) => `${5000 + i} 0 R`).join(' ');
			return form(`/AcroForm 4 0 R`, refs, [[4, `<< /Fields [${refs}] /CO [${refs}] >>`], ...Array.from({ length: 9_999 }, (_, i) => [5000 + i, widget(`/T (f${i})`)])]);
		},
	},
	{
		name: "widget removal: one widget in 2,000 pages' /Annots (each page redefined) and a /CO of 200,000 entries",
		expect: { outcome: 'ok', removed: 1 },
		build: () => form(`/AcroForm << /Fields [9000 0 R] /CO [${'9000 0 R 9001 0 R '.repeat(100_000)}] >>`, '9000 0 R', [[9000, widget('/T (shared)')]], 2_000),
	},
];

const BOUND_MS = Number(process.env.BOUND_MS ?? 10_000);
const BOUND_RSS_MB = Number(process.env.BOUND_RSS_MB ?? 1024);
const words = process.argv.slice(2).map((w) => w.toLowerCase());

/** One read in a fresh child, as the fuzzer and hostile.slow.test.ts read (every page's lines, tags and anchor texts). */
const readInChild = (bytes) => readBounded(bytes, { heapMb: 4096, timeoutMs: BOUND_MS * 6 });

const baseline = await readInChild(pagesPdf([{ content: 'BT /F1 12 Tf 72 700 Td (baseline) Tj ET' }]));
console.log(`baseline (a one-line PDF): ${baseline.ms.toFixed(0)} ms, peak RSS ${baseline.rssMb.toFixed(0)} MB (Node and the reader)\n`);

let failures = 0;
const rows = [];
for (const testCase of [...CASES, ...WRITER_CASES]) {
	if (words.length && !words.some((w) => testCase.name.toLowerCase().includes(w))) continue;
	const bytes = testCase.build();
	const result = await readInChild(bytes);
	const expected = testCase.expect;
	const removed = result.rewrite?.widgets?.removed;
	const matches = result.outcome === expected.outcome && (expected.kind === undefined || result.kind === expected.kind) && (expected.removed === undefined || removed === expected.removed);
	const bounded = result.ms <= BOUND_MS && (result.rssMb ?? 0) <= BOUND_RSS_MB;
	if (!matches || !bounded) failures++;
	const outcome = result.outcome === 'PdfError' ? `PdfError ${result.kind}` : result.outcome;
	rows.push([matches && bounded ? 'ok  ' : 'FAIL', testCase.name, `${(bytes.length / 1024).toFixed(0)} KB`, outcome, `${result.ms.toFixed(0)} ms`, result.rssMb ? `${result.rssMb.toFixed(0)} MB` : '-']);
	console.log(rows[rows.length - 1].join(' | '));
	if (!matches) console.log(`     expected ${expected.outcome}${expected.kind ? ` ${expected.kind}` : ''}${expected.removed === undefined ? '' : `, ${expected.removed} widgets removed (got ${removed})`}; ${result.message ?? ''}`.slice(0, 400));
}
console.log(`\n${rows.length} hostile files, ${failures} over the bounds (${BOUND_MS} ms, ${BOUND_RSS_MB} MB peak RSS) or with another outcome`);
process.exitCode = failures ? 1 : 0;
