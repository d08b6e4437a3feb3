/**
 * What to do when the site, or something in front of it, does not give the eSign API's answer: one row per
 * cause, the only place these texts live. The node's errors (errors.ts, fronts.ts, redirect.ts, firewall.ts)
 * and the credential test (credentialTestRules, the credential's `rules`) both read them. Each row follows
 * n8n's UX guidelines for errors: `message` says what happened (no full stop), `description` how to get
 * unstuck. `{name}` marks a value filled in where the row is used (fill): the node fills in the real address,
 * the credential test (which sees only the status) general words.
 */

export interface Advice {
	/** What happened, as an error's message says it. */
	message: string;
	/** How to get unstuck, as an error's description says it. */
	description: string;
}

const SERVER_IP = 'the public IP address of your n8n server';
const UPLOAD_LIMITS =
	'WordPress gets no file when the file is larger than PHP\'s upload_max_filesize (Debian\'s default 2M) or the whole request larger than post_max_size (default 8M): PHP drops it before WordPress runs. Ask the site\'s admin to raise both in php.ini (and, for a 413, the web server\'s limit: client_max_body_size in nginx, LimitRequestBody in Apache), or upload a smaller file.';
const CHECK_SITE = 'Check the Site URL in the credential and that the eSign plugin (Pro, with the REST API enabled) is active.';

export const ADVICE = {
	// In front of WordPress: a password prompt, a bot check, a security plugin or firewall (fronts.ts).
	basicAuthMissing: {
		message: 'The site asks for a username and password before WordPress (HTTP Basic auth)',
		description:
			'A password protects the whole site (a browser shows a sign-in box for it; common on staging copies), so the request never reached the eSign API. In the eSign API credential, turn on Password-Protected Site (HTTP Basic Auth) and fill in that user and password.',
	},
	basicAuthRefused: {
		message: 'The site\'s password prompt (HTTP Basic auth) refused the Basic Auth User and Password',
		description:
			'The request never reached WordPress. Check Basic Auth User and Password in the eSign API credential: they are the sign-in box of the site or host, not a WordPress login.',
	},
	applicationPasswords: {
		message:
			'The site\'s password prompt let the request through, but WordPress then read the same Basic Auth user and password as a WordPress login (application passwords) and refused it',
		description:
			'Ask the site\'s admin to keep the Authorization header from WordPress behind the prompt (nginx: fastcgi_param HTTP_AUTHORIZATION ""; Apache: RequestHeader unset Authorization after the auth check), or to turn application passwords off.',
	},
	challenge: {
		message: 'A bot check (Cloudflare challenge) answered instead of the site',
		description: `Cloudflare's bot protection showed its "Just a moment…" check, which only a browser can pass, so the request never reached WordPress. In Cloudflare, add a WAF custom rule that skips bot protection for URI paths starting with /wp-json/esign/, or allow ${SERVER_IP} under Security → WAF → Tools (IP Access Rules).`,
	},
	wordfence: {
		message: 'Wordfence blocked the request ("Your access to this site has been limited")',
		description: `The Wordfence security plugin blocked n8n's request before the eSign API saw it. In WordPress → Wordfence → Firewall → All Firewall Options, add ${SERVER_IP} to "Allowlisted IP addresses that bypass all rules"; Wordfence → Tools → Live Traffic shows why it was blocked.`,
	},
	modsecurity: {
		message: 'The server\'s firewall (mod_security) refused the request',
		description: `A mod_security rule on the web server matched the request (it answers 406 Not Acceptable or a block page). Ask the host to disable that rule for /wp-json/esign/ or to allow ${SERVER_IP}; the server's ModSecurity audit log names the rule ID.`,
	},
	sucuri: {
		message: 'The Sucuri Website Firewall blocked the request',
		description: `Sucuri's firewall in front of the site blocked n8n's request. In the Sucuri dashboard, under Firewall → Access Control, allowlist ${SERVER_IP} (or the path /wp-json/esign/).`,
	},
	solid: {
		message: 'Solid Security (iThemes Security) has locked this address out',
		description: `The Solid Security plugin locked out n8n's server. In WordPress → Security → Settings, release the lockout and add ${SERVER_IP} to "Authorized Hosts" so it is not locked out again.`,
	},
	blockedInFront: {
		message: 'Something in front of the eSign API blocked the request',
		description:
			'It is a bot check (e.g. Cloudflare\'s "Just a moment…"), a security plugin (Wordfence, Solid Security, Sucuri), a CDN or the host\'s firewall, not WordPress. Ask the site\'s owner or host to allow requests to /wp-json/esign/ from n8n\'s server for the rule that matched (a WAF skip rule, or the server\'s IP address on the allow list).',
	},
	cached: {
		message: 'The site\'s answer came from a cache ({sign}), so it may be out of date',
		description:
			'Exclude /wp-json/esign/ from the page or REST cache (LiteSpeed Cache, WP REST Cache, Cloudflare "Cache Everything" rules) or make the cache respect the query string.',
	},
	// WordPress's own pages instead of the API (errors.ts).
	maintenance: {
		message: 'WordPress is in maintenance mode ("Briefly unavailable for scheduled maintenance"), usually while updates install',
		description: 'Wait a minute and run it again.',
	},
	critical: {
		message: 'WordPress shows "There has been a critical error on this website": PHP stopped on a fatal error on the site',
		description: 'Check the site\'s PHP error log (or the email WordPress sends to the admin), and fix or replace the plugin or theme that stopped it.',
	},
	webPage: {
		message: 'The site answered with a web page instead of the eSign API\'s JSON',
		description:
			'Something in front of WordPress (a cache, a login or cookie wall, a proxy) or a plugin replaced the answer. Open the URL in a browser to see what it serves.',
	},
	notJson: {
		message: 'The answer is not the eSign API\'s JSON (it may be cut off, empty or replaced by a proxy or plugin)',
		description: 'Check the Site URL, and the site\'s PHP error log.',
	},
	wrongShape: {
		message: 'The answer has a shape the eSign API never gives',
		description: 'A plugin, cache or proxy may have changed it, or the Site URL points at another service: check the Site URL.',
	},
	// The address: redirects, permalinks, a site without the API (redirect.ts, errors.ts).
	redirected: {
		message: 'The site redirects {where}',
		description:
			'Use {siteUrl} as the Site URL in the credential. n8n does not follow redirects for eSign requests, so your API key and secret are only ever sent to the Site URL in the credential. Typical causes: http:// instead of https://, www. added or removed, or an old domain.',
	},
	notUnderWpJson: {
		message: 'The site does not serve its REST API under /wp-json/ (it redirects {from} to the same address with a slash)',
		description: 'n8n did not follow the redirect{write}.',
	},
	plainPermalinks: {
		message: 'WordPress sites whose permalinks are set to Plain serve the API only under ?rest_route=',
		description: 'Set the credential\'s REST API URL Style to ?rest_route= (Plain Permalinks), or switch the site to pretty permalinks under Settings → Permalinks.',
	},
	prettyPermalinks: {
		message: 'Sites with pretty permalinks serve the API under /wp-json/',
		description: 'Set the credential\'s REST API URL Style to /wp-json/ (Pretty Permalinks).',
	},
	noApi: {
		message: 'There is no eSign API at this address',
		description: CHECK_SITE,
	},
	noApiRoute: {
		message: 'The site has no such API route',
		description: CHECK_SITE,
	},
	// An upload PHP or the web server dropped (errors.ts).
	uploadTooLarge: {
		message: 'The server refused the upload as too large (HTTP 413); the file is {size}',
		description: UPLOAD_LIMITS,
	},
	uploadDropped: {
		message: 'The site received no file, but this request carried one of {size}',
		description: UPLOAD_LIMITS,
	},
	// The API's own answers (errors.ts).
	keyRejected: {
		message: 'The site rejected the API key or secret',
		description:
			'Check both values in the eSign API credential against the eSign admin\'s API keys (keys start with esign_; the secret is shown once, when the key is created).',
	},
	headersStripped: {
		message:
			'If the key and secret are right, a proxy, CDN or security plugin may be removing the X-ESIGN-API-Key and X-ESIGN-API-Secret headers before WordPress sees them',
		description:
			'To check, run on the n8n host: curl -i -H "X-ESIGN-API-Key: <key>" -H "X-ESIGN-API-Secret: <secret>" "{apiRoot}/stats" — a 401 there too with the right key means the headers are removed on the way (allow them in the proxy or plugin).',
	},
	readOnlyKey: {
		message: 'This API key is Read Only',
		description: 'Creating, sending, updating or deleting needs a Full Access key: create one in the eSign admin under API keys and use it in the credential.',
	},
	notYours: {
		message: 'The document or template belongs to another user',
		description: 'A non-administrator key can only reach its own documents and templates: use an administrator key or the owner’s key.',
	},
	notFound: {
		message: 'Nothing exists at {endpoint}',
		description: 'Check the ID: it may have been deleted, or it belongs to another site.',
	},
	overrideIgnored: {
		message:
			'A firewall in front of the site refused {method}, so n8n sent it as POST with {form}, as WordPress\'s own editor does; the site did not take the method from it, so it is not WordPress\'s REST API or something changes the request',
		description: 'Ask the host to allow {method} for /wp-json/esign/v1. Nothing was changed.',
	},
	rateLimited: {
		message: 'The site\'s rate limit was reached (by default 1,000 requests per key per hour and 100 per IP per minute){wait}',
		description: 'Raise "Max Rate Limit Wait" under Request Options, space out runs, or ask the site admin to raise the key\'s limit.',
	},
	notDue: {
		message: 'The document has no expiry date, or it is still in the future',
		description: 'Expire only applies an expiration that is already due: run it once the expiry date has passed.',
	},
	siteStopped: {
		message: 'The site could not complete {method} {endpoint}{retried}',
		description: 'Check the site\'s PHP error log for what stopped it.',
	},
	invalidWithoutReason: {
		message: 'The site refused the request to {method} {endpoint} as invalid (HTTP 400) without saying why{code}',
		description: 'Check the values sent, e.g. ids, status and field data, against the operation\'s description.',
	},
	noMessage: {
		message: 'The site answered HTTP {status}{code} without a message',
		description: 'The site gave no reason: check its PHP error log.',
	},
} as const satisfies Record<string, Advice>;

export type AdviceKey = keyof typeof ADVICE;

/** What a failed write did, added to a description (each starts with a space). */
export const WRITE_NOTES = {
	/** No answer, a 5xx or a page after a write: it may have run, and a write is never sent again. */
	mayHaveRun:
		' The site may still have carried out the request, so it was not repeated automatically (repeating a send would email every signer twice). Check the document before running it again.',
	/** Something in front of WordPress answered: the write never ran. */
	notReached: ' The request did not reach WordPress, so nothing was changed.',
};

/** A row's text with its `{name}` slots filled in (a slot without a value stays as it is). */
export function fill(text: string, values: Record<string, string | number> = {}): string {
	return text.replace(/\{(\w+)\}/g, (slot, name: string) => (name in values ? String(values[name]) : slot));
}

/** A row, filled in, as one paragraph: for a description whose error's message says something else. */
export function explained(key: AdviceKey, values?: Record<string, string | number>): string {
	const { message, description } = ADVICE[key];
	return `${fill(message, values)}. ${fill(description, values)}`;
}

/**
 * The credential test sees only the status of its GET /stats, so it names every cause the status can have, in
 * the order to check them, with the general words below where the node names the real address (UNKNOWN: also
 * what a redirect without a usable Location is told).
 */
export const UNKNOWN = { where: 'this address elsewhere', siteUrl: 'the address a browser ends up at when it opens the Site URL' };
const ONE_OF = (causes: string[]) => causes.map((cause, n) => `${n + 1}. ${cause}`).join(' ');
const NODE_NAMES_IT = 'An eSign node run with this credential names which one it is.';

const CREDENTIAL_TEST: Record<number, string> = {
	...Object.fromEntries(
		[301, 302, 303, 307, 308].map((status) => [
			status,
			`${fill(ADVICE.redirected.message, UNKNOWN)} (HTTP ${status}). ${fill(ADVICE.redirected.description, UNKNOWN)} If the address is right: ${explained('plainPermalinks')}`,
		]),
	),
	401: `The site refused the request (401). One of these applies: ${ONE_OF([
		explained('basicAuthMissing'),
		`${explained('keyRejected')} ${ADVICE.headersStripped.message}: an eSign node's error says how to check.`,
	])}`,
	// Every key may read /stats (the spec), so a 403 here is never about the key's permissions.
	403: `${ADVICE.blockedInFront.message} (403). ${ADVICE.blockedInFront.description} The API itself lets every key read statistics, so this is not about key permissions. ${NODE_NAMES_IT}`,
	404: `${ADVICE.noApi.message} (404). ${ADVICE.noApi.description} ${explained('plainPermalinks')} ${explained('prettyPermalinks')}`,
	406: `${ADVICE.modsecurity.message} (406 Not Acceptable). ${ADVICE.modsecurity.description}`,
	503: `The site is unavailable (503). One of these applies: ${ONE_OF([explained('maintenance'), explained('blockedInFront')])} ${NODE_NAMES_IT}`,
};

/** The credential's `rules`: a fixed text per status is all n8n's credential test can show. */
export function credentialTestRules(): Array<{ type: 'responseCode'; properties: { value: number; message: string } }> {
	return Object.entries(CREDENTIAL_TEST).map(([status, message]) => ({ type: 'responseCode', properties: { value: Number(status), message } }));
}
