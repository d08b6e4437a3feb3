// The pdf.js oracle: per-glyph positions, text tags and anchor phrases of a PDF as pdf.js (pdfjs-dist, a
// devDependency) reads them, to check the package's own PDF reader (nodes/ESign/pdf/) against an independent one.
//
//   import { readPdf } from './pdfjsOracle.mjs';  const result = await readPdf(bytesOrPath, { anchors: ['Date:'] });
//   node test/support/pdfjsOracle.mjs file.pdf [--anchor TEXT]... [--password PW] [--no-glyphs] [--pages 1,3]
//
// Needs Node >= 22 (pdfjs-dist's engines): run it with node_modules/.bin/node (the `node` devDependency, 24).
//
// Why a patched worker: pdf.js's public getTextContent() gives whole text items, not glyphs, so a tag inside a longer
// item has no box of its own. Inside the worker, PartialEvaluator.getTextContent already reports every shown glyph to
// an optional `intersector` (addGlyph with the text rendering matrix) and every inferred space or line end
// (addExtraChar). We load a temporary copy of the legacy worker in which that parameter falls back to a global sink,
// and the glyph call also hands over fontSize × horizontal scaling (needed to turn the glyph's advance, given in text
// space, into a vector in user space). Form XObjects reach the sink too: their recursive call passes no intersector.
//
// Box convention (binding; the package's reader uses the same):
//   T = the text rendering matrix pdf.js passes to addGlyph (font size, horizontal scaling, rise, text matrix, CTM);
//   origin O = (T[4], T[5]);
//   advance A = (scaledDim / (fontSize × Th)) × (T[0], T[1])  — the glyph's own advance, without Tc/Tw spacing;
//   height H = (T[2], T[3])  — one font size along text-space y;
//   em box = the quadrilateral O + s·A + t·H, s in [0, 1], t in [-0.2, 0.8]; its 4 corners in viewport coordinates
//   (page.getViewport({ scale: 1 }): top-left origin, y down, after CropBox and Rotate), axis-aligned bounds.
//   A tag's (or phrase's) box = the union of the em boxes of its glyphs, first `{` to last `}`; its `angle` = the
//   displayed direction of its first glyph's baseline, degrees counter-clockwise (0 for normal text, 90 reads upwards).
// Every coordinate and box is [left, top, right, bottom] / [x, y] in those viewport points, rounded to 0.001.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));
const PDFJS_VERSION = JSON.parse(readFileSync(path.join(PDFJS_DIR, 'package.json'), 'utf8')).version;

/** The tag types of the package's grammar: {{type:signer[:part]...}}. */
const TAG_TYPES = ['signature', 'initials', 'name', 'email', 'date', 'text', 'textarea', 'checkbox', 'dropdown', 'stamp'];
const PAD = '[_\\s]*';
const TAG_RE = new RegExp(`^\\{\\{${PAD}(${TAG_TYPES.join('|')})${PAD}:${PAD}(?:signer)?${PAD}[1-9][0-9]*${PAD}(:[^:{}]*)*\\}\\}$`, 'i');

/** Text edits to the legacy worker: each must match exactly once, or the oracle refuses to run. */
const PATCHES = [
	{
		why: 'getTextContent falls back to the global glyph sink (also when extractTextContent passes intersector: null)',
		from: '    intersector = null\n  }) {\n    if (stream.isAsync) {',
		to: '    intersector = null\n  }) {\n    intersector ??= globalThis.__esignGlyphSink ?? null;\n    if (stream.isAsync) {',
	},
	{
		why: 'horizontal glyphs also hand over fontSize × horizontal scaling',
		from: 'intersector?.addGlyph(getCurrentTextTransform(), scaledDim, 0, glyph.unicode);',
		to: 'intersector?.addGlyph(getCurrentTextTransform(), scaledDim, 0, glyph.unicode, textState.fontSize * textState.textHScale);',
	},
	{
		why: 'vertical glyphs also hand over fontSize × horizontal scaling',
		from: 'intersector?.addGlyph(getCurrentTextTransform(), 0, scaledDim, glyph.unicode);',
		to: 'intersector?.addGlyph(getCurrentTextTransform(), 0, scaledDim, glyph.unicode, textState.fontSize * textState.textHScale, textState.fontSize);',
	},
];

function countOccurrences(text, needle) {
	let count = 0;
	for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) count++;
	return count;
}

/** Writes (once per pdfjs-dist version and patch set) the patched worker into the temp folder; returns its path. */
function patchedWorkerPath() {
	const source = readFileSync(path.join(PDFJS_DIR, 'legacy', 'build', 'pdf.worker.mjs'), 'utf8');
	let patched = source;
	for (const patch of PATCHES) {
		const found = countOccurrences(patched, patch.from);
		if (found !== 1) {
			throw new Error(
				`pdfjsOracle: pdfjs-dist ${PDFJS_VERSION}'s legacy worker has ${found} copies (expected exactly 1) of the text ` +
					`to patch (${patch.why}): ${JSON.stringify(patch.from)}. Update PATCHES in test/support/pdfjsOracle.mjs.`,
			);
		}
		patched = patched.replace(patch.from, patch.to);
	}
	const hash = createHash('sha256').update(patched).digest('hex').slice(0, 16);
	const dir = path.join(tmpdir(), `esign-pdfjs-${PDFJS_VERSION}-${hash}`);
	const file = path.join(dir, 'pdf.worker.mjs');
	if (!existsSync(file)) {
		mkdirSync(dir, { recursive: true });
		// Written aside and renamed, so a parallel run never imports a half-written file.
		const partial = `${file}.${process.pid}.tmp`;
		writeFileSync(partial, patched);
		renameSync(partial, file);
	}
	return file;
}

let pdfjsPromise = null;
/** pdf.js with the patched worker running in this process (Node's legacy build has no real worker). */
function loadPdfjs() {
	if (Number(process.versions.node.split('.')[0]) < 22) {
		throw new Error(`pdfjs-dist ${PDFJS_VERSION} needs Node >= 22 (this is ${process.version}): run node_modules/.bin/node`);
	}
	pdfjsPromise ??= (async () => {
		// pdf.js prefers globalThis.pdfjsWorker over workerSrc when it sets up its in-process worker.
		globalThis.pdfjsWorker = await import(pathToFileURL(patchedWorkerPath()).href);
		return import(pathToFileURL(path.join(PDFJS_DIR, 'legacy', 'build', 'pdf.mjs')).href);
	})();
	return pdfjsPromise;
}

const round = (n) => Math.round(n * 1000) / 1000 + 0; // + 0 turns -0 into 0

/** Collects what the worker reports for one page: glyphs (with matrix and advance) and extra chars, in order. */
function makeSink() {
	const events = [];
	return {
		events,
		addGlyph(transform, width, height, unicode, advanceScale, fontSize) {
			const T = Array.from(transform);
			if (fontSize !== undefined) {
				// Vertical writing: the advance runs along text-space y; the em box is one em wide, centred on the origin.
				const A = fontSize ? [(height / fontSize) * T[2], (height / fontSize) * T[3]] : [0, 0];
				const X = advanceScale ? [(T[0] * fontSize) / advanceScale, (T[1] * fontSize) / advanceScale] : [0, 0];
				events.push({ u: unicode, T, A, H: X, vertical: true });
				return;
			}
			const k = advanceScale ? width / advanceScale : 0;
			events.push({ u: unicode, T, A: [k * T[0], k * T[1]], H: [T[2], T[3]] });
		},
		addExtraChar(char) {
			events.push({ extra: char });
		},
	};
}

/** The em box of one glyph in viewport coordinates: [left, top, right, bottom]. */
function emBox(viewport, glyph) {
	const [, , , , ox, oy] = glyph.T;
	const corners = [];
	for (const s of [0, 1]) {
		for (const t of glyph.vertical ? [-0.5, 0.5] : [-0.2, 0.8]) {
			corners.push(viewport.convertToViewportPoint(ox + s * glyph.A[0] + t * glyph.H[0], oy + s * glyph.A[1] + t * glyph.H[1]));
		}
	}
	const xs = corners.map((c) => c[0]);
	const ys = corners.map((c) => c[1]);
	return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

function union(boxes) {
	return [
		Math.min(...boxes.map((b) => b[0])),
		Math.min(...boxes.map((b) => b[1])),
		Math.max(...boxes.map((b) => b[2])),
		Math.max(...boxes.map((b) => b[3])),
	];
}

/**
 * Splits the page's glyph stream into lines: at pdf.js's own "\n", and where the next glyph does not continue the
 * previous one along its baseline (more than half an em off the baseline, more than half an em back, or more than
 * four ems ahead: a jump to another column, table cell or content stream).
 */
function splitLines(glyphs) {
	const lines = [];
	let line = [];
	let prev = null;
	const flush = () => {
		if (line.length) lines.push(line);
		line = [];
	};
	for (const g of glyphs) {
		if (g.extra === '\n') {
			flush();
			prev = null;
			continue;
		}
		if (g.extra !== undefined) {
			if (line.length) line.push(g);
			continue;
		}
		if (prev) {
			const em = Math.hypot(prev.H[0], prev.H[1]) || 1;
			const [ax, ay] = prev.A;
			// The baseline direction: the advance's, or the matrix's x axis for a zero-width glyph.
			const [bx, by] = Math.hypot(ax, ay) ? [ax, ay] : [prev.T[0], prev.T[1]];
			const len = Math.hypot(bx, by) || 1;
			const [ux, uy] = [bx / len, by / len];
			const dx = g.T[4] - (prev.T[4] + ax);
			const dy = g.T[5] - (prev.T[5] + ay);
			const along = dx * ux + dy * uy;
			const across = -dx * uy + dy * ux;
			if (Math.abs(across) > 0.5 * em || along < -0.5 * em || along > 4 * em) flush();
		}
		line.push(g);
		prev = g;
	}
	flush();
	return lines;
}

/** The line's text with whitespace removed (NFKC, so a ligature glyph counts as its letters) and each char's glyph. */
function compact(line) {
	let text = '';
	const owner = [];
	for (const g of line) {
		if (g.extra !== undefined) continue;
		for (const ch of g.u.normalize('NFKC')) {
			if (/\s/.test(ch)) continue;
			text += ch;
			owner.push(g);
		}
	}
	return { text, owner };
}

function boxOf(viewport, glyphs) {
	return union([...new Set(glyphs)].map((g) => emBox(viewport, g))).map(round);
}

/** The direction of a glyph's baseline as displayed, in whole degrees counter-clockwise (0: normal text). */
function angleOf(viewport, glyph) {
	const [x0, y0] = viewport.convertToViewportPoint(glyph.T[4], glyph.T[5]);
	const [bx, by] = glyph.vertical || !Math.hypot(...glyph.A) ? [glyph.T[0], glyph.T[1]] : glyph.A;
	const [x1, y1] = viewport.convertToViewportPoint(glyph.T[4] + bx, glyph.T[5] + by);
	const degrees = Math.round((Math.atan2(-(y1 - y0), x1 - x0) * 180) / Math.PI);
	return degrees === -180 ? 180 : degrees + 0;
}

/**
 * Reads a PDF with pdf.js.
 * @param {string | Uint8Array} input  a file path or the bytes
 * @param {{ anchors?: string[], password?: string, glyphs?: boolean, pages?: number[] }} [options]
 *   anchors: phrases to locate on every page (matched with whitespace ignored, case kept);
 *   glyphs: false leaves the per-glyph list out (a long document); pages: 1-based page numbers to read (default all).
 * @returns {Promise<{ pdfjs: string, numPages: number, pages: object[], tags: object[], braces: object[] }>}
 */
export async function readPdf(input, options = {}) {
	const { anchors = [], password, glyphs: withGlyphs = true, pages: only } = options;
	const data = typeof input === 'string' ? new Uint8Array(readFileSync(input)) : new Uint8Array(input);
	const pdfjs = await loadPdfjs();
	const task = pdfjs.getDocument({
		data,
		password,
		verbosity: pdfjs.VerbosityLevel.ERRORS,
		standardFontDataUrl: path.join(PDFJS_DIR, 'standard_fonts') + path.sep,
		cMapUrl: path.join(PDFJS_DIR, 'cmaps') + path.sep,
		isEvalSupported: false,
		useSystemFonts: false,
	});
	const doc = await task.promise;
	try {
		const result = { pdfjs: PDFJS_VERSION, numPages: doc.numPages, pages: [], tags: [], braces: [] };
		for (let pageNumber = 1; pageNumber <= doc.numPages; pageNumber++) {
			if (only && !only.includes(pageNumber)) continue;
			const page = await doc.getPage(pageNumber);
			const viewport = page.getViewport({ scale: 1 });
			const sink = makeSink();
			globalThis.__esignGlyphSink = sink;
			try {
				await page.getTextContent();
			} finally {
				globalThis.__esignGlyphSink = undefined;
			}
			const out = {
				page: pageNumber,
				width: round(viewport.width),
				height: round(viewport.height),
				rotate: viewport.rotation,
				anchors: [],
			};
			const lines = splitLines(sink.events);
			for (const line of lines) {
				const { text, owner } = compact(line);
				// Tags and other braces: the shortest {{ … }} spans.
				for (const m of text.matchAll(/\{\{(?:(?!\{\{|\}\}).)*\}\}/g)) {
					const glyphs = owner.slice(m.index, m.index + m[0].length);
					const found = { page: pageNumber, text: m[0], box: boxOf(viewport, glyphs), angle: angleOf(viewport, glyphs[0]) };
					(TAG_RE.test(m[0]) ? result.tags : result.braces).push(found);
				}
				for (const anchor of anchors) {
					const needle = anchor.replace(/\s+/g, '');
					if (!needle) continue;
					for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) {
						out.anchors.push({ text: anchor, box: boxOf(viewport, owner.slice(i, i + needle.length)) });
					}
				}
			}
			if (withGlyphs) {
				out.glyphs = sink.events.map((g) =>
					g.extra !== undefined
						? { extra: g.extra }
						: {
								u: g.u,
								origin: viewport.convertToViewportPoint(g.T[4], g.T[5]).map(round),
								box: emBox(viewport, g).map(round),
								...(g.vertical ? { vertical: true } : {}),
							},
				);
			}
			result.pages.push(out);
			page.cleanup();
		}
		return result;
	} finally {
		await task.destroy();
	}
}

export { PDFJS_VERSION };

async function main(argv) {
	const options = { anchors: [] };
	let file = null;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--anchor') options.anchors.push(argv[++i]);
		else if (arg === '--password') options.password = argv[++i];
		else if (arg === '--no-glyphs') options.glyphs = false;
		else if (arg === '--pages') options.pages = argv[++i].split(',').map(Number);
		else if (arg === '-') file = readFileSync(0);
		else if (!arg.startsWith('--') && file === null) file = arg;
		else throw new Error(`unknown argument ${arg}`);
	}
	if (file === null) {
		process.stderr.write('usage: pdfjsOracle.mjs FILE.pdf|- [--anchor TEXT]... [--password PW] [--no-glyphs] [--pages 1,2]\n');
		process.exit(2);
	}
	// pdf.js logs through console.log; keep stdout for the JSON alone.
	console.log = (...args) => process.stderr.write(`${args.join(' ')}\n`);
	const result = await readPdf(file, options);
	process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	main(process.argv.slice(2)).catch((error) => {
		// pdf.js's own exceptions (PasswordException, InvalidPDFException) carry name and message outside their stack.
		process.stderr.write(`${error?.name}: ${error?.message}\n${error?.stack ?? ''}\n`);
		process.exit(1);
	});
}
