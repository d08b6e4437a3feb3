// Makes the fill fixtures (issue 51: "fill a PDF from the workflow") in test/fixtures/pdf/fill/ from their sources
// (test/fixtures/pdf/fill/src/) and writes test/fixtures/pdf/fill/manifest.json: per file its producer, what it
// exercises, the VALUES to fill it with, and for each value where it must appear (the field's widget box or the data
// tag's box, its page, the text expected), plus the fields that must stay unfilled and the signer tags that must stay.
// Run through scripts/make-pdf-fixtures.sh --fill (which installs the tools and sets TZ and SOURCE_DATE_EPOCH); the
// files are committed, and scripts/fill-check.mjs reads them.
//
// Boxes are [left, top, right, bottom] in points on the page as displayed (CropBox turned by /Rotate, top-left origin,
// y down): a widget's from its /Rect (scripts/lib/formWidgets.mjs says how it is turned), checked here against pdf.js's
// getAnnotations() (test/support/pdfjsForms.mjs); a data tag's the em box pdf.js's glyphs give
// (test/support/pdfjsOracle.mjs: origin to origin + advance, -0.2 to 0.8 of the font size), with its baseline and size.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pdfLib from 'pdf-lib';
import { readPdf, PDFJS_VERSION } from '../../test/support/pdfjsOracle.mjs';
import { readForms } from '../../test/support/pdfjsForms.mjs';
import { formWidgets } from '../lib/formWidgets.mjs';
import { appendIncrementalUpdate, lastTrailer, pinVolatile } from './pdfEdit.mjs';
import { formatJson } from './formatJson.mjs';

const { PDFDocument, PDFName, PDFArray, PDFRef, StandardFonts, TextAlignment, degrees } = pdfLib;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = path.join(ROOT, 'test', 'fixtures', 'pdf', 'fill');
const SRC = path.join(OUT, 'src');
const EPOCH = Number(process.env.SOURCE_DATE_EPOCH ?? 1767225600);
const args = process.argv.slice(2);
const KEEP_TEMP = args.includes('--keep-temp');
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
// Writer's PDF export with its form controls as form fields (as makeForms.mjs exports form-controls.fodt).
const PDF_WITH_FIELDS = 'pdf:writer_pdf_Export:{"ExportFormFields":{"type":"boolean","value":"true"}}';

const TMP = mkdtempSync(path.join(tmpdir(), 'esign-fill-fixtures-'));
let seq = 0;
const run = (cmd, cmdArgs) => execFileSync(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
const version = (cmd, cmdArgs, re) => {
	const { stdout, stderr } = spawnSync(cmd, cmdArgs, { encoding: 'utf8' });
	return re.exec(`${stdout}${stderr}`)?.[1] ?? '?';
};
const latin1 = (buf) => Buffer.from(buf).toString('latin1');

// ---- producers (as make.mjs runs them: a fresh LibreOffice profile, a fresh Chromium profile) ------------------------

/** LibreOffice converts `src` with `filter` (e.g. pdf, or PDF_WITH_FIELDS); returns the PDF's bytes. */
function soffice(src, filter) {
	const outdir = mkdtempSync(path.join(TMP, 'soffice-'));
	run('soffice', ['--headless', '--norestore', `-env:UserInstallation=${pathToFileURL(path.join(TMP, 'lo-profile')).href}`,
		'--convert-to', filter, '--outdir', outdir, src]);
	return readFileSync(path.join(outdir, `${path.basename(src).replace(/\.[^.]+$/, '')}.pdf`));
}

/** Chromium prints `html` to PDF (no header or footer; @page sets size and margins). */
function chromium(html) {
	const out = path.join(TMP, `${path.basename(html, '.html')}-${++seq}.pdf`);
	const profile = mkdtempSync(path.join(TMP, 'chromium-'));
	run('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
		'--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`, '--no-pdf-header-footer',
		`--print-to-pdf=${out}`, pathToFileURL(html).href]);
	return readFileSync(out);
}

async function freshDoc() {
	const doc = await PDFDocument.create();
	doc.setCreationDate(new Date(EPOCH * 1000));
	doc.setModificationDate(new Date(EPOCH * 1000));
	return doc;
}

// ---- recipes ------------------------------------------------------------------------------------------------------

/**
 * The text field `name`'s /DA font size set to 0 (auto) in place: "/He 11 Tf" becomes "/He  0 Tf", the same length,
 * so no offset moves. Writer's form controls have no auto size of their own, and pdf-lib writes the size its own
 * appearance chose (15) back into /DA when it saves a field set to size 0.
 */
function autoSize(pdf, name) {
	const text = latin1(pdf);
	const hex = `feff${[...name].map((c) => c.charCodeAt(0).toString(16).padStart(4, '0')).join('')}`;
	const at = text.search(new RegExp(`/T\\s*(?:\\(${name}\\)|<${hex}>)`, 'i'));
	if (at < 0) throw new Error(`no field ${name}`);
	const start = text.lastIndexOf(' obj', at);
	const end = text.indexOf('endobj', at);
	const object = text.slice(start, end);
	const patched = object.replace(/(\/DA\s*\([^)]*?\/\w+\s)(\d+)( Tf)/, (_, head, size, tail) => `${head}${' '.repeat(size.length - 1)}0${tail}`);
	if (patched === object) throw new Error(`field ${name} has no /DA with a font size`);
	return Buffer.from(text.slice(0, start) + patched + text.slice(end), 'latin1');
}

/**
 * An unsigned signature field (/FT /Sig, its widget merged in, no value) added to a file by an incremental update:
 * the new widget, the catalog with the field in /AcroForm /Fields, and the page (or its /Annots array) with the
 * widget in /Annots. `rect` in default user space.
 */
async function addSignatureByUpdate(pdf, name, pageIndex, rect) {
	const doc = await PDFDocument.load(pdf, { updateMetadata: false });
	const { size } = lastTrailer(pdf);
	const sigRef = PDFRef.of(size);
	const page = doc.getPage(pageIndex);
	const widget = `<</Type/Annot/Subtype/Widget/FT/Sig/T(${name})/F 4/Rect[${rect.join(' ')}]/P ${page.ref}/MK<</BC[0 0 0]>>>>`;
	const objects = [{ num: size, dict: widget }];
	const form = doc.catalog.lookup(PDFName.of('AcroForm'));
	const fields = form.lookup(PDFName.of('Fields'), PDFArray);
	fields.push(sigRef);
	const formRef = doc.catalog.get(PDFName.of('AcroForm'));
	const fieldsRef = form.get(PDFName.of('Fields'));
	// Rewrite the innermost indirect object that holds the change (LibreOffice writes /AcroForm inside the catalog).
	if (fieldsRef instanceof PDFRef) objects.push({ num: fieldsRef.objectNumber, dict: fields.toString() });
	else if (formRef instanceof PDFRef) objects.push({ num: formRef.objectNumber, dict: form.toString() });
	else objects.push({ num: doc.context.trailerInfo.Root.objectNumber, dict: doc.catalog.toString() });
	const annotsRef = page.node.get(PDFName.of('Annots'));
	const annots = page.node.lookup(PDFName.of('Annots'), PDFArray);
	annots.push(sigRef);
	objects.push(annotsRef instanceof PDFRef ? { num: annotsRef.objectNumber, dict: annots.toString() } : { num: page.ref.objectNumber, dict: page.node.toString() });
	return appendIncrementalUpdate(pdf, objects);
}

/** lease-form-libreoffice.pdf: Writer's form controls exported as fields, /DA of keys_note set to 0, a /Sig field added. */
async function leaseFormLibreOffice() {
	const exported = pinVolatile(autoSize(soffice(path.join(SRC, 'lease-form.fodt'), PDF_WITH_FIELDS), 'keys_note'), EPOCH);
	// The signature box: right of the "Tenant signature:" label (read by pdf.js), 200 x 36 pt, its bottom on the baseline.
	const label = (await readPdf(exported, { anchors: ['Tenant signature:'] })).pages[0].anchors[0].box;
	const height = 792; // Letter, no CropBox, no /Rotate: displayed y is 792 - user y
	const baseline = label[1] + 0.8 * (label[3] - label[1]);
	return addSignatureByUpdate(exported, 'tenant_signature', 0, [label[2] + 12, height - baseline, label[2] + 212, height - baseline + 36].map((v) => Math.round(v * 100) / 100));
}

/** A label drawn in Helvetica. */
const label = (page, font, text, x, y, size = 10, extra = {}) => page.drawText(text, { x, y, size, font, ...extra });

/**
 * lease-form-pdflib.pdf: pdf-lib's form API. Names with dots make a hierarchy (tenant → name, email, phone); text
 * centred and right-aligned, one auto-sized (font size 0), a multi-line text, a checkbox, a radio group (pdf-lib writes
 * its choices in /Opt and names the buttons' states 0, 1, 2), a dropdown, and a text left empty.
 */
async function leaseFormPdflib() {
	const doc = await freshDoc();
	const font = await doc.embedFont(StandardFonts.Helvetica);
	const form = doc.getForm();
	const page = doc.addPage([612, 792]);
	label(page, font, 'Tenant details', 72, 720, 16);
	const text = (name, y, width, { align, size = 11, multiline = false, height = 20 } = {}) => {
		const field = form.createTextField(name);
		if (multiline) field.enableMultiline();
		field.addToPage(page, { x: 200, y, width, height, font });
		if (align) field.setAlignment(align);
		field.setFontSize(size);
		return field;
	};
	label(page, font, 'Name', 72, 686);
	text('tenant.name', 680, 260);
	label(page, font, 'Email (centred)', 72, 651);
	text('tenant.email', 645, 260, { align: TextAlignment.Center });
	label(page, font, 'Phone', 72, 616);
	text('tenant.phone', 610, 160);
	label(page, font, 'Deposit (right, auto size)', 72, 581);
	text('deposit', 575, 90, { align: TextAlignment.Right, size: 0 });
	label(page, font, 'Notes', 72, 546);
	text('notes', 480, 300, { multiline: true, height: 76, size: 10 });
	label(page, font, 'I consent to a credit check', 96, 447);
	form.createCheckBox('consent').addToPage(page, { x: 72, y: 443, width: 14, height: 14 });
	label(page, font, 'Payment', 72, 411);
	const payment = form.createRadioGroup('payment');
	[['card', 200], ['bank', 280], ['cash', 360]].forEach(([option, x]) => {
		payment.addOptionToPage(option, page, { x, y: 408, width: 14, height: 14 });
		label(page, font, option, x + 18, 411);
	});
	label(page, font, 'Parking', 72, 376);
	const parking = form.createDropdown('parking');
	parking.addOptions(['None', 'Street', 'Garage']);
	parking.addToPage(page, { x: 200, y: 370, width: 140, height: 20, font });
	return autoSize(Buffer.from(await doc.save({ useObjectStreams: false })), 'deposit');
}

/**
 * form-rotate90-pdflib.pdf: a Letter page with /Rotate 90 (shown landscape, 792 x 612), its labels and fields drawn
 * turned a quarter anticlockwise in user space so they read upright as displayed; each widget has /MK /R 90 (pdf-lib's
 * `rotate`), as a form designer would make it. `at(X, Y)`: the user-space point displayed at (X, Y) from the top-left.
 */
async function rotatedForm() {
	const doc = await freshDoc();
	const font = await doc.embedFont(StandardFonts.Helvetica);
	const form = doc.getForm();
	const page = doc.addPage([612, 792]);
	page.setRotation(degrees(90));
	const upright = { rotate: degrees(90) };
	const at = (X, Y) => ({ x: Y, y: X }); // Rotate 90, no CropBox: displayed (X, Y) is user (Y, X)
	/** A widget displayed at [X, Y, X + w, Y + h] (about: pdf-lib adds its border width): with `rotate` 90, pdf-lib takes
	 * x, y as the corner the field's frame turns about, and width along the text (user y here). */
	const place = (X, Y, w, h) => ({ x: Y + h, y: X, width: w, height: h });
	const text = (name, X, Y, w, h, align) => {
		const field = form.createTextField(name);
		field.addToPage(page, { ...place(X, Y, w, h), font, ...upright });
		if (align) field.setAlignment(align);
		field.setFontSize(11);
		return field;
	};
	const say = (s, X, Y, size = 10) => label(page, font, s, at(X, Y).x, at(X, Y).y, size, upright);
	say('Guest registration (page shown turned: /Rotate 90)', 72, 80, 16);
	say('Guest name', 72, 126);
	text('guest_name', 200, 112, 260, 20);
	say('Nights (right)', 72, 161);
	text('nights', 200, 147, 80, 20, TextAlignment.Right);
	say('Late checkout', 96, 196);
	form.createCheckBox('late_checkout').addToPage(page, { ...place(72, 184, 14, 14), ...upright });
	say('Room', 72, 231);
	const room = form.createDropdown('room');
	room.addOptions(['Single', 'Double', 'Suite']);
	room.addToPage(page, { ...place(200, 217, 140, 20), font, ...upright });
	say('Remarks (left empty)', 72, 266);
	text('remarks', 200, 252, 300, 20);
	return Buffer.from(await doc.save({ useObjectStreams: false }));
}

// ---- the fixtures -----------------------------------------------------------------------------------------------

/** The data tags' values, the same in both tag documents. */
const TAG_VALUES = {
	tenant_name: 'Ada Lovelace',
	rent: 'EUR 1,250.00',
	'move-in.date': '2026-03-01',
	city: 'Lyon',
	zip: '69002',
	access_code: '4711',
};
const TAG_NOTES = {
	tenant_name: 'body text',
	rent: 'table cell',
	'move-in.date': 'table cell; the key holds "-" and "."',
	city: 'two tags on one line (first, a comma after it)',
	zip: 'two tags on one line (second)',
	access_code: 'written in white: the value is drawn in black',
};

const FIXTURES = [
	{
		file: 'lease-form-libreoffice.pdf',
		producer: 'libreoffice-odt (form controls) + incremental update',
		how: `soffice --convert-to '${PDF_WITH_FIELDS}' src/lease-form.fodt; keys_note's /DA font size set to 0 in place (same length); then an incremental update adds the unsigned signature field tenant_signature (scripts/pdf-fixtures/makeFill.mjs)`,
		exercises: ['text /Q 0 (left)', 'text /Q 1 (centred)', 'text /Q 2 (right)', 'text /MaxLen 5 (value of 5 characters)',
			'text auto size (/DA font size 0)', 'multi-line text (wraps)', 'checkbox (on-state Yes)', 'radio group of 3 (states six, twelve, twentyfour)',
			'combo box (Combo + Edit)', 'read-only text with a value (not filled, widget stays)', 'signature field (not filled, widget stays)',
			'/NeedAppearances true', 'fonts in /DR per widget', 'incremental update (the signature field)', 'classic xref table', 'Letter'],
		kind: 'form',
		make: leaseFormLibreOffice,
		values: {
			tenant_name: 'Ada Lovelace',
			unit: '4B',
			rent: '1,250.00',
			postcode: '69002',
			keys_note: 'Two keys at the front desk, flat 4B',
			remarks: 'The tenant may keep one cat. The windows are cleaned twice a year by the landlord, at the landlord\u2019s cost.',
			pets: true,
			term: 'twelve',
			city: 'Lyon',
		},
		keep: ['reference', 'tenant_signature'],
	},
	{
		file: 'lease-form-pdflib.pdf',
		producer: 'pdf-lib (form API)',
		how: 'scripts/pdf-fixtures/makeFill.mjs leaseFormPdflib: pdf-lib form API, saved without object streams',
		exercises: ['field names with dots (tenant.name: a field tree)', 'text /Q 1 (centred)', 'text /Q 2 (right) with auto size (/DA font size 0)',
			'multi-line text (wraps)', 'checkbox (on-state Yes)', 'radio group of 3 with /Opt (export values card, bank, cash; states 0, 1, 2)',
			'dropdown', 'text left unfilled (widget stays)', 'appearance streams by pdf-lib', 'Letter'],
		kind: 'form',
		make: leaseFormPdflib,
		values: {
			'tenant.name': 'Grace Hopper',
			'tenant.email': 'grace@example.org',
			deposit: '2,500.00 EUR',
			notes: 'Parking space 12 comes with the flat; the bicycle cellar is shared with the ground floor.',
			consent: true,
			payment: 'bank',
			parking: 'Garage',
		},
		keep: ['tenant.phone'],
	},
	{
		file: 'form-rotate90-pdflib.pdf',
		producer: 'pdf-lib (form API, rotated page)',
		how: 'scripts/pdf-fixtures/makeFill.mjs rotatedForm: a Letter page with /Rotate 90, labels and widgets turned to read upright (/MK /R 90)',
		exercises: ['page /Rotate 90 (displayed 792 x 612)', 'widgets with /MK /R 90 (text upright as displayed)', 'text /Q 2 (right)', 'checkbox', 'dropdown',
			'text left unfilled (widget stays)'],
		kind: 'form',
		make: rotatedForm,
		values: { guest_name: 'Alan Turing', nights: '3', late_checkout: true, room: 'Suite' },
		keep: ['remarks'],
		upright: true,
	},
	{
		file: 'lease-tags-libreoffice.pdf',
		producer: 'libreoffice-odt',
		how: 'soffice --convert-to pdf src/lease-tags.fodt (Writer, default PDF export)',
		exercises: ['data tag in body text', 'data tag in a table cell', 'data tag key with "-" and "."', 'white data tag', 'two data tags on one line',
			'signer tag {{signature:1}} that must stay', 'TrueType subset fonts (Liberation)', 'classic xref table', 'Letter'],
		kind: 'tags',
		make: async () => pinVolatile(soffice(path.join(SRC, 'lease-tags.fodt'), 'pdf'), EPOCH),
		values: TAG_VALUES,
		signerTags: ['{{signature:1}}'],
	},
	{
		file: 'lease-tags-chromium.pdf',
		producer: 'chromium',
		how: 'chromium --headless --print-to-pdf src/lease-tags.html (fresh profile, --no-pdf-header-footer)',
		exercises: ['data tag in body text', 'data tag in a table cell', 'data tag key with "-" and "."', 'white data tag', 'two data tags on one line',
			'signer tag {{signature:1}} that must stay', 'CID Identity-H (Type0, CIDFontType2)', 'classic xref table', 'Letter'],
		kind: 'tags',
		make: async () => pinVolatile(chromium(path.join(SRC, 'lease-tags.html')), EPOCH),
		values: TAG_VALUES,
		signerTags: ['{{signature:1}}'],
	},
	{
		file: 'city-tags-chromium.pdf',
		producer: 'chromium',
		how: 'chromium --headless --print-to-pdf src/city-tags.html (fresh profile, --no-pdf-header-footer)',
		exercises: ['a value the standard fonts cannot draw (Ł, ź), drawn in the tag\'s own subset font', 'signer tag {{signature:1}} that must stay', 'CID Identity-H (Type0, CIDFontType2)', 'Letter'],
		kind: 'tags',
		make: async () => pinVolatile(chromium(path.join(SRC, 'city-tags.html')), EPOCH),
		values: { miasto: 'Łódź' },
		signerTags: ['{{signature:1}}'],
	},
];

// ---- the manifest -------------------------------------------------------------------------------------------------

const ALIGN = ['left', 'centre', 'right'];
const near = (a, b, tol) => a.every((v, i) => Math.abs(v - b[i]) <= tol);

/** A form fixture's entries: every widget of each filled field with the text or mark expected there. */
async function formEntries(fixture, bytes) {
	const { widgets } = await formWidgets(bytes);
	const pdfjs = (await readForms(bytes)).widgets;
	// The /Rect turned here and pdf.js's viewport must agree, or a box below would be wrong.
	for (const w of widgets) {
		const twin = pdfjs.find((p) => p.page === w.page && p.name === w.name && near(p.box, w.box, 0.01));
		if (!twin) throw new Error(`${fixture.file}: ${w.name} p${w.page} box ${w.box} is not one of pdf.js's (${pdfjs.filter((p) => p.name === w.name).map((p) => p.box).join(' | ')})`);
	}
	const expect = [];
	for (const [name, value] of Object.entries(fixture.values)) {
		const mine = widgets.filter((w) => w.name === name);
		if (!mine.length) throw new Error(`${fixture.file}: no field ${name}`);
		for (const w of mine) {
			const base = { name, kind: w.kind, page: w.page, box: w.box };
			if (w.kind === 'text') {
				if (w.maxLen !== undefined && String(value).length > w.maxLen) throw new Error(`${name}: the value is longer than /MaxLen ${w.maxLen}`);
				expect.push({ ...base, text: String(value), align: ALIGN[w.q] ?? 'left', fontSize: w.fontSize, ...(w.multiline ? { multiline: true } : {}), ...(w.maxLen !== undefined ? { maxLen: w.maxLen } : {}), ...(fixture.upright ? { upright: true } : {}) });
			} else if (w.kind === 'dropdown' || w.kind === 'listbox') {
				if (!w.options.includes(value)) throw new Error(`${name}: ${value} is not one of ${w.options}`);
				expect.push({ ...base, text: String(value), ...(fixture.upright ? { upright: true } : {}) });
			} else if (w.kind === 'checkbox') {
				expect.push({ ...base, state: w.onState, mark: value === true });
			} else if (w.kind === 'radio') {
				expect.push({ ...base, state: w.onState, export: w.export, mark: w.export === value });
			} else throw new Error(`${name}: a ${w.kind} is not filled`);
		}
		if (mine[0].kind === 'radio' && !expect.some((e) => e.name === name && e.mark)) throw new Error(`${name}: no button exports ${value}`);
	}
	const keep = [];
	for (const name of fixture.keep) {
		const mine = widgets.filter((w) => w.name === name);
		if (!mine.length) throw new Error(`${fixture.file}: no field ${name} to keep`);
		for (const w of mine) keep.push({ name, kind: w.kind, page: w.page, box: w.box });
	}
	return { expect, keep };
}

/** A tag fixture's entries: each data tag (pdf.js's brace spans) with its em box, baseline and size. */
async function tagEntries(fixture, bytes) {
	const read = await readPdf(bytes, { glyphs: false });
	const expect = [];
	for (const [key, value] of Object.entries(fixture.values)) {
		const found = read.braces.filter((b) => b.text === `{{data:${key}}}`);
		if (found.length !== 1) throw new Error(`${fixture.file}: pdf.js finds {{data:${key}}} ${found.length} times`);
		const { page, box, angle } = found[0];
		if (angle !== 0) throw new Error(`${fixture.file}: {{data:${key}}} is not upright`);
		const size = Math.round((box[3] - box[1]) * 1000) / 1000;
		expect.push({ key, kind: 'tag', page, box, baseline: Math.round((box[1] + 0.8 * size) * 1000) / 1000, size, text: value, note: TAG_NOTES[key] ?? 'the tag\'s own font draws what the standard fonts lack' });
	}
	for (const tag of fixture.signerTags) {
		if (!read.tags.some((t) => t.text === tag)) throw new Error(`${fixture.file}: pdf.js does not find ${tag}`);
	}
	const others = read.braces.filter((b) => !expect.some((e) => `{{data:${e.key}}}` === b.text));
	if (others.length) throw new Error(`${fixture.file}: braces not in the values: ${others.map((b) => b.text).join(', ')}`);
	return { expect, signerTags: fixture.signerTags.map((text) => ({ text, page: read.tags.find((t) => t.text === text).page })) };
}

async function main() {
	mkdirSync(OUT, { recursive: true });
	const tools = {
		libreoffice: version('soffice', ['--version'], /LibreOffice ([\d.]+)/),
		chromium: version('chromium', ['--version'], /Chromium ([\d.]+)/),
		poppler: version('pdftotext', ['-v'], /version ([\d.]+)/),
		'pdf-lib': JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'pdf-lib', 'package.json'), 'utf8')).version,
		'pdfjs-dist': PDFJS_VERSION,
	};
	console.log(`tools: ${Object.entries(tools).map(([k, v]) => `${k} ${v}`).join(', ')}`);
	const manifestPath = path.join(OUT, 'manifest.json');
	const previous = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : null;
	const entries = [];
	for (const fixture of FIXTURES) {
		const target = path.join(OUT, fixture.file);
		if (ONLY && !ONLY.includes(fixture.file)) {
			const old = previous?.fixtures.find((f) => f.file === fixture.file);
			if (old) entries.push(old);
			continue;
		}
		const pdf = await fixture.make();
		writeFileSync(target, pdf);
		console.log(`made ${fixture.file} (${pdf.length} bytes)`);
		const bytes = new Uint8Array(readFileSync(target));
		const doc = await PDFDocument.load(bytes, { updateMetadata: false });
		const placed = fixture.kind === 'form' ? await formEntries(fixture, bytes) : await tagEntries(fixture, bytes);
		entries.push({
			file: fixture.file,
			producer: fixture.producer,
			how: fixture.how,
			kind: fixture.kind,
			exercises: fixture.exercises,
			bytes: pdf.length,
			pages: doc.getPageCount(),
			values: fixture.values,
			...placed,
		});
	}
	const manifest = {
		about: 'Fixtures for filling a PDF from the workflow (issue 51): form fields by full name and data tags {{data:KEY}}. Remade by bash scripts/make-pdf-fixtures.sh --fill (scripts/pdf-fixtures/makeFill.mjs); checked by node scripts/fill-check.mjs.',
		tools,
		boxes: 'box: [left, top, right, bottom] in points on the page as displayed (CropBox turned by /Rotate; top-left origin, y down), as pdftotext -bbox -cropbox and pdf.js\'s viewport at scale 1 give them. A widget\'s box is its /Rect so turned (scripts/lib/formWidgets.mjs); a data tag\'s is pdf.js\'s glyph em boxes from its first { to its last } (-0.2 to 0.8 of the font size around the baseline), with baseline (y) and size.',
		values: 'values: what to fill the file with, keyed by field full name or data tag KEY (true checks a checkbox; a radio group takes the chosen button\'s export value; a dropdown the option\'s text).',
		expect: 'expect: where each value must appear. text/dropdown: its words inside box (align: /Q; fontSize: /DA\'s, 0 = auto; multiline; maxLen); checkbox/radio: a mark (ink) inside box when mark is true, none added when false (state: the on-state name pdftk takes; export: the radio\'s export value); tag: the value from box\'s left edge on baseline at size, in black, the tag gone.',
		keep: 'keep: fields not filled, whose widgets must stay (read-only, signature, left empty). signerTags: signer tags that must stay.',
		fixtures: entries,
	};
	writeFileSync(manifestPath, `${formatJson(manifest)}\n`);
	console.log(`wrote ${path.relative(ROOT, manifestPath)} (${entries.length} fixtures)`);
}

try {
	await main();
} finally {
	if (KEEP_TEMP) console.log(`temp files kept in ${TMP}`);
	else rmSync(TMP, { recursive: true, force: true });
}
