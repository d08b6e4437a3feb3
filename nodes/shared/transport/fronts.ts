/**
 * What real hosting puts between n8n and WordPress, recognised from an answer that is not the eSign API's
 * own: a password prompt (HTTP Basic auth), a bot challenge, a security plugin's or firewall's block page.
 * Each comes with what to change, because the fix is on the site, not in the workflow.
 */

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

const SERVER_IP = 'the public IP address of your n8n server';

/** One or two sentences per front: what it is, and what to change on the site. */
export function frontAdvice(front: Front, basicAuthSet: boolean): { message: string; description: string } {
	switch (front) {
		case 'basicAuth':
			return basicAuthSet
				? {
						message: 'The site\'s password prompt (HTTP Basic auth) refused the Basic Auth User and Password',
						description:
							'The site asks for a username and password before WordPress runs, and the ones in the eSign API credential were not accepted. Check Basic Auth User and Password (they are the sign-in box of the site or host, not a WordPress login).',
					}
				: {
						message: 'The site asks for a username and password before WordPress (HTTP Basic auth)',
						description:
							'A password protects the whole site (common on staging copies), so the request never reached the eSign API. In the eSign API credential, turn on Password-Protected Site (HTTP Basic Auth) and fill in that user and password.',
					};
		case 'challenge':
			return {
				message: 'A bot check (Cloudflare challenge) answered instead of the site',
				description: `Cloudflare's bot protection showed its "Just a moment…" check, which only a browser can pass, so the request never reached WordPress. In Cloudflare, add a WAF custom rule that skips bot protection for URI paths starting with /wp-json/esign/, or allow ${SERVER_IP} under Security → WAF → Tools (IP Access Rules).`,
			};
		case 'wordfence':
			return {
				message: 'Wordfence blocked the request ("Your access to this site has been limited")',
				description: `The Wordfence security plugin blocked n8n's request before the eSign API saw it. In WordPress → Wordfence → Firewall → All Firewall Options, add ${SERVER_IP} to "Allowlisted IP addresses that bypass all rules"; Wordfence → Tools → Live Traffic shows why it was blocked.`,
			};
		case 'modsecurity':
			return {
				message: 'The server\'s firewall (mod_security) refused the request',
				description: `A mod_security rule on the web server matched the request (it answers 406 Not Acceptable or a block page). Ask the host to disable that rule for /wp-json/esign/ or to allow ${SERVER_IP}; the server's ModSecurity audit log names the rule ID.`,
			};
		case 'sucuri':
			return {
				message: 'The Sucuri Website Firewall blocked the request',
				description: `Sucuri's firewall in front of the site blocked n8n's request. In the Sucuri dashboard, under Firewall → Access Control, allowlist ${SERVER_IP} (or the path /wp-json/esign/).`,
			};
		case 'solid':
			return {
				message: 'Solid Security (iThemes Security) has locked this address out',
				description: `The Solid Security plugin locked out n8n's server. In WordPress → Security → Settings, release the lockout and add ${SERVER_IP} to "Authorized Hosts" so it is not locked out again.`,
			};
	}
}

/** The X-ESIGN-* headers may be lost on the way: how to check it from the n8n host (no secret shown). */
export function strippedHeadersHint(apiRoot: string): string {
	return ` The key has the form keys are issued in (esign_…). If it and the secret are right, a proxy, CDN or security plugin may be removing the X-ESIGN-API-Key and X-ESIGN-API-Secret headers before WordPress sees them. To check, run on the n8n host: curl -i -H "X-ESIGN-API-Key: <key>" -H "X-ESIGN-API-Secret: <secret>" "${apiRoot}/stats" — a 401 there too with the right key means the headers are removed on the way (allow them in the proxy or plugin).`;
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
	return `The site's answer came from a cache (${sign}), so it may be out of date. Exclude /wp-json/esign/ from the page or REST cache (LiteSpeed Cache, WP REST Cache, Cloudflare "Cache Everything" rules) or make the cache respect the query string.`;
}
