import type { JsonObject, NodeApiError } from 'n8n-workflow';

import { ADVICE, UNKNOWN, explained, fill } from './advice';
import { type RequestInfo, build } from './errors';

/** Same origin and the same path up to a trailing slash. */
function isSelfRedirect(url: string, target: string): boolean {
	try {
		const a = new URL(url);
		const b = new URL(target, url);
		const trim = (p: string) => p.replace(/\/+$/, '');
		return a.origin === b.origin && trim(a.pathname) === trim(b.pathname);
	} catch {
		return false;
	}
}

/** A 3xx: never followed, so the key and secret never reach the target. */
export function redirectError(info: RequestInfo, status: number, location: string | undefined, apiPath: string): NodeApiError {
	const from = info.url.split('?')[0];
	let target = location?.trim() ?? '';
	let siteUrl = '';
	// An empty Location would resolve to the request's own URL: it stays empty ("no usable Location").
	if (target) {
		try {
			const resolved = new URL(target, info.url);
			target = `${resolved.origin}${resolved.pathname}`;
			// When the target is the same API path on another address, that address is the Site URL to use.
			const at = resolved.pathname.indexOf(apiPath);
			siteUrl = at >= 0 ? `${resolved.origin}${resolved.pathname.slice(0, at)}` : resolved.origin;
		} catch {
			target = ''; // unparsable: said so below
		}
	}
	const isWrite = info.method !== 'GET';
	if (target && isSelfRedirect(info.url, target) && info.url.includes('/wp-json/')) {
		// WordPress's canonical redirect of an address it does not route (it adds a trailing slash):
		// the site does not serve /wp-json/, which is what Plain permalinks do.
		const message = fill(ADVICE.notUnderWpJson.message, { from });
		const write = isWrite ? `, and the ${info.method} was not carried out` : '';
		const description = `${explained('plainPermalinks')} ${fill(ADVICE.notUnderWpJson.description, { write })}`;
		const error = build(info, { code: 'redirect', message, status } as JsonObject, message, description, status);
		error.context.apiCode = 'redirect';
		error.context.location = target;
		return error;
	}
	const values = target
		? { where: `${from} to ${target}`, siteUrl }
		: { where: `${from} to an address it does not name (HTTP ${status} with no usable Location)`, siteUrl: UNKNOWN.siteUrl };
	const message = fill(ADVICE.redirected.message, values);
	const description =
		fill(ADVICE.redirected.description, values) +
		(isWrite ? ` Nothing was sent to ${target || 'the redirect target'}, and the ${info.method} was not carried out there.` : '');
	const error = build(info, { code: 'redirect', message, status } as JsonObject, message, description, status);
	error.context.apiCode = 'redirect';
	if (target) error.context.location = target;
	return error;
}
