/**
 * What real hosting puts between n8n and WordPress, recognised from an answer that is not the eSign API's
 * own: a password prompt (HTTP Basic auth), a bot challenge, a security plugin's or firewall's block page.
 * Each comes with what to change (its row in advice.ts), because the fix is on the site, not in the workflow.
 */

import { type Advice, ADVICE, explained } from './advice';

export type Headers = Record<string, string | string[] | undefined> | undefined;

export type Front = 'basicAuth' | 'challenge' | 'wordfence' | 'modsecurity' | 'sucuri' | 'solid';

export function headerValue(headers: Headers, name: string): string | undefined {
	const value = headers?.[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

export function recogniseFront(status: number, headers: Headers, text: string): Front | undefined {
	const has = (name: string) => headerValue(headers, name) !== undefined;
	if (status === 401 && /^\s*(basic|digest)\b/i.test(headerValue(headers, 'www-authenticate') ?? '')) return 'basicAuth';
	if (/challenge/i.test(headerValue(headers, 'cf-mitigated') ?? '')) return 'challenge';
	const cloudflare = /cloudflare/i.test(headerValue(headers, 'server') ?? '') || has('cf-ray');
	if (cloudflare && (status === 403 || status === 503) && /just a moment|challenge-platform|cf[-_]chl|attention required/i.test(text)) {
		return 'challenge';
	}
	if (/access to this (site|service) has been limited|wordfence/i.test(text)) return 'wordfence';
	if (has('x-sucuri-id') || has('x-sucuri-block') || /sucuri website firewall/i.test(text)) return 'sucuri';
	if (status === 406 || /mod_?security/i.test(text)) return 'modsecurity';
	if (/solid security|ithemes security|has been locked out|you have been locked out/i.test(text)) return 'solid';
	return undefined;
}

/** What to change for each front: its row of the advice table (advice.ts). */
export function frontAdvice(front: Front, basicAuthSet: boolean): Advice {
	if (front === 'basicAuth') return ADVICE[basicAuthSet ? 'basicAuthRefused' : 'basicAuthMissing'];
	return ADVICE[front];
}

/** The X-ESIGN-* headers may be lost on the way: how to check it from the n8n host (no secret shown). */
export function strippedHeadersHint(apiRoot: string): string {
	return ` The key has the form keys are issued in (esign_…). ${explained('headersStripped', { apiRoot })}`;
}

/**
 * An answer that a cache in front of the site served instead of WordPress, by the headers caches add, or
 * undefined. Every GET carries a unique `_` query parameter, so a cache keyed by URL never matches; a hit
 * means the cache ignores the query string.
 */
export function cachedAnswerHint(headers: Headers): string | undefined {
	const hit = (name: string) => /\bhit\b/i.test(headerValue(headers, name) ?? '');
	const age = Number(headerValue(headers, 'age'));
	const named = ['x-cache', 'cf-cache-status', 'x-litespeed-cache', 'x-proxy-cache', 'x-cache-status', 'x-wp-cached-call'].find(hit);
	if (!named && !(Number.isFinite(age) && age > 0)) return undefined;
	const sign = named ? `${named}: ${headerValue(headers, named)}` : `age: ${headerValue(headers, 'age')}`;
	return explained('cached', { sign });
}
