'use strict';
/**
 * The package's PDF reader (nodes/ESign/pdf) compiled for plain Node, and read in child processes with a heap limit:
 * for the hostile-file tests (an out-of-memory or an abort shows as an outcome instead of taking jest down), the
 * fuzzer (scripts/fuzz-pdf.mjs) and its measurements (scripts/pdf-hostile.mjs). Child processes rather than worker
 * threads: V8 aborts the whole process on some heap exhaustions (one allocation too large for the limit), which a
 * worker's resourceLimits do not catch.
 *
 * `compileReader()` transpiles the reader's TypeScript sources (and the node's text matching, nodes/ESign/textTags/) (typescript's transpileModule, as bench/ts-register.js
 * does, no type check) into a temp folder named by a hash of the sources, once per source state: every child then
 * loads plain CommonJS, always from the current sources (no stale dist/, no build step).
 */
const { fork } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const NODES = path.join(__dirname, '..', '..', 'nodes');
/** What the children load: the reader's door and the node's text matching (tags, anchors), with what they import. */
const ROOTS = ['ESign/pdf/index.ts', 'ESign/textTags/tags.ts', 'ESign/textTags/anchors.ts', 'ESign/helpers/pdfFill.ts'];
const CHILD = path.join(__dirname, 'pdfReadChild.js');

/** The roots and every file they import by a relative path (ts and json), as paths under nodes/, sorted. */
function sourcesOf(roots) {
	const seen = new Set();
	const visit = (file) => {
		if (seen.has(file)) return;
		seen.add(file);
		if (!file.endsWith('.ts')) return;
		const text = fs.readFileSync(path.join(NODES, file), 'utf8');
		for (const [, spec] of text.matchAll(/\bfrom '(\.{1,2}\/[^']+)'/g)) {
			const target = path.posix.join(path.posix.dirname(file), spec);
			const candidates = [`${target}.ts`, `${target}/index.ts`, target];
			const found = candidates.find((c) => fs.existsSync(path.join(NODES, c)) && fs.statSync(path.join(NODES, c)).isFile());
			if (!found) throw new Error(`${file} imports ${spec}, which is not a file`);
			visit(found);
		}
	};
	for (const root of roots) visit(root);
	return [...seen].sort();
}

/**
 * Returns the folder of the compiled reader's index.js (ESign/pdf/; the text matching is in ../textTags/). `extraRoots`
 * (paths under nodes/, e.g. 'ESign/helpers/pdfFill.ts' for scripts/fill-check.mjs) are compiled beside it, with what
 * they import, into their own folder (the hash covers every file).
 */
function compileReader(extraRoots = []) {
	const files = sourcesOf([...ROOTS, ...extraRoots]);
	const hash = crypto.createHash('sha256');
	for (const file of files) hash.update(file).update(fs.readFileSync(path.join(NODES, file)));
	const dir = path.join(os.tmpdir(), `esign-pdf-reader-${hash.digest('hex').slice(0, 16)}`);
	const readerDir = path.join(dir, 'ESign', 'pdf');
	const done = [path.join(readerDir, 'index.js'), ...extraRoots.map((root) => path.join(dir, root.replace(/\.ts$/, '.js')))];
	if (done.every((file) => fs.existsSync(file))) return readerDir;
	const ts = require('typescript');
	const temp = `${dir}.tmp-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
	for (const file of files) {
		const source = fs.readFileSync(path.join(NODES, file), 'utf8');
		const out = path.join(temp, file);
		fs.mkdirSync(path.dirname(out), { recursive: true });
		if (!file.endsWith('.ts')) {
			fs.writeFileSync(out, source);
			continue;
		}
		const { outputText } = ts.transpileModule(source, {
			fileName: path.basename(file),
			compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, useUnknownInCatchVariables: false, preserveConstEnums: true },
		});
		fs.writeFileSync(out.replace(/\.ts$/, '.js'), outputText);
	}
	try {
		fs.renameSync(temp, dir);
	} catch {
		fs.rmSync(temp, { recursive: true, force: true }); // another process made it first
	}
	return readerDir;
}

/**
 * A child process reading PDFs one at a time. `read(bytes, options)` resolves with the child's answer
 * ({ outcome: 'ok' | 'PdfError' | 'crash', … }), or { outcome: 'oom' } when the child died out of memory,
 * { outcome: 'died' } when it died otherwise, { outcome: 'hang' } past `timeoutMs`. After a death or a hang the
 * child is gone: `alive` is false and the owner starts another.
 */
class ReaderChild {
	constructor({ heapMb = 256, reader = path.join(compileReader(), 'index.js') } = {}) {
		this.stderr = '';
		this.alive = true;
		this.pending = undefined;
		this.child = fork(CHILD, [reader], {
			execArgv: [`--max-old-space-size=${heapMb}`, '--max-semi-space-size=16'],
			serialization: 'advanced',
			stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
		});
		this.child.stderr.on('data', (chunk) => {
			this.stderr = (this.stderr + chunk).slice(-4000);
		});
		this.child.on('message', (message) => this.settle(message));
		this.child.on('exit', (code, signal) => {
			this.alive = false;
			const oom = /heap out of memory|Allocation failed|Invalid array length|Reached heap limit/i.test(this.stderr);
			this.settle({ outcome: oom ? 'oom' : 'died', message: `exit ${code ?? signal}: ${this.stderr.slice(-600)}` });
		});
		this.nextId = 0;
	}

	settle(result) {
		const pending = this.pending;
		if (!pending || (result.id !== undefined && result.id !== pending.id)) return;
		this.pending = undefined;
		if (pending.timer) clearTimeout(pending.timer);
		pending.resolve(result);
	}

	read(bytes, { timeoutMs, maxPages, limits } = {}) {
		if (!this.alive) return Promise.resolve({ outcome: 'died', message: 'the child was already gone' });
		return new Promise((resolve) => {
			const id = ++this.nextId;
			const started = Date.now();
			this.pending = { id, resolve };
			if (timeoutMs) {
				this.pending.timer = setTimeout(() => {
					this.settle({ id, outcome: 'hang', ms: Date.now() - started });
					this.kill();
				}, timeoutMs);
			}
			this.child.send({ id, bytes, maxPages, limits });
		});
	}

	kill() {
		this.alive = false;
		this.child.kill('SIGKILL');
	}
}

/** Reads `bytes` once in a fresh child whose JS heap is limited to `heapMb` (default 256), then stops the child. */
async function readBounded(bytes, options = {}) {
	const child = new ReaderChild({ heapMb: options.heapMb });
	try {
		return await child.read(bytes, options);
	} finally {
		child.kill();
	}
}

module.exports = { compileReader, readBounded, ReaderChild };
