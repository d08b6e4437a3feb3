'use strict';
/** API handlers under /documents/{id}/signers. */

const { fail, isNonEmptyString, ok, toInteger } = require('./util');
const store = require('./store');
const { checkRole } = require('./profile');

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const load = (core, ctx) => store.loadDocument(core, ctx.user, ctx.params.id);

/** The document's signers; in the order they were added under the profile's signerList 'added' (the spec shows none). */
const listSigners = (core, ctx) => {
	const signers = store.documentSigners(core, load(core, ctx).id);
	if (core.state.profile.signerList === 'added') signers.sort((a, b) => a.id - b.id);
	return ok(signers.map(store.signerOut));
};

function addSigner(core, ctx) {
	const doc = load(core, ctx);
	const { name, email, role = 'signer', signing_order: order } = ctx.input;
	if (doc.status !== 'draft') fail(400, 'invalid_state', `Signers can only be added to a draft; this document is ${doc.status}.`);
	if (!isNonEmptyString(name)) fail(400, 'invalid_data', 'name is required.');
	if (!isNonEmptyString(email) || !EMAIL_RE.test(email.trim())) fail(400, 'invalid_data', 'A valid email is required.');
	checkRole(core.state.profile, role);
	const existing = store.documentSigners(core, doc.id);
	// The spec shows no default order: 'next' fills in highest + 1, 'given' none ("0"), 'one' 1 (WPsigner).
	const omitted = { next: existing.reduce((max, s) => Math.max(max, s.signing_order), 0) + 1, given: 0, one: 1 };
	let signingOrder = omitted[core.state.profile.signingOrder];
	if (order !== undefined && order !== null && order !== '') {
		signingOrder = toInteger(order);
		if (!(signingOrder >= 1)) fail(400, 'invalid_data', 'signing_order must be an integer of at least 1.');
	}
	if (existing.some((s) => s.email.toLowerCase() === email.trim().toLowerCase())) {
		fail(400, 'duplicate_signer', `${email.trim()} is already a signer of this document.`);
	}
	const signer = store.createSigner(core, doc, { name: name.trim(), email: email.trim(), role, signingOrder });
	store.touch(core, doc);
	store.addAudit(core, doc, 'signer_added', ctx, signer);
	return addSignerAnswer(core, signer);
}

/**
 * The answer to Add Signer, whose shape and status code the spec does not show: the default's 201 with the
 * Signer, or (profile addSignerAnswers, taking turns) 200 with {id} only, {success: true} or {}.
 */
function addSignerAnswer(core, signer) {
	const variants = core.state.profile.addSignerAnswers;
	const variant = variants[core.state.addSignerAnswers++ % variants.length];
	if (variant === 'id') return ok({ id: String(signer.id) });
	if (variant === 'success') return ok({ success: true });
	if (variant === 'empty') return ok({});
	return ok(store.signerOut(signer), 201);
}

module.exports = { listSigners, addSigner };
