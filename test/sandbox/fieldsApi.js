'use strict';
/** API handlers under /documents/{id}/fields (the per-field rules are in fields.js). */

const { fail, ok } = require('./util');
const store = require('./store');
const { validateFields } = require('./fields');

const load = (core, ctx) => store.loadDocument(core, ctx.user, ctx.params.id);

const listFields = (core, ctx) => ok(store.documentFields(core, load(core, ctx).id).map(store.fieldOut));

/** Replaces ALL fields (an empty array clears them). */
function saveFields(core, ctx) {
	const doc = load(core, ctx);
	if (doc.status !== 'draft') fail(400, 'invalid_state', `Fields can only be changed on a draft; this document is ${doc.status}.`);
	const submitted = ctx.input.fields;
	if (!Array.isArray(submitted)) fail(400, 'invalid_data', 'fields must be an array of field objects.');
	const signerIds = new Set(store.documentSigners(core, doc.id).map((s) => s.id));
	const { fields, errors } = validateFields(submitted, { signerIds, totalPages: doc.total_pages });
	if (errors.length) fail(400, 'validation_failed', 'One or more fields failed validation.', { errors });
	for (const f of store.documentFields(core, doc.id)) core.state.fields.delete(f.id);
	const saved = fields.map((f) => store.createField(core, doc, f));
	store.touch(core, doc);
	store.addAudit(core, doc, 'fields_updated', ctx);
	return ok(saved.map(store.fieldOut));
}

module.exports = { listFields, saveFields };
