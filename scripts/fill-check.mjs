#!/usr/bin/env node
// The fill oracle (issue 51, "fill a PDF from the workflow"): the node's fill (fillPdf, nodes/ESign/helpers/pdfFill.ts)
// held to tools that are not ours, beside pdftk's own fill of the same values, on every fill fixture of
// test/fixtures/pdf/fill/ (manifest.json: the values, and where each must appear; scripts/pdf-fixtures/makeFill.mjs).
//
// Per fixture, first the fixture itself (manifest): a form's widgets read by pdf-lib, their /Rect turned to the page as
// displayed (scripts/lib/formWidgets.mjs), are the manifest's boxes, and pdftk (dump_data_fields_utf8) lists each field
// to fill with the state names the manifest gives; a tag document's tags are where the manifest says (poppler's word
// box, MuPDF's glyph origin). Then each producer's output:
//   pdftk   `pdftk IN fill_form VALUES.fdf output OUT flatten` (the FDF written here: text as UTF-16 strings, a
//           checkbox's on-state or Off, a radio group's export value, both as pdftk's dump names them); form fixtures only;
//   ours    fillPdf(bytes, values) → the original followed by the update pieces; "not available yet" (and skipped)
//           until nodes/ESign/helpers/pdfFill.ts exists. Compiled from the current sources as test/support/pdfReader.js
//           compiles the reader (typescript's transpileModule, into a temp folder).
// and the checks, each PASS or FAIL per producer:
//   fill      the fill ran (ours: ok, every value in `filled`, `length` the upload's; pdftk: exit 0);
//   qpdf      `qpdf --check` passes on the output;      prefix (ours) the original bytes are a prefix of the output;
//   boxes     (forms) each text and dropdown value's words, and nothing else, lie inside its widget's box on the
//             displayed page (`pdftotext -bbox -cropbox`; a word is inside when its left and right edges are within
//             1 pt of the box's and its middle and at least 2/3 of its height are inside: poppler's word height is the
//             font's ascent to descent, taller than the glyphs), aligned as the field's /Q says (left and right: within
//             8 pt of that side and nearer to it than to the other; centred: the two gaps within 4 pt of each other),
//             upright on a turned page where the manifest says so (each word of 3+ letters wider than tall);
//   marks     (forms) a checkbox's check or the chosen radio button's dot shows as ink: rendered by pdftoppm at 150 dpi,
//             the middle half of the box (clear of the box's border) has at least max(4, 10 %) of its pixels dark
//             (luma < 128) more than the unfilled original there; a button not chosen has at most 2 % more;
//   poppler, ghostscript, mupdf text   `pdftotext`, `gs -sDEVICE=txtwrite`, `mutool draw -F txt` each show every text
//             value (white space aside; a one-line value whole, a multi-line one word by word);
//   widgets   (ours, forms) pdf.js's getAnnotations() (test/support/pdfjsForms.mjs) finds no widget of a filled field,
//             and each kept field's widget where it was;
//   tags      (ours, tag documents) pdftotext shows no `{{data:` and still shows each signer tag;
//   placement (ours, tag documents) the value's first word starts within 2 pt of the tag's left edge (poppler's word
//             box, MuPDF's first glyph origin) on the tag's baseline (MuPDF's origin, within 2 pt) at its size (MuPDF's
//             font size, within 0.5 pt), in black (MuPDF's glyph colour #000000, and dark pixels in the word's box).
// Prints PASS/FAIL per check, then a table per fixture (pdftk vs ours), and ends with `N passed, M failed` (exit 1 on
// any failure). Installs pdftk-java, poppler-utils, ghostscript, mupdf-tools and qpdf when missing (as root: apt-get).
//
//   node scripts/fill-check.mjs [--only TEXT] [--ours real|skip|unchanged] [--keep DIR] [--figures FILE]
//   --only     fixtures whose file name or producer contains TEXT
//   --ours     the fill under test: `real` (fillPdf, the default); `skip` runs as when pdfFill.ts does not exist yet
//              (pdftk and the fixtures only); `unchanged` stands in a fill that claims every value but changes nothing
//              (an empty update): its boxes, marks, text, widgets, tags and placement checks must FAIL, which shows
//              that the harness catches a fill that does not draw
//   --keep     writes each output there (<file>.pdftk.pdf, <file>.ours.pdf) and the FDF given to pdftk
//   --figures  the per-fixture comparison as a markdown file
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
const { readFormsWithPdfjs } = require('../test/support/pdfjsForms.js');
const { readFillManifest, FILL_FIXTURES_DIR } = require('../test/support/fillFixtures.js');
const { testScript, assert } = await import('./lib/expectations.mjs');
const { ensureTools, readPpm, tool } = await import('./lib/renderPages.mjs');
const { ensureDebianPackages } = await import('./lib/services.mjs');
const { formWidgets } = await import('./lib/formWidgets.mjs');

const opts = { ours: 'real' };
for (let i = 2; i < process.argv.length; i++) {
	const a = process.argv[i];
	if (a === '--only') opts.only = process.argv[++i];
	else if (a === '--keep') opts.keep = path.resolve(process.argv[++i]);
	else if (a === '--figures') opts.figures = path.resolve(process.argv[++i]);
	else if (a === '--ours') opts.ours = process.argv[++i];
	else throw new Error(`unknown option ${a} (node scripts/fill-check.mjs [--only TEXT] [--ours real|skip|unchanged] [--keep DIR] [--figures FILE])`);
}
if (!['real', 'skip', 'unchanged'].includes(opts.ours)) throw new Error(`--ours ${opts.ours}: real, skip or unchanged`);

const DPI = 150;
const SCALE = DPI / 72;
const FILL_TS = path.join(ROOT, 'nodes', 'ESign', 'helpers', 'pdfFill.ts');

// ---- the tools' views of a file ----------------------------------------------------------------------------------

// XML text as written by pdftotext and mutool: named entities and numeric character references (&#x141; is Ł).
const unescape = (s) =>
	s
		.replace(/&#x([0-9a-f]+);/gi, (_, hex) => String.fromCodePoint(parseInt(hex, 16)))
		.replace(/&#(\d+);/g, (_, dec) => String.fromCodePoint(Number(dec)))
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&apos;/g, "'")
		.replace(/&amp;/g, '&');
/** Text compared white space aside, quotes folded (a producer may draw ’ as ' or the reverse), NFKC. */
const squash = (s) => s.normalize('NFKC').replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/\s+/g, '');

/** poppler's words per page (`pdftotext -bbox -cropbox`): Map page → [{ text, box: [xMin, yMin, xMax, yMax] }]. */
function popplerWords(file) {
	const html = tool('pdftotext', ['-bbox', '-cropbox', file, '-']).stdout;
	const pages = new Map();
	html.split(/<page\b/).slice(1).forEach((chunk, i) => {
		pages.set(i + 1, [...chunk.matchAll(/<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g)].map((m) => ({ text: unescape(m[5]), box: m.slice(1, 5).map(Number) })));
	});
	return pages;
}

const popplerText = (file) => tool('pdftotext', ['-cropbox', file, '-']).stdout;
const gsText = (file) => tool('gs', ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=txtwrite', '-sOutputFile=-', file]).stdout;
const mupdfText = (file) => tool('mutool', ['draw', '-q', '-F', 'txt', '-o', '-', file]).stdout;

/** MuPDF's glyphs of a page (`mutool draw -F stext`): [{ c, x, y (origin, displayed page), size, color }] in order. */
function mupdfGlyphs(file, page) {
	const xml = tool('mutool', ['draw', '-q', '-F', 'stext', '-o', '-', file, String(page)]).stdout;
	const glyphs = [];
	for (const font of xml.split(/<font /).slice(1)) {
		const size = Number(/size="([\d.]+)"/.exec(font)[1]);
		for (const m of font.matchAll(/<char [^>]*?x="([\d.-]+)" y="([\d.-]+)" color="([^"]*)" c="([^"]*)"\/>/g)) glyphs.push({ c: unescape(m[4]), x: Number(m[1]), y: Number(m[2]), color: m[3], size });
	}
	return glyphs;
}

/** A page rendered by poppler at DPI, as displayed (CropBox, /Rotate). */
function render(file, page, dir) {
	const out = path.join(dir, `render-${process.pid}`);
	tool('pdftoppm', ['-cropbox', '-r', String(DPI), '-f', String(page), '-l', String(page), '-singlefile', file, out]);
	const image = readPpm(fs.readFileSync(`${out}.ppm`));
	fs.rmSync(`${out}.ppm`);
	return image;
}

/** Dark pixels (luma < 128) of `image` in `box` (points) shrunk by `inset` of its size on each side: { dark, total }. */
function darkIn(image, box, inset = 0) {
	const [l, t, r, b] = box;
	const [dx, dy] = [(r - l) * inset, (b - t) * inset];
	const [x0, y0] = [Math.ceil((l + dx) * SCALE), Math.ceil((t + dy) * SCALE)];
	const [x1, y1] = [Math.floor((r - dx) * SCALE), Math.floor((b - dy) * SCALE)];
	let dark = 0;
	let total = 0;
	for (let y = Math.max(0, y0); y < Math.min(image.height, y1); y++) {
		for (let x = Math.max(0, x0); x < Math.min(image.width, x1); x++) {
			const i = (y * image.width + x) * 3;
			total++;
			if (0.299 * image.data[i] + 0.587 * image.data[i + 1] + 0.114 * image.data[i + 2] < 128) dark++;
		}
	}
	return { dark, total };
}

const fmt = (box) => `[${box.map((v) => v.toFixed(1)).join(' ')}]`;

// ---- the producers -----------------------------------------------------------------------------------------------

/** A PDF text string as UTF-16BE hex with its byte order mark. */
const utf16 = (text) => `<FEFF${[...text].map((c) => c.codePointAt(0)).flatMap((cp) => (cp > 0xffff ? [0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff)] : [cp])).map((u) => u.toString(16).padStart(4, '0')).join('')}>`;
/** A PDF name: # escapes for anything but regular printable characters. */
const pdfName = (s) => `/${[...Buffer.from(s, 'utf8')].map((b) => (b > 0x20 && b < 0x7f && !'#()<>[]{}/%'.includes(String.fromCharCode(b)) ? String.fromCharCode(b) : `#${b.toString(16).padStart(2, '0')}`)).join('')}`;

/** pdftk's fields (`dump_data_fields_utf8`): Map name → { type, states: [FieldStateOption …] }. */
function pdftkFields(file) {
	const fields = new Map();
	for (const block of tool('pdftk', [file, 'dump_data_fields_utf8']).stdout.split(/^---$/m)) {
		const name = /^FieldName: (.*)$/m.exec(block)?.[1];
		if (name !== undefined) fields.set(name, { type: /^FieldType: (.*)$/m.exec(block)?.[1], states: [...block.matchAll(/^FieldStateOption: (.*)$/gm)].map((m) => m[1]) });
	}
	return fields;
}

/**
 * The FDF giving pdftk the fixture's values: text and choices as strings; a checkbox true as its on-state (the state
 * pdftk lists that is not Off), false as Off; a radio group's export value as a name (pdftk lists a group's export
 * values, its /Opt entries where it has them, and maps them to the button's state itself).
 */
function fdfFor(fixture, fields) {
	const entries = Object.entries(fixture.values).map(([name, value]) => {
		const field = fields.get(name);
		const kind = fixture.expect.find((e) => e.name === name)?.kind;
		if (kind === 'checkbox') return `<< /T ${utf16(name)} /V ${pdfName(value === true ? field.states.find((s) => s !== 'Off') : 'Off')} >>`;
		if (kind === 'radio') return `<< /T ${utf16(name)} /V ${pdfName(String(value))} >>`;
		return `<< /T ${utf16(name)} /V ${utf16(String(value))} >>`;
	});
	return `%FDF-1.2\n1 0 obj\n<< /FDF << /Fields [\n${entries.join('\n')}\n] >> >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`;
}

/** A stand-in fill that claims every value and changes nothing (--ours unchanged). */
const unchangedFill = async (bytes, values) => ({ ok: true, original: bytes, update: [], length: bytes.length, filled: Object.keys(values) });

/** Loads fillPdf from the current sources (undefined when pdfFill.ts does not exist yet, or --ours skip). */
function loadFill() {
	if (opts.ours === 'unchanged') return unchangedFill;
	if (opts.ours === 'skip' || !fs.existsSync(FILL_TS)) return undefined;
	const readerDir = compileReader(['ESign/helpers/pdfFill.ts']);
	// The compiled copy lives in the temp folder: a package it imports (n8n-workflow) resolves through this link.
	const modules = path.join(readerDir, '..', '..', 'node_modules');
	if (!fs.existsSync(modules)) fs.symlinkSync(path.join(ROOT, 'node_modules'), modules, 'dir');
	const { fillPdf } = require(path.join(readerDir, '..', 'helpers', 'pdfFill.js'));
	if (typeof fillPdf !== 'function') throw new Error('nodes/ESign/helpers/pdfFill.ts exports no function fillPdf');
	return fillPdf;
}

// ---- the checks --------------------------------------------------------------------------------------------------

/** Whether a poppler word lies inside a box (see the header: edges within 1 pt, middle and 2/3 of its height inside). */
function wordInside(word, [l, t, r, b]) {
	const [x0, y0, x1, y1] = word.box;
	const h = y1 - y0;
	const overlap = Math.min(y1, b) - Math.max(y0, t);
	return x0 >= l - 1 && x1 <= r + 1 && (y0 + y1) / 2 >= t && (y0 + y1) / 2 <= b && overlap >= (2 / 3) * h;
}

/** The boxes rule on one output: resolves a note, throws naming each value that is not where it should be. */
function checkBoxes(fixture, words) {
	const bad = [];
	let placed = 0;
	for (const e of fixture.expect.filter((x) => x.kind === 'text' || x.kind === 'dropdown' || x.kind === 'listbox')) {
		const inside = (words.get(e.page) ?? []).filter((w) => wordInside(w, e.box));
		const got = inside.map((w) => w.text).join(' ');
		if (squash(got) !== squash(e.text)) {
			const near = (words.get(e.page) ?? []).filter((w) => e.text.split(/\s+/).some((part) => squash(w.text).includes(squash(part))) && w.box[1] < e.box[3] + 20 && w.box[3] > e.box[1] - 20);
			bad.push(`${e.name}: inside ${fmt(e.box)} "${got}", expected "${e.text}"${near.length ? `; near it: ${near.slice(0, 6).map((w) => `"${w.text}" ${fmt(w.box)}`).join(', ')}` : ''}`);
			continue;
		}
		const u = [Math.min(...inside.map((w) => w.box[0])), Math.min(...inside.map((w) => w.box[1])), Math.max(...inside.map((w) => w.box[2])), Math.max(...inside.map((w) => w.box[3]))];
		const [gapL, gapR] = [u[0] - e.box[0], e.box[2] - u[2]];
		const align = e.align ?? 'left';
		const aligned = e.multiline
			? gapL <= 8
			: align === 'right'
				? gapR <= 8 && gapR <= gapL
				: align === 'centre'
					? Math.abs(gapL - gapR) <= 4
					: gapL <= 8 && gapL <= gapR;
		if (!aligned) bad.push(`${e.name}: not ${e.multiline ? 'left-aligned (multi-line)' : `${align}-aligned`}: ${gapL.toFixed(1)} pt left of it, ${gapR.toFixed(1)} pt right`);
		const sideways = inside.filter((w) => w.text.length >= 3 && w.box[2] - w.box[0] <= w.box[3] - w.box[1]);
		if (e.upright && sideways.length) bad.push(`${e.name}: words not upright on the displayed page: ${sideways.map((w) => `"${w.text}" ${fmt(w.box)}`).join(', ')}`);
		placed++;
	}
	assert(!bad.length, bad.join('; '));
	return `${placed} values inside their boxes, aligned`;
}

/** The marks rule: ink added in the middle half of each chosen box, none in the others. */
function checkMarks(fixture, before, after) {
	const bad = [];
	const notes = [];
	for (const e of fixture.expect.filter((x) => x.kind === 'checkbox' || x.kind === 'radio')) {
		const was = darkIn(before.get(e.page), e.box, 0.25);
		const now = darkIn(after.get(e.page), e.box, 0.25);
		const added = now.dark - was.dark;
		const label = `${e.name}${e.kind === 'radio' ? `=${e.export}` : ''}`;
		notes.push(`${label} ${added >= 0 ? '+' : ''}${added}/${now.total}`);
		if (e.mark && added < Math.max(4, 0.1 * now.total)) bad.push(`${label}: no mark (${now.dark} dark of ${now.total} px in the middle of ${fmt(e.box)}, the original ${was.dark})`);
		if (!e.mark && added > 0.02 * now.total) bad.push(`${label} (not chosen): marked (${now.dark} dark of ${now.total} px, the original ${was.dark})`);
	}
	assert(!bad.length, bad.join('; '));
	return `dark pixels added: ${notes.join(', ')}`;
}

/** Whether an extractor's text shows a value (one-line: whole; multi-line: each word), white space aside. */
function shows(text, e) {
	const all = squash(text);
	return e.multiline ? e.text.split(/\s+/).every((w) => all.includes(squash(w))) : all.includes(squash(e.text));
}

const textValues = (fixture) => fixture.expect.filter((e) => ['text', 'dropdown', 'listbox', 'tag'].includes(e.kind));

function checkShown(extractor, text, fixture) {
	const missing = textValues(fixture).filter((e) => !shows(text, e));
	assert(!missing.length, `${extractor} does not show: ${missing.map((e) => `"${e.text}"`).join(', ')}`);
	return `${textValues(fixture).length} values shown`;
}

/** The placement rule for one data tag's value in the output (see the header). */
function placement(e, glyphs, words, image) {
	const first = e.text.split(/\s+/)[0];
	const starts = [];
	for (let i = 0; i + first.length <= glyphs.length; i++) {
		if ([...first].every((c, k) => glyphs[i + k].c === c)) starts.push(glyphs[i]);
	}
	const at = starts.find((g) => Math.abs(g.x - e.box[0]) <= 2 && Math.abs(g.y - e.baseline) <= 2);
	if (!at) return `${e.key}: MuPDF finds "${first}" at ${starts.map((g) => `(${g.x.toFixed(1)}, ${g.y.toFixed(1)})`).join(', ') || 'no place'}, not within 2 pt of the tag's left edge and baseline (${e.box[0].toFixed(1)}, ${e.baseline.toFixed(1)})`;
	if (Math.abs(at.size - e.size) > 0.5) return `${e.key}: drawn at ${at.size} pt, the tag at ${e.size}`;
	const run = glyphs.slice(glyphs.indexOf(at), glyphs.indexOf(at) + first.length);
	if (run.some((g) => g.color !== '#000000')) return `${e.key}: drawn in ${run.map((g) => g.color).join(',')}, not black`;
	const word = (words.get(e.page) ?? []).find((w) => w.text.startsWith(first) && Math.abs(w.box[0] - e.box[0]) <= 2 && w.box[1] < e.baseline && w.box[3] > e.baseline);
	if (!word) return `${e.key}: poppler has no word starting "${first}" within 2 pt of the tag's left edge ${e.box[0].toFixed(1)} across its baseline`;
	const ink = darkIn(image, [word.box[0], e.baseline - 0.7 * e.size, word.box[2], e.baseline]);
	if (ink.dark < 0.05 * ink.total) return `${e.key}: "${word.text}" barely inked (${ink.dark} dark of ${ink.total} px): not drawn in black?`;
	return undefined;
}

// ---- the run -----------------------------------------------------------------------------------------------------

const { check, say, main } = testScript('fill-check');
const PRODUCERS = ['pdftk', 'ours'];
const results = []; // { file, producer, checks: Map name → 'PASS' | 'FAIL' | note }

main(async () => {
	await check('tools present (pdftk, pdftoppm, pdftotext, gs, mutool, qpdf)', async () => {
		ensureDebianPackages([{ command: 'pdftk', package: 'pdftk-java' }], say);
		const note = ensureTools();
		return `${note}, ${/pdftk port to java ([\d.]+)/.exec(tool('pdftk', ['--version']).stdout)?.[1] ?? 'pdftk ?'}`;
	});
	const manifest = readFillManifest();
	const fixtures = manifest.fixtures.filter((f) => !opts.only || `${f.file} ${f.producer}`.includes(opts.only));
	let fillPdf;
	try {
		fillPdf = loadFill();
	} catch (error) {
		await check('ours: nodes/ESign/helpers/pdfFill.ts compiles and exports fillPdf', async () => {
			throw error;
		});
	}
	if (!fillPdf && (opts.ours === 'skip' || !fs.existsSync(FILL_TS))) say(`ours: not available yet (${opts.ours === 'skip' ? '--ours skip' : 'nodes/ESign/helpers/pdfFill.ts does not exist'}): only pdftk and the fixtures are checked`);
	if (opts.ours === 'unchanged') say('ours: --ours unchanged, a stand-in that changes nothing: its drawing checks must FAIL');
	say(`${fixtures.length} fixtures from ${path.relative(ROOT, FILL_FIXTURES_DIR)}/manifest.json; renders at ${DPI} dpi`);
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'esign-fill-check-'));
	try {
		for (const fixture of fixtures) await oneFixture(fixture, fillPdf, work);
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}
	printTable();
	if (opts.figures) fs.writeFileSync(opts.figures, figures());
});

/** Runs a check and records its outcome in the table. */
async function record(row, name, label, fn) {
	const ok = await check(label, fn);
	row.checks.set(name, ok ? 'PASS' : 'FAIL');
	return ok;
}

async function oneFixture(fixture, fillPdf, work) {
	const name = fixture.file;
	const original = path.join(FILL_FIXTURES_DIR, name);
	const bytes = fs.readFileSync(original);
	const form = fixture.kind === 'form';
	const pages = [...new Set(fixture.expect.map((e) => e.page))];
	const rows = Object.fromEntries(PRODUCERS.map((producer) => [producer, { file: name, kind: fixture.kind, producer, checks: new Map() }]));
	results.push(rows.pdftk, rows.ours);

	// The fixture itself: the manifest's boxes and names, by tools that are not the maker's.
	let fields;
	const fixtureOk = await record(rows.pdftk, 'manifest', `${name}: the manifest matches the file`, async () => {
		if (form) {
			const { widgets } = await formWidgets(bytes);
			fields = pdftkFields(original);
			const bad = [];
			for (const e of [...fixture.expect, ...(fixture.keep ?? [])]) {
				if (!widgets.some((w) => w.name === e.name && w.page === e.page && w.box.every((v, i) => Math.abs(v - e.box[i]) <= 0.01))) bad.push(`${e.name}: no widget at ${fmt(e.box)} p${e.page} (pdf-lib's /Rect turned)`);
			}
			for (const [field, value] of Object.entries(fixture.values)) {
				const f = fields.get(field);
				const kind = fixture.expect.find((e) => e.name === field)?.kind;
				if (!f) bad.push(`pdftk lists no field ${field}`);
				else if (kind === 'checkbox' && !fixture.expect.filter((e) => e.name === field).every((e) => f.states.includes(e.state))) bad.push(`${field}: pdftk's states ${f.states} lack ${fixture.expect.find((e) => e.name === field).state}`);
				else if (kind === 'radio' && !f.states.includes(String(value))) bad.push(`${field}: pdftk's states ${f.states} lack the export value ${value}`);
			}
			assert(!bad.length, bad.join('; '));
			return `${fixture.expect.length + (fixture.keep?.length ?? 0)} widgets where the manifest says, ${Object.keys(fixture.values).length} fields in pdftk's dump`;
		}
		const words = popplerWords(original);
		const bad = [];
		for (const e of fixture.expect) {
			const tag = `{{data:${e.key}}}`;
			const word = (words.get(e.page) ?? []).find((w) => w.text.startsWith(tag));
			if (!word || Math.abs(word.box[0] - e.box[0]) > 1) bad.push(`${tag}: poppler's word ${word ? fmt(word.box) : 'missing'}, the manifest's box ${fmt(e.box)}`);
			const glyphs = mupdfGlyphs(original, e.page);
			const at = glyphs.findIndex((g, i) => [...tag].every((c, k) => glyphs[i + k]?.c === c));
			if (at < 0 || Math.abs(glyphs[at].x - e.box[0]) > 0.5 || Math.abs(glyphs[at].y - e.baseline) > 0.5) bad.push(`${tag}: MuPDF's origin ${at < 0 ? 'missing' : `(${glyphs[at].x}, ${glyphs[at].y})`}, the manifest's (${e.box[0]}, ${e.baseline})`);
		}
		for (const s of fixture.signerTags ?? []) if (!squash(popplerText(original)).includes(squash(s.text))) bad.push(`poppler does not show ${s.text}`);
		assert(!bad.length, bad.join('; '));
		return `${fixture.expect.length} data tags where the manifest says (poppler, MuPDF)`;
	});
	rows.ours.checks.set('manifest', rows.pdftk.checks.get('manifest'));
	if (!fixtureOk) return;
	const before = new Map(pages.map((p) => [p, render(original, p, work)]));

	for (const producer of PRODUCERS) {
		const row = rows[producer];
		if (producer === 'pdftk' && !form) {
			row.checks.set('fill', '— (no form)');
			continue;
		}
		if (producer === 'ours' && !fillPdf) {
			row.checks.set('fill', 'not available yet');
			continue;
		}
		const out = path.join(work, `${name.replace(/\.pdf$/, '')}.${producer}.pdf`);
		let result;
		const filled = await record(row, 'fill', `${name}: ${producer}: fills ${Object.keys(fixture.values).length} values`, async () => {
			if (producer === 'pdftk') {
				const fdf = path.join(work, 'values.fdf');
				fs.writeFileSync(fdf, fdfFor(fixture, fields));
				if (opts.keep) fs.mkdirSync(opts.keep, { recursive: true }), fs.copyFileSync(fdf, path.join(opts.keep, name.replace(/\.pdf$/, '.fdf')));
				tool('pdftk', [original, 'fill_form', fdf, 'output', out, 'flatten']);
				return `pdftk fill_form … flatten: ${fs.statSync(out).size} bytes`;
			}
			result = await fillPdf(new Uint8Array(bytes), fixture.values);
			assert(result && result.ok === true, `not ok: ${JSON.stringify(result?.problems ?? result).slice(0, 600)}`);
			const upload = Buffer.concat([Buffer.from(result.original), ...result.update.map((u) => Buffer.from(u))]);
			fs.writeFileSync(out, upload);
			assert(result.length === upload.length, `length ${result.length}, but the original and the update pieces make ${upload.length} bytes`);
			const want = Object.keys(fixture.values).sort();
			const got = [...result.filled].sort();
			assert(JSON.stringify(want) === JSON.stringify(got), `filled ${JSON.stringify(got)}, the values name ${JSON.stringify(want)}`);
			return `${bytes.length} + ${upload.length - bytes.length} bytes, ${got.length} filled`;
		});
		if (!filled) continue;
		if (opts.keep) fs.mkdirSync(opts.keep, { recursive: true }), fs.copyFileSync(out, path.join(opts.keep, path.basename(out)));
		const outBytes = fs.readFileSync(out);
		if (producer === 'ours') {
			await record(row, 'prefix', `${name}: ours: the original bytes are a prefix of the output`, async () => {
				assert(outBytes.length >= bytes.length && outBytes.subarray(0, bytes.length).equals(bytes), `the output (${outBytes.length} bytes) does not begin with the original's ${bytes.length}`);
			});
		}
		await record(row, 'qpdf', `${name}: ${producer}: qpdf --check passes`, async () => {
			const run = tool('qpdf', ['--check', out], { okCodes: [0, 2, 3] });
			assert(run.status === 0, `qpdf --check exit ${run.status}: ${`${run.stdout}${run.stderr}`.trim().split('\n').slice(-4).join(' | ')}`);
			return run.stdout.trim().split('\n').pop();
		});
		const words = popplerWords(out);
		if (form) {
			await record(row, 'boxes', `${name}: ${producer}: each text value's words inside its field's box (pdftotext -bbox), aligned`, async () => checkBoxes(fixture, words));
			await record(row, 'marks', `${name}: ${producer}: check marks and the chosen radio dots show as ink inside their boxes (pdftoppm ${DPI} dpi)`, async () =>
				checkMarks(fixture, before, new Map(pages.map((p) => [p, render(out, p, work)]))),
			);
		}
		await record(row, 'poppler text', `${name}: ${producer}: poppler (pdftotext) shows every text value`, async () => checkShown('pdftotext', popplerText(out), fixture));
		await record(row, 'ghostscript text', `${name}: ${producer}: Ghostscript (txtwrite) shows every text value`, async () => checkShown('gs txtwrite', gsText(out), fixture));
		await record(row, 'mupdf text', `${name}: ${producer}: MuPDF (mutool draw -F txt) shows every text value`, async () => checkShown('mutool', mupdfText(out), fixture));
		if (producer === 'pdftk') continue;
		if (form) {
			await record(row, 'widgets', `${name}: ours: pdf.js finds no widget of a filled field, and the kept fields' widgets`, async () => {
				const { widgets } = await readFormsWithPdfjs(new Uint8Array(outBytes));
				const filledNames = new Set(Object.keys(fixture.values));
				const left = widgets.filter((w) => filledNames.has(w.name));
				const gone = (fixture.keep ?? []).filter((k) => !widgets.some((w) => w.name === k.name && w.page === k.page && w.box.every((v, i) => Math.abs(v - k.box[i]) <= 0.5)));
				assert(!left.length && !gone.length, [left.length ? `widgets of filled fields left: ${left.map((w) => `${w.name} p${w.page}`).join(', ')}` : '', gone.length ? `kept fields' widgets gone: ${gone.map((k) => k.name).join(', ')}` : ''].filter(Boolean).join('; '));
				return `${widgets.length} widgets left: ${widgets.map((w) => w.name).join(', ') || 'none'}`;
			});
			continue;
		}
		await record(row, 'tags', `${name}: ours: pdftotext shows no {{data: and every signer tag`, async () => {
			const text = squash(popplerText(out));
			assert(!text.includes('{{data:'), `still shown: ${text.slice(Math.max(0, text.indexOf('{{data:') - 20), text.indexOf('{{data:') + 40)}`);
			const lost = (fixture.signerTags ?? []).filter((s) => !text.includes(squash(s.text)));
			assert(!lost.length, `signer tags gone: ${lost.map((s) => s.text).join(', ')}`);
			return `no data tag; ${(fixture.signerTags ?? []).map((s) => s.text).join(', ')} still there`;
		});
		await record(row, 'placement', `${name}: ours: each value from its tag's left edge, on its baseline, at its size, in black`, async () => {
			const bad = [];
			for (const page of pages) {
				const glyphs = mupdfGlyphs(out, page);
				const image = render(out, page, work);
				for (const e of fixture.expect.filter((x) => x.page === page)) {
					const why = placement(e, glyphs, words, image);
					if (why) bad.push(why);
				}
			}
			assert(!bad.length, bad.join('; '));
			return `${fixture.expect.length} values placed`;
		});
	}
}

// ---- the summary -------------------------------------------------------------------------------------------------

const CHECKS = ['manifest', 'fill', 'prefix', 'qpdf', 'boxes', 'marks', 'poppler text', 'ghostscript text', 'mupdf text', 'widgets', 'tags', 'placement'];

/** Whether a check applies to a producer's output of a fixture of `kind` (pdftk fills forms only, and flattens them all). */
function applies(check, producer, kind) {
	if (check === 'manifest') return true;
	if (producer === 'pdftk' && kind === 'tags') return check === 'fill';
	if (['prefix', 'widgets', 'tags', 'placement'].includes(check) && producer === 'pdftk') return false;
	if (['boxes', 'marks', 'widgets'].includes(check)) return kind === 'form';
	if (['tags', 'placement'].includes(check)) return kind === 'tags';
	return true;
}

/** The rows of one fixture's table: [check, pdftk, ours]; — where a check does not apply, empty where it did not run. */
function tableOf(file) {
	const rows = PRODUCERS.map((p) => results.find((r) => r.file === file && r.producer === p));
	return CHECKS.map((check) => [check, ...rows.map((row) => (applies(check, row.producer, row.kind) ? row.checks.get(check) ?? '' : '—'))]).filter(([, a, b]) => a !== '—' || b !== '—');
}

function printTable() {
	say('per fixture: pdftk (fill_form … flatten) vs ours (fillPdf); — = not applicable, empty = not run');
	for (const file of [...new Set(results.map((r) => r.file))]) {
		console.log(`\n  ${file} (${results.find((r) => r.file === file).kind})`);
		console.log(`    ${'check'.padEnd(18)}${'pdftk'.padEnd(20)}ours`);
		for (const [check, a, b] of tableOf(file)) console.log(`    ${check.padEnd(18)}${(a || '').padEnd(20)}${b || ''}`);
	}
	console.log('');
}

function figures() {
	const lines = ['# Fill check: pdftk vs ours', '', `\`node scripts/fill-check.mjs${opts.ours === 'real' ? '' : ` --ours ${opts.ours}`}\`, ${new Date().toISOString().slice(0, 10)}; fixtures: \`test/fixtures/pdf/fill/manifest.json\`. — = not applicable, empty = not run.`, ''];
	for (const file of [...new Set(results.map((r) => r.file))]) {
		lines.push(`## ${file}`, '', '| check | pdftk | ours |', '| --- | --- | --- |');
		for (const [check, a, b] of tableOf(file)) lines.push(`| ${check} | ${a || ''} | ${b || ''} |`);
		lines.push('');
	}
	return `${lines.join('\n')}\n`;
}
