// Fillable PDF fixtures (AcroForm fields) for the form-field reader (nodes/ESign/pdf/forms.ts), made by make.mjs.
// Each recipe returns the PDF's bytes; make.mjs writes them, reads them with the pdf.js oracle and the manifest.
import pdfLib from 'pdf-lib';

const { PDFDocument, PDFName, PDFString, PDFArray, StandardFonts } = pdfLib;

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
/** `tools`: { epoch, soffice, qpdf, tmp } from make.mjs. */
export function formFixtures({ epoch }) {
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
	];
}
