'use strict';
/** Credentials (X-ESIGN-API-Key / X-ESIGN-API-Secret), permission levels and rate limits. */

const crypto = require('node:crypto');
const { fail } = require('./util');
const { now } = require('./store');

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The spec's limits; `npm run sandbox` uses them, createSandbox defaults to none. */
const SPEC_RATE_LIMITS = { perKeyPerHour: 1000, perIpPerMinute: 100 };

const safeEqual = (a, b) => {
	const x = Buffer.from(String(a));
	const y = Buffer.from(String(b));
	return x.length === y.length && crypto.timingSafeEqual(x, y);
};

const findKey = (core, keyValue) =>
	Object.entries(core.state.keys).find(([, k]) => k.key === keyValue) || null;

/** {keyName, user} for valid credentials; 401 / 403 rest_forbidden otherwise. `method`: as the request is routed. */
function authenticate(core, req, method = req.method) {
	const keyValue = req.headers['x-esign-api-key'];
	const secret = req.headers['x-esign-api-secret'];
	const found = keyValue && findKey(core, keyValue);
	if (!found || !secret || !safeEqual(found[1].secret, secret)) {
		fail(401, 'rest_forbidden', 'Invalid API key or secret.');
	}
	const [keyName, key] = found;
	if (key.access !== 'full' && WRITE_METHODS.has(method)) {
		fail(403, 'rest_forbidden', 'This API key has read-only permissions. Write operations need a Full Access key.');
	}
	return { keyName, user: core.state.users[key.user] };
}

/**
 * Fixed windows on the sandbox clock (moving the clock forward opens a new window): per IP per
 * minute over every /wp-json request, and per known key per hour. Refused requests are not counted.
 */
function checkRateLimit(core, ip, keyValue) {
	const limits = core.state.rateLimits;
	if (!limits) return;
	const t = now(core);
	const windows = core.state.rateWindows;
	const checks = [];
	if (limits.perIpPerMinute) checks.push({ id: `ip:${ip}`, limit: limits.perIpPerMinute, span: 60_000 });
	if (limits.perKeyPerHour && keyValue && findKey(core, keyValue)) {
		checks.push({ id: `key:${keyValue}`, limit: limits.perKeyPerHour, span: 3_600_000 });
	}
	for (const c of checks) {
		const start = Math.floor(t / c.span) * c.span;
		const w = windows.get(c.id);
		c.window = w && w.start === start ? w : { start, count: 0 };
		if (c.window.count >= c.limit) {
			const retryAfter = Math.max(1, Math.ceil((start + c.span - t) / 1000));
			fail(429, 'rate_limit_exceeded', `Rate limit exceeded. Please wait ${retryAfter} seconds before retrying.`,
				{ retry_after: retryAfter }, { 'Retry-After': String(retryAfter) });
		}
	}
	for (const c of checks) {
		c.window.count++;
		windows.set(c.id, c.window);
	}
}

/**
 * `{perKeyPerHour, perIpPerMinute}` | true | false | `{enabled:false}` → normalised config or false.
 * An omitted limit takes the spec's value; 0 or null switches that one limit off.
 */
function normalizeRateLimits(value) {
	if (!value || value.enabled === false) return false;
	const pick = (v, fallback) => (v === undefined ? fallback : Number.isInteger(v) && v > 0 ? v : 0);
	return {
		perKeyPerHour: pick(value.perKeyPerHour, SPEC_RATE_LIMITS.perKeyPerHour),
		perIpPerMinute: pick(value.perIpPerMinute, SPEC_RATE_LIMITS.perIpPerMinute),
	};
}

module.exports = { WRITE_METHODS, SPEC_RATE_LIMITS, authenticate, checkRateLimit, normalizeRateLimits };
