// A row drawn into a fillable PDF before it goes out (issue 51), in real n8n: what example 10 must make a site do.
// Fill PDF draws the row's values into tenancy-form.pdf's form fields and takes those fields out; Create and Send draws
// the tenant's date from its own PDF Values and, from the form fields, gives the signers only the fields left; once both signed, the signed PDF the site hands out shows
// each value inside its form field's box and each signer's name inside their signature field (read with pdf.js, not
// with the node's reader).
import fs from 'node:fs';
import path from 'node:path';
import { readForms } from '../../test/support/pdfjsForms.mjs';
import { readPdf } from '../../test/support/pdfjsOracle.mjs';
import { assert } from './assert.mjs';
import { RUNTIME_ROOT } from './runtime.mjs';

export const SIGNED_FILLED = path.join(RUNTIME_ROOT, 'e2e-logs', 'fill-pdf-signed.pdf');
/** Example 10's row (its Contract row node) and who signs which signature field. */
/** [the text drawn, the form field it is drawn in] */
const ROW = [
	['Christina Tenant', 'Tenant Name'],
	['Lars Landlord GmbH', 'Landlord Name'],
	['Pro', 'Plan'],
	// Drawn by Create and Send's own PDF Values.
	['2026-03-01', 'Tenant Date'],
];
/** [the signer's name, stamped as the signature; their signature field] */
const SIGNATURES = [
	['Tina Tenant', 'Tenant Signature'],
	['Lars Landlord', 'Landlord Signature'],
];
const LEFT = ['Landlord Signature', 'Tenant Signature'];
const SLACK = 2;

const inside = (inner, outer) =>
	inner[0] >= outer[0] - SLACK && inner[1] >= outer[1] - SLACK && inner[2] <= outer[2] + SLACK && inner[3] <= outer[3] + SLACK;

/** Example 10's checks on `site` for the document `docId` its run created and completed. */
export async function signedFilled(site, docId) {
	const doc = await site.document(docId);
	assert(doc?.status === 'completed', `document ${docId} status ${doc?.status}, expected completed`);
	const fields = (await site.call('GET', `/documents/${docId}/fields`)).body;
	const names = (Array.isArray(fields) ? fields : []).map((f) => f.field_name).sort();
	assert(JSON.stringify(names) === JSON.stringify(LEFT), `the signers' fields: ${JSON.stringify(names)}, expected only those the row left: ${JSON.stringify(LEFT)}`);
	const file = (await site.call('GET', `/documents/${docId}/file`)).body;
	const signed = Buffer.from(String(file?.content ?? ''), 'base64');
	assert(signed.subarray(0, 5).toString('latin1') === '%PDF-', `the signed file is not a PDF (${file?.type})`);
	fs.mkdirSync(path.dirname(SIGNED_FILLED), { recursive: true });
	fs.writeFileSync(SIGNED_FILLED, signed);
	// The text first: readPdf's glyph-reading pdf.js must be the first pdf.js this process loads (readForms loads
	// the plain build, whose worker it would then share).
	const read = await readPdf(signed, { glyphs: false, anchors: [...ROW, ...SIGNATURES].map(([text]) => text) });
	const { widgets } = await readForms(await site.sample('tenancy-form.pdf'));
	const notes = [];
	for (const [text, formField] of [...ROW, ...SIGNATURES]) {
		const widget = widgets.find((w) => w.name === formField);
		assert(widget, `the form has no field "${formField}"`);
		const found = (read.pages.find((p) => p.page === widget.page)?.anchors ?? []).filter((a) => a.text === text);
		assert(found.some((a) => inside(a.box, widget.box)), `no "${text}" inside form field "${formField}" ${JSON.stringify(widget.box)} in the signed PDF; found at ${JSON.stringify(found.map((a) => a.box))}`);
		notes.push(`"${text}" in "${formField}"`);
	}
	const after = (await readForms(signed)).widgets.map((w) => w.name);
	const stillThere = ROW.map(([, field]) => field).filter((field) => after.includes(field));
	assert(!stillThere.length, `the filled form fields are still in the signed PDF: ${stillThere.join(', ')}`);
	return `completed; fields only ${LEFT.join(', ')}; ${notes.join('; ')}`;
}
