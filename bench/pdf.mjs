#!/usr/bin/env node
// `npm run bench:pdf`: the PDF reader (nodes/ESign/pdf/) locating text tags, against pdf.js (pdfjs-dist, a
// devDependency) extracting the same pages' text, in the same run. Issue 37's targets for the 300-page contract
// (test/fixtures/pdf/contract-300-pages.pdf, 402 tags): time ≤ 1.0 × pdf.js, peak memory ≤ 3 × the file.
//
//   time    interleaved repetitions (the order alternating), a forced GC before each, after one untimed first run
//           of each: (a) ours = PdfText.open + every page's lines(page, mayHoldTag) + findTags, as the node reads
//           tags; (b) pdf.js = getDocument over a copy of the same bytes + getPage/getTextContent/cleanup for every
//           page + destroy. Medians, min/max, ratio of the medians and the spread of the per-repetition ratios,
//           wall clock and CPU time (process.cpuUsage: every thread, so Flate on the thread pool counts).
//   memory  each in a child process of its own (--expose-gc), relative to a baseline taken after a forced GC with
//           the modules loaded and the file already in memory, divided by the file's size:
//           - live: heapUsed + arrayBuffers after a forced GC, sampled after open and at every page boundary (what
//             the read holds on to: document, caches, read-ahead, tags found); the first read of the process and a
//             second one; --fine also samples at every line end inside pages (slow);
//           - RSS: the process's resident size during a read without forced GCs, the process's first read and a
//             second one: the kernel's high-water mark (VmHWM, reset through /proc/self/clear_refs before the read)
//             and a 1-ms timer's samples (only between the reader's awaits); median of 3 children;
//           - allocated: what a read allocates on the JS heap, garbage included (v8.GCProfiler's heap sizes).
//   rewrite the tags' removal (issues 42 and 50), stated as users feel it: the seconds it adds to the read, not a
//           ratio (a ratio's meaning moves with the read's own speed, and a user waits for the difference). For two
//           files: a 5-page contract (pages 1-5 of the 300-page one, copied at run time by pdf-lib into a new file,
//           with its signer tags and a text field per page added for the fill, below: a committed fixture would need
//           the fixture generator, LibreOffice, and every test that walks the manifest) and the 300-page contract. Per repetition, interleaved (the order alternating), a forced GC
//           before each, after one untimed run of each: the read with sources + removeTag for every tag + write()
//           minus the read alone; the median of those differences, min and max. Targets (issue 50): the 5-page
//           contract's extra within the noise of its read, defined here as the interquartile range of the read
//           alone's repetitions (linear interpolation between order statistics; stricter than max-min, which one
//           slow repetition widens); the 300-page contract's at most 0.5 s. With memory (not skipped), the 300-page
//           contract's peak RSS growth beyond the read's: the RSS children's VmHWM growth, median of the removal's
//           children minus median of the read's, for the process's first read and a second: at most 32 MB.
//           The live heap beyond the read and the update's size are printed for context, with no target.
//   fill    the fill (issue 51), in the rewrite's repetitions on the 5-page contract (a third run in each, the order
//           rotating): that file holds both its signer tags (as copied) and, added by pdf-lib, one text field a page,
//           `page_N_note`, 200 × 18 pt in the top margin, Helvetica 10; the run is Document → Fill PDF's work:
//           PdfText.open + planFill + writeFill of "Note for page N" in every field. Its extra beyond the read alone,
//           median of the per-repetition differences (min – max); target: at most the tag removal's median extra.
//   load    os.loadavg() (1, 5 and 15 minutes) at the start and the end, and the CPU count, printed and in the JSON:
//           wall-clock differences of a few ms mean little on a loaded machine, so the reader of a figure can tell.
//   fixtures the same time comparison on the other fixtures of test/fixtures/pdf/manifest.json (2-page files), each
//           repetition a batch of reads, for context.
//   profile (--profile) V8's sampling profilers in a child, for ours and for pdf.js: CPU over 5 reads (the top
//           self-time functions and files) and allocations over one read (which functions allocate, garbage
//           included); the .cpuprofile and .heapprofile files go to bench/results/ (Chrome DevTools opens them).
//
// The reader (nodes/ESign/pdf/, and helpers/pdfFill.ts for the fill) is built fresh from the working tree at every
// run, into bench/results/pdf-build/, by the TypeScript compiler as a program with tsconfig.build.json's settings:
// the JavaScript `npm run build` puts in dist/ (and so what n8n runs), without touching dist/. Not through bench/ts-register.js as bench/run.js does:
// that compiles file by file, so the lexer's `const enum Tok` becomes a property read in every file that uses it
// instead of the number the build writes (--source measures that way, for comparison). pdf.js runs its legacy
// build with its worker in this process (Node has no pdf.js worker thread), as test/support/pdfjsOracle.mjs does,
// but unpatched. Profile lines are those of the built JavaScript in bench/results/pdf-build/.
//
// Options: --reps N (7; or BENCH_PDF_REPS), --fixture-reps N (5), --file PDF (another file; --tags N its expected
// tag count, else from the manifest), --skip memory,fixtures,rewrite, --profile, --fine, --source. Results:
// bench/results/pdf-<time>.json.
// It is a benchmark, not a test: it exits 1 only when a read fails or finds another number of tags than expected.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'pdf');
const RESULTS_DIR = path.join(HERE, 'results');
const CONTRACT = path.join(FIXTURES, 'contract-300-pages.pdf');
const NODES_DIR = path.join(ROOT, 'nodes');
// The reader's door and the node's tag grammar (nodes/ESign/textTags/), as the node reads tags.
const READER = ['ESign/pdf/index', 'ESign/textTags/tags'];
// The fill (issue 51), as Document → Fill PDF draws values: planFill and writeFill (it imports only the two above).
const FILL = 'ESign/helpers/pdfFill';
const BUILD_DIR = path.join(RESULTS_DIR, 'pdf-build');
// Issue 50's targets for the removal, as users feel it (see the header).
const FIVE_PAGES = 5;
const TARGET_300_EXTRA_MS = 500;
const TARGET_300_RSS_MB = 32;
// The 5-page contract's text fields (one a page, added by pdf-lib): name, place (pt from the page's top left), size.
const FIELD_NAME = (n) => `page_${n}_note`;
const FIELD = { left: 72, top: 36, width: 200, height: 18, fontSize: 10 };
const FIELD_VALUE = (n) => `Note for page ${n}`;
const MB = 1024 * 1024;
const NOISE = 'the interquartile range of the read alone\'s repetitions';

// ---------------------------------------------------------------- options

function parseArgs(argv) {
	const opts = { reps: Number(process.env.BENCH_PDF_REPS || 7), fixtureReps: 5, file: CONTRACT, skip: new Set(), profile: false, fine: false };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const value = () => argv[++i];
		if (a === '--reps') opts.reps = Number(value());
		else if (a === '--fixture-reps') opts.fixtureReps = Number(value());
		else if (a === '--file') opts.file = path.resolve(value());
		else if (a === '--tags') opts.tags = Number(value());
		else if (a === '--skip') for (const s of value().split(',')) opts.skip.add(s.trim());
		else if (a === '--profile') opts.profile = true;
		else if (a === '--fine') opts.fine = true;
		else if (a === '--source') opts.source = true;
		else if (a === '--child') opts.child = value();
		else if (a === '--subject') opts.subject = value();
		else if (a === '--password') opts.password = value();
		else throw new Error(`unknown option ${a}`);
	}
	if (!(opts.reps >= 1) || !(opts.fixtureReps >= 1)) throw new Error('--reps and --fixture-reps take a number from 1');
	return opts;
}

// ---------------------------------------------------------------- the two readers

/** Compiles the reader as `tsc -p tsconfig.build.json` would (one program: const enums inlined) into BUILD_DIR. */
function buildReader() {
	const ts = require('typescript');
	const fail = (diagnostic) => {
		throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
	};
	const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.build.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: fail });
	fs.rmSync(BUILD_DIR, { recursive: true, force: true });
	const roots = [...READER, FILL].map((f) => path.join(NODES_DIR, `${f}.ts`));
	const program = ts.createProgram(roots, { ...config.options, rootDir: NODES_DIR, outDir: BUILD_DIR, declaration: false, sourceMap: false });
	const { emitSkipped, diagnostics } = program.emit();
	const errors = [...ts.getPreEmitDiagnostics(program), ...diagnostics].filter((d) => d.category === ts.DiagnosticCategory.Error);
	if (emitSkipped || errors.length) fail(errors[0] ?? { messageText: 'the reader was not emitted' });
	for (const file of [...READER, FILL]) if (!fs.existsSync(path.join(BUILD_DIR, `${file}.js`))) throw new Error(`the build has no ${file}.js`);
}

let ourReader;
let fromSource = false;
function loadOurs() {
	if (!ourReader) {
		let dir = BUILD_DIR;
		if (fromSource) {
			require('./ts-register.js');
			dir = NODES_DIR;
		}
		const ext = fromSource ? '.ts' : '.js';
		const { PdfText } = require(path.join(dir, `${READER[0]}${ext}`));
		const { findTags, mayHoldTag } = require(path.join(dir, `${READER[1]}${ext}`));
		const { planFill, writeFill } = require(path.join(dir, `${FILL}${ext}`));
		ourReader = { PdfText, findTags, mayHoldTag, planFill, writeFill };
	}
	return ourReader;
}

const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));
const PDFJS_VERSION = JSON.parse(fs.readFileSync(path.join(PDFJS_DIR, 'package.json'), 'utf8')).version;
let pdfjs;
async function loadPdfjs() {
	if (!pdfjs) {
		// pdf.js takes globalThis.pdfjsWorker as its in-process ("fake") worker: the legacy build's own worker module.
		globalThis.pdfjsWorker = await import(pathToFileURL(path.join(PDFJS_DIR, 'legacy', 'build', 'pdf.worker.mjs')).href);
		pdfjs = await import(pathToFileURL(path.join(PDFJS_DIR, 'legacy', 'build', 'pdf.mjs')).href);
	}
	return pdfjs;
}

/**
 * Ours, as the node reads tags (helpers/pdfFile.ts): open, then page by page the lines that may hold a tag, and the
 * tags in them. sample(where) runs after open and after every page; line(), when given, at every line end.
 */
async function readOurs(bytes, { sample, line } = {}) {
	const { PdfText, findTags, mayHoldTag } = loadOurs();
	const pdf = await PdfText.open(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
	sample?.('open');
	const keep = line ? (l) => (line(), mayHoldTag(l)) : mayHoldTag;
	let tags = 0;
	for (const page of pdf.pages) {
		tags += findTags(await pdf.lines(page.number, keep), page.number).length;
		sample?.(page.number);
	}
	return { pages: pdf.pages.length, tags };
}

/**
 * Ours with the tag removal (issue 42), as the node uploads a tagged file: the same read with glyph sources, every
 * tag marked for removal, then the incremental update written. Compared with readOurs: the removal's cost.
 */
async function readOursRewrite(bytes, { sample, line } = {}) {
	const { PdfText, findTags, mayHoldTag } = loadOurs();
	const pdf = await PdfText.open(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
	sample?.('open');
	const keep = line ? (l) => (line(), mayHoldTag(l)) : mayHoldTag;
	const remover = pdf.tagRemover();
	let tags = 0;
	for (const page of pdf.pages) {
		const lines = await pdf.lines(page.number, keep, { sources: true });
		for (const tag of findTags(lines, page.number)) {
			tags++;
			remover.removeTag(tag, lines);
		}
		sample?.(page.number);
	}
	const upload = await remover.write();
	sample?.('write');
	// The upload's size from its parts' total, never `bytes` (which joins them: a copy of the file the node never makes).
	return { pages: pdf.pages.length, tags, removed: upload.removed, uploadBytes: upload.length };
}

/**
 * Ours filling a PDF (issue 51), as Document → Fill PDF does: open, planFill (the form fields, and the lines that may
 * hold a data tag, with glyph sources), then writeFill (the values' appearances and the update written). Compared
 * with readOurs: the fill's cost. Problems are returned (counted as failures by the caller), never thrown.
 */
async function fillOurs(bytes, values) {
	const { PdfText, planFill, writeFill } = loadOurs();
	const pdf = await PdfText.open(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
	const plan = await planFill(pdf, values);
	if (plan.problems.length) return { filled: plan.filled.length, problems: plan.problems };
	const { removal, problems } = await writeFill(plan);
	return { filled: plan.filled.length, problems, uploadBytes: removal.length };
}

/** pdf.js's text extraction over every page: the baseline. The bytes are copied (pdf.js may take the buffer over). */
async function readPdfjs(bytes, { sample, password } = {}) {
	const lib = await loadPdfjs();
	const task = lib.getDocument({
		data: new Uint8Array(bytes),
		password,
		verbosity: lib.VerbosityLevel.ERRORS,
		standardFontDataUrl: path.join(PDFJS_DIR, 'standard_fonts') + path.sep,
		cMapUrl: path.join(PDFJS_DIR, 'cmaps') + path.sep,
		isEvalSupported: false,
		useSystemFonts: false,
	});
	try {
		const doc = await task.promise;
		sample?.('open');
		let items = 0;
		for (let n = 1; n <= doc.numPages; n++) {
			const page = await doc.getPage(n);
			items += (await page.getTextContent()).items.length;
			page.cleanup();
			sample?.(n);
		}
		return { pages: doc.numPages, items };
	} finally {
		await task.destroy();
	}
}

/**
 * The 5-page contract: pages 1-5 of the 300-page contract copied by pdf-lib (a devDependency) into a new document,
 * their content streams as they are (the producer's Flate, which the removal recompresses), and on each page N a
 * text field `page_N_note` added by pdf-lib (200 × 18 pt, 36 pt below the page's top at 72 pt from its left, in the
 * margin above the text; Helvetica 10 in its default appearance), no metadata added, a classic xref: the same bytes
 * at every run. Its tags: the manifest's contract tags on those pages (the signer tags, left as they are); its
 * values to fill: "Note for page N" in every field.
 */
async function fivePageContract(manifest) {
	const { PDFDocument, StandardFonts } = require('pdf-lib');
	const source = await PDFDocument.load(fs.readFileSync(CONTRACT), { updateMetadata: false });
	const doc = await PDFDocument.create({ updateMetadata: false });
	for (const page of await doc.copyPages(source, Array.from({ length: FIVE_PAGES }, (_, i) => i))) doc.addPage(page);
	const font = await doc.embedFont(StandardFonts.Helvetica);
	const form = doc.getForm();
	const values = {};
	doc.getPages().forEach((page, i) => {
		const name = FIELD_NAME(i + 1);
		const field = form.createTextField(name);
		field.addToPage(page, { x: FIELD.left, y: page.getHeight() - FIELD.top - FIELD.height, width: FIELD.width, height: FIELD.height, font });
		field.setFontSize(FIELD.fontSize);
		values[name] = FIELD_VALUE(i + 1);
	});
	const bytes = Buffer.from(await doc.save({ useObjectStreams: false }));
	const entry = manifest.fixtures.find((f) => f.file === path.basename(CONTRACT));
	return { bytes, expectedTags: entry?.tags.filter((t) => t.page <= FIVE_PAGES).length, values };
}

// ---------------------------------------------------------------- statistics and printing

const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** The q-quantile, linear interpolation between order statistics (R's type 7, numpy's default). */
const quantile = (xs, q) => {
	const s = [...xs].sort((a, b) => a - b);
	const pos = (s.length - 1) * q;
	const lo = Math.floor(pos);
	return s[lo] + (s[Math.ceil(pos)] - s[lo]) * (pos - lo);
};
const stats = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), runs: xs.map((x) => Number(x.toFixed(3))) });
const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
const kb = (bytes) => `${Math.round(bytes / 1024)} KB`;
const loadText = (avg) => avg.map(f2).join(' ');

/** The fill's rows of the tag removal's table: figures in the filled file's column, "-" in the others. */
function fillRows(fill, files) {
	const cells = (text) => files.map((r) => (r.label === fill.label ? text : '-'));
	return [
		['fill (issue 51): fields filled / fields', ...cells(`${fill.filled}/${fill.fields}`)],
		['open + planFill + writeFill (Fill PDF): median', ...cells(f1(fill.run.median))],
		['FILL BEYOND THE READ: median of the differences (min – max)', ...cells(`${f1(fill.extra.median)} (${f1(fill.extra.min)} – ${f1(fill.extra.max)})`)],
		['  target (issue 51)', ...cells(`${fill.target.text}: ${fill.target.met ? 'met' : 'NOT met'}`)],
		['fill CPU time beyond the read, all threads: median', ...cells(f1(fill.cpu.extra.median))],
	];
}

function table(rows) {
	const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
	for (const row of rows) console.log('  ' + row.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('  '));
}

const gc = () => {
	if (!global.gc) throw new Error('run with --expose-gc (npm run bench:pdf does)');
	global.gc();
};

/** Wall clock and CPU time (every thread of the process) of one call. */
async function timed(fn) {
	gc();
	const cpu0 = process.cpuUsage();
	const t0 = performance.now();
	const result = await fn();
	const ms = performance.now() - t0;
	const cpu = process.cpuUsage(cpu0);
	return { ms, cpuMs: (cpu.user + cpu.system) / 1000, result };
}

// ---------------------------------------------------------------- time

async function timeMain(bytes, reps) {
	loadOurs();
	await loadPdfjs();
	// First runs (modules loaded, code not yet run: V8 compiles as it goes), not in the figures: reported apart.
	const firstOurs = await timed(() => readOurs(bytes));
	const firstPdfjs = await timed(() => readPdfjs(bytes));
	const runs = { ours: [], pdfjs: [], oursCpu: [], pdfjsCpu: [], ratio: [] };
	let tags;
	for (let r = 0; r < reps; r++) {
		const order = r % 2 ? ['pdfjs', 'ours'] : ['ours', 'pdfjs'];
		const got = {};
		for (const who of order) got[who] = await timed(() => (who === 'ours' ? readOurs(bytes) : readPdfjs(bytes)));
		tags = got.ours.result.tags;
		runs.ours.push(got.ours.ms);
		runs.pdfjs.push(got.pdfjs.ms);
		runs.oursCpu.push(got.ours.cpuMs);
		runs.pdfjsCpu.push(got.pdfjs.cpuMs);
		runs.ratio.push(got.ours.ms / got.pdfjs.ms);
		process.stdout.write(`  repetition ${r + 1}/${reps}: ours ${f1(got.ours.ms)} ms, pdf.js ${f1(got.pdfjs.ms)} ms\n`);
	}
	const ours = stats(runs.ours);
	const base = stats(runs.pdfjs);
	return {
		tags,
		pages: firstOurs.result.pages,
		pdfjsItems: firstPdfjs.result.items,
		first: { oursMs: firstOurs.ms, pdfjsMs: firstPdfjs.ms },
		ours,
		pdfjs: base,
		ratio: ours.median / base.median,
		perRepRatio: stats(runs.ratio),
		cpu: { ours: stats(runs.oursCpu), pdfjs: stats(runs.pdfjsCpu), ratio: median(runs.oursCpu) / median(runs.pdfjsCpu) },
	};
}

/**
 * The read alone against the read with the tag removal and the update written, interleaved: what the removal adds,
 * per repetition (the runs of a repetition are next to each other, so a slow minute of the machine hits them all),
 * and the read's own spread (the noise a user cannot tell the removal from). With `values`, a third run in every
 * repetition: the fill of those values (fillOurs), and what it adds to the read alone.
 */
async function timeRewrite(bytes, reps, label, values) {
	const loadStart = os.loadavg();
	const run = { read: () => readOurs(bytes), rewrite: () => readOursRewrite(bytes), fill: () => fillOurs(bytes, values) };
	const subjects = values ? ['read', 'rewrite', 'fill'] : ['read', 'rewrite'];
	// Untimed first runs of this file's read, removal (and fill), as timeMain's first runs.
	for (const who of subjects) await run[who]();
	const runs = { read: [], rewrite: [], extra: [], ratio: [], readCpu: [], rewriteCpu: [], extraCpu: [], fill: [], fillExtra: [], fillCpu: [], fillExtraCpu: [] };
	let last;
	let lastFill;
	let readTags;
	for (let r = 0; r < reps; r++) {
		// The order rotates (with two subjects: alternates), so none is always first after the GC or last.
		const order = subjects.map((_, k) => subjects[(k + r) % subjects.length]);
		const got = {};
		for (const who of order) got[who] = await timed(run[who]);
		last = got.rewrite.result;
		if (values) {
			lastFill = got.fill.result;
			runs.fill.push(got.fill.ms);
			runs.fillExtra.push(got.fill.ms - got.read.ms);
			runs.fillCpu.push(got.fill.cpuMs);
			runs.fillExtraCpu.push(got.fill.cpuMs - got.read.cpuMs);
		}
		readTags = got.read.result.tags;
		runs.read.push(got.read.ms);
		runs.rewrite.push(got.rewrite.ms);
		runs.extra.push(got.rewrite.ms - got.read.ms);
		runs.ratio.push(got.rewrite.ms / got.read.ms);
		runs.readCpu.push(got.read.cpuMs);
		runs.rewriteCpu.push(got.rewrite.cpuMs);
		runs.extraCpu.push(got.rewrite.cpuMs - got.read.cpuMs);
		const fillText = values ? `, read + fill + update ${f1(got.fill.ms)} ms` : '';
		process.stdout.write(`  rewrite repetition ${r + 1}/${reps}, ${label}: read ${f1(got.read.ms)} ms, read + removal + update ${f1(got.rewrite.ms)} ms${fillText}\n`);
	}
	const read = stats(runs.read);
	const rewrite = stats(runs.rewrite);
	const extra = stats(runs.extra);
	const noise = { definition: NOISE, iqrMs: quantile(runs.read, 0.75) - quantile(runs.read, 0.25), rangeMs: read.max - read.min };
	// CPU time too (every thread), for context: what the removal costs the machine, whether or not a core was free.
	const cpu = { read: stats(runs.readCpu), rewrite: stats(runs.rewriteCpu), extra: stats(runs.extraCpu) };
	const fill = values && {
		fields: Object.keys(values).length,
		filled: lastFill.filled,
		problems: lastFill.problems.map((p) => `${p.name}: ${p.message}`),
		uploadBytes: lastFill.uploadBytes,
		run: stats(runs.fill),
		extra: stats(runs.fillExtra),
		cpu: { run: stats(runs.fillCpu), extra: stats(runs.fillExtraCpu) },
	};
	return { ...last, readTags, read, rewrite, extra, noise, ratio: rewrite.median / read.median, perRepRatio: stats(runs.ratio), cpu, fill, load: { start: loadStart, end: os.loadavg() } };
}

async function timeFixtures(reps) {
	const manifest = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'manifest.json'), 'utf8'));
	const rows = [];
	for (const fx of manifest.fixtures) {
		const file = path.join(FIXTURES, fx.file);
		if (path.resolve(file) === CONTRACT || !fs.existsSync(file)) continue;
		const bytes = fs.readFileSync(file);
		const row = { file: fx.file, bytes: bytes.length, pages: fx.pages, expectedTags: fx.tags.length };
		rows.push(row);
		try {
			row.tags = (await readOurs(bytes)).tags;
		} catch (error) {
			// e.g. a file that needs a user password: the node refuses it, so there is no time to compare.
			row.refused = error.message;
			continue;
		}
		await readPdfjs(bytes, { password: fx.userPassword });
		const warm = await timed(() => readPdfjs(bytes, { password: fx.userPassword }));
		// A batch of reads per repetition, about 200 ms of pdf.js's time, so timer resolution and one GC do not count.
		const batch = Math.max(5, Math.min(200, Math.round(200 / Math.max(warm.ms, 0.5))));
		const runs = { ours: [], pdfjs: [], ratio: [] };
		for (let r = 0; r < reps; r++) {
			const order = r % 2 ? ['pdfjs', 'ours'] : ['ours', 'pdfjs'];
			const got = {};
			for (const who of order) {
				got[who] = await timed(async () => {
					for (let k = 0; k < batch; k++) await (who === 'ours' ? readOurs(bytes) : readPdfjs(bytes, { password: fx.userPassword }));
				});
			}
			runs.ours.push(got.ours.ms / batch);
			runs.pdfjs.push(got.pdfjs.ms / batch);
			runs.ratio.push(got.ours.ms / got.pdfjs.ms);
		}
		Object.assign(row, { batch, oursMs: median(runs.ours), pdfjsMs: median(runs.pdfjs), ratio: median(runs.ours) / median(runs.pdfjs), perRepRatio: stats(runs.ratio) });
	}
	return rows;
}

// ---------------------------------------------------------------- memory (children)

const live = () => {
	const m = process.memoryUsage();
	return m.heapUsed + m.arrayBuffers;
};
const procStatus = (key) => {
	const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync('/proc/self/status', 'utf8'));
	return m ? Number(m[1]) * 1024 : NaN;
};

/** A subject's read, its code loaded first (loading is not part of what a child measures). */
async function subjectRead(subject) {
	if (subject === 'ours' || subject === 'rewrite') {
		loadOurs();
		return subject === 'ours' ? readOurs : readOursRewrite;
	}
	await loadPdfjs();
	return readPdfjs;
}

/** In a child: the live heap at page boundaries (forced GCs), for a first and a second read. */
async function childLive(opts, bytes) {
	const read = await subjectRead(opts.subject);
	const reads = [];
	for (const which of ['first', 'second']) {
		gc();
		gc();
		const base = live();
		let peak = { bytes: 0, at: 'none' };
		let samples = 0;
		const sample = (at) => {
			gc();
			samples++;
			const grown = live() - base;
			if (grown > peak.bytes) peak = { bytes: grown, at };
		};
		const lineSample = opts.fine && opts.subject === 'ours' ? () => sample('line') : undefined;
		const result = await read(bytes, { sample, line: lineSample });
		gc();
		reads.push({ which, baseBytes: base, peakBytes: peak.bytes, peakAt: peak.at, samples, afterBytes: live() - base, result });
	}
	return { reads };
}

/**
 * In a child: RSS growth during a read, no forced GC during it: the process's first read, then a second one (each
 * from its own baseline after a forced GC). Also what each read allocates on the JS heap, garbage included.
 */
async function childRss(opts, bytes) {
	const read = await subjectRead(opts.subject);
	const reads = [];
	for (const which of ['first', 'second']) {
		gc();
		gc();
		await new Promise((r) => setTimeout(r, 50));
		const base = process.memoryUsage.rss();
		let hwmReset = false;
		try {
			fs.writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current RSS (Linux)
			hwmReset = true;
		} catch {
			/* not Linux, or not allowed: the timer's figure only */
		}
		let sampled = base;
		const timer = setInterval(() => {
			sampled = Math.max(sampled, process.memoryUsage.rss());
		}, 1);
		// The heap's growth between GCs, summed: what the read allocated.
		const usedBefore = v8.getHeapStatistics().used_heap_size;
		const gcs = new v8.GCProfiler();
		gcs.start();
		const result = await read(bytes);
		const usedAfter = v8.getHeapStatistics().used_heap_size;
		const { statistics } = gcs.stop();
		clearInterval(timer);
		sampled = Math.max(sampled, process.memoryUsage.rss());
		const hwm = hwmReset ? procStatus('VmHWM') : NaN;
		let allocated = 0;
		let previous = usedBefore;
		for (const g of statistics) {
			allocated += g.beforeGC.heapStatistics.usedHeapSize - previous;
			previous = g.afterGC.heapStatistics.usedHeapSize;
		}
		allocated += usedAfter - previous;
		const gcMs = statistics.reduce((sum, g) => sum + g.cost, 0) / 1000;
		reads.push({ which, baseRss: base, sampledGrowth: sampled - base, hwmGrowth: hwm - base, hwmReset, allocated, gcCount: statistics.length, gcMs, result });
	}
	return { reads };
}

/** Runs this script as a child with `args`; resolves the JSON it prints last. */
function child(args, nodeFlags = ['--expose-gc']) {
	if (fromSource) args = [...args, '--source'];
	return new Promise((resolve, reject) => {
		const proc = spawn(process.execPath, [...nodeFlags, fileURLToPath(import.meta.url), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
		let out = '';
		proc.stdout.on('data', (d) => (out += d));
		proc.on('error', reject);
		proc.on('close', (code) => {
			const last = out.trim().split('\n').pop();
			if (code !== 0) return reject(new Error(`child ${args.join(' ')} exited with ${code}`));
			try {
				resolve(JSON.parse(last));
			} catch (error) {
				reject(error);
			}
		});
	});
}

async function memory(opts, size) {
	const out = {};
	for (const subject of opts.skip.has('rewrite') ? ['ours', 'pdfjs'] : ['ours', 'pdfjs', 'rewrite']) {
		const fine = opts.fine ? ['--fine'] : [];
		const lived = await child(['--child', 'live', '--subject', subject, '--file', opts.file, ...fine]);
		const rss = [];
		for (let k = 0; k < 3; k++) rss.push(await child(['--child', 'rss', '--subject', subject, '--file', opts.file]));
		const summary = (k) => {
			const r = rss.map((c) => c.reads[k]);
			return {
				hwmGrowth: stats(r.map((x) => x.hwmGrowth)),
				sampledGrowth: stats(r.map((x) => x.sampledGrowth)),
				hwmRatio: median(r.map((x) => x.hwmGrowth)) / size,
				sampledRatio: median(r.map((x) => x.sampledGrowth)) / size,
				baseRss: median(r.map((x) => x.baseRss)),
				hwmReset: r.every((x) => x.hwmReset),
				allocated: median(r.map((x) => x.allocated)),
				gcCount: median(r.map((x) => x.gcCount)),
				gcMs: median(r.map((x) => x.gcMs)),
			};
		};
		out[subject] = { live: lived.reads.map((r) => ({ ...r, ratio: r.peakBytes / size })), rss: summary(0), rssSecond: summary(1) };
	}
	return out;
}

// ---------------------------------------------------------------- profiles

/**
 * In a child: V8's sampling profilers over reads after one unprofiled read: CPU (100 µs) over `reps` reads, then
 * allocations (every 16 KB allocated, garbage included) over one read. Both saved in bench/results/ (open them in
 * Chrome DevTools: Performance, Memory).
 */
async function childProfile(opts, bytes) {
	const { Session } = await import('node:inspector/promises');
	const read = await subjectRead(opts.subject);
	await read(bytes);
	const session = new Session();
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.setSamplingInterval', { interval: 100 });
	await session.post('Profiler.start');
	for (let r = 0; r < opts.reps; r++) await read(bytes);
	const { profile } = await session.post('Profiler.stop');
	await session.post('HeapProfiler.enable');
	await session.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
	await read(bytes);
	const { profile: heap } = await session.post('HeapProfiler.stopSampling');
	session.disconnect();
	fs.mkdirSync(RESULTS_DIR, { recursive: true });
	const base = path.join(RESULTS_DIR, `pdf-${opts.subject}-${stamp()}`);
	fs.writeFileSync(`${base}.cpuprofile`, JSON.stringify(profile));
	fs.writeFileSync(`${base}.heapprofile`, JSON.stringify(heap));
	return { reads: opts.reps, cpuFile: `${base}.cpuprofile`, heapFile: `${base}.heapprofile`, cpu: cpuSelfTimes(profile), allocations: allocationSelf(heap) };
}

const shortUrl = (url) => {
	if (!url) return '';
	if (!url.startsWith('file:') && !path.isAbsolute(url)) return url; // node:zlib
	const file = url.startsWith('file:') ? fileURLToPath(url) : url;
	if (file.startsWith(BUILD_DIR + path.sep)) return `pdf-build/${path.relative(BUILD_DIR, file)}`;
	return file.includes(`${path.sep}node_modules${path.sep}`) ? file.slice(file.lastIndexOf(`node_modules${path.sep}`) + 13) : path.relative(ROOT, file);
};
/** A frame's label; a native frame (no script) is named with its caller, e.g. "subarray (native) ← hexString lexer.ts:269". */
const frameLabel = (cf, caller) => {
	if (cf.url) return `${cf.functionName || '(anonymous)'} ${shortUrl(cf.url)}:${cf.lineNumber + 1}`;
	if (/^\(.*\)$/.test(cf.functionName) || !caller) return cf.functionName || '(native)';
	return `${cf.functionName || '(anonymous)'} (native) ← ${frameLabel(caller)}`;
};
// Not the subject's work: the profiler's own calls, and the bench's loop.
const isHarness = (label) => label.includes('node:inspector') || label.includes('bench/pdf.mjs') || label === '(program)';

function top(map, total, n) {
	return [...map]
		.sort((a, b) => b[1] - a[1])
		.slice(0, n)
		.map(([name, v]) => ({ name, value: v, share: v / total }));
}

/** CPU self time per function and per file; shares of the busy time (not idle, not the harness). */
function cpuSelfTimes(profile) {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
	const self = new Map();
	for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
	const fns = new Map();
	const files = new Map();
	let idle = 0;
	let harness = 0;
	let busy = 0;
	for (const [id, us] of self) {
		const node = byId.get(id);
		const label = frameLabel(node.callFrame, parent.get(id)?.callFrame);
		if (label === '(idle)') idle += us;
		else if (isHarness(label)) harness += us;
		else {
			busy += us;
			fns.set(label, (fns.get(label) ?? 0) + us);
			const file = node.callFrame.url ? shortUrl(node.callFrame.url) : label.includes('←') ? `(native) ← ${label.split(' ← ')[1].replace(/ \S+$/, '')}` : label;
			files.set(file, (files.get(file) ?? 0) + us);
		}
	}
	return { busyMs: busy / 1000, idleMs: idle / 1000, harnessMs: harness / 1000, functions: top(fns, busy, 20), files: top(files, busy, 12) };
}

/** Bytes allocated per function (the sampling heap profile, collected objects included). */
function allocationSelf(profile) {
	const fns = new Map();
	let total = 0;
	const walk = (node, caller) => {
		const label = frameLabel(node.callFrame, caller);
		if (node.selfSize) {
			fns.set(label, (fns.get(label) ?? 0) + node.selfSize);
			total += node.selfSize;
		}
		for (const c of node.children) walk(c, node.callFrame.url || !caller ? node.callFrame : caller);
	};
	walk(profile.head);
	return { totalBytes: total, functions: top(fns, total, 20) };
}

// ---------------------------------------------------------------- main

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');

async function main() {
	const opts = parseArgs(process.argv.slice(2));
	fromSource = Boolean(opts.source);
	const bytes = fs.readFileSync(opts.file);
	if (opts.child) {
		const run = { live: childLive, rss: childRss, profile: childProfile }[opts.child];
		console.log(JSON.stringify(await run(opts, bytes)));
		return 0;
	}
	const manifest = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'manifest.json'), 'utf8'));
	const expectedTags = opts.tags ?? manifest.fixtures.find((f) => path.join(FIXTURES, f.file) === opts.file)?.tags.length;
	const name = path.relative(ROOT, opts.file);
	const machine = { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryGb: Math.round(os.totalmem() / 1024 ** 3), node: process.version, pdfjs: PDFJS_VERSION, loadAverage: os.loadavg() };
	let failures = 0;
	if (!opts.source) buildReader();
	console.log(`[bench:pdf] reader: ${opts.source ? 'nodes/ESign/pdf/*.ts through bench/ts-register.js (--source)' : `built from nodes/ESign/pdf/ (and helpers/pdfFill.ts) into ${path.relative(ROOT, BUILD_DIR)}/`}`);
	console.log(`[bench:pdf] ${name}: ${kb(bytes.length)}; ${opts.reps} interleaved repetitions; Node ${process.version}, pdf.js ${PDFJS_VERSION}`);
	console.log(`[bench:pdf] load: ${machine.cpus} CPUs; load average (1, 5, 15 min) at the start ${loadText(machine.loadAverage)}`);

	const time = await timeMain(bytes, opts.reps);
	if (expectedTags !== undefined && time.tags !== expectedTags) {
		failures++;
		console.log(`[bench:pdf] FAILED: ours found ${time.tags} tags, expected ${expectedTags}`);
	}
	let rewrite;
	if (!opts.skip.has('rewrite')) {
		const five = await fivePageContract(manifest);
		const isContract = opts.file === CONTRACT;
		rewrite = {
			noise: NOISE,
			targets: { fivePages: `median extra ≤ ${NOISE}`, contract: `≤ ${TARGET_300_EXTRA_MS} ms`, contractRss: `≤ ${TARGET_300_RSS_MB} MB`, fill: `5-page contract: the fill's median extra ≤ the tag removal's median extra` },
		};
		const subjects = [
			['fivePages', `${FIVE_PAGES}-page contract`, five.bytes, five.expectedTags, `pages 1-${FIVE_PAGES} of ${path.basename(CONTRACT)}, copied by pdf-lib, a text field added to each`, five.values],
			['file', isContract ? '300-page contract' : path.basename(opts.file), bytes, expectedTags, name],
		];
		for (const [key, label, fileBytes, expected, source, values] of subjects) {
			const { fill, ...r } = await timeRewrite(fileBytes, opts.reps, label, values);
			if (key === 'fivePages') r.target = { text: `within the read's noise: ≤ its IQR, ${f1(r.noise.iqrMs)}`, met: r.extra.median <= r.noise.iqrMs };
			else if (isContract) r.target = { text: `≤ ${TARGET_300_EXTRA_MS}`, met: r.extra.median <= TARGET_300_EXTRA_MS };
			rewrite[key] = { label, source, bytes: fileBytes.length, expectedTags: expected, ...r };
			if (fill) {
				fill.target = { text: `≤ the tag removal's extra, ${f1(r.extra.median)}`, met: fill.extra.median <= r.extra.median };
				rewrite.fill = { file: key, label, values, ...fill };
				if (fill.problems.length || fill.filled !== fill.fields) {
					failures++;
					console.log(`[bench:pdf] FAILED: ${label}: the fill drew ${fill.filled} of ${fill.fields} fields${fill.problems.length ? `; ${fill.problems.join('; ')}` : ''}`);
				}
			}
			if (expected !== undefined && (r.tags !== expected || r.readTags !== expected)) {
				failures++;
				console.log(`[bench:pdf] FAILED: ${label}: the removal's read found ${r.tags} tags and the read alone ${r.readTags}, expected ${expected}`);
			}
			if (r.removed !== r.tags) {
				failures++;
				console.log(`[bench:pdf] FAILED: ${label}: the removal took ${r.removed} of ${r.tags} tags`);
			}
		}
	}
	const mem = opts.skip.has('memory') ? undefined : await memory(opts, bytes.length);
	const fixtures = opts.skip.has('fixtures') || opts.file !== CONTRACT ? [] : await timeFixtures(opts.fixtureReps);
	for (const row of fixtures) {
		if (row.refused === undefined && row.tags !== row.expectedTags) {
			failures++;
			console.log(`[bench:pdf] FAILED: ${row.file}: ours found ${row.tags} tags, expected ${row.expectedTags}`);
		}
	}
	const profiles = {};
	if (opts.profile) {
		for (const subject of ['ours', 'pdfjs']) profiles[subject] = await child(['--child', 'profile', '--subject', subject, '--file', opts.file, '--reps', '5']);
	}

	// ---- summary
	console.log(`\n[bench:pdf] ${name} (${kb(bytes.length)}, ${time.pages} pages): tags found ${time.tags}${expectedTags !== undefined ? ` (expected ${expectedTags})` : ''}`);
	table([
		['time, ms', 'median', 'min', 'max', 'first run'],
		['ours: open + lines(mayHoldTag) + findTags', f1(time.ours.median), f1(time.ours.min), f1(time.ours.max), f1(time.first.oursMs)],
		['pdf.js: getDocument + getTextContent per page', f1(time.pdfjs.median), f1(time.pdfjs.min), f1(time.pdfjs.max), f1(time.first.pdfjsMs)],
		['ratio ours ÷ pdf.js (medians; per-rep min, max)', f2(time.ratio), f2(time.perRepRatio.min), f2(time.perRepRatio.max), f2(time.first.oursMs / time.first.pdfjsMs)],
		['CPU time, all threads: ours / pdf.js / ratio', f1(time.cpu.ours.median), f1(time.cpu.pdfjs.median), f2(time.cpu.ratio), ''],
	]);
	if (rewrite) {
		const files = [rewrite.fivePages, rewrite.file];
		const verdict = (t) => (t ? `${t.text}: ${t.met ? 'met' : 'NOT met'}` : 'no target for this file');
		console.log(`\n  tag removal (issues 42, 50): what it adds to the read, as users feel it: wall clock, ms, per repetition (read with sources + removeTag + write()) − (the read alone), interleaved; median of ${opts.reps}`);
		if (rewrite.fill) console.log(`  fill (issue 51), ${rewrite.fill.label}: the same, for (open + planFill + writeFill, every text field: "Note for page N") − (the read alone), in the same repetitions`);
		table([
			['', ...files.map((r) => `${r.label} (${kb(r.bytes)}, ${r.pages} pages)`)],
			['tags removed / expected', ...files.map((r) => `${r.removed}/${r.expectedTags ?? '?'}`)],
			['the read alone: median (min – max)', ...files.map((r) => `${f1(r.read.median)} (${f1(r.read.min)} – ${f1(r.read.max)})`)],
			['  its noise: interquartile range; max − min', ...files.map((r) => `${f1(r.noise.iqrMs)}; ${f1(r.noise.rangeMs)}`)],
			['read with sources + removeTag + write(): median', ...files.map((r) => f1(r.rewrite.median))],
			['BEYOND THE READ: median of the differences (min – max)', ...files.map((r) => `${f1(r.extra.median)} (${f1(r.extra.min)} – ${f1(r.extra.max)})`)],
			['  target (issue 50)', ...files.map((r) => verdict(r.target))],
			['CPU time beyond the read, all threads: median', ...files.map((r) => f1(r.cpu.extra.median))],
			['ratio of the medians (context, no target)', ...files.map((r) => f2(r.ratio))],
			['load average, 1 min: before → after', ...files.map((r) => `${f2(r.load.start[0])} → ${f2(r.load.end[0])}`)],
			...(rewrite.fill ? fillRows(rewrite.fill, files) : []),
		]);
		console.log(`  noise: ${NOISE} (quartiles by linear interpolation); "within the noise" means the median extra is no larger`);
		console.log(`  upload of the ${rewrite.file.label}: ${kb(rewrite.file.uploadBytes)} (the file ${kb(rewrite.file.bytes)} + the update; never joined)`);
		if (rewrite.fill) console.log(`  filled ${rewrite.fill.label}: ${kb(rewrite.fill.uploadBytes)} (the file ${kb(rewrite[rewrite.fill.file].bytes)} + the fill's update)`);
		if (mem?.rewrite) {
			const isContract = opts.file === CONTRACT;
			const beyondMb = (k) => (mem.rewrite[k].hwmReset && mem.ours[k].hwmReset ? (mem.rewrite[k].hwmGrowth.median - mem.ours[k].hwmGrowth.median) / MB : NaN);
			const rss = (k) => {
				const extraMb = beyondMb(k);
				return { extraMb, readMb: mem.ours[k].hwmGrowth.median / MB, rewriteMb: mem.rewrite[k].hwmGrowth.median / MB, met: isContract && Number.isFinite(extraMb) ? extraMb <= TARGET_300_RSS_MB : undefined };
			};
			rewrite.rss = { first: rss('rss'), second: rss('rssSecond'), target: isContract ? `≤ ${TARGET_300_RSS_MB} MB` : undefined };
			const cell = (r) => `${r.extraMb >= 0 ? '+' : ''}${f1(r.extraMb)} MB (the read +${f1(r.readMb)}, with removal +${f1(r.rewriteMb)})${r.met === undefined ? '' : r.met ? ': met' : ': NOT met'}`;
			console.log(`  peak RSS growth beyond the read's, ${rewrite.file.label} (VmHWM; median of 3 children each, the removal's − the read's)${isContract ? `, target ≤ ${TARGET_300_RSS_MB} MB` : ''}:`);
			console.log(`    the process's 1st read ${cell(rewrite.rss.first)}; a 2nd read ${cell(rewrite.rss.second)}`);
			// The upload is the original (already held) and the update's pieces: only the update is new memory, and it
			// is held from the pages' recompression on (the peak is late in the read or at write()).
			const liveBeyond = (k) => mem.rewrite.live[k].peakBytes - mem.ours.live[k].peakBytes;
			console.log(`  live heap peak beyond the read's (context, no target): a 2nd read ${kb(liveBeyond(1))} (${f2(liveBeyond(1) / bytes.length)} × the file), the 1st ${kb(liveBeyond(0))}; of which the update itself ${kb(rewrite.file.uploadBytes - bytes.length)} (peak at '${mem.rewrite.live[1].peakAt}')`);
		}
	}
	if (mem) {
		console.log(`\n  memory growth ÷ file size (${kb(bytes.length)}); baseline: modules loaded, file in memory, after a forced GC`);
		const liveCell = (s, k) => `${f2(s.live[k].ratio)} (${kb(s.live[k].peakBytes)}, at ${s.live[k].peakAt === 'open' ? 'open' : s.live[k].peakAt === 'line' ? 'a line end' : `page ${s.live[k].peakAt}`})`;
		const at = opts.fine ? ' at line ends and page boundaries' : ' at page boundaries';
		const retained = (s) => `${f2(s.live[0].afterBytes / bytes.length)} (${kb(s.live[0].afterBytes)})`;
		const allocCell = (s) => `${Math.round(s.rssSecond.allocated / bytes.length)} (${f1(s.rssSecond.allocated / 1048576)} MiB; ${s.rssSecond.gcCount} GCs, ${f1(s.rssSecond.gcMs)} ms)`;
		const rssCell = (r, key, ratio) => `${f2(r[ratio])} (${kb(r[key].median)}; ${kb(r[key].min)}–${kb(r[key].max)})`;
		const hwmCell = (r) => (r.hwmReset ? rssCell(r, 'hwmGrowth', 'hwmRatio') : 'n/a');
		table([
			['', 'ours', 'pdf.js (context)'],
			[`live heap peak${at}, a 2nd read (code compiled)`, liveCell(mem.ours, 1), liveCell(mem.pdfjs, 1)],
			[`live heap peak${at}, the process's 1st read`, liveCell(mem.ours, 0), liveCell(mem.pdfjs, 0)],
			['  of which still held after the 1st read (code)', retained(mem.ours), retained(mem.pdfjs)],
			['RSS growth, 1st read: kernel high-water mark (median of 3)', hwmCell(mem.ours.rss), hwmCell(mem.pdfjs.rss)],
			['RSS growth, 1st read: 1-ms timer samples (median of 3)', rssCell(mem.ours.rss, 'sampledGrowth', 'sampledRatio'), rssCell(mem.pdfjs.rss, 'sampledGrowth', 'sampledRatio')],
			['RSS growth, 2nd read: kernel high-water mark (median of 3)', hwmCell(mem.ours.rssSecond), hwmCell(mem.pdfjs.rssSecond)],
			['allocated on the JS heap during a 2nd read, garbage too', allocCell(mem.ours), allocCell(mem.pdfjs)],
		]);
	}
	if (fixtures.length) {
		console.log(`\n  other fixtures: ms per read (median of ${opts.fixtureReps} batches), ratio ours ÷ pdf.js`);
		table([
			['file', 'KB', 'pages', 'tags', 'reads/batch', 'ours', 'pdf.js', 'ratio', 'per-rep min–max'],
			...fixtures.map((r) =>
				r.refused !== undefined
					? [r.file, Math.round(r.bytes / 1024), r.pages, '-', '-', 'refused', '-', '-', '-']
					: [r.file, Math.round(r.bytes / 1024), r.pages, `${r.tags}/${r.expectedTags}`, r.batch, f2(r.oursMs), f2(r.pdfjsMs), f2(r.ratio), `${f2(r.perRepRatio.min)}–${f2(r.perRepRatio.max)}`],
			),
		]);
		for (const r of fixtures) if (r.refused !== undefined) console.log(`  ${r.file}: ours refuses it (as the node does): ${r.refused}`);
		const ratios = fixtures.filter((r) => r.ratio !== undefined).map((r) => r.ratio);
		console.log(`  median of the fixtures' ratios ${f2(median(ratios))} (min ${f2(Math.min(...ratios))}, max ${f2(Math.max(...ratios))})`);
	}
	for (const [subject, p] of Object.entries(profiles)) {
		const who = subject === 'ours' ? 'ours' : 'pdf.js';
		console.log(`\n  CPU profile, ${who}, ${p.reads} reads: ${f1(p.cpu.busyMs / p.reads)} ms busy per read (+ ${f1(p.cpu.idleMs / p.reads)} ms idle); ${path.relative(ROOT, p.cpuFile)}`);
		table([['self time (% of busy)', 'ms/read', '%'], ...p.cpu.functions.slice(0, 15).map((f) => [f.name, f1(f.value / 1000 / p.reads), f1(100 * f.share)])]);
		table([['by file', 'ms/read', '%'], ...p.cpu.files.slice(0, 8).map((f) => [f.name, f1(f.value / 1000 / p.reads), f1(100 * f.share)])]);
		console.log(`  allocations, ${who}, one read: ${f1(p.allocations.totalBytes / 1048576)} MiB sampled (garbage included); ${path.relative(ROOT, p.heapFile)}`);
		table([['allocated by', 'MiB', '%'], ...p.allocations.functions.slice(0, 15).map((f) => [f.name, f1(f.value / 1048576), f1(100 * f.share)])]);
	}

	fs.mkdirSync(RESULTS_DIR, { recursive: true });
	const out = path.join(RESULTS_DIR, `pdf-${stamp()}.json`);
	machine.loadAverageEnd = os.loadavg();
	const load = { cpus: machine.cpus, loadAverageStart: machine.loadAverage, loadAverageEnd: machine.loadAverageEnd };
	const result = { date: new Date().toISOString(), reader: opts.source ? 'source (ts-register)' : 'built', file: name, bytes: bytes.length, expectedTags, reps: opts.reps, load, machine, time, rewrite, memory: mem, fixtures, profiles };
	fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
	console.log(`\n[bench:pdf] load: ${load.cpus} CPUs; load average (1, 5, 15 min) at the start ${loadText(load.loadAverageStart)}, at the end ${loadText(load.loadAverageEnd)}`);
	console.log(`[bench:pdf] results: ${path.relative(ROOT, out)}`);
	return failures ? 1 : 0;
}

main().then(
	(code) => process.exit(code),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
