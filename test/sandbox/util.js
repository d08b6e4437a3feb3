'use strict';
/** Small helpers shared by every sandbox module: errors, timestamps, PHP-like JSON, HTML escaping. */

const crypto = require('node:crypto');

/** An error the sandbox answers in WordPress's REST error shape: {code, message, data: {status, ...}}. */
class ApiError extends Error {
	constructor(status, code, message, extraData = {}, headers = {}) {
		super(message);
		this.status = status;
		this.code = code;
		this.extraData = extraData;
		this.headers = headers;
	}

	toBody() {
		return { code: this.code, message: this.message, data: { status: this.status, ...this.extraData } };
	}
}

const fail = (status, code, message, extraData, headers) => {
	throw new ApiError(status, code, message, extraData, headers);
};

/** WordPress's own answer for a bad query parameter (what register_rest_route's `args` produce). */
const invalidParam = (name, reason) =>
	fail(400, 'rest_invalid_param', `Invalid parameter(s): ${name}`, { params: { [name]: reason } });

const pad = (n) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:MM:SS` in UTC (the sandbox site's timezone is UTC). */
function formatTimestamp(ms) {
	const d = new Date(ms);
	return (
		`${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
		`${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
	);
}

/** Parses `YYYY-MM-DD HH:MM:SS` (UTC); NaN when malformed. */
function parseTimestamp(text) {
	const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(String(text));
	if (!m) return NaN;
	const [, y, mo, d, h, mi, s] = m.map(Number);
	return Date.UTC(y, mo - 1, d, h, mi, s);
}

/**
 * JSON the way PHP's json_encode writes it (escaped slashes, \uXXXX for non-ASCII), with
 * one-space indentation. Webhook bodies use it so that receivers must verify signatures over
 * the raw bytes: re-serialising the parsed object gives different bytes.
 */
function phpJson(value) {
	return JSON.stringify(value, null, 1)
		.replace(/\//g, '\\/')
		.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const escapeHtml = (text) =>
	String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const randomToken = (bytes = 16) => crypto.randomBytes(bytes).toString('hex');

const sha256Hex = (data) => crypto.createHash('sha256').update(data).digest('hex');

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

const isNonEmptyString = (v) => typeof v === 'string' && v.trim() !== '';

/** Accepts JSON numbers and numeric strings (WordPress coerces query/form values the same way). */
function toNumber(v) {
	if (typeof v === 'number') return Number.isFinite(v) ? v : NaN;
	if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
	return NaN;
}

const toInteger = (v) => {
	const n = toNumber(v);
	return Number.isInteger(n) ? n : NaN;
};

/** true/false, 1/0 and their string forms; undefined for anything else. */
function toBoolean(v) {
	if (v === true || v === 1 || v === '1' || v === 'true') return true;
	if (v === false || v === 0 || v === '0' || v === 'false') return false;
	return undefined;
}

/** 'contract.final.pdf' → 'contract.final'. */
const fileStem = (name) => String(name || '').replace(/\.[^./\\]*$/, '');

/** A handler's answer: {status, body, headers}. */
const ok = (body, status = 200, headers = {}) => ({ status, body, headers });

module.exports = {
	ok,
	ApiError,
	fail,
	invalidParam,
	formatTimestamp,
	parseTimestamp,
	phpJson,
	escapeHtml,
	sleep,
	randomToken,
	sha256Hex,
	isPlainObject,
	isNonEmptyString,
	toNumber,
	toInteger,
	toBoolean,
	fileStem,
};
