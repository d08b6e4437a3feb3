/**
 * The one rule for turning what a user pastes as Site URL into the API root. Nodes apply it in TypeScript;
 * the credential test runs inside n8n's expression engine, so the same steps are also written out as an
 * expression (siteUrlExpression). Both are built from SITE_URL_STEPS, so they cannot drift apart.
 */

/** The REST route prefix of the API, as plain-permalink sites take it in `?rest_route=`. */
export const ROUTE_PREFIX = '/esign/v1';

export const API_PATH = `/wp-json${ROUTE_PREFIX}`;

/**
 * Replacements applied in order after trimming: a pasted `?rest_route=…`, `index.php`, trailing slashes and
 * the /wp-json/esign/v1 suffix go; an address typed without a scheme (`sign.example.com`) is read as https://.
 */
const SITE_URL_STEPS: Array<[RegExp, string]> = [
	[/\?rest_route=.*$/i, ''],
	[/\/index\.php$/i, ''],
	[/\/+$/, ''],
	[/\/wp-json\/esign\/v1$/i, ''],
	[/\/wp-json$/i, ''],
	[/^(?![a-z][a-z0-9+.-]*:\/\/)(?=.)/i, 'https://'],
];

export function normaliseSiteUrl(siteUrl: unknown): string {
	let url = String(siteUrl ?? '').trim();
	for (const [pattern, replacement] of SITE_URL_STEPS) url = url.replace(pattern, replacement);
	return url;
}

/**
 * The API root for a site and REST URL style: `<site>/wp-json/esign/v1` (pretty permalinks) or
 * `<site>/index.php?rest_route=/esign/v1` (plain permalinks); an endpoint (`/documents/5`) is appended to either.
 * index.php, as WordPress's own rest_url() writes it: nginx's usual WordPress setup answers PUT and DELETE to
 * `/?rest_route=` with its own 405 (only GET, HEAD and POST pass its internal redirect to index.php).
 */
export function apiRootFor(siteUrl: unknown, style: unknown): string {
	const site = normaliseSiteUrl(siteUrl);
	return style === 'plain' ? `${site}/index.php?rest_route=${ROUTE_PREFIX}` : site + API_PATH;
}

/** apiRootFor as an n8n expression over the credential's own fields (for the declarative credential test). */
export function apiRootExpression(): string {
	const steps = SITE_URL_STEPS.map(([pattern, replacement]) => `.replace(${pattern.toString()}, ${JSON.stringify(replacement)})`).join('');
	const site = `String($credentials.siteUrl ?? '').trim()${steps}`;
	return `={{ ${site} + ($credentials.restUrlStyle === 'plain' ? '/index.php?rest_route=${ROUTE_PREFIX}' : '${API_PATH}') }}`;
}
