#!/usr/bin/env node
// `npm run test:tags-vanish` (issue 42, "How it is checked"): the node's tag removal (the reader's TagRemover, an
// incremental update) proved on every tag fixture of test/fixtures/pdf/ (manifest.json: the tags' files, and the
// black-tags one) by tools that are not ours. Per file:
//   rewrite   the file is rewritten with every tag removed (none left with a reason); an encrypted or damaged file
//             comes back byte for byte unchanged with a reason instead (the rest is then identical by construction);
//   prefix    the original bytes are a prefix of the output;            qpdf   `qpdf --check` passes on the output;
//   pixels    every page (a sample of a long file: SAMPLE) rendered before and after at 150 dpi by poppler
//             (pdftoppm), Ghostscript (ppmraw) and MuPDF (mutool draw): outside the tags' boxes (the reader's boxes,
//             widened by MARGIN px for anti-aliasing) identical; inside them no tag ink left: the rule, with what
//             "background" means (paper, a tinted cell, a rule crossing the box), is in scripts/lib/renderCompare.mjs;
//   text      pdf.js (test/support/pdfjs.js) and poppler (`pdftotext -raw -bbox`) read the output: no tag text, and the
//             same words as the original's with the tags taken out (a tag matched with any white space between its
//             characters; a word boundary may come or go only where a tag was: extractors infer spaces from positions).
// Prints PASS/FAIL per file per check, the per-producer figures, and ends with `N passed, M failed` (exit 1 on any
// failure). Installs the renderers and qpdf when missing (as root: apt-get).
//
//   node scripts/tags-vanish.mjs [--only TEXT] [--writer real|none|line] [--figures FILE] [--keep DIR] [--dpi N] [--real]
//   --only     files whose name or producer contains TEXT
//   --writer   the writer under test: `real` (the reader's TagRemover, the default); `none` does nothing (the tags
//              stay: the inside check must FAIL); `line` removes each tag's whole line, the other words with it
//              (the outside and text checks must FAIL). The last two prove the harness catches a broken writer.
//   --figures  the per-producer figures as JSON;   --keep DIR  writes each output there (<file>.after.pdf)
//   --dpi      render at N dpi instead of 150 (a cure tuned to one resolution would show at another)
//   --real     instead of the tag fixtures, the real documents of test/fixtures/real/manifest.json (the cache
//              `npm run test:real-pdfs` fills): on three pages of each, up to three words that pdf.js, poppler and the
//              reader each read exactly once on the page are hidden as tags are, and checked the same way: the writer
//              on fonts and producers nobody here chose
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runUnderProjectNode } from './lib/projectNode.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// pdf.js needs Node ≥ 22 (scripts/lib/projectNode.mjs).
runUnderProjectNode(import.meta.url);

const require = createRequire(import.meta.url);
const { compileReader } = require('../test/support/pdfReader.js');
const { readPdfWithPdfjs, readPdfFixtureManifest, PDF_FIXTURES_DIR } = require('../test/support/pdfjs.js');
const { testScript, assert } = await import('./lib/expectations.mjs');
const { ensureTools, readPpm, renderImages, RENDERERS, tool } = await import('./lib/renderPages.mjs');
const { comparePage, pointsOf, quadOfBox } = await import('./lib/renderCompare.mjs');
const { bytesOf, readRealManifest } = await import('./lib/realPdfCache.mjs');

const SAMPLE = (n) => (n <= 12 ? Array.from({ length: n }, (_, i) => i + 1) : [...new Set([1, 2, Math.round(n / 4), Math.round(n / 2), Math.round((3 * n) / 4), n - 1, n])]);

const opts = { writer: 'real' };
for (let i = 2; i < process.argv.length; i++) {
	const a = process.argv[i];
	if (a === '--only') opts.only = process.argv[++i];
	else if (a === '--writer') opts.writer = process.argv[++i];
	else if (a === '--figures') opts.figures = path.resolve(process.argv[++i]);
	else if (a === '--keep') opts.keep = path.resolve(process.argv[++i]);
	else if (a === '--dpi') opts.dpi = Number(process.argv[++i]);
	else if (a === '--real') opts.real = true;
	else throw new Error(`unknown option ${a} (node scripts/tags-vanish.mjs [--only TEXT] [--writer real|none|line] [--figures FILE] [--keep DIR] [--dpi N] [--real])`);
}
if (!['real', 'none', 'line'].includes(opts.writer)) throw new Error(`--writer ${opts.writer}: real, none or line`);
if (opts.dpi !== undefined && !(opts.dpi >= 36 && opts.dpi <= 1200)) throw new Error(`--dpi ${opts.dpi}: a number from 36 to 1200`);
const DPI = opts.dpi ?? 150;
const SCALE = DPI / 72;
// Around a tag's box: anti-aliasing of its glyphs' edges and glyph outlines a little past the reader's box (a Type 3
// brace of Chromium's reaches 0.5 pt below it); 2 px at 150 dpi, the same width in points at other resolutions.
const MARGIN = Math.max(2, Math.round((2 * DPI) / 150));

const readerDir = compileReader();
const { PdfText, PdfError, boxOf } = require(path.join(readerDir, 'index.js'));
// The tag finder: beside the reader, or the node's text matching once moved there (nodes/ESign/textTags/).
const tagsJs = [path.join(readerDir, 'tags.js'), path.join(readerDir, '..', 'textTags', 'tags.js')].find((f) => fs.existsSync(f));
const { findTags, mayHoldTag } = require(tagsJs);

/**
 * The node's rewrite as the harness drives it: every page's tags read with their glyph sources, each removed
 * (`writer` none: nothing marked, the input returned; line: each tag's whole line marked), then written. Resolves
 * { bytes, changed, reason, removed, skipped, tags: [{ page, text, box, quad }] } (read before the removal).
 */
async function rewrite(bytes, writer, words) {
	let pdf;
	try {
		pdf = await PdfText.open(new Uint8Array(bytes));
	} catch (error) {
		if (!(error instanceof PdfError)) throw error;
		return { bytes, changed: false, reason: `the reader cannot open it (${error.kind}: ${error.message})`, removed: 0, skipped: [], tags: [] };
	}
	const tags = [];
	const skipped = [];
	const remover = writer === 'none' ? undefined : pdf.tagRemover?.();
	if (writer !== 'none' && !remover) throw new Error('PdfText has no tagRemover() (the writer of issue 42 is not in nodes/ESign/pdf yet)');
	for (const page of pdf.pages) {
		if (words) {
			if (!words.has(page.number)) continue;
			const lines = await pdf.lines(page.number, undefined, { sources: true });
			for (const pick of pickWords(lines, words.get(page.number))) {
				tags.push({ page: page.number, text: pick.text, box: pick.box, quad: quadOf(pick, lines), band: 0.25 * pick.line.size });
				const why = writer === 'line' ? remover.removeText(page.number, pick.line, 0, pick.line.text.length) : writer === 'none' ? undefined : remover.removeText(page.number, pick.line, pick.start, pick.end);
				if (why) skipped.push({ page: page.number, text: pick.text, reason: why });
			}
			continue;
		}
		const lines = await pdf.lines(page.number, mayHoldTag, { sources: true });
		for (const tag of findTags(lines, page.number).filter((t) => t.spec)) {
			tags.push({ page: page.number, text: tag.text, box: tag.box, quad: quadOf(tag, lines) });
			if (!remover) continue;
			const line = lines.find((l) => l.text.includes(tag.text));
			const why = writer === 'line' ? remover.removeText(page.number, line, 0, line.text.length) : remover.removeTag(tag, lines);
			if (why) skipped.push({ page: page.number, text: tag.text, reason: why });
		}
	}
	if (!remover) return { bytes, changed: false, removed: 0, skipped, tags };
	const result = await remover.write();
	return { ...result, bytes: Buffer.from(result.bytes), skipped: [...skipped, ...(result.skipped ?? [])], tags };
}

/**
 * Words to hide on a real document's page, standing in for tags: up to three (the first, a middle and the last
 * candidate) of five or more ASCII letters, standing alone as a tag does (white space or the line's end on both
 * sides, a punctuation mark after), that the reader's lines and the extractors' texts (`texts`: pdf.js's and
 * poppler's, of the page) each hold exactly once, white space aside, so the text rule can find each where it was,
 * on plain paper (`plain`: one colour under the box once the text is gone) and clear of every other line's box, as
 * tags are: the check reads the background from the ring around a box, which a drawing under the word (scons' title
 * page graph) is not, and cannot tell another line's ink reaching into the box from the word's left behind. Each gets
 * a band of 0.25 em around its outline where ink may go (an italic f's tail, a descender; the tag fixtures keep 2 px).
 */
function pickWords(lines, [texts, plain]) {
	const flat = (s) => s.replace(/\s+/g, '');
	const ours = flat(lines.map((l) => l.text).join(''));
	const theirs = texts.map(flat);
	const once = (text, word) => text.split(word).length === 2;
	const candidates = [];
	const boxes = lines.map((l) => boxOf(l, 0, l.text.length));
	const overlaps = (box, line) => lines.some((o, i) => o !== line && boxes[i].left < box.right && boxes[i].right > box.left && boxes[i].top < box.bottom && boxes[i].bottom > box.top);
	for (const line of lines) {
		for (const m of line.text.matchAll(/(?<=^|\s)[A-Za-z]{5,}(?=[.,;:]?(?:\s|$))/g)) {
			if (!once(ours, m[0]) || !theirs.every((t) => once(t, m[0]))) continue;
			const box = boxOf(line, m.index, m.index + m[0].length);
			if (plain(box, 0.25 * line.size) && !overlaps(box, line)) candidates.push({ line, start: m.index, end: m.index + m[0].length, text: m[0], box });
		}
	}
	const at = [...new Set([0, Math.floor(candidates.length / 2), candidates.length - 1])].filter((i) => i >= 0 && i < candidates.length);
	return at.map((i) => candidates[i]);
}

/** The pages drawn without their text (Ghostscript's -dFILTERTEXT): Map page → image. */
function textFree(file, pages, dir) {
	tool('gs', ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-dUseCropBox', '-dFILTERTEXT', '-sDEVICE=ppmraw', `-r${DPI}`, `-sPageList=${pages.join(',')}`, `-sOutputFile=${path.join(dir, 'bare-%d.ppm')}`, file]);
	return new Map(pages.map((page, i) => {
		const file = path.join(dir, `bare-${i + 1}.ppm`);
		const image = readPpm(fs.readFileSync(file));
		fs.rmSync(file);
		return [page, image];
	}));
}

/** Whether every pixel of `box` (points) widened by its band (points) and the margin, the whole area the check reads
 * its background from, is one colour in `image`. */
function plainUnder(image, box, band) {
	if (!image) return false;
	const grow = Math.max(MARGIN, Math.ceil(band * SCALE)) + MARGIN;
	const [x0, y0] = [Math.max(0, Math.floor(box.left * SCALE) - grow), Math.max(0, Math.floor(box.top * SCALE) - grow)];
	const [x1, y1] = [Math.min(image.width, Math.ceil(box.right * SCALE) + grow), Math.min(image.height, Math.ceil(box.bottom * SCALE) + grow)];
	const d = image.data;
	const first = (y0 * image.width + x0) * 3;
	for (let y = y0; y < y1; y++) {
		for (let x = x0; x < x1; x++) {
			const at = (y * image.width + x) * 3;
			if (d[at] !== d[first] || d[at + 1] !== d[first + 1] || d[at + 2] !== d[first + 2]) return false;
		}
	}
	return true;
}

/** The real documents' manifest entries as fixtures; their bytes come from the cache `npm run test:real-pdfs` fills. */
function realFixtures() {
	const manifest = readRealManifest();
	return manifest.files.map((entry) => {
		const pages = Math.min(entry.pages, entry.numPages ?? entry.pages);
		return { file: `${entry.id}.pdf`, producer: entry.family ?? entry.producer, pages, sample: [...new Set([1, Math.min(2, pages), Math.ceil(pages / 2)])], features: [], tags: [], words: { entry, manifest } };
	});
}

/**
 * A tag's outline: its glyphs' em boxes from the first to the last (the reader's glyphs: origin, advance and height
 * vectors in viewport points; the em box spans -0.2 to 0.8 of the height, as the reader's boxes do), a parallelogram
 * along the baseline; the occurrence in its line whose bounds are the tag's box. The outline reaches down to -0.3 em:
 * a descender goes deeper than the reader's box (the g of "Young" in pxfonts' Palatino, 0.27 em). The box itself when
 * none matches.
 */
function quadOf(tag, lines) {
	for (const line of lines) {
		for (let at = line.text.indexOf(tag.text); at >= 0; at = line.text.indexOf(tag.text, at + 1)) {
			const glyphs = line.glyphOf.slice(at, at + tag.text.length).filter((g) => g >= 0);
			if (!glyphs.length) continue;
			const g = (i) => line.glyphs.slice(i * 6, i * 6 + 6);
			const [fx, fy, , , fhx, fhy] = g(Math.min(...glyphs));
			const [lx, ly, lax, lay, lhx, lhy] = g(Math.max(...glyphs));
			const quad = [[fx - 0.2 * fhx, fy - 0.2 * fhy], [lx + lax - 0.2 * lhx, ly + lay - 0.2 * lhy], [lx + lax + 0.8 * lhx, ly + lay + 0.8 * lhy], [fx + 0.8 * fhx, fy + 0.8 * fhy]];
			const xs = quad.map(([x]) => x);
			const ys = quad.map(([, y]) => y);
			const box = tag.box;
			if (Math.abs(Math.min(...xs) - box.left) + Math.abs(Math.max(...xs) - box.right) + Math.abs(Math.min(...ys) - box.top) + Math.abs(Math.max(...ys) - box.bottom) < 0.5) return [[fx - 0.3 * fhx, fy - 0.3 * fhy], [lx + lax - 0.3 * lhx, ly + lay - 0.3 * lhy], [lx + lax + 0.8 * lhx, ly + lay + 0.8 * lhy], [fx + 0.8 * fhx, fy + 0.8 * fhy]];
		}
	}
	return quadOfBox(tag.box);
}

// ---- text -------------------------------------------------------------------------------------------------------

/** A tag's text as a pattern: its characters in order, any white space (or none) between them. */
const tagPattern = (text) => new RegExp([...text.replace(/\s+/g, '')].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*'), 'g');

/** pdf.js's text of the pages: Map page → string (glyphs with its inferred spaces and line ends). */
async function pdfjsText(bytes, pages, password) {
	const read = await readPdfWithPdfjs(bytes, { pages, password });
	return new Map(read.pages.map((p) => [p.page, p.glyphs.map((g) => g.u ?? g.extra).join('')]));
}

const unescape = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/**
 * poppler's words (`pdftotext -raw -bbox`: in content-stream order, which the rewrite keeps; poppler's reading order
 * is a layout guess that the tags themselves sway) of the pages: Map page → string of words.
 */
function popplerText(file, pages, password) {
	const [first, last] = [Math.min(...pages), Math.max(...pages)];
	const html = tool('pdftotext', [...(password ? ['-upw', password] : []), '-raw', '-bbox', '-f', String(first), '-l', String(last), file, '-']).stdout;
	const texts = new Map();
	html.split(/<page\b/).slice(1).forEach((chunk, i) => {
		if (pages.includes(first + i)) texts.set(first + i, [...chunk.matchAll(/<word[^>]*>([^<]*)<\/word>/g)].map((m) => unescape(m[1])).join(' '));
	});
	return texts;
}

const escape = (w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The text rule: the after-text holds no tag, and its words are the before-text's with every tag taken out. Where a
 * tag was, a word boundary may come or go (extractors infer spaces from glyph positions, the tag's glyphs among them:
 * pdf.js read "Date: {{date:1}}Initials" before, and may read "Date:Initials" or "Date: Initials" after); everywhere
 * else the white space between words must stay white space, and no word may change. Each tag the reader found must
 * be in the before-text (else the comparison would prove nothing). Resolves a note.
 */
function sameTextWithoutTags(name, before, after, tags) {
	let words = 0;
	for (const [page, text] of before) {
		let expected = text;
		for (const tag of tags.filter((t) => t.page === page)) {
			const pattern = tagPattern(tag.text);
			assert(pattern.test(text), `${name} p${page}: the original's text does not show the tag ${tag.text}`);
			expected = expected.replace(pattern, '\uFFFF');
		}
		const got = after.get(page) ?? '';
		const left = tags.filter((t) => t.page === page && tagPattern(t.text).test(got));
		assert(!left.length, `${name} p${page}: tag text still extracted: ${left.map((t) => t.text).join(', ')}`);
		const tokens = expected.match(/[^\s\uFFFF]+|[\s\uFFFF]+/g) ?? [];
		const body = tokens.map((t) => (/^[\s\uFFFF]/.test(t) ? (t.includes('\uFFFF') ? '\\s*' : '\\s+') : escape(t))).join('');
		if (!new RegExp(`^\\s*${body}\\s*$`).test(got)) {
			const want = expected.replace(/[\s\uFFFF]+/g, '');
			const have = got.replace(/\s+/g, '');
			let at = 0;
			while (at < want.length && want[at] === have[at]) at++;
			assert(false, at < Math.max(want.length, have.length) ? `${name} p${page}: the text differs at character ${at} (white space aside): expected "${want.slice(Math.max(0, at - 30), at + 30)}", got "${have.slice(Math.max(0, at - 30), at + 30)}"` : `${name} p${page}: the same characters, but a space between two words (not where a tag was) came or went: expected ${JSON.stringify(expected.replace(/\uFFFF/g, '⟨tag⟩').slice(0, 600))}, got ${JSON.stringify(got.slice(0, 600))}`);
		}
		words += tokens.filter((t) => !/^[\s\uFFFF]/.test(t)).length;
	}
	return `${before.size} pages, ${words} words the same, no tag text`;
}

// ---- the run ----------------------------------------------------------------------------------------------------

const figures = {}; // producer → renderer → { pixels, differing, inside, ink, band, pages }
const add = (producer, renderer, page) => {
	const f = ((figures[producer] ??= {})[renderer] ??= { pages: 0, pixels: 0, differing: 0, inside: 0, ink: 0, band: 0 });
	f.pages++;
	for (const k of ['differing', 'inside', 'ink', 'band']) f[k] += page[k];
	f.pixels += page.compared;
};

const { check, say, main } = testScript('tags-vanish');

main(async () => {
	await check('renderers and qpdf present (pdftoppm, pdftotext, gs, mutool, qpdf)', async () => ensureTools());
	const all = opts.real ? realFixtures() : readPdfFixtureManifest().fixtures.filter((f) => f.tags.length);
	const fixtures = all.filter((f) => !opts.only || `${f.file} ${f.producer}`.includes(opts.only));
	say(`writer: ${opts.writer}; ${fixtures.length} ${opts.real ? 'real documents (words hidden as tags)' : 'tag fixtures'}; ${DPI} dpi, margin ${MARGIN} px; renderers: ${Object.entries(RENDERERS).map(([k, r]) => `${k} (${r.command(DPI)})`).join(', ')}`);
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'esign-tags-vanish-'));
	try {
		for (const fixture of fixtures) await oneFile(fixture, work);
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}
	say('figures per producer and renderer (pixels compared outside the boxes / differing; inside pixels checked / tag ink left; band pixels changed):');
	for (const [producer, byRenderer] of Object.entries(figures)) {
		for (const [renderer, f] of Object.entries(byRenderer)) say(`  ${producer.padEnd(48)} ${renderer.padEnd(11)} ${String(f.pages).padStart(3)} pages  outside ${f.pixels} / ${f.differing} differing  inside ${f.inside} / ${f.ink} ink  band ${f.band}`);
	}
	if (opts.figures) fs.writeFileSync(opts.figures, `${JSON.stringify({ writer: opts.writer, dpi: DPI, margin: MARGIN, figures }, null, '\t')}\n`);
});

async function oneFile(fixture, work) {
	const name = fixture.file;
	const before = path.join(work, 'before.pdf');
	const after = path.join(work, 'after.pdf');
	const pages = fixture.sample ?? SAMPLE(fixture.pages);
	let bytes;
	let words;
	if (fixture.words) {
		const ready = await check(`${name}: in the cache, and words to hide chosen on pages ${pages.join(',')}`, async () => {
			bytes = bytesOf(fixture.words.entry, fixture.words.manifest);
			fs.writeFileSync(before, bytes);
			const [js, pop] = [await pdfjsText(bytes, pages), popplerText(before, pages)];
			const bare = textFree(before, pages, work);
			words = new Map(pages.map((p) => [p, [[js.get(p) ?? '', pop.get(p) ?? ''], (box, band) => plainUnder(bare.get(p), box, band)]]));
		});
		if (!ready) return;
	} else bytes = fs.readFileSync(path.join(PDF_FIXTURES_DIR, name));
	const expectUnchanged = fixture.features.some((f) => /^encrypted/.test(f) || /^damaged/.test(f));
	let result;
	const rewritten = await check(`${name}: ${expectUnchanged ? 'comes back unchanged with a reason' : fixture.words ? 'every word chosen hidden' : 'every tag removed'}`, async () => {
		result = await rewrite(bytes, opts.writer, words);
		if (fixture.words) {
			fixture.tags = result.tags;
			if (!result.tags.length) return 'no word that all three read once on those pages: nothing to hide';
			// A real document the reader had to repair comes back as it was, as a damaged fixture does.
			if (!result.changed && /damaged/.test(result.reason ?? '') && Buffer.compare(result.bytes, bytes) === 0) {
				fixture.unchanged = true;
				return `unchanged: ${result.reason}`;
			}
		}
		const same = Buffer.compare(result.bytes, bytes) === 0;
		if (expectUnchanged) {
			assert(!result.changed && same && result.reason, `changed ${result.changed}, bytes ${same ? 'same' : 'differ'}, reason ${result.reason ?? 'none'}`);
			return `unchanged: ${result.reason}`;
		}
		assert(result.tags.length === fixture.tags.length, `the reader found ${result.tags.length} tags, the manifest lists ${fixture.tags.length}`);
		assert(result.changed && !same, `not rewritten: ${result.reason ?? 'no reason given'}`);
		assert(!result.skipped.length, `${result.skipped.length} tags left: ${result.skipped.map((s) => `p${s.page} ${s.text}: ${s.reason}`).join('; ')}`);
		return `${result.tags.length} tags removed, ${bytes.length} + ${result.bytes.length - bytes.length} bytes`;
	});
	if (!result || (fixture.words && (!result.tags.length || fixture.unchanged))) return;
	await check(`${name}: the original bytes are a prefix of the output`, async () => {
		assert(result.bytes.length >= bytes.length && Buffer.compare(result.bytes.subarray(0, bytes.length), bytes) === 0, `the output (${result.bytes.length} bytes) does not begin with the original's ${bytes.length}`);
	});
	if (expectUnchanged && rewritten) return; // byte for byte the original: pixels and text the same by construction
	fs.writeFileSync(before, bytes);
	fs.writeFileSync(after, result.bytes);
	if (opts.keep) fs.mkdirSync(opts.keep, { recursive: true }), fs.writeFileSync(path.join(opts.keep, name.replace(/\.pdf$/, '.after.pdf')), result.bytes);
	const password = fixture.userPassword;
	await check(`${name}: qpdf --check passes on the output${fixture.words ? ' (no warning the original does not give)' : ''}`, async () => {
		const qpdf = (file) => tool('qpdf', [...(password ? [`--password=${password}`] : []), '--check', file], { okCodes: [0, 2, 3] });
		const run = qpdf(after);
		if (fixture.words && run.status !== 0) {
			// A real document may carry faults of its own: the output may repeat them, never add one.
			const warnings = (r, file) => `${r.stdout}${r.stderr}`.split('\n').filter((l) => /WARNING|error/i.test(l)).map((l) => l.split(file).join('FILE'));
			const original = new Set(warnings(qpdf(before), before));
			const added = warnings(run, after).filter((w) => !original.has(w));
			assert(!added.length, `qpdf --check: ${added.slice(0, 4).join(' | ')}`);
			return `the original's own ${original.size} warnings, none added`;
		}
		assert(run.status === 0, `qpdf --check exit ${run.status}: ${`${run.stdout}${run.stderr}`.trim().split('\n').slice(-4).join(' | ')}`);
		return run.stdout.trim().split('\n').pop();
	});
	for (const renderer of Object.keys(RENDERERS)) {
		let pageResults;
		const rendered = await check(`${name}: ${renderer}: ${pages.length < fixture.pages ? `pages ${pages.join(',')} of ${fixture.pages}` : `${pages.length} pages`} rendered before and after at ${DPI} dpi`, async () => {
			const a = renderImages(renderer, before, pages, DPI, work, password);
			const b = renderImages(renderer, after, pages, DPI, work, password);
			pageResults = pages.map((page) => ({ page, ...comparePage(a.get(page), b.get(page), result.tags.filter((t) => t.page === page).map((t) => (t.band ? { quad: t.quad, band: t.band } : t.quad)), { scale: SCALE, margin: MARGIN }) }));
			for (const r of pageResults) add(fixture.producer, renderer, r);
			return pageResults.map((r) => `p${r.page} ${r.sizeBefore}`).join(', ');
		});
		if (!rendered) continue;
		await check(`${name}: ${renderer}: pixels outside the tags' boxes identical`, async () => {
			const bad = pageResults.filter((r) => r.differing || r.band);
			assert(!bad.length, bad.map((r) => `p${r.page}: ${r.differing} pixels differ outside (${pointsOf(r.diffBounds, SCALE)})${r.band ? `, ${r.band} changed in the margin (${pointsOf(r.bandBounds, SCALE)})` : ''}${r.sizeBefore !== r.sizeAfter ? `; size ${r.sizeBefore} → ${r.sizeAfter}` : ''}`).join('; '));
			return `${pageResults.reduce((n, r) => n + r.compared, 0)} pixels`;
		});
		await check(`${name}: ${renderer}: no tag ink inside the tags' boxes`, async () => {
			const bad = pageResults.filter((r) => r.ink);
			assert(!bad.length, bad.map((r) => `p${r.page}: ${r.ink} of ${r.inside} pixels inside are not background (${pointsOf(r.inkBounds, SCALE)})`).join('; '));
			return `${pageResults.reduce((n, r) => n + r.inside, 0)} pixels inside ${result.tags.filter((t) => pages.includes(t.page)).length} boxes, all background`;
		});
	}
	const tags = result.tags.filter((t) => pages.includes(t.page));
	await check(`${name}: pdf.js reads no tag text and the same other words`, async () =>
		sameTextWithoutTags('pdf.js', await pdfjsText(bytes, pages, password), await pdfjsText(result.bytes, pages, password), tags),
	);
	await check(`${name}: poppler (pdftotext -raw -bbox) reads no tag text and the same other words`, async () =>
		sameTextWithoutTags('poppler', popplerText(before, pages, password), popplerText(after, pages, password), tags),
	);
}
