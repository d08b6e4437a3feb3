'use strict';
/** Templates: seed data, API handlers (list, get, create a document from one) and "save document as template". */

const { ApiError, fail, invalidParam, isNonEmptyString, isPlainObject, toBoolean, toInteger } = require('./util');
const store = require('./store');
const { FIELD_DEFAULTS, SIGNATURE_TYPES } = require('./fields');
const signing = require('./signing');
const { checkRole } = require('./profile');

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Top-level conveniences merged into `variables` when not set there. */
const CONVENIENCE_KEYS = ['client_name', 'property_address', 'appointment_date'];

const ok = (body, status = 200) => ({ status, body, headers: {} });

/** Field factory for seed templates: `signer` is the index of the signer (by signing order). */
const tf = (signer, field_type, page_number, position_x, position_y, field_name = '', mapping_name = '') => ({
	signer, field_type, field_name, mapping_name, page_number, position_x, position_y,
	width: FIELD_DEFAULTS[field_type][0], height: FIELD_DEFAULTS[field_type][1],
	is_required: true, font_size: 14, font_family: 'DM Sans', placeholder: '', options: [],
});

const SEED_TEMPLATES = [
	{
		owner: 'admin', name: 'Rental Agreement', sample: 'contract.pdf',
		description: 'Residential rental agreement; tenant details are prefilled from variables.',
		fields: [
			tf(0, 'text', 1, 72, 200, 'Client name', 'client_name'),
			tf(0, 'text', 1, 72, 240, 'Property address', 'property_address'),
			tf(0, 'date', 1, 72, 280, 'Appointment date', 'appointment_date'),
			tf(0, 'initials', 1, 440, 700, 'Tenant initials'),
			tf(0, 'signature', 2, 72, 530, 'Tenant signature'),
		],
	},
	{
		owner: 'admin', name: 'Mutual NDA', sample: 'contract.pdf',
		description: 'Two-party non-disclosure agreement.',
		fields: [
			tf(0, 'text', 1, 72, 200, 'Company name', 'company_name'),
			tf(0, 'date', 1, 72, 240, 'Effective date', 'effective_date'),
			tf(0, 'signature', 2, 72, 530, 'Disclosing party signature'),
			tf(1, 'signature', 2, 320, 530, 'Receiving party signature'),
		],
	},
	{
		owner: 'user', name: "Uma's Offer Letter", sample: 'one-page.pdf', description: '',
		fields: [tf(0, 'text', 1, 72, 200, 'Candidate name', 'candidate_name'), tf(0, 'signature', 1, 72, 530, 'Candidate signature')],
	},
];

function addTemplate(core, { ownerId, name, description, originalFilename, file, fields }) {
	const at = store.ts(core);
	const template = {
		id: store.nextId(core, 'template'),
		ownerId, name, description, original_filename: originalFilename, total_pages: file.pages, file, fields,
		created_at: at, updated_at: at,
	};
	core.state.templates.set(template.id, template);
	return template;
}

function seedTemplates(core) {
	for (const t of SEED_TEMPLATES) {
		const sample = core.samples[t.sample];
		addTemplate(core, {
			ownerId: core.state.users[t.owner].id,
			name: t.name,
			description: t.description,
			originalFilename: t.sample,
			file: store.makeFile(sample.data, 'pdf', t.sample === 'contract.pdf' ? 2 : 1),
			fields: t.fields,
		});
	}
}

/** Variable key of a field: its mapping name, else its field name. Signature/initials are never prefillable. */
const variableKey = (f) => (SIGNATURE_TYPES.has(f.field_type) ? '' : f.mapping_name || f.field_name || '');

const humanise = (key) => key.replace(/[_-]+/g, ' ').replace(/^./, (c) => c.toUpperCase());

function templateOut(t) {
	const variables = [];
	for (const f of t.fields) {
		const key = variableKey(f);
		if (key && !variables.some((v) => v.key === key)) variables.push({ key, label: f.field_name || humanise(key), field_type: f.field_type });
	}
	return {
		id: t.id, name: t.name, description: t.description, original_filename: t.original_filename,
		total_pages: t.total_pages, created_at: t.created_at, updated_at: t.updated_at, variables,
	};
}

function loadTemplate(core, user, id) {
	const t = core.state.templates.get(Number(id));
	if (!t) fail(404, 'not_found', 'Template not found.');
	if (!store.canSee(user, t)) fail(403, 'forbidden', 'Permission denied.');
	return t;
}

// ---------------------------------------------------------------- API

function list(core, ctx) {
	const raw = ctx.input.per_page;
	let perPage = 50;
	if (raw !== undefined && raw !== '') {
		perPage = toInteger(raw);
		if (!(perPage >= 1 && perPage <= 100)) invalidParam('per_page', 'per_page must be between 1 (inclusive) and 100 (inclusive).');
	}
	const search = typeof ctx.input.search === 'string' ? ctx.input.search.toLowerCase() : '';
	const items = [...core.state.templates.values()]
		.filter((t) => store.canSee(ctx.user, t))
		.filter((t) => !search || t.name.toLowerCase().includes(search) || t.description.toLowerCase().includes(search))
		.slice(0, perPage)
		.map(templateOut);
	return ok(items);
}

const get = (core, ctx) => ok(templateOut(loadTemplate(core, ctx.user, ctx.params.id)));

/** Validates `signers` (or signer_name/signer_email) into [{name, email, role, signingOrder, requireWpLogin}]. */
function readSigners(core, input) {
	let raw = Array.isArray(input.signers) ? input.signers : [];
	if (input.signers !== undefined && input.signers !== null && !Array.isArray(input.signers)) fail(400, 'invalid_data', 'signers must be an array.');
	if (!raw.length && (input.signer_name !== undefined || input.signer_email !== undefined)) {
		raw = [{ name: input.signer_name, email: input.signer_email }];
	}
	const knownEmails = Object.values(core.state.users).map((u) => u.email.toLowerCase());
	const signers = raw.map((s, i) => {
		const n = i + 1;
		if (!isPlainObject(s)) fail(400, 'invalid_data', `Signer ${n}: must be an object.`);
		if (!isNonEmptyString(s.name)) fail(400, 'invalid_data', `Signer ${n}: name is required.`);
		if (!isNonEmptyString(s.email) || !EMAIL_RE.test(s.email.trim())) fail(400, 'invalid_data', `Signer ${n}: a valid email is required.`);
		const role = s.role === undefined || s.role === null || s.role === '' ? 'signer' : s.role;
		checkRole(core.state.profile, role, `Signer ${n}: `);
		// An omitted order: the position in the list, or 1 on a site that defaults to 1 (profile signingOrder 'one').
		let signingOrder = core.state.profile.signingOrder === 'one' ? 1 : n;
		if (s.signing_order !== undefined && s.signing_order !== null && s.signing_order !== '') {
			signingOrder = toInteger(s.signing_order);
			if (!(signingOrder >= 1)) fail(400, 'invalid_data', `Signer ${n}: signing_order must be an integer of at least 1.`);
		}
		const email = s.email.trim();
		const requireWpLogin = toBoolean(s.require_wp_login) === true;
		if (requireWpLogin && !knownEmails.includes(email.toLowerCase())) {
			fail(400, 'invalid_signer', `Signer ${n}: require_wp_login needs an email that belongs to a user of this site (${email} does not).`);
		}
		return { name: s.name.trim(), email, role, signingOrder, requireWpLogin };
	});
	const seen = new Set();
	for (const s of signers) {
		const key = s.email.toLowerCase();
		if (seen.has(key)) fail(400, 'duplicate_signer', `${s.email} is listed twice.`);
		seen.add(key);
	}
	return signers;
}

/**
 * Clones the template into a new document, adds signers, assigns template fields to signers by
 * position, prefills non-signature fields from variables and optionally sends. A failed send
 * keeps the draft and reports send_error.
 */
function createFromTemplate(core, ctx) {
	const template = loadTemplate(core, ctx.user, ctx.params.id);
	const { input } = ctx;
	const send = input.send === undefined || input.send === null ? true : toBoolean(input.send);
	if (send === undefined) fail(400, 'invalid_data', 'send must be a boolean.');
	if (input.variables !== undefined && input.variables !== null && !isPlainObject(input.variables)) {
		fail(400, 'invalid_data', 'variables must be an object of variable keys to values.');
	}
	if (input.title !== undefined && input.title !== null && typeof input.title !== 'string') fail(400, 'invalid_data', 'title must be a string.');
	const signerInput = readSigners(core, input);
	if (send && !signerInput.length) fail(400, 'no_signers', 'At least one signer is required when send is true.');

	const variables = { ...(input.variables || {}) };
	const isSet = (v) => v !== undefined && v !== null && v !== '';
	for (const key of CONVENIENCE_KEYS) if (!isSet(variables[key]) && isSet(input[key])) variables[key] = input[key];

	const title = isNonEmptyString(input.title) ? input.title.trim() : `${template.name} - ${store.ts(core)}`;
	const doc = store.createDocument(core, {
		ownerId: ctx.user.id, title, originalFilename: template.original_filename, file: template.file, templateId: template.id,
	});
	store.addAudit(core, doc, 'document_created', ctx);
	const signers = signerInput
		.map((s) => store.createSigner(core, doc, s))
		.sort((a, b) => a.signing_order - b.signing_order || a.id - b.id);
	for (const s of signers) store.addAudit(core, doc, 'signer_added', ctx, s);

	let prefilled = false;
	for (const { signer: index, ...props } of template.fields) {
		if (!signers[index]) continue; // no signer at that position: the field is dropped
		const field = store.createField(core, doc, { ...props, options: [...props.options], signer_id: signers[index].id });
		const key = variableKey(field);
		if (key && isSet(variables[key])) {
			field.value = String(variables[key]);
			prefilled = true;
		}
	}
	if (template.fields.length) store.addAudit(core, doc, 'fields_updated', ctx);

	let sent = false;
	let sendError = null;
	if (send) {
		try {
			signing.sendDocument(core, doc, ctx);
			sent = true;
		} catch (e) {
			if (!(e instanceof ApiError)) throw e;
			sendError = e.message;
		}
	}
	const message = sent
		? `Document created from template and sent to ${signers.length} signer(s).`
		: sendError ? 'Document created from template, but it could not be sent.' : 'Document created from template as a draft.';
	return ok({
		id: doc.id,
		document_id: doc.id,
		template_id: template.id,
		title: doc.title,
		status: doc.status,
		prefilled,
		sent,
		message,
		signers: signers.map((s) => ({
			id: s.id, name: s.name, email: s.email, role: s.role, signing_order: s.signing_order, status: s.status,
			signing_url: store.signingUrl(core, s),
		})),
		send_error: sendError,
	}, 201);
}

// ---------------------------------------------------------------- control: save a document as a template

/** Copies a document's file and fields; a field's signer becomes its position in the signing order. */
function saveAsTemplate(core, { document_id: documentId, name, description, owner }) {
	const doc = core.state.documents.get(toInteger(documentId));
	if (!doc) fail(404, 'not_found', 'Document not found.');
	if (!doc.file) fail(400, 'no_file', 'The document has no file.');
	if (!isNonEmptyString(name)) fail(400, 'invalid_data', 'name is required.');
	if (owner !== undefined && !core.state.users[owner]) fail(400, 'invalid_data', 'owner must be admin, user or user2.');
	const signerIndex = new Map(store.documentSigners(core, doc.id).map((s, i) => [s.id, i]));
	const fields = store.documentFields(core, doc.id).map((f) => ({
		signer: signerIndex.get(f.signer_id),
		field_type: f.field_type, field_name: f.field_name, mapping_name: f.mapping_name,
		page_number: f.page_number, position_x: f.position_x, position_y: f.position_y, width: f.width, height: f.height,
		is_required: f.is_required, font_size: f.font_size, font_family: f.font_family, placeholder: f.placeholder, options: f.options,
	}));
	const template = addTemplate(core, {
		ownerId: owner ? core.state.users[owner].id : doc.ownerId,
		name: name.trim(),
		description: typeof description === 'string' ? description : '',
		originalFilename: doc.original_filename,
		file: doc.file,
		fields,
	});
	return templateOut(template);
}

module.exports = { seedTemplates, templateOut, list, get, createFromTemplate, saveAsTemplate };
