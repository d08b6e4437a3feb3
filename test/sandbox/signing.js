'use strict';
/**
 * The document state machine: send, signer view / sign / decline, completion, expiry, and the
 * signed PDF. Used by the API handlers, the template flow, the seeding control and the signing page.
 */

const { fail, formatTimestamp, parseTimestamp } = require('./util');
const { addAudit, documentFields, documentSigners, now, queueEmail, touch, ts } = require('./store');
const { eventData } = require('./webhooks');
const { buildSignedPdf } = require('./pdf');
const { hasDeclined } = require('./profile');

const TERMINAL = new Set(['completed', 'declined', 'expired']);
const AWAITING = new Set(['sent', 'viewed']);

/** Send prerequisites: a file, at least one signer, a signature field for every signer. */
function assertSendable(core, doc) {
	const signers = documentSigners(core, doc.id);
	if (!signers.length) fail(400, 'no_signers', 'The document has no signers. Add at least one signer before sending.');
	if (!doc.file) fail(400, 'no_file', 'The document has no file.');
	const fields = documentFields(core, doc.id);
	// Only the role signer signs (viewer and approver, the roles of the family profile, need no signature field).
	const missing = signers.filter((s) => s.role === 'signer' && !fields.some((f) => f.signer_id === s.id && f.field_type === 'signature'));
	if (missing.length) {
		fail(400, 'missing_fields', `Every signer needs a signature field. Missing for: ${missing.map((s) => s.name).join(', ')}.`, {
			signers: missing.map((s) => String(s.id)),
		});
	}
	return signers;
}

/** draft → sent, one invitation per signer (all at once: signing order is not enforced). */
function sendDocument(core, doc, ctx) {
	if (doc.status !== 'draft') fail(400, 'invalid_state', `Only a draft can be sent; this document is ${doc.status}.`);
	const signers = assertSendable(core, doc);
	doc.status = 'sent';
	touch(core, doc);
	for (const s of signers) queueEmail(core, doc, s, 'invitation');
	addAudit(core, doc, 'document_sent', ctx);
	core.webhooks.emit('document.sent', eventData(doc));
	return signers;
}

/** Finds the signer of a signing link; 404 not_found otherwise. */
function signerByToken(core, token) {
	const signer = [...core.state.signers.values()].find((s) => s.token === token);
	if (!signer) fail(404, 'not_found', 'Signing link not found.');
	return { signer, doc: core.state.documents.get(signer.document_id) };
}

function assertActionable(doc, signer) {
	if (!AWAITING.has(doc.status)) fail(400, 'invalid_state', `The document is ${doc.status}, not awaiting signatures.`);
	if (signer.status === 'signed' || hasDeclined(signer)) fail(400, 'invalid_state', `This signer has already ${signer.status === 'signed' ? 'signed' : 'declined'}.`);
}

/** A signer opens the document: pending → viewed, sent → viewed (first view only). */
function viewDocument(core, doc, signer, ctx) {
	assertActionable(doc, signer);
	if (signer.status !== 'pending') return;
	signer.status = 'viewed';
	signer.viewed_at = ts(core);
	if (doc.status === 'sent') doc.status = 'viewed';
	touch(core, doc, signer);
	addAudit(core, doc, 'document_viewed', ctx, signer);
	core.webhooks.emit('document.viewed', eventData(doc, signer));
}

/** What a signer's empty field receives when signing without an explicit value. */
function defaultValue(core, field, signer) {
	switch (field.field_type) {
		case 'signature': return signer.name;
		case 'initials': return signer.name.split(/\s+/).map((w) => w[0] || '').join('').toUpperCase();
		case 'name': return signer.name;
		case 'email': return signer.email;
		case 'date': return formatTimestamp(now(core)).slice(0, 10);
		case 'stamp': return `Approved - ${signer.name}`;
		case 'checkbox': return field.is_required ? '1' : '';
		case 'dropdown': return field.is_required ? field.options[0] || '' : '';
		default: return field.is_required ? field.placeholder || field.field_name || 'Sample text' : '';
	}
}

/**
 * Signs for one signer (implies view). `values` maps field ids to values; the signer's other
 * empty fields get defaults. The last signature completes the document.
 */
function signDocument(core, doc, signer, values, ctx) {
	assertActionable(doc, signer);
	const own = documentFields(core, doc.id).filter((f) => f.signer_id === signer.id);
	const given = values && typeof values === 'object' ? values : {};
	for (const id of Object.keys(given)) {
		if (!own.some((f) => String(f.id) === id)) fail(400, 'invalid_data', `Field ${id} is not assigned to this signer.`);
	}
	viewDocument(core, doc, signer, ctx);
	for (const f of own) {
		const v = given[String(f.id)];
		if (v !== undefined && v !== null && v !== '') f.value = String(v);
		else if (f.value === '') f.value = defaultValue(core, f, signer);
		touch(core, f);
	}
	signer.status = 'signed';
	signer.signed_at = ts(core);
	signer.signed_ip = (ctx && ctx.ip) || '127.0.0.1';
	touch(core, signer);
	addAudit(core, doc, 'document_signed', ctx, signer);
	core.webhooks.emit('document.signed', eventData(doc, signer));

	// A viewer only reads: the document is complete once everyone else has signed (or approved).
	if (documentSigners(core, doc.id).every((s) => s.status === 'signed' || s.role === 'viewer')) {
		doc.status = 'completed';
		doc.completed_at = ts(core);
		touch(core, doc);
		addAudit(core, doc, 'document_completed', ctx);
		core.webhooks.emit('document.completed', eventData(doc));
	}
}

/**
 * A signer declines. Default profile: implies a view, and the signer's status becomes `declined`. Profile
 * declines: 'timestamps' (strict): what the spec shows alone: declined_at and decline_reason are set, and the
 * signer's status stays what it was (pending when declining from the invitation without opening it, else viewed).
 */
function declineDocument(core, doc, signer, reason, ctx) {
	const onlyTimestamps = core.state.profile.declines === 'timestamps';
	if (onlyTimestamps) assertActionable(doc, signer);
	else viewDocument(core, doc, signer, ctx);
	const text = typeof reason === 'string' && reason.trim() ? reason.trim() : 'No reason given.';
	if (!onlyTimestamps) signer.status = 'declined';
	signer.declined_at = ts(core);
	signer.decline_reason = text;
	doc.status = 'declined';
	touch(core, doc, signer);
	addAudit(core, doc, 'document_declined', ctx, signer);
	core.webhooks.emit('document.declined', eventData(doc, signer, { decline_reason: text }));
}

/** Applies a due expiration: terminal → invalid_state; no or future expires_at → not_due. */
function expireDocument(core, doc, ctx) {
	if (TERMINAL.has(doc.status)) fail(400, 'invalid_state', `The document is already ${doc.status}.`);
	const due = doc.expires_at && parseTimestamp(doc.expires_at) <= now(core);
	if (!due) {
		fail(400, 'not_due', doc.expires_at
			? `The document does not expire before ${doc.expires_at}.`
			: 'The document has no expiration date.');
	}
	doc.status = 'expired';
	touch(core, doc);
	addAudit(core, doc, 'document_expired', ctx);
	core.webhooks.emit('document.expired', eventData(doc));
}

/** The signed PDF of a completed document, built on first request and kept. */
async function signedPdf(core, doc) {
	if (!doc.signedFile) {
		doc.signedFile = await buildSignedPdf({
			document: doc,
			file: doc.file,
			fields: documentFields(core, doc.id),
			signers: documentSigners(core, doc.id),
			events: doc.events,
		});
	}
	return doc.signedFile;
}

module.exports = {
	TERMINAL,
	assertSendable,
	sendDocument,
	signerByToken,
	viewDocument,
	signDocument,
	declineDocument,
	expireDocument,
	signedPdf,
};
