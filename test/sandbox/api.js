'use strict';
/**
 * The /wp-json/esign/v1 pipeline: request log → fronts (challenge, block, firewall, Basic auth, header
 * stripping, cache) → the method override → fault injection → rate limits → routing → body parsing →
 * authentication → handler (counted) → answer (or the fault's answer/drop), kept by the cache front on its
 * way out.
 */

const { clientIp, createRouter, errorResult, JSON_HEADERS, parseInput, readBody, send } = require('./http');
const { hostileAnswer } = require('./hostile');
const { frontAnswer, throughFronts } = require('./fronts');
const { ApiError, fail, sleep } = require('./util');
const { authenticate, checkRateLimit } = require('./auth');
const { nextId, pushCapped, ts } = require('./store');
const documents = require('./documents');
const signers = require('./signers');
const fields = require('./fieldsApi');
const { stats } = require('./stats');
const templates = require('./templates');

const API_PREFIX = '/wp-json/esign/v1';

/** [method, path, route name (request log + counters), handler]. */
const router = createRouter([
	['GET', '/documents', 'listDocuments', documents.list],
	['POST', '/documents/upload', 'upload', documents.upload],
	['POST', '/documents', 'create', documents.create],
	['GET', '/documents/:id', 'getDocument', documents.get],
	['PUT', '/documents/:id', 'update', documents.update],
	['DELETE', '/documents/:id', 'delete', documents.remove],
	['GET', '/documents/:id/signers', 'listSigners', signers.listSigners],
	['POST', '/documents/:id/signers', 'addSigner', signers.addSigner],
	['GET', '/documents/:id/fields', 'listFields', fields.listFields],
	['POST', '/documents/:id/fields', 'saveFields', fields.saveFields],
	['POST', '/documents/:id/send', 'send', documents.send],
	['POST', '/documents/:id/remind', 'remind', documents.remind],
	['POST', '/documents/:id/expire', 'expire', documents.expire],
	['GET', '/documents/:id/file', 'getFile', documents.file],
	['GET', '/documents/:id/audit', 'getAudit', documents.audit],
	['GET', '/templates', 'listTemplates', templates.list],
	['GET', '/templates/:id', 'getTemplate', templates.get],
	['POST', '/templates/:id/documents', 'createFromTemplate', templates.createFromTemplate],
	['GET', '/stats', 'stats', stats],
]);

const FAULT_MODES = ['before', 'after', 'drop-before', 'drop-after', 'delay'];

/**
 * `path` matches as a substring of the request path, or as a regular expression written
 * `/…/flags` (both are tried, so '/documents/5/send' works as a plain substring).
 */
function pathMatches(pattern, path) {
	if (path.includes(pattern)) return true;
	const re = /^\/(.+)\/([a-z]*)$/.exec(pattern);
	if (!re) return false;
	try {
		return new RegExp(re[1], re[2]).test(path);
	} catch {
		return false;
	}
}

/** Validates a fault from POST /__sandbox/faults (see CONTRACT.md). */
function normalizeFault(core, input) {
	const mode = input.mode || (input.delayMs ? 'delay' : 'before');
	if (!FAULT_MODES.includes(mode)) fail(400, 'invalid_data', `mode must be one of ${FAULT_MODES.join(', ')}.`);
	if (typeof input.path !== 'string' || !input.path) fail(400, 'invalid_data', 'path (substring or /regex/) is required.');
	const count = input.count === undefined ? 1 : Number(input.count);
	if (!(Number.isInteger(count) && count >= 1)) fail(400, 'invalid_data', 'count must be a positive integer.');
	return {
		id: nextId(core, 'fault'),
		method: input.method ? String(input.method).toUpperCase() : null,
		path: input.path,
		count,
		remaining: count,
		status: Number(input.status) || 500,
		delayMs: Number(input.delayMs) || 0,
		mode,
		code: input.code || null,
		message: input.message || null,
		retryAfter: Number(input.retryAfter) || 1,
		// A raw (non-API) answer: a redirect, an HTML page, broken JSON.
		raw: hostileAnswer(input),
	};
}

/** Consumes one use of the first fault matching this request. */
function takeFault(core, method, path) {
	const faults = core.state.faults;
	const i = faults.findIndex((f) => (!f.method || f.method === method) && pathMatches(f.path, path));
	if (i === -1) return null;
	const fault = faults[i];
	if (--fault.remaining <= 0) faults.splice(i, 1);
	return fault;
}

/** The answer a fault gives instead of the real one. A 429 looks like a real rate limit. */
function faultResult(fault) {
	if (fault.status === 429) {
		const error = new ApiError(429, 'rate_limit_exceeded', `Rate limit exceeded. Please wait ${fault.retryAfter} seconds before retrying.`,
			{ retry_after: fault.retryAfter }, { 'Retry-After': String(fault.retryAfter) });
		return errorResult(error);
	}
	const code = fault.code || (fault.status >= 500 ? 'internal_error' : 'sandbox_fault');
	return errorResult(new ApiError(fault.status, code, fault.message || 'Internal server error (sandbox fault injection).'));
}

/**
 * The method WordPress routes a request by (WP_REST_Server::serve_request): the `_method` query parameter,
 * else the X-HTTP-Method-Override header, else the request's own; upper-cased, on any request method.
 */
function routedMethod(req, url) {
	const override = url.searchParams.has('_method') ? url.searchParams.get('_method') : req.headers['x-http-method-override'];
	return override === undefined ? req.method : String(override).toUpperCase();
}

async function dispatch(core, req, url, body, entry, method) {
	const ip = clientIp(req);
	try {
		checkRateLimit(core, ip, req.headers['x-esign-api-key']);
		const path = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) || '/' : null;
		const match = path && router.match(method, path);
		if (!match) fail(404, 'rest_no_route', 'No route was found matching the URL and request method.');
		entry.route = match.route.name;
		const { input, files, json } = parseInput(req, body, Object.fromEntries(url.searchParams));
		if (json) entry.json = json; // what a test checks was sent, or not sent (the log is not persisted)
		const { user, keyName } = authenticate(core, req, method);
		entry.keyName = keyName;
		const ctx = {
			user, keyName, ip, userAgent: req.headers['user-agent'] || '', input, files, params: match.params, bodyTooLarge: body.tooLarge,
		};
		entry.executed = true;
		const counter = `${match.route.name}Executed`;
		core.state.counters[counter] = (core.state.counters[counter] || 0) + 1;
		return await match.route.handler(core, ctx);
	} catch (e) {
		return errorResult(e);
	}
}

async function handleApi(core, req, res, url) {
	const body = await readBody(req);
	const method = routedMethod(req, url);
	const entry = {
		method, // as WordPress routes it; `sentAs` is the request's own method when an override changed it
		...(method !== req.method && { sentAs: req.method }),
		path: url.pathname,
		query: Object.fromEntries(url.searchParams),
		url: req.url, // as sent: /wp-json/… or /?rest_route=/…
		status: null,
		key: req.headers['x-esign-api-key'] || null,
		// PHP under Apache's mod_php finds no files in a chunked multipart body: uploads must carry a length.
		contentLength: req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']),
		at: ts(core),
		executed: false,
		route: null,
	};
	pushCapped(core.state.requestLog, entry);
	const answer = (status, body, headers) => {
		const out = throughFronts(core, req, { status, headers, body });
		entry.status = out.status;
		send(res, out.status, out.body, out.headers);
	};
	const front = frontAnswer(core, req, entry, body.buffer);
	if (front) {
		entry.status = front.status;
		send(res, front.status, front.body, front.headers);
		return;
	}
	const fault = takeFault(core, method, url.pathname);
	const runHandler = !fault || !['before', 'drop-before'].includes(fault.mode);
	let result = runHandler ? await dispatch(core, req, url, body, entry, method) : null;
	if (fault) {
		entry.fault = fault.mode;
		if (fault.delayMs) await sleep(fault.delayMs);
		if (fault.mode.startsWith('drop-')) {
			entry.dropped = true;
			req.socket.destroy();
			return;
		}
		if (fault.raw && fault.mode !== 'delay') {
			answer(fault.raw.status, fault.raw.body, fault.raw.headers);
			return;
		}
		if (fault.mode !== 'delay') result = faultResult(fault);
	}
	answer(result.status, JSON.stringify(result.body), { ...JSON_HEADERS, ...result.headers });
}

module.exports = { API_PREFIX, handleApi, normalizeFault };
