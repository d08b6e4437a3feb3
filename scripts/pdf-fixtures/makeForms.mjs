// Fillable PDF fixtures (AcroForm fields) for the form-field reader (nodes/ESign/pdf/forms/forms.ts), made by make.mjs.
// Each recipe returns the PDF's bytes; make.mjs writes them, reads them with the pdf.js oracle and the manifest.
import { mkdtempSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pdfLib from 'pdf-lib';
import { pinVolatile } from './pdfEdit.mjs';

const { PDFDocument, PDFName, PDFString, PDFHexString, PDFArray, StandardFonts, degrees } = pdfLib;

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'pdf', 'src');
// Writer's PDF export with its form controls as form fields (the filter options as JSON, LibreOffice >= 7.4).
const PDF_WITH_FIELDS = 'pdf:writer_pdf_Export:{"ExportFormFields":{"type":"boolean","value":"true"}}';

/** form-controls.pdf: LibreOffice Writer exports src/form-controls.fodt with its form fields; dates and /ID pinned. */
function formControls({ epoch, run, tmp }) {
	const outdir = mkdtempSync(path.join(tmp, 'soffice-forms-'));
	const src = path.join(SRC, 'form-controls.fodt');
	run('soffice', ['--headless', '--norestore', `-env:UserInstallation=${pathToFileURL(path.join(tmp, 'lo-profile')).href}`,
		'--convert-to', PDF_WITH_FIELDS, '--outdir', outdir, src]);
	return pinVolatile(readFileSync(path.join(outdir, 'form-controls.pdf')), epoch);
}

/** A pdf-lib document with fixed dates (same bytes at every run). */
async function freshDoc(epoch) {
	const doc = await PDFDocument.create();
	doc.setCreationDate(new Date(epoch * 1000));
	doc.setModificationDate(new Date(epoch * 1000));
	return doc;
}

/** Adds `ref` to the page's /Annots (made when missing). */
function addAnnot(page, ref) {
	const annots = page.node.lookup(PDFName.of('Annots'));
	if (annots instanceof PDFArray) annots.push(ref);
	else page.node.set(PDFName.of('Annots'), page.doc.context.obj([ref]));
}

/**
 * A signature field (/FT /Sig) with its widget merged in one dictionary: pdf-lib's form API makes no signature
 * fields, so it is written with the low-level objects and added to /AcroForm /Fields and the page's /Annots.
 */
function addSignatureField(doc, page, name, rect) {
	const { context } = doc;
	const ref = context.register(
		context.obj({ FT: 'Sig', T: PDFString.of(name), Type: 'Annot', Subtype: 'Widget', F: 4, Rect: rect, P: page.ref }),
	);
	addAnnot(page, ref);
	doc.getForm().acroForm.addField(ref);
	return ref;
}

/** Labels beside the fields, so the page reads as a form. */
function label(page, font, text, x, y, size = 10) {
	page.drawText(text, { x, y, size, font });
}

/**
 * form-pdflib.pdf: a 2-page Letter "tenancy onboarding" form made with pdf-lib's form API. Page 1: text fields
 * (one required), a multi-line text, a required checkbox, a dropdown, a read-only and a hidden text, a push button,
 * a radio group; page 2: two signature fields (/FT /Sig) and a text.
 */
export async function formPdflib(epoch) {
	const doc = await freshDoc(epoch);
	const font = await doc.embedFont(StandardFonts.Helvetica);
	const form = doc.getForm();
	const one = doc.addPage([612, 792]);
	const two = doc.addPage([612, 792]);
	label(one, font, 'Tenancy onboarding', 72, 730, 16);

	label(one, font, 'Tenant name', 72, 690);
	const tenant = form.createTextField('Tenant Name');
	tenant.enableRequired();
	tenant.addToPage(one, { x: 180, y: 682, width: 240, height: 20, font });

	label(one, font, 'Landlord name', 72, 655);
	form.createTextField('Landlord Name').addToPage(one, { x: 180, y: 647, width: 240, height: 20, font });

	label(one, font, 'Notes', 72, 620);
	const notes = form.createTextField('Notes');
	notes.enableMultiline();
	notes.addToPage(one, { x: 180, y: 540, width: 320, height: 90, font });

	label(one, font, 'I agree to the terms', 100, 505);
	const agree = form.createCheckBox('Agree Terms');
	agree.enableRequired();
	agree.addToPage(one, { x: 72, y: 500, width: 16, height: 16 });

	label(one, font, 'Plan', 72, 470);
	const plan = form.createDropdown('Plan');
	plan.addOptions(['Basic', 'Pro', 'Enterprise']);
	plan.addToPage(one, { x: 180, y: 462, width: 150, height: 20, font });

	label(one, font, 'Reference', 72, 435);
	const reference = form.createTextField('Reference');
	reference.setText('REF-2026-001');
	reference.enableReadOnly();
	reference.addToPage(one, { x: 180, y: 427, width: 150, height: 20, font });

	const internal = form.createTextField('Internal');
	internal.addToPage(one, { x: 400, y: 427, width: 120, height: 20, font, hidden: true });

	form.createButton('Print').addToPage('Print', one, { x: 72, y: 380, width: 80, height: 24, font });

	label(one, font, 'Pets', 72, 345);
	const pets = form.createRadioGroup('Pets');
	pets.addOptionToPage('Yes', one, { x: 180, y: 340, width: 14, height: 14 });
	label(one, font, 'Yes', 198, 343);
	pets.addOptionToPage('No', one, { x: 240, y: 340, width: 14, height: 14 });
	label(one, font, 'No', 258, 343);

	label(two, font, 'Signatures', 72, 730, 16);
	label(two, font, 'Tenant signature', 72, 660);
	addSignatureField(doc, two, 'Tenant Signature', [180, 640, 400, 680]);
	label(two, font, 'Date', 420, 660);
	form.createTextField('Tenant Date').addToPage(two, { x: 450, y: 652, width: 100, height: 20, font });
	label(two, font, 'Landlord signature', 72, 580);
	addSignatureField(doc, two, 'Landlord Signature', [180, 560, 400, 600]);

	return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** The fillable fixtures, in make.mjs's FIXTURES shape (no tags: their text holds none). */
/** A text string as UTF-16BE with its byte order mark (how producers write names outside PDFDocEncoding). */
const utf16 = (text) => PDFHexString.of(`FEFF${[...text].map((c) => c.charCodeAt(0).toString(16).padStart(4, '0')).join('')}`);

/**
 * form-tree.pdf: a field tree written with pdf-lib's low-level objects, so every case is exact: inherited names and
 * flags, a field with widgets on two pages, a node without /T, a UTF-16 name, choices as [export, display] pairs,
 * a widget /Fields does not reach (only its page's /Annots and its /Parent), a NoView widget; pages turned by
 * /Rotate 90 and 270 and offset by a CropBox.
 */
export async function formTree(epoch) {
	const doc = await freshDoc(epoch);
	const { context } = doc;
	const font = await doc.embedFont(StandardFonts.Helvetica);
	const pages = [
		doc.addPage([612, 792]),
		doc.addPage([612, 792]),
		doc.addPage([612, 792]),
		doc.addPage([595.28, 841.89]),
	];
	pages[1].setRotation(degrees(90));
	pages[2].setCropBox(50, 100, 512, 642);
	pages[3].setCropBox(30, 40, 500, 700);
	pages[3].setRotation(degrees(270));
	const notes = [
		'Page 1: applicant.name, applicant.email (first widget), applicant.id, comments.text, Prénom',
		'Page 2 (Rotate 90): consent, plan, applicant_signature',
		'Page 3 (CropBox offset): applicant.email (second widget), phone, extra (reached only through /Annots)',
		'Page 4 (CropBox and Rotate 270): witness_signature, hidden_note',
	];
	pages.forEach((page, i) => page.drawText(notes[i], { x: 60, y: 600, size: 9, font }));

	const ref = (dict) => context.register(context.obj(dict));
	const widget = (page, rect, extra = {}) => {
		const w = ref({ Type: 'Annot', Subtype: 'Widget', F: 4, Rect: rect, P: page.ref, ...extra });
		addAnnot(page, w);
		return w;
	};
	/** A field node: `own` entries, then its kids (each a ref) and the /Parent links back. */
	const field = (own, kids = []) => {
		const f = ref({ ...own, ...(kids.length ? { Kids: kids } : {}) });
		for (const kid of kids) context.lookup(kid).set(PDFName.of('Parent'), f);
		return f;
	};
	const [one, two, three, four] = pages;

	// applicant: /FT /Tx and Required (Ff 2) for its kids; "id" sets its own Ff (ReadOnly), which wins.
	const name = widget(one, [150, 700, 400, 720], { T: PDFString.of('name') });
	const emailWidgets = [widget(one, [150, 670, 400, 690]), widget(three, [120, 500, 360, 520])];
	const email = field({ T: PDFString.of('email') }, emailWidgets);
	const id = widget(one, [150, 640, 260, 660], { T: PDFString.of('id'), Ff: 1 });
	const applicant = field({ T: PDFString.of('applicant'), FT: 'Tx', Ff: 2 }, [name, email, id]);
	// A node without /T adds nothing to the name; Multiline (bit 13) set on it reaches its kid.
	const comments = field({ FT: 'Tx', Ff: 4096 }, [widget(one, [150, 520, 450, 610], { T: PDFString.of('comments') })]);
	const prenom = widget(one, [150, 480, 300, 500], { T: utf16('Prénom'), FT: 'Tx' });

	const consent = widget(two, [100, 600, 116, 616], { T: PDFString.of('consent'), FT: 'Btn', Ff: 2 });
	const plan = widget(two, [100, 550, 260, 570], {
		T: PDFString.of('plan'), FT: 'Ch', Ff: 1 << 17,
		Opt: [[PDFString.of('b'), PDFString.of('Basic')], [PDFString.of('p'), PDFString.of('Pro')], PDFString.of('Enterprise')],
	});
	const applicantSignature = widget(two, [100, 450, 320, 500], { T: PDFString.of('applicant_signature'), FT: 'Sig' });

	const phone = widget(three, [120, 450, 300, 470], { T: PDFString.of('phone'), FT: 'Tx' });
	// "extra": a field /Fields does not list; its widget is only in page 3's /Annots.
	field({ T: PDFString.of('extra'), FT: 'Tx', Ff: 2 }, [widget(three, [120, 400, 300, 420])]);

	const witness = widget(four, [100, 300, 320, 340], { T: PDFString.of('witness_signature'), FT: 'Sig' });
	const hiddenNote = widget(four, [100, 250, 320, 270], { T: PDFString.of('hidden_note'), FT: 'Tx', F: 4 | 32 });

	const acroForm = ref({
		Fields: [applicant, comments, prenom, consent, plan, applicantSignature, phone, witness, hiddenNote],
		NeedAppearances: true,
		DA: PDFString.of('/Helv 10 Tf 0 g'),
	});
	doc.catalog.set(PDFName.of('AcroForm'), acroForm);
	return Buffer.from(await doc.save());
}

/**
 * `tools` from make.mjs: { epoch, run (execFileSync with its options), tmp, qpdf (bytes → bytes, flags before the
 * input, then after it), base (a fixture's bytes, made earlier in the run) }.
 */
export function formFixtures(tools) {
	const { epoch } = tools;
	return [
		{
			file: 'form-pdflib.pdf',
			producer: 'pdf-lib (form API)',
			how: 'scripts/pdf-fixtures/makeForms.mjs formPdflib: pdf-lib form API, signature fields as low-level /FT /Sig dictionaries',
			features: ['AcroForm fields', 'text (required)', 'multi-line text', 'checkbox (required)', 'dropdown',
				'read-only text', 'hidden widget', 'push button', 'radio group', 'signature fields (/FT /Sig) on page 2',
				'2 pages Letter'],
			make: () => formPdflib(epoch),
			tags: [],
			braces: [],
		},
		{
			file: 'form-tree.pdf',
			producer: 'pdf-lib (low-level field tree)',
			how: 'scripts/pdf-fixtures/makeForms.mjs formTree: field dictionaries written with pdf-lib low-level objects (default save)',
			features: ['AcroForm fields', 'inherited /FT and /Ff', 'names joined through the tree', 'node without /T',
				'one field with widgets on two pages', 'UTF-16 field name', 'choices as [export, display] pairs',
				'widget reached only through /Annots and /Parent', 'NoView widget', 'signature fields (/FT /Sig)',
				'rotated page (/Rotate 90)', 'CropBox offset', 'CropBox and /Rotate 270', 'object streams', 'xref stream'],
			make: () => formTree(epoch),
			tags: [],
			braces: [],
		},
		{
			file: 'form-controls.pdf',
			producer: 'libreoffice-odt (form controls)',
			how: `soffice --convert-to '${PDF_WITH_FIELDS}' src/form-controls.fodt`,
			features: ['AcroForm fields', 'LibreOffice form controls', 'text', 'multi-line text', 'read-only text',
				'checkbox', 'drop-down list box', 'open list box', 'combo box', 'field on page 2', 'classic xref table',
				'2 pages Letter'],
			make: () => formControls(tools),
			tags: [],
			braces: [],
		},
		{
			file: 'form-aes-128.pdf',
			producer: 'qpdf (from pdf-lib form API)',
			how: 'qpdf --static-id --static-aes-iv --encrypt "" esign-owner 128 --use-aes=y form-pdflib.pdf',
			features: ['AcroForm fields', 'encrypted (AES-128, R4)', 'empty user password', 'field names and choices encrypted'],
			make: () => tools.qpdf(tools.base('form-pdflib.pdf'), ['--static-id', '--static-aes-iv', '--encrypt', '', 'esign-owner', '128', '--use-aes=y', '--']),
			tags: [],
			braces: [],
		},
	];
}
