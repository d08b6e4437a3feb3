'use strict';
/**
 * What the sandbox plays where the spec says "not shown" (CONTRACT.md → Profiles). The default profile makes
 * the guesses this project started with (CONTRACT.md → Decisions); the WordPress test site makes the same ones.
 * The strict profile plays only what the spec shows and varies where it is silent, so a node (or a test) that
 * relies on a guess fails against it. A profile is a set of knobs; a named profile is a preset of them.
 */

const { fail } = require('./util');

const KNOBS = {
	/** 'status': a decline sets the signer's status to `declined` (and implies a view); 'timestamps': only declined_at and decline_reason are set. */
	declines: ['status', 'timestamps'],
	/** 'full': {event, data: {document_id, document_title, status, signer…}, timestamp} + X-ESIGN-Event; 'spec': exactly {event, data} with the spec table's members. */
	webhooks: ['full', 'spec'],
	/** 'guessed': the default's refusals (Remind outside sent/viewed, PUT status other than draft ↔ sent); 'spec': only the refusals the spec shows. */
	refusals: ['guessed', 'spec'],
	/**
	 * 'next': an omitted signing_order becomes (highest + 1); 'given': it stays as sent ("0" when omitted); 'one': it
	 * becomes 1, as WPsigner (a plugin of the same family) does, so signers added without one share the first place.
	 */
	signingOrder: ['next', 'given', 'one'],
	/**
	 * The page-count headers of GET /documents: 'esign' X-ESIGN-Total/TotalPages (the spec); 'wp' WordPress's own
	 * X-WP-Total/TotalPages instead (WPsigner); 'both'; 'none' (a proxy or cache that drops them).
	 */
	countHeaders: ['esign', 'wp', 'both', 'none'],
	/** 'signer': any other role → 400 invalid_role; 'family': signer, viewer and approver (WPsigner's roles). */
	roles: ['signer', 'family'],
	/** The order of GET /documents/{id}/signers, which the spec does not show: 'order' by signing order, 'added' as added. */
	signerList: ['order', 'added'],
};

/** The roles each `roles` knob accepts. */
const ROLES = { signer: ['signer'], family: ['signer', 'viewer', 'approver'] };

/** Add Signer's answers: the default's 201 + Signer, or minimal objects (the spec shows no shape, no status code). */
const ADD_SIGNER_ANSWERS = ['signer', 'id', 'success', 'empty'];

const DEFAULT = { declines: 'status', webhooks: 'full', refusals: 'guessed', signingOrder: 'next', countHeaders: 'esign', roles: 'signer', signerList: 'order', addSignerAnswers: ['signer'] };
const PRESETS = {
	default: DEFAULT,
	// The minimal answers take turns (one per Add Signer request, from the first after a reset). Where the spec is
	// silent it plays what a published site of the family does: a default order of 1, the roles viewer and approver.
	strict: { declines: 'timestamps', webhooks: 'spec', refusals: 'spec', signingOrder: 'one', countHeaders: 'esign', roles: 'family', signerList: 'added', addSignerAnswers: ['id', 'success', 'empty'] },
	// A site of the same plugin family (WPsigner): WordPress's count headers, order 1 by default, three roles.
	family: { ...DEFAULT, signingOrder: 'one', countHeaders: 'wp', roles: 'family' },
};

/**
 * `'default'`, `'strict'`, or an object of knobs over a preset (`name`, default 'default'), e.g.
 * `{webhooks: 'spec'}` or `{name: 'strict', addSignerAnswers: ['empty']}`. Anything else → 400 invalid_data.
 */
function normalizeProfile(input) {
	const given = input === undefined || input === null ? {} : typeof input === 'string' ? { name: input } : input;
	if (typeof given !== 'object' || Array.isArray(given)) fail(400, 'invalid_data', "profile must be 'default', 'strict' or an object of knobs.");
	const name = given.name ?? 'default';
	if (!Object.hasOwn(PRESETS, name)) fail(400, 'invalid_data', `profile name must be one of ${Object.keys(PRESETS).join(', ')}.`);
	const profile = { name, ...PRESETS[name] };
	for (const [key, value] of Object.entries(given)) {
		if (key === 'name') continue;
		if (key === 'addSignerAnswers') {
			const list = typeof value === 'string' ? [value] : value;
			if (!Array.isArray(list) || !list.length || !list.every((v) => ADD_SIGNER_ANSWERS.includes(v))) {
				fail(400, 'invalid_data', `addSignerAnswers must be a list of ${ADD_SIGNER_ANSWERS.join(', ')}.`);
			}
			profile.addSignerAnswers = [...list];
		} else if (KNOBS[key]) {
			if (!KNOBS[key].includes(value)) fail(400, 'invalid_data', `${key} must be one of ${KNOBS[key].join(', ')}.`);
			profile[key] = value;
		} else {
			fail(400, 'invalid_data', `Unknown profile knob "${key}"; known: name, ${[...Object.keys(KNOBS), 'addSignerAnswers'].join(', ')}.`);
		}
	}
	return profile;
}

/**
 * The `data` of a webhook body under webhooks: 'spec': the members the spec's table shows for the event
 * (document.completed: document_id, document_title; document.declined: document_id, decline_reason), and for
 * the events the table does not list only document_id. document_id as a string: its type in webhooks is not shown.
 */
function specEventData(event, data) {
	const out = { document_id: data.document_id === undefined || data.document_id === null ? data.document_id : String(data.document_id) };
	if (event === 'document.completed') out.document_title = data.document_title;
	if (event === 'document.declined') out.decline_reason = data.decline_reason;
	return out;
}

/** A signer has declined: by its status (default profile) or by declined_at (any profile). */
const hasDeclined = (signer) => signer.status === 'declined' || Boolean(signer.declined_at);

/** Count headers of a list answer under the profile's `countHeaders` knob. */
function countHeaders(profile, total, totalPages) {
	const esign = { 'X-ESIGN-Total': String(total), 'X-ESIGN-TotalPages': String(totalPages) };
	const wp = { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(totalPages) };
	return { esign, wp, both: { ...esign, ...wp }, none: {} }[profile.countHeaders];
}

/** The role a signer gets, or 400 invalid_role for one the profile does not accept (`label` prefixes the message). */
function checkRole(profile, role, label = '') {
	const accepted = ROLES[profile.roles];
	if (!accepted.includes(role)) fail(400, 'invalid_role', `${label}role must be ${accepted.map((r) => `"${r}"`).join(', ')}.`);
	return role;
}

module.exports = { ADD_SIGNER_ANSWERS, KNOBS, PRESETS, checkRole, countHeaders, hasDeclined, normalizeProfile, specEventData };
