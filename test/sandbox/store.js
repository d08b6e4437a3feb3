'use strict';
/**
 * In-memory state of the sandbox site: users, keys, documents, signers, fields, templates,
 * outbox, logs. Also the clock, id sequences, audit/outbox writers, access checks and the
 * serialisers that give API objects their exact shapes (ids and numbers as strings).
 */

const { fail, formatTimestamp, randomToken, sha256Hex } = require('./util');
const { FILE_KINDS } = require('./pdf');

/** Site users. Emails double as the "known site users" for require_wp_login. */
const USERS = {
	admin: { id: 1, login: 'admin', name: 'Site Admin', email: 'admin@example.com', isAdmin: true },
	user: { id: 2, login: 'uma', name: 'Uma User', email: 'uma@example.com', isAdmin: false },
	user2: { id: 3, login: 'victor', name: 'Victor Visitor', email: 'victor@example.com', isAdmin: false },
};

/** Fixed so that `npm run sandbox` always prints the same credentials. */
const KEYS = {
	admin: { key: 'esign_sandbox_admin_full_4f9c2a71', secret: 'sbx_secret_admin_full_8d3e5b60c1a24f97', user: 'admin', access: 'full' },
	adminReadOnly: { key: 'esign_sandbox_admin_ro_2b7d91e4', secret: 'sbx_secret_admin_ro_5c0a7e3f92d84b16', user: 'admin', access: 'read' },
	user: { key: 'esign_sandbox_uma_full_6a1f03c8', secret: 'sbx_secret_uma_full_1e7b4d2c90a35f68', user: 'user', access: 'full' },
	user2: { key: 'esign_sandbox_victor_full_9e52d7b3', secret: 'sbx_secret_victor_full_3f8c6a1d75e04b29', user: 'user2', access: 'full' },
};

/** Write handlers whose executions are counted (pre-set to 0 so `counters.sendExecuted === 0` holds). */
const COUNTED_ROUTES = [
	'upload', 'create', 'update', 'delete', 'addSigner', 'saveFields', 'send', 'remind', 'expire', 'createFromTemplate',
];

/** Everything that POST /__sandbox/reset clears. Settings (rate-limit config, webhook secret) live elsewhere. */
function freshData() {
	return {
		clockOffsetMs: 0,
		ids: { document: 0, signer: 0, field: 0, template: 0, email: 0, delivery: 0, webhook: 0, fault: 0 },
		documents: new Map(),
		signers: new Map(),
		fields: new Map(),
		templates: new Map(),
		storage: new Map(),
		outbox: [],
		requestLog: [],
		faults: [],
		webhooks: [],
		deliveries: [],
		counters: Object.fromEntries(COUNTED_ROUTES.map((name) => [`${name}Executed`, 0])),
		deletedByOwner: new Map(),
		rateWindows: new Map(),
		// PHP's upload_max_filesize / post_max_size in bytes, like a real site's php.ini; null = not simulated.
		phpLimits: null,
		// 'plain': like a WordPress site whose permalinks are set to Plain, /wp-json/ is not served.
		permalinks: 'pretty',
		// Add Signer answers given since the reset: the profile's answer variants take turns by it.
		addSignerAnswers: 0,
	};
}

/** Replaces the data in place so that references to `state` (sb.state) stay valid. */
function resetData(state) {
	Object.assign(state, freshData());
}

function createState({ rateLimits, webhookSecret }) {
	return {
		users: USERS,
		keys: KEYS,
		webhookSecret,
		rateLimits,
		...freshData(),
	};
}

// ---------------------------------------------------------------- clock, ids, logs

/** Logs keep the newest entries only, so a long `npm run sandbox` session does not grow without bound. */
const LOG_LIMIT = 10_000;
function pushCapped(list, item) {
	list.push(item);
	if (list.length > LOG_LIMIT) list.splice(0, list.length - LOG_LIMIT);
}

const now = (core) => Date.now() + core.state.clockOffsetMs;
const ts = (core) => formatTimestamp(now(core));
const nextId = (core, kind) => ++core.state.ids[kind];

// ---------------------------------------------------------------- files and documents

/** A stored file: bytes, detected kind, media type, SHA-256 and page count. */
const makeFile = (data, kind, pages) => ({ data, kind, mime: FILE_KINDS[kind].mime, hash: sha256Hex(data), pages });

function createDocument(core, { ownerId, title, originalFilename, file, status = 'draft', templateId = null }) {
	const at = ts(core);
	const doc = {
		id: nextId(core, 'document'),
		ownerId,
		templateId,
		title,
		status,
		original_filename: originalFilename,
		total_pages: file ? file.pages : 0,
		expires_at: null,
		completed_at: null,
		created_at: at,
		updated_at: at,
		file,
		signedFile: null,
		events: [],
	};
	core.state.documents.set(doc.id, doc);
	return doc;
}

function createSigner(core, doc, { name, email, role = 'signer', signingOrder, requireWpLogin = false }) {
	const at = ts(core);
	const signer = {
		id: nextId(core, 'signer'),
		document_id: doc.id,
		name,
		email,
		role,
		signing_order: signingOrder,
		status: 'pending',
		viewed_at: null,
		signed_at: null,
		declined_at: null,
		decline_reason: null,
		created_at: at,
		updated_at: at,
		require_wp_login: requireWpLogin,
		token: randomToken(),
		signed_ip: null,
	};
	core.state.signers.set(signer.id, signer);
	return signer;
}

function createField(core, doc, props) {
	const at = ts(core);
	const field = { id: nextId(core, 'field'), document_id: doc.id, value: '', created_at: at, updated_at: at, ...props };
	core.state.fields.set(field.id, field);
	return field;
}

const byOrder = (a, b) => a.signing_order - b.signing_order || a.id - b.id;

const documentSigners = (core, docId) => [...core.state.signers.values()].filter((s) => s.document_id === docId).sort(byOrder);

const documentFields = (core, docId) => [...core.state.fields.values()].filter((f) => f.document_id === docId);

function touch(core, ...records) {
	const at = ts(core);
	for (const r of records) r.updated_at = at;
}

function deleteDocument(core, doc) {
	const { state } = core;
	for (const s of documentSigners(core, doc.id)) state.signers.delete(s.id);
	for (const f of documentFields(core, doc.id)) state.fields.delete(f.id);
	state.documents.delete(doc.id);
	state.deletedByOwner.set(doc.ownerId, (state.deletedByOwner.get(doc.ownerId) || 0) + 1);
}

// ---------------------------------------------------------------- access

const canSee = (user, record) => user.isAdmin || record.ownerId === user.id;

/** The document, or 404 not_found / 403 forbidden (ownership) exactly as the spec shows. */
function loadDocument(core, user, id) {
	const doc = core.state.documents.get(Number(id));
	if (!doc) fail(404, 'not_found', 'Document not found.');
	if (!canSee(user, doc)) fail(403, 'forbidden', 'Permission denied.');
	return doc;
}

// ---------------------------------------------------------------- audit and outbox

/** Appends an audit event; `ctx` gives the IP and user agent of the request that caused it. */
function addAudit(core, doc, action, ctx, signer) {
	const event = { action, timestamp: ts(core), ip_address: (ctx && ctx.ip) || '127.0.0.1' };
	if (signer) event.signer = signer.name;
	if (ctx && ctx.userAgent) event.user_agent = ctx.userAgent;
	doc.events.push(event);
}

const signingUrl = (core, signer) => `${core.publicUrl}/sign/${signer.token}`;

function queueEmail(core, doc, signer, kind) {
	const subject = kind === 'invitation' ? `Please sign: ${doc.title}` : `Reminder: please sign ${doc.title}`;
	const email = {
		id: nextId(core, 'email'),
		to: signer.email,
		name: signer.name,
		kind,
		document_id: String(doc.id),
		signer_id: String(signer.id),
		subject,
		signing_url: signingUrl(core, signer),
		sent_at: ts(core),
	};
	core.state.outbox.push(email);
	return email;
}

// ---------------------------------------------------------------- serialisers (exact API shapes)

const str = (v) => (v === null || v === undefined ? v : String(v));

function documentOut(core, doc, { full = false } = {}) {
	const out = {
		id: str(doc.id),
		title: doc.title,
		status: doc.status,
		original_filename: doc.original_filename,
		total_pages: str(doc.total_pages),
		expires_at: doc.expires_at,
		completed_at: doc.completed_at,
		created_at: doc.created_at,
		updated_at: doc.updated_at,
	};
	if (full) {
		out.file_hash = doc.file ? doc.file.hash : '';
		out.signers = documentSigners(core, doc.id).map(signerOut);
		out.fields = documentFields(core, doc.id).map(fieldReducedOut);
	}
	return out;
}

const signerOut = (s) => ({
	id: str(s.id),
	document_id: str(s.document_id),
	name: s.name,
	email: s.email,
	role: s.role,
	signing_order: str(s.signing_order),
	status: s.status,
	viewed_at: s.viewed_at,
	signed_at: s.signed_at,
	declined_at: s.declined_at,
	decline_reason: s.decline_reason,
	created_at: s.created_at,
	updated_at: s.updated_at,
});

const fieldReducedOut = (f) => ({
	id: str(f.id),
	document_id: str(f.document_id),
	signer_id: str(f.signer_id),
	field_type: f.field_type,
	page_number: str(f.page_number),
	position_x: str(f.position_x),
	position_y: str(f.position_y),
	width: str(f.width),
	height: str(f.height),
	is_required: f.is_required ? '1' : '0',
});

const fieldOut = (f) => ({
	...fieldReducedOut(f),
	field_name: f.field_name,
	value: f.value,
	placeholder: f.placeholder,
	font_size: str(f.font_size),
	font_family: f.font_family,
	options: f.options && f.options.length ? JSON.stringify(f.options) : '',
	created_at: f.created_at,
	updated_at: f.updated_at,
});

module.exports = {
	USERS,
	KEYS,
	createState,
	resetData,
	pushCapped,
	now,
	ts,
	nextId,
	makeFile,
	createDocument,
	createSigner,
	createField,
	documentSigners,
	documentFields,
	touch,
	deleteDocument,
	canSee,
	loadDocument,
	addAudit,
	signingUrl,
	queueEmail,
	documentOut,
	signerOut,
	fieldOut,
};
