'use strict';
/** HTTP plumbing: body reading, multipart parsing, a tiny router and response writers. */

const { ApiError, fail, isPlainObject } = require('./util');

/** Largest accepted upload (a sandbox decision; the spec does not show one). */
const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** Bodies beyond this are not buffered (multipart overhead on top of the largest upload). */
const MAX_BODY_BYTES = MAX_UPLOAD_BYTES + 256 * 1024;

/** Buffers the request body; stops keeping bytes (but keeps draining) past MAX_BODY_BYTES. */
function readBody(req) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		let size = 0;
		req.on('data', (chunk) => {
			size += chunk.length;
			if (size <= MAX_BODY_BYTES) chunks.push(chunk);
		});
		req.on('end', () => resolve({ buffer: Buffer.concat(chunks), tooLarge: size > MAX_BODY_BYTES }));
		req.on('error', reject);
	});
}

/** Reads `name="…"` style parameters out of a header value. */
function headerParam(header, name) {
	const m = new RegExp(`(?:^|;)\\s*${name}\\*?=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, 'i').exec(header || '');
	if (!m) return undefined;
	return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2].trim();
}

/**
 * Parses multipart/form-data: text parts go to `fields`, parts with a filename to `files`
 * ({filename, contentType, data}). Written by hand because the sandbox has no dependencies.
 */
function parseMultipart(buffer, contentType) {
	const boundary = headerParam(contentType, 'boundary');
	if (!boundary) fail(400, 'invalid_data', 'Multipart body without a boundary.');
	const delimiter = Buffer.from(`--${boundary}`);
	const fields = {};
	const files = {};
	let pos = buffer.indexOf(delimiter);
	while (pos !== -1) {
		pos += delimiter.length;
		if (buffer.slice(pos, pos + 2).toString() === '--') break; // closing delimiter
		const headerEnd = buffer.indexOf('\r\n\r\n', pos);
		if (headerEnd === -1) break;
		const headers = buffer.slice(pos, headerEnd).toString('utf8');
		const next = buffer.indexOf(delimiter, headerEnd + 4);
		if (next === -1) break;
		// The part's data ends with the CRLF that precedes the next delimiter.
		const data = buffer.slice(headerEnd + 4, next - 2);
		const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? '';
		const type = /content-type:([^\r\n]*)/i.exec(headers)?.[1]?.trim();
		const name = headerParam(disposition, 'name');
		const filename = headerParam(disposition, 'filename');
		if (name !== undefined) {
			if (filename !== undefined) files[name] = { filename, contentType: type, data };
			else fields[name] = data.toString('utf8');
		}
		pos = next;
	}
	return { fields, files };
}

/**
 * Turns query + body into one parameter object the way WordPress's get_param() sees it
 * (body wins over query). Malformed JSON → 400 rest_invalid_json. `json`: the JSON object body as sent, if any.
 */
function parseInput(req, body, query) {
	const contentType = String(req.headers['content-type'] || '').toLowerCase();
	let fields = {};
	let files = {};
	let json;
	const text = body.buffer.length ? body.buffer : null;
	if (contentType.startsWith('multipart/form-data')) {
		if (text) ({ fields, files } = parseMultipart(body.buffer, req.headers['content-type']));
	} else if (contentType.startsWith('application/x-www-form-urlencoded')) {
		if (text) fields = Object.fromEntries(new URLSearchParams(body.buffer.toString('utf8')));
	} else if (text && body.buffer.toString('utf8').trim() !== '') {
		try {
			const parsed = JSON.parse(body.buffer.toString('utf8'));
			if (isPlainObject(parsed)) fields = json = parsed;
		} catch (e) {
			fail(400, 'rest_invalid_json', 'Invalid JSON body passed.', { json_error_message: e.message });
		}
	}
	return { input: { ...query, ...fields }, files, json };
}

/**
 * Compiles `[method, '/documents/:id/send', name, handler]` routes. `:id` matches digits only
 * (WordPress routes use `(?P<id>\d+)`), any other `:param` one path segment.
 */
function createRouter(routes) {
	const compiled = routes.map(([method, pattern, name, handler]) => {
		const keys = [];
		const source = pattern.replace(/:(\w+)/g, (_, key) => {
			keys.push(key);
			return key === 'id' ? '(\\d+)' : '([^/]+)';
		});
		return { method, name, handler, keys, regex: new RegExp(`^${source}/?$`) };
	});
	return {
		/** {route, params} or null (an unknown path and a wrong method are both "no route"). */
		match(method, path) {
			for (const route of compiled) {
				if (route.method !== method) continue;
				const m = route.regex.exec(path);
				if (!m) continue;
				const params = {};
				route.keys.forEach((key, i) => (params[key] = decodeURIComponent(m[i + 1])));
				return { route, params };
			}
			return null;
		},
	};
}

/** The caller's IP without the IPv4-mapped IPv6 prefix. */
const clientIp = (req) => String(req.socket.remoteAddress || '').replace(/^::ffff:/, '');

function send(res, status, body, headers = {}) {
	if (res.headersSent || res.destroyed) return;
	res.writeHead(status, { 'Content-Length': Buffer.byteLength(body), ...headers });
	res.end(body);
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=UTF-8' };

const sendJson = (res, status, value, headers = {}) => send(res, status, JSON.stringify(value), { ...JSON_HEADERS, ...headers });

const sendHtml = (res, status, html) => send(res, status, html, { 'Content-Type': 'text/html; charset=UTF-8' });

/** Converts any thrown value into {status, body, headers}; unexpected errors become 500 internal_error. */
function errorResult(error) {
	if (error instanceof ApiError) return { status: error.status, body: error.toBody(), headers: error.headers };
	console.error('[sandbox] unexpected error:', error);
	const wrapped = new ApiError(500, 'internal_error', `Sandbox error: ${error && error.message}`);
	return { status: 500, body: wrapped.toBody(), headers: {} };
}

module.exports = {
	MAX_UPLOAD_BYTES,
	JSON_HEADERS,
	readBody,
	clientIp,
	parseMultipart,
	parseInput,
	createRouter,
	send,
	sendJson,
	sendHtml,
	errorResult,
};
