'use strict';
/** API handlers under /documents: documents, send, remind, expire, file, audit (signers, fields and stats have their own files). */

const { MAX_UPLOAD_BYTES } = require('./http');
const { fail, invalidParam, isNonEmptyString, toInteger, fileStem } = require('./util');
const { detectFileType, countPages, FILE_KINDS } = require('./pdf');
const store = require('./store');
const signing = require('./signing');
const { countHeaders } = require('./profile');

const STATUSES = ['draft', 'sent', 'viewed', 'completed', 'declined', 'expired'];
const FILE_PATH_MAX_AGE_MS = 15 * 60 * 1000;

const { ok } = require('./util');

/** A positive integer query parameter within [1, max], or its default; 400 rest_invalid_param otherwise. */
function intParam(input, name, fallback, max) {
	const raw = input[name];
	if (raw === undefined || raw === '') return fallback;
	const n = toInteger(raw);
	if (!(n >= 1 && n <= max)) {
		invalidParam(name, max === Infinity ? `${name} must be an integer of at least 1.` : `${name} must be between 1 (inclusive) and ${max} (inclusive).`);
	}
	return n;
}

const load = (core, ctx) => store.loadDocument(core, ctx.user, ctx.params.id);

/** Reads, type-checks and page-counts an uploaded file; shared by upload and the storage control. */
async function readUploadedFile(file) {
	if (!file || !file.data.length) fail(400, 'missing_file', 'No file was uploaded. Send it as the multipart/form-data field "file".');
	if (file.data.length > MAX_UPLOAD_BYTES) fail(413, 'file_too_large', 'The file is larger than the 20 MB limit.');
	const kind = detectFileType(file.data);
	if (!kind) fail(400, 'invalid_file_type', 'Only PDF, PNG and JPG files are accepted.');
	let pages;
	try {
		pages = await countPages(file.data, kind);
	} catch {
		fail(400, 'invalid_file_type', 'The PDF file could not be read.');
	}
	const filename = file.filename || `document.${FILE_KINDS[kind].ext}`;
	return { filename, file: store.makeFile(file.data, kind, pages) };
}

// ---------------------------------------------------------------- documents

function list(core, ctx) {
	const { input, user } = ctx;
	const page = intParam(input, 'page', 1, Infinity);
	const perPage = intParam(input, 'per_page', 20, 100);
	if (input.status !== undefined && input.status !== '' && !STATUSES.includes(input.status)) {
		invalidParam('status', `status is not one of ${STATUSES.join(', ')}.`);
	}
	const search = typeof input.search === 'string' ? input.search.toLowerCase() : '';
	const matching = [...core.state.documents.values()]
		.filter((d) => store.canSee(user, d))
		.filter((d) => !input.status || d.status === input.status)
		.filter((d) => !search || d.title.toLowerCase().includes(search))
		.sort((a, b) => b.id - a.id);
	const total = matching.length;
	const items = matching.slice((page - 1) * perPage, page * perPage).map((d) => store.documentOut(core, d));
	return ok(items, 200, countHeaders(core.state.profile, total, Math.ceil(total / perPage)));
}

/**
 * What PHP hands WordPress under the simulated php.ini limits: a request over post_max_size arrives with
 * no fields and no files at all; a file over upload_max_filesize is dropped (UPLOAD_ERR_INI_SIZE). Either
 * way the plugin sees no file.
 */
function phpReceived(core, ctx) {
	const limits = core.state.phpLimits;
	if (!limits) return { files: ctx.files, input: ctx.input };
	const total = Object.values(ctx.files).reduce((sum, f) => sum + (f?.data?.length ?? 0), 0);
	if (total > limits.postMaxSize) return { files: {}, input: {} };
	const files = Object.fromEntries(Object.entries(ctx.files).filter(([, f]) => (f?.data?.length ?? 0) <= limits.uploadMaxFilesize));
	return { files, input: ctx.input };
}

async function upload(core, ctx) {
	if (ctx.bodyTooLarge) fail(413, 'file_too_large', 'The file is larger than the 20 MB limit.');
	const received = phpReceived(core, ctx);
	const { filename, file } = await readUploadedFile(received.files.file || received.files.document);
	const title = isNonEmptyString(received.input.title) ? received.input.title.trim() : fileStem(filename) || filename;
	const doc = store.createDocument(core, { ownerId: ctx.user.id, title, originalFilename: filename, file });
	store.addAudit(core, doc, 'document_created', ctx);
	return ok(store.documentOut(core, doc), 201);
}

function create(core, ctx) {
	const { input } = ctx;
	if (!isNonEmptyString(input.title)) fail(400, 'missing_title', 'A title is required.');
	let stored = null;
	if (isNonEmptyString(input.file_path)) {
		stored = core.state.storage.get(input.file_path);
		if (!stored) fail(400, 'invalid_file_path', 'The file path is not a file in the secure storage.');
		if (store.now(core) - stored.uploadedAt > FILE_PATH_MAX_AGE_MS) {
			fail(400, 'file_expired', 'The file was uploaded more than 15 minutes ago. Upload it again.');
		}
	}
	const originalFilename = isNonEmptyString(input.original_filename) ? input.original_filename : stored ? stored.filename : '';
	const doc = store.createDocument(core, {
		ownerId: ctx.user.id,
		title: input.title.trim(),
		originalFilename,
		file: stored ? stored.file : null,
	});
	store.addAudit(core, doc, 'document_created', ctx);
	return ok(store.documentOut(core, doc), 201);
}

const get = (core, ctx) => ok(store.documentOut(core, load(core, ctx), { full: true }));

/**
 * PUT: title, and status only draft ↔ sent (sent → draft only while nobody has viewed). Profile refusals:
 * 'spec' (strict): any document status is set as given (the spec does not show which it allows); only a value
 * that is not a document status is refused, with WordPress's own rest_invalid_param.
 */
function update(core, ctx) {
	const doc = load(core, ctx);
	const { title, status } = ctx.input;
	if (title === undefined && status === undefined) fail(400, 'invalid_data', 'Nothing to update: send title and/or status.');
	if (title !== undefined && !isNonEmptyString(title)) fail(400, 'invalid_data', 'title must be a non-empty string.');
	let newStatus = doc.status;
	if (core.state.profile.refusals === 'spec') {
		if (status !== undefined && !STATUSES.includes(status)) invalidParam('status', `status is not one of ${STATUSES.join(', ')}.`);
		if (status !== undefined) newStatus = status;
	} else if (status !== undefined && status !== doc.status) {
		const rule = 'Status can only change from draft to sent, or from sent back to draft before any signer has viewed the document.';
		if (doc.status === 'draft' && status === 'sent') signing.assertSendable(core, doc);
		else if (doc.status === 'sent' && status === 'draft') {
			if (store.documentSigners(core, doc.id).some((s) => s.status !== 'pending')) fail(400, 'invalid_status', rule);
		} else fail(400, 'invalid_status', `Cannot change status from ${doc.status} to ${status}. ${rule}`);
		newStatus = status;
	} else if (status !== undefined && !['draft', 'sent'].includes(status)) {
		fail(400, 'invalid_status', `Status ${status} cannot be set through the API.`);
	}
	if (title !== undefined) doc.title = title.trim();
	doc.status = newStatus;
	store.touch(core, doc);
	store.addAudit(core, doc, 'document_updated', ctx);
	return ok(store.documentOut(core, doc));
}

function remove(core, ctx) {
	store.deleteDocument(core, load(core, ctx));
	return ok({ deleted: true });
}

// ---------------------------------------------------------------- workflow

function send(core, ctx) {
	const signers = signing.sendDocument(core, load(core, ctx), ctx);
	return ok({ sent: true, message: `Document sent to ${signers.length} signer(s).` });
}

/** Reminds pending/viewed signers (or the one `signer_id`); an already-signed target lands in `failed`. */
function remind(core, ctx) {
	const doc = load(core, ctx);
	const signers = store.documentSigners(core, doc.id);
	const raw = ctx.input.signer_id;
	const explicit = raw !== undefined && raw !== null && raw !== '';
	if (core.state.profile.refusals === 'spec') return remindAsSpecShows(core, ctx, doc, signers, explicit ? toInteger(raw) : undefined);
	if (!['sent', 'viewed'].includes(doc.status)) fail(400, 'invalid_state', `Only sent or viewed documents can be reminded; this document is ${doc.status}.`);
	let targets = signers;
	if (explicit) {
		const target = signers.find((s) => s.id === toInteger(raw));
		if (!target) fail(400, 'invalid_signer', `Signer ${raw} is not a signer of this document.`);
		targets = [target];
	}
	const eligible = (s) => s.status === 'pending' || s.status === 'viewed';
	if (!explicit && !targets.some(eligible)) fail(400, 'no_recipients', 'No signer is waiting to sign this document.');
	const reminded = [];
	const failed = [];
	for (const s of targets) {
		if (eligible(s)) {
			store.queueEmail(core, doc, s, 'reminder');
			store.addAudit(core, doc, 'reminder_sent', ctx, s);
			reminded.push(String(s.id));
		} else if (explicit) {
			failed.push({ signer_id: String(s.id), error: `Signer has already ${s.status}.` });
		}
	}
	return ok({ reminded, failed, message: `Reminder sent to ${reminded.length} signer(s).` });
}

/**
 * Remind as the spec shows it alone (profile refusals: 'spec'): every signer whose status is pending or viewed,
 * or only `signerId`, is reminded, whatever the document's status; none eligible → 400 no_recipients, the one
 * refusal the spec shows.
 */
function remindAsSpecShows(core, ctx, doc, signers, signerId) {
	const targets = signers.filter((s) => (signerId === undefined || s.id === signerId) && (s.status === 'pending' || s.status === 'viewed'));
	if (!targets.length) fail(400, 'no_recipients', 'No signer is waiting to sign this document.');
	for (const s of targets) {
		store.queueEmail(core, doc, s, 'reminder');
		store.addAudit(core, doc, 'reminder_sent', ctx, s);
	}
	return ok({ reminded: targets.map((s) => String(s.id)), failed: [], message: `Reminder sent to ${targets.length} signer(s).` });
}

function expire(core, ctx) {
	const doc = load(core, ctx);
	signing.expireDocument(core, doc, ctx);
	return ok({ expired: true, document: { id: String(doc.id), status: doc.status } });
}

/** The original file; once completed, the signed PDF (`<stem>-signed.pdf`). */
async function file(core, ctx) {
	const doc = load(core, ctx);
	if (!doc.file) fail(404, 'no_file', 'This document has no file.');
	const stem = fileStem(doc.original_filename) || `document-${doc.id}`;
	if (doc.status === 'completed') {
		const pdf = await signing.signedPdf(core, doc);
		return ok({ content: pdf.toString('base64'), filename: `${stem}-signed.pdf`, type: 'application/pdf', encoding: 'base64' });
	}
	return ok({
		content: doc.file.data.toString('base64'),
		filename: doc.original_filename || `${stem}.${FILE_KINDS[doc.file.kind].ext}`,
		type: doc.file.mime,
		encoding: 'base64',
	});
}

function audit(core, ctx) {
	const doc = load(core, ctx);
	return ok({ document: { id: String(doc.id), title: doc.title, file_hash: doc.file ? doc.file.hash : '' }, events: doc.events });
}

module.exports = {
	STATUSES,
	readUploadedFile,
	list,
	upload,
	create,
	get,
	update,
	remove,
	send,
	remind,
	expire,
	file,
	audit,
};
