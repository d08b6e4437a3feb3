import type { JsonObject, NodeApiError } from 'n8n-workflow';

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
		const message = `The site does not serve its REST API under /wp-json/ (it redirects ${from} to the same address with a slash)`;
		const description =
			'WordPress sites whose permalinks are set to Plain serve the API only as ?rest_route=: set the credential\'s REST API URL Style to ?rest_route= (Plain Permalinks), or switch the site to pretty permalinks under Settings → Permalinks. ' +
			'n8n did not follow the redirect' + (isWrite ? `, and the ${info.method} was not carried out.` : '.');
		const error = build(info, { code: 'redirect', message, status } as JsonObject, message, description, status);
		error.context.apiCode = 'redirect';
		error.context.location = target;
		return error;
	}
	const message = target
		? `The site redirects ${from} to ${target}: use ${siteUrl} as the Site URL`
		: `The site answered ${info.method} ${from} with a redirect (HTTP ${status}) but no usable Location`;
	const description =
		`n8n does not follow redirects for eSign requests, so your API key and secret are only ever sent to the Site URL in the credential. ` +
		(isWrite ? `Nothing was sent to ${target || 'the redirect target'}, and the ${info.method} was not carried out there. ` : '') +
		'Typical causes: http:// instead of https://, www. added or removed, or an old domain. Put the address the site redirects to in the credential\'s Site URL.';
	const error = build(info, { code: 'redirect', message, status } as JsonObject, message, description, status);
	error.context.apiCode = 'redirect';
	if (target) error.context.location = target;
	return error;
}
