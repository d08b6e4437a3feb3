#!/usr/bin/env node
// Fuzzes the package's PDF reader (nodes/ESign/pdf) with mutated fixtures (test/support/pdfFuzz.js: byte flips,
// random bytes, truncation, chunks cut, duplicated and moved, tokens inserted, xref offsets shifted, and, behind a
// sound cross-reference, decoded content streams, CMaps, object streams, xref streams, single objects and font
// programs mutated; a built base carries a Type 1, a CFF and a TrueType program).
//
//   npm run fuzz:pdf -- [--cases 20000] [--seed 1] [--jobs 2] [--timeout 10000] [--heap 512] [--out fuzz-findings]
//   node scripts/fuzz-pdf.mjs --repro FILE.pdf    reads one file as a case is read (a child; pages, tags, anchor texts): its outcome, and a crash's stack
//   node scripts/fuzz-pdf.mjs --case SEED         writes the case of one seed (cases are a pure function of it)
//
// Each case is read in a child process (test/support/pdfReader.js) with a JS heap of --heap MB and --timeout ms:
// a hang or a blow-up is counted, not fatal. The reader is transpiled from the current TypeScript sources into a temp
// folder (no build, no stale dist/), as bench/ts-register.js does, once, and every child loads that plain JavaScript.
// Outcomes: ok, PdfError by kind, crash (any exception that is not a PdfError), hang (over --timeout), oom (the
// child ran out of heap), died (the child ended otherwise). Every crash, hang, oom or death is read again in a fresh
// child (a child that read hundreds of cases is not the suspect), and its input saved to --out with a one-line repro.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const { compileReader, readBounded, ReaderChild } = require('../test/support/pdfReader.js');
const { loadFuzzBases, makeCase } = require('../test/support/pdfFuzz.js');

const args = process.argv.slice(2);
const option = (name, fallback) => {
	const at = args.indexOf(`--${name}`);
	return at >= 0 && at + 1 < args.length ? args[at + 1] : fallback;
};
const CASES = Number(option('cases', 20000));
const SEED = Number(option('seed', 1));
const JOBS = Number(option('jobs', Math.max(1, availableParallelism())));
const TIMEOUT_MS = Number(option('timeout', 10_000));
const HEAP_MB = Number(option('heap', 512));
const RECYCLE = Number(option('recycle', 300));
const OUT = resolve(option('out', 'fuzz-findings'));

const reader = join(compileReader(), 'index.js');

if (args.includes('--repro')) {
	const result = await readBounded(new Uint8Array(readFileSync(option('repro'))), { heapMb: HEAP_MB, timeoutMs: TIMEOUT_MS });
	const ms = `${Math.round(result.ms ?? 0)} ms`;
	if (result.outcome === 'ok') console.log(`ok: ${result.pages} pages, ${result.lines} lines, ${result.tags} tags, ${result.fields} form widgets, ${ms}; removal: ${JSON.stringify(result.rewrite)}`);
	else if (result.outcome === 'PdfError') console.log(`PdfError ${result.kind}: ${result.message} (${ms})`);
	else {
		console.log(`${result.outcome} after ${ms}: ${result.stack ?? result.message ?? ''}`);
		process.exitCode = 1;
	}
} else if (args.includes('--case')) {
	const seed = Number(option('case'));
	const bases = await loadFuzzBases();
	const made = makeCase(bases, seed);
	mkdirSync(OUT, { recursive: true });
	const file = join(OUT, `case-${seed}.pdf`);
	writeFileSync(file, made.bytes);
	console.log(`${made.description}\nwrote ${file} (${made.bytes.length} bytes)`);
} else {
	await fuzz();
}

async function fuzz() {
	const started = Date.now();
	const bases = await loadFuzzBases();
	console.log(`fuzzing the PDF reader: ${CASES} cases from seed ${SEED}, ${bases.length} fixtures (${bases.filter((b) => b.objects).length} rebuilt from their objects), ${JOBS} children, ${HEAP_MB} MB heap, ${TIMEOUT_MS} ms per case`);
	const counts = new Map();
	const count = (key) => counts.set(key, (counts.get(key) ?? 0) + 1);
	const kinds = new Map();
	const slowest = [];
	const findings = [];
	const signatures = new Map();
	// Cases that reached the form-widget removal (a form with widgets that become fields), written or not, and with tags.
	const widgetCases = { reached: 0, written: 0, withTags: 0 };
	// Cases whose fill (issue 51) had something to fill: refused with reasons, or written.
	const fillCases = { reached: 0, written: 0, refused: 0 };
	let next = 0;
	let done = 0;

	const keepSlowest = (ms, description) => {
		slowest.push({ ms, description });
		slowest.sort((a, b) => b.ms - a.ms);
		slowest.length = Math.min(slowest.length, 10);
	};

	/** A finding is read again in a fresh child: a child that read hundreds of cases is not the suspect. */
	async function confirm(made, first) {
		const again = await readBounded(made.bytes, { heapMb: HEAP_MB, timeoutMs: TIMEOUT_MS });
		return again.outcome === first.outcome ? again : { ...again, firstOutcome: first.outcome };
	}

	async function record(made, result) {
		let final = result;
		if (['crash', 'hang', 'oom', 'died'].includes(result.outcome)) final = await confirm(made, result);
		const outcome = final.outcome === 'PdfError' ? `PdfError ${final.kind}` : final.outcome;
		count(final.firstOutcome && final.outcome !== final.firstOutcome ? `${result.outcome} (not again in a fresh child: ${outcome})` : outcome);
		kinds.set(made.kind, (kinds.get(made.kind) ?? 0) + 1);
		const filled = final.outcome === 'ok' ? final.filled : undefined;
		if (filled && (filled.filled || filled.refused)) {
			fillCases.reached++;
			if (filled.changed) fillCases.written++;
			if (filled.refused) fillCases.refused++;
		}
		const widgets = final.outcome === 'ok' ? final.rewrite?.widgets : undefined;
		if (widgets) {
			widgetCases.reached++;
			if (widgets.changed) widgetCases.written++;
			if (widgets.both) widgetCases.withTags++;
		}
		if (final.ms !== undefined && final.outcome !== 'hang') keepSlowest(final.ms, made.description);
		if (['crash', 'hang', 'oom', 'died'].includes(final.outcome)) {
			mkdirSync(OUT, { recursive: true });
			const name = `${final.outcome}-${made.seed}`;
			const file = join(OUT, `${name}.pdf`);
			writeFileSync(file, made.bytes);
			const repro = `node scripts/fuzz-pdf.mjs --repro ${file}`;
			const detail = final.stack ?? final.message ?? '';
			writeFileSync(join(OUT, `${name}.txt`), `${made.description}\n${final.outcome}: ${detail}\nrepro: ${repro}\n`);
			const signature = `${final.outcome}: ${(final.stack ?? final.message ?? '').split('\n').slice(0, 2).join(' ').replace(/\/tmp\/esign-pdf-reader-\w+\//g, '')}`.slice(0, 240);
			signatures.set(signature, [...(signatures.get(signature) ?? []), made.seed]);
			findings.push({ outcome: final.outcome, file, repro, description: made.description });
		}
	}

	async function worker() {
		let child = new ReaderChild({ heapMb: HEAP_MB, reader });
		let served = 0;
		while (next < CASES) {
			const seed = SEED + next++;
			const made = { ...makeCase(bases, seed), seed };
			if (!child.alive || served >= RECYCLE) {
				child.kill();
				child = new ReaderChild({ heapMb: HEAP_MB, reader });
				served = 0;
			}
			const result = await child.read(made.bytes, { timeoutMs: TIMEOUT_MS });
			served++;
			await record(made, result);
			if (++done % 1000 === 0) {
				const rate = done / ((Date.now() - started) / 1000);
				console.log(`${done} cases, ${rate.toFixed(1)}/s: ${[...counts].map(([k, v]) => `${k} ${v}`).join(', ')}`);
			}
		}
		child.kill();
	}

	await Promise.all(Array.from({ length: JOBS }, worker));
	const seconds = (Date.now() - started) / 1000;
	console.log(`\n${done} cases in ${seconds.toFixed(0)} s (${(done / seconds).toFixed(1)} a second)`);
	console.log('cases by mutation:', [...kinds].map(([k, v]) => `${k} ${v}`).join(', '));
	console.log(`form-widget removal: ${widgetCases.reached} cases reached it, ${widgetCases.written} written, ${widgetCases.withTags} with tags in the same update`);
	console.log(`fill: ${fillCases.reached} cases had values to draw, ${fillCases.written} written, ${fillCases.refused} refused with reasons`);
	console.log('outcomes:');
	for (const [key, value] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`  ${String(value).padStart(6)}  ${key}`);
	console.log('slowest cases that ended:');
	for (const { ms, description } of slowest) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${description.slice(0, 160)}`);
	if (signatures.size) {
		console.log('findings by signature:');
		for (const [signature, seeds] of signatures) console.log(`  ${seeds.length}×  ${signature}\n        seeds ${seeds.slice(0, 8).join(', ')}`);
		console.log(`inputs and repro commands in ${OUT}, e.g.\n  ${findings[0].repro}`);
	}
	const summary = { cases: done, seed: SEED, seconds, timeoutMs: TIMEOUT_MS, heapMb: HEAP_MB, outcomes: Object.fromEntries(counts), widgetCases, slowest, findings };
	mkdirSync(OUT, { recursive: true });
	writeFileSync(join(OUT, `summary-seed-${SEED}.json`), `${JSON.stringify(summary, null, 2)}\n`);
	process.exitCode = findings.length ? 1 : 0;
}
