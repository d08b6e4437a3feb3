'use strict';
/**
 * Sandbox-only control endpoints (no auth, never rate limited, not in the request log):
 * reset, keys, samples, seeding, storage, outbox, request log, counters, faults, rate limits,
 * clock, expiry, templates, signer actions, webhooks, fronts, the HTML pages and the webhook settings page's forms.
 */

const { clientIp, createRouter, errorResult, parseInput, readBody, send, sendHtml, sendJson } = require('./http');
const { fail, formatTimestamp, isNonEmptyString, parseTimestamp, randomToken, toInteger, toNumber } = require('./util');
const store = require('./store');
const signing = require('./signing');
const { normalizeRateLimits } = require('./auth');
const { normalizeFault } = require('./api');
const { normalizeFronts } = require('./fronts');
const { readUploadedFile, STATUSES } = require('./documents');
const { saveAsTemplate } = require('./templates');
const { EVENTS } = require('./webhooks');
const { indexPage, signingPage } = require('./pages');
const settings = require('./settings');
const { normalizeProfile } = require('./profile');

const ok = (body, status = 200) => ({ status, body });
const html = (text) => ({ status: 200, html: text });

/** The keys as `{name: {key, secret}}` (what sb.keys and /__sandbox/keys give). */
const publicKeys = (state) => Object.fromEntries(Object.entries(state.keys).map(([name, k]) => [name, { key: k.key, secret: k.secret }]));

const documentById = (core, id) => {
	const doc = core.state.documents.get(toInteger(id));
	if (!doc) fail(404, 'not_found', 'Document not found.');
	return doc;
};

const optionalDocFilter = (query) => (query.document_id ? (r) => String(r.document_id) === String(query.document_id) : () => true);

// ---------------------------------------------------------------- seeding

/**
 * Creates `count` documents directly in a given status (no emails, webhooks or rate limits).
 * Each has the 1-page sample PDF, one signer and that signer's signature field.
 */
function seedDocuments(core, { count = 1, owner = 'admin', status = 'draft', titlePrefix = 'Seeded document' }) {
	const n = toInteger(count);
	if (!(n >= 1 && n <= 5000)) fail(400, 'invalid_data', 'count must be an integer from 1 to 5000.');
	const user = core.state.users[owner];
	if (!user) fail(400, 'invalid_data', 'owner must be admin, user or user2.');
	if (!STATUSES.includes(status)) fail(400, 'invalid_data', `status must be one of ${STATUSES.join(', ')}.`);
	const file = store.makeFile(core.samples['one-page.pdf'].data, 'pdf', 1);
	const at = store.ts(core);
	const ids = [];
	for (let i = 1; i <= n; i++) {
		const doc = store.createDocument(core, { ownerId: user.id, title: `${titlePrefix} ${i}`, originalFilename: 'one-page.pdf', file, status });
		const signer = store.createSigner(core, doc, { name: `Seed Signer ${doc.id}`, email: `signer${doc.id}@example.com`, signingOrder: 1 });
		const field = store.createField(core, doc, {
			signer_id: signer.id, field_type: 'signature', field_name: '', mapping_name: '', page_number: 1, position_x: 72, position_y: 600,
			width: 200, height: 60, is_required: true, font_size: 14, font_family: 'DM Sans', placeholder: '', options: [],
		});
		store.addAudit(core, doc, 'document_created', null);
		if (status !== 'draft' && status !== 'sent') Object.assign(signer, { status: 'viewed', viewed_at: at });
		if (status === 'completed') {
			Object.assign(signer, { status: 'signed', signed_at: at, signed_ip: '127.0.0.1' });
			field.value = signer.name;
			doc.completed_at = at;
		}
		if (status === 'declined') {
			Object.assign(signer, { declined_at: at, decline_reason: 'Seeded decline.' });
			if (core.state.profile.declines === 'status') signer.status = 'declined';
		}
		if (status === 'expired') doc.expires_at = formatTimestamp(store.now(core) - 86_400_000);
		ids.push(String(doc.id));
	}
	return { ids };
}

/** Signer members another implementation may keep differently; the edit control sets them as given. */
const EDITABLE_SIGNER = ['status', 'viewed_at', 'signed_at', 'declined_at', 'decline_reason'];

/**
 * Sets a signer's record as another site might keep it (a status the spec does not show, a timestamp without
 * the status that usually goes with it): any string, or null for the timestamps and the reason. No event, no audit.
 */
function editSigner(core, id, input) {
	const signer = core.state.signers.get(toInteger(id));
	if (!signer) fail(404, 'not_found', 'Signer not found.');
	const changes = Object.entries(input).filter(([key]) => EDITABLE_SIGNER.includes(key));
	if (!changes.length) fail(400, 'invalid_data', `Send at least one of ${EDITABLE_SIGNER.join(', ')}.`);
	for (const [key, value] of changes) {
		if (!(typeof value === 'string' || (value === null && key !== 'status'))) fail(400, 'invalid_data', `${key} must be a string${key === 'status' ? '' : ' or null'}.`);
	}
	Object.assign(signer, Object.fromEntries(changes));
	store.touch(core, signer);
	return signer;
}

// ---------------------------------------------------------------- routes

const signerAction = (action) => (core, ctx) => {
	const { doc, signer } = signing.signerByToken(core, ctx.params.token);
	if (action === 'view') signing.viewDocument(core, doc, signer, ctx);
	if (action === 'sign') signing.signDocument(core, doc, signer, ctx.input.values, ctx);
	if (action === 'decline') signing.declineDocument(core, doc, signer, ctx.input.reason, ctx);
	return ok({ document: store.documentOut(core, doc, { full: true }), signer: store.signerOut(signer) });
};

const router = createRouter([
	['GET', '/', 'index', (core) => html(indexPage(core))],
	['GET', '/sign/:token', 'signingPage', (core, ctx) => {
		const { doc, signer } = signing.signerByToken(core, ctx.params.token);
		return html(signingPage(core, doc, signer));
	}],
	['GET', '/__sandbox/health', 'health', () => ok({ ok: true })],
	['POST', '/__sandbox/reset', 'reset', (core) => {
		core.reset();
		return ok({ ok: true });
	}],
	['GET', '/__sandbox/keys', 'keys', (core) => ok({ ...publicKeys(core.state), webhookSecret: core.state.webhookSecret })],
	['GET', '/__sandbox/samples/:name', 'sample', (core, ctx) => {
		const sample = core.samples[ctx.params.name];
		if (!sample) fail(404, 'not_found', `No sample named ${ctx.params.name}.`);
		// ?filename= names the download otherwise (any characters: RFC 6266's filename*, with an ASCII fallback).
		const name = typeof ctx.input.filename === 'string' && ctx.input.filename ? ctx.input.filename : ctx.params.name;
		const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
		const disposition = `attachment; filename="${name.replace(/[^\x20-\x7e]|["'\\;=]/g, '_')}"; filename*=UTF-8''${encoded}`;
		return { status: 200, raw: sample.data, headers: { 'Content-Type': sample.type, 'Content-Disposition': disposition } };
	}],
	['POST', '/__sandbox/seed/documents', 'seed', (core, ctx) => ok(seedDocuments(core, ctx.input), 201)],
	['POST', '/__sandbox/storage', 'storage', async (core, ctx) => {
		const { filename, file } = await readUploadedFile(ctx.files.file || ctx.files.document);
		const filePath = `/var/www/html/wp-content/uploads/esign-secure/${randomToken(8)}-${filename.replace(/[^\w.-]+/g, '_')}`;
		const uploadedAt = store.now(core);
		core.state.storage.set(filePath, { filename, file, uploadedAt });
		return ok({ file_path: filePath, uploaded_at: formatTimestamp(uploadedAt), filename, size: file.data.length }, 201);
	}],
	['POST', '/__sandbox/storage/age', 'storageAge', (core, ctx) => {
		const entry = core.state.storage.get(ctx.input.file_path);
		if (!entry) fail(404, 'not_found', 'No stored file at that path.');
		const minutes = toNumber(ctx.input.minutes);
		if (Number.isNaN(minutes)) fail(400, 'invalid_data', 'minutes must be a number.');
		entry.uploadedAt = store.now(core) - minutes * 60_000;
		return ok({ file_path: ctx.input.file_path, uploaded_at: formatTimestamp(entry.uploadedAt) });
	}],
	['GET', '/__sandbox/outbox', 'outbox', (core, ctx) => ok(core.state.outbox.filter(optionalDocFilter(ctx.input)))],
	['GET', '/__sandbox/requests', 'requests', (core) => ok(core.state.requestLog)],
	['DELETE', '/__sandbox/requests', 'clearRequests', (core) => {
		core.state.requestLog = [];
		return ok({ ok: true });
	}],
	['GET', '/__sandbox/counters', 'counters', (core) => ok(core.state.counters)],
	['GET', '/__sandbox/faults', 'faults', (core) => ok(core.state.faults)],
	['POST', '/__sandbox/faults', 'addFault', (core, ctx) => {
		const fault = normalizeFault(core, ctx.input);
		core.state.faults.push(fault);
		return ok(fault, 201);
	}],
	['DELETE', '/__sandbox/faults', 'clearFaults', (core) => {
		core.state.faults = [];
		return ok({ ok: true });
	}],
	['GET', '/__sandbox/php-limits', 'phpLimits', (core) => ok({ phpLimits: core.state.phpLimits })],
	['POST', '/__sandbox/php-limits', 'setPhpLimits', (core, ctx) => {
		const size = (name, fallback) => {
			const raw = ctx.input[name] ?? fallback;
			const m = /^(\d+)([KMG]?)$/i.exec(String(raw).trim());
			if (!m) fail(400, 'invalid_data', `${name} must be bytes or a php.ini size such as 2M.`);
			return Number(m[1]) * { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[m[2].toUpperCase()];
		};
		core.state.phpLimits = { uploadMaxFilesize: size('upload_max_filesize', '2M'), postMaxSize: size('post_max_size', '8M') };
		return ok({ phpLimits: core.state.phpLimits });
	}],
	['DELETE', '/__sandbox/php-limits', 'clearPhpLimits', (core) => {
		core.state.phpLimits = null;
		return ok({ phpLimits: null });
	}],
	['GET', '/__sandbox/permalinks', 'permalinks', (core) => ok({ permalinks: core.state.permalinks })],
	['POST', '/__sandbox/permalinks', 'setPermalinks', (core, ctx) => {
		if (!['plain', 'pretty'].includes(ctx.input.structure)) fail(400, 'invalid_data', "structure must be 'plain' or 'pretty'.");
		core.state.permalinks = ctx.input.structure;
		return ok({ permalinks: core.state.permalinks });
	}],
	['GET', '/__sandbox/fronts', 'fronts', (core) => ok({ fronts: core.state.fronts, cached: [...core.state.frontCache.keys()] })],
	['POST', '/__sandbox/fronts', 'setFronts', (core, ctx) => {
		core.state.fronts = normalizeFronts(ctx.input, core.state.fronts);
		if (!core.state.fronts.cache) core.state.frontCache.clear();
		return ok({ fronts: core.state.fronts });
	}],
	['DELETE', '/__sandbox/fronts', 'clearFronts', (core) => {
		core.state.fronts = {};
		core.state.frontCache.clear();
		return ok({ fronts: {} });
	}],
	// A purge: the cache front stays on, the answers it kept are gone.
	['DELETE', '/__sandbox/fronts/cache', 'purgeCache', (core) => {
		core.state.frontCache.clear();
		return ok({ ok: true });
	}],
	['GET', '/__sandbox/profile', 'profile', (core) => ok({ profile: core.state.profile })],
	['POST', '/__sandbox/profile', 'setProfile', (core, ctx) => {
		core.state.profile = normalizeProfile(ctx.input);
		return ok({ profile: core.state.profile });
	}],
	['GET', '/__sandbox/rate-limits', 'rateLimits', (core) => ok({ rateLimits: core.state.rateLimits })],
	['POST', '/__sandbox/rate-limits', 'setRateLimits', (core, ctx) => {
		core.state.rateLimits = normalizeRateLimits(ctx.input);
		core.state.rateWindows.clear();
		return ok({ rateLimits: core.state.rateLimits });
	}],
	['GET', '/__sandbox/clock', 'clock', (core) => ok({ offsetSeconds: core.state.clockOffsetMs / 1000, now: store.ts(core) })],
	['POST', '/__sandbox/clock', 'setClock', (core, ctx) => {
		const { offsetSeconds, advanceSeconds } = ctx.input;
		const offset = toNumber(offsetSeconds);
		const advance = toNumber(advanceSeconds);
		if (!Number.isNaN(offset)) core.state.clockOffsetMs = offset * 1000;
		else if (!Number.isNaN(advance)) core.state.clockOffsetMs += advance * 1000;
		else fail(400, 'invalid_data', 'Send offsetSeconds (absolute) or advanceSeconds (relative).');
		return ok({ offsetSeconds: core.state.clockOffsetMs / 1000, now: store.ts(core) });
	}],
	['POST', '/__sandbox/documents/:id/expiry', 'setExpiry', (core, ctx) => {
		const doc = documentById(core, ctx.params.id);
		const { expires_at: expiresAt, inSeconds } = ctx.input;
		if (inSeconds !== undefined) {
			const seconds = toNumber(inSeconds);
			if (Number.isNaN(seconds)) fail(400, 'invalid_data', 'inSeconds must be a number.');
			doc.expires_at = formatTimestamp(store.now(core) + seconds * 1000);
		} else if (expiresAt === null || (isNonEmptyString(expiresAt) && !Number.isNaN(parseTimestamp(expiresAt)))) {
			doc.expires_at = expiresAt;
		} else fail(400, 'invalid_data', "Send expires_at ('YYYY-MM-DD HH:MM:SS' or null) or inSeconds.");
		store.touch(core, doc);
		return ok(store.documentOut(core, doc, { full: true }));
	}],
	['GET', '/__sandbox/documents/:id/file', 'documentFile', async (core, ctx) => {
		const doc = documentById(core, ctx.params.id);
		if (!doc.file) fail(404, 'no_file', 'This document has no file.');
		const completed = doc.status === 'completed';
		const data = completed ? await signing.signedPdf(core, doc) : doc.file.data;
		return { status: 200, raw: data, headers: { 'Content-Type': completed ? 'application/pdf' : doc.file.mime } };
	}],
	['POST', '/__sandbox/templates', 'saveTemplate', (core, ctx) => ok(saveAsTemplate(core, ctx.input), 201)],
	['GET', '/__sandbox/signers', 'signers', (core, ctx) => ok([...core.state.signers.values()]
		.filter(optionalDocFilter(ctx.input))
		.map((s) => ({ ...store.signerOut(s), token: s.token, signing_url: store.signingUrl(core, s) })))],
	['POST', '/__sandbox/signers/:id', 'editSigner', (core, ctx) => ok(store.signerOut(editSigner(core, ctx.params.id, ctx.input)))],
	['POST', '/__sandbox/sign/:token/view', 'signView', signerAction('view')],
	['POST', '/__sandbox/sign/:token/sign', 'signSign', signerAction('sign')],
	['POST', '/__sandbox/sign/:token/decline', 'signDecline', signerAction('decline')],
	['GET', '/__sandbox/webhooks', 'webhooks', (core) => ok({ webhooks: core.state.webhooks, deliveries: core.state.deliveries })],
	['POST', '/__sandbox/webhooks', 'addWebhook', (core, ctx) => {
		const { url, events, replace } = ctx.input;
		if (!isNonEmptyString(url) || !/^https?:\/\//.test(url)) fail(400, 'invalid_data', 'url must be an http(s) URL.');
		if (events !== undefined && !(Array.isArray(events) && events.every((e) => EVENTS.includes(e)))) {
			fail(400, 'invalid_data', `events must be an array of: ${EVENTS.join(', ')}.`);
		}
		const receiver = core.webhooks.register({ url, events, replace: replace === true });
		return ok({ receiver, webhooks: core.state.webhooks }, 201);
	}],
	['DELETE', '/__sandbox/webhooks', 'clearWebhooks', (core) => {
		core.state.webhooks = [];
		core.state.deliveries = [];
		return ok({ ok: true });
	}],
	['POST', '/__sandbox/webhooks/test', 'testWebhook', async (core, ctx) => {
		const { url, event, data = {}, timeoutMs } = ctx.input;
		if (!isNonEmptyString(event)) fail(400, 'invalid_data', 'event is required.');
		const timeout = timeoutMs === undefined ? undefined : toInteger(timeoutMs);
		if (timeout !== undefined && !(timeout >= 1 && timeout <= 300000)) fail(400, 'invalid_data', 'timeoutMs must be an integer from 1 to 300000.');
		const urls = isNonEmptyString(url) ? [url] : core.state.webhooks.map((r) => r.url);
		if (!urls.length) fail(400, 'invalid_data', 'No url given and no receiver registered.');
		const deliveries = await core.webhooks.deliverNow(urls, event, data, { asGiven: true, ...(timeout === undefined ? {} : { timeoutMs: timeout }) });
		return ok(isNonEmptyString(url) ? deliveries[0] : { deliveries });
	}],
	['POST', '/__sandbox/webhooks/secret', 'setWebhookSecret', (core, ctx) => {
		if (!isNonEmptyString(ctx.input.secret)) fail(400, 'invalid_data', 'secret must be a non-empty string.');
		core.state.webhookSecret = ctx.input.secret;
		return ok({ webhookSecret: core.state.webhookSecret });
	}],
	...settings.routes,
]);

async function handleControl(core, req, res, url) {
	const body = await readBody(req);
	let result;
	try {
		const match = router.match(req.method, url.pathname);
		if (!match) fail(404, 'rest_no_route', 'No sandbox route matches the URL and method.');
		const { input, files } = parseInput(req, body, Object.fromEntries(url.searchParams));
		const ctx = { input, files, params: match.params, ip: clientIp(req), userAgent: req.headers['user-agent'] || '' };
		result = await match.route.handler(core, ctx);
	} catch (e) {
		result = errorResult(e);
	}
	if (result.html !== undefined) sendHtml(res, result.status, result.html);
	else if (result.raw !== undefined) send(res, result.status, result.raw, result.headers);
	else sendJson(res, result.status, result.body, result.headers);
}

module.exports = { handleControl, publicKeys };
