// A fillable PDF's form fields in real n8n (issue 41): what example 9 must make a site do. Each form field a signer can
// fill has one field over its rectangle as pdf.js reads it (page.getAnnotations()), with its name, type, Required
// flag and choices; and once both signers signed, the signed PDF the site hands out has each signer's name (which the
// site stamps as the signature) inside that signer's signature form field (read back with pdf.js).
import fs from 'node:fs';
import path from 'node:path';
import { readForms } from '../../test/support/pdfjsForms.mjs';
import { readPdf } from '../../test/support/pdfjsOracle.mjs';
import { assert } from './assert.mjs';
import { RUNTIME_ROOT } from './runtime.mjs';

export const SIGNED_FORM = path.join(RUNTIME_ROOT, 'e2e-logs', 'form-fields-signed.pdf');
/** Who signs which signature form field in example 9 (its Form Field Signers: "landlord" → 2, the rest → 1). */
const SIGNERS = [
	['Tina Tenant', 'tina@example.org', 'Tenant Signature'],
	['Lars Landlord', 'lars@example.org', 'Landlord Signature'],
];
const SLACK = 2; // points: the stamped text sits inside the field, drawn over the form field's box

const fail = (message) => assert(false, message);
const inside = (inner, outer) =>
	inner[0] >= outer[0] - SLACK && inner[1] >= outer[1] - SLACK && inner[2] <= outer[2] + SLACK && inner[3] <= outer[3] + SLACK;

/** The eSign field type a widget becomes, or undefined when the node leaves it out. */
export function typeOf(w) {
	if (w.readOnly || w.hidden || w.pushButton || w.radioButton) return undefined;
	if (w.fieldType === 'Sig') return 'signature';
	if (w.fieldType === 'Ch') return 'dropdown';
	if (w.checkBox) return 'checkbox';
	return w.fieldType === 'Tx' ? (w.multiLine ? 'textarea' : 'text') : undefined;
}

/** Example 9's checks on `site` for the document `docId` its run created and completed. */
export async function signedInFormFields(site, docId) {
	const doc = await site.document(docId);
	if (doc?.status !== 'completed') fail(`document ${docId} status ${doc?.status}, expected completed`);
	const { widgets } = await readForms(await site.sample('tenancy-form.pdf'));
	const usable = widgets.filter(typeOf);
	const fields = (await site.call('GET', `/documents/${docId}/fields`)).body;
	const signers = (await site.call('GET', `/documents/${docId}/signers`)).body;
	if (!Array.isArray(fields) || fields.length !== usable.length) fail(`${fields?.length} fields for ${usable.length} usable form fields`);
	const idOf = (email) => String(signers.find((s) => s.email === email)?.id);
	for (const w of usable) {
		const [left, top, right, bottom] = w.box;
		const f = fields.find((x) => x.field_name === w.name && Number(x.page_number) === w.page);
		if (!f) fail(`no field named "${w.name}" on page ${w.page}`);
		const box = [Number(f.position_x), Number(f.position_y), Number(f.position_x) + Number(f.width), Number(f.position_y) + Number(f.height)];
		const off = box.map((n, k) => Math.abs(n - [left, top, right, bottom][k]));
		if (Math.max(...off) > 1) fail(`field "${w.name}" at ${JSON.stringify(box)}, form field at ${JSON.stringify(w.box)}`);
		if (f.field_type !== typeOf(w)) fail(`field "${w.name}" is a ${f.field_type}, expected ${typeOf(w)}`);
		const required = w.required || w.fieldType === 'Sig'; // a signature is always required
		if (Boolean(Number(f.is_required)) !== required) fail(`field "${w.name}" is_required ${f.is_required}, expected ${required} (the form field's Required is ${w.required})`);
		const signer = /landlord/i.test(w.name) ? 'lars@example.org' : 'tina@example.org';
		if (String(f.signer_id) !== idOf(signer)) fail(`field "${w.name}" is for signer ${f.signer_id}, expected ${signer} (${idOf(signer)})`);
		if (w.options && JSON.stringify(JSON.parse(f.options || '[]')) !== JSON.stringify(w.options)) fail(`field "${w.name}" options ${f.options}, expected ${JSON.stringify(w.options)}`);
	}
	const file = (await site.call('GET', `/documents/${docId}/file`)).body;
	const signed = Buffer.from(String(file?.content ?? ''), 'base64');
	if (signed.subarray(0, 5).toString('latin1') !== '%PDF-') fail(`the signed file is not a PDF (${file?.type})`);
	fs.mkdirSync(path.dirname(SIGNED_FORM), { recursive: true });
	fs.writeFileSync(SIGNED_FORM, signed);
	const notes = [];
	for (const [name, , formField] of SIGNERS) {
		const widget = usable.find((w) => w.name === formField);
		if (!widget) fail(`the form has no signature field "${formField}"`);
		const stamped = await readPdf(signed, { glyphs: false, anchors: [name], pages: [widget.page] });
		const names = stamped.pages[0].anchors.filter((a) => a.text === name);
		const over = names.find((a) => inside(a.box, widget.box));
		if (!over) fail(`no "${name}" stamped inside form field "${formField}" ${JSON.stringify(widget.box)}; found at ${JSON.stringify(names.map((a) => a.box))}`);
		notes.push(`${name}'s signature at ${over.box.map((n) => n.toFixed(0)).join(',')} inside "${formField}"`);
	}
	return `${fields.length} fields over the ${usable.length} usable form fields (${widgets.length - usable.length} widgets left out); completed; ${notes.join('; ')}`;
}
