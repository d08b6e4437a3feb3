'use strict';
/**
 * The package's PDF reader (nodes/ESign/pdf) compiled for plain Node, and read in a worker thread with a heap limit:
 * for the hostile-file tests (an out-of-memory shows as an outcome instead of taking jest down), the fuzzer
 * (scripts/fuzz-pdf.mjs) and its measurements (scripts/pdf-hostile.mjs).
 *
 * `compileReader()` transpiles the reader's TypeScript sources (typescript's transpileModule, as bench/ts-register.js
 * does, no type check) into a temp folder named by a hash of the sources, once per source state: every worker and
 * every process then loads plain CommonJS, always from the current sources (no stale dist/, no build step).
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Worker } = require('node:worker_threads');

const SOURCE = path.join(__dirname, '..', '..', 'nodes', 'ESign', 'pdf');

function compileReader() {
	const files = fs.readdirSync(SOURCE).filter((f) => f.endsWith('.ts') || f.endsWith('.json')).sort();
	const hash = crypto.createHash('sha256');
	for (const file of files) hash.update(file).update(fs.readFileSync(path.join(SOURCE, file)));
	const dir = path.join(os.tmpdir(), `esign-pdf-reader-${hash.digest('hex').slice(0, 16)}`);
	if (fs.existsSync(path.join(dir, 'index.js'))) return dir;
	const ts = require('typescript');
	const temp = `${dir}.tmp-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
	fs.mkdirSync(temp, { recursive: true });
	for (const file of files) {
		const source = fs.readFileSync(path.join(SOURCE, file), 'utf8');
		if (file.endsWith('.json')) {
			fs.writeFileSync(path.join(temp, file), source);
			continue;
		}
		const { outputText } = ts.transpileModule(source, {
			fileName: file,
			compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, useUnknownInCatchVariables: false, preserveConstEnums: true },
		});
		fs.writeFileSync(path.join(temp, file.replace(/\.ts$/, '.js')), outputText);
	}
	try {
		fs.renameSync(temp, dir);
	} catch {
		fs.rmSync(temp, { recursive: true, force: true }); // another process made it first
	}
	return dir;
}

/**
 * The worker's side: opens the bytes, reads every page's lines (or the first `maxPages`), and answers
 * { outcome: 'ok', pages, lines } | { outcome: 'PdfError', kind, message } | { outcome: 'crash', name, message, stack }.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { PdfText, PdfError } = require(workerData.reader);
(async () => {
	const started = performance.now();
	try {
		const pdf = await PdfText.open(new Uint8Array(workerData.bytes), workerData.limits || {});
		let lines = 0;
		const texts = [];
		for (const page of pdf.pages.slice(0, workerData.maxPages ?? Infinity)) {
			const read = await pdf.lines(page.number);
			lines += read.length;
			if (texts.length < 20) texts.push(...read.slice(0, 20 - texts.length).map((line) => line.text.slice(0, 200)));
		}
		parentPort.postMessage({ outcome: 'ok', pages: pdf.pages.length, lines, texts, ms: performance.now() - started });
	} catch (error) {
		if (error instanceof PdfError) parentPort.postMessage({ outcome: 'PdfError', kind: error.kind, message: error.message, ms: performance.now() - started });
		else parentPort.postMessage({ outcome: 'crash', name: error && error.name, message: String(error && error.message), stack: String(error && error.stack), ms: performance.now() - started });
	}
})();
`;

/**
 * Reads `bytes` in a worker whose JS heap is limited to `heapMb` (typed-array data is outside that limit). Resolves
 * with the worker's answer, or { outcome: 'oom' } when the worker ran out of heap, or { outcome: 'hang' } after
 * `timeoutMs` (default: none; jest's own hang guard applies).
 */
function readBounded(bytes, options = {}) {
	const reader = path.join(compileReader(), 'index.js');
	return new Promise((resolve) => {
		const worker = new Worker(WORKER_SOURCE, {
			eval: true,
			workerData: { reader, bytes, limits: options.limits, maxPages: options.maxPages },
			resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? 256, maxYoungGenerationSizeMb: 32 },
		});
		let settled = false;
		const finish = (result) => {
			if (settled) return;
			settled = true;
			if (timer) clearTimeout(timer);
			worker.terminate().catch(() => undefined);
			resolve(result);
		};
		const timer = options.timeoutMs ? setTimeout(() => finish({ outcome: 'hang' }), options.timeoutMs) : undefined;
		worker.on('message', finish);
		worker.on('error', (error) =>
			finish(error && error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { outcome: 'oom', message: error.message } : { outcome: 'crash', name: error && error.name, message: String(error && error.message) }),
		);
		worker.on('exit', (code) => finish({ outcome: 'crash', name: 'exit', message: `worker exited with code ${code}` }));
	});
}

module.exports = { compileReader, readBounded, WORKER_SOURCE };
