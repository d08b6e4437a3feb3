import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

export type ESignContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions;

const CREDENTIAL_TYPE = 'eSignApi';

export const API_PATH = '/wp-json/esign/v1';

/** What every request of one node execution needs from the credential. */
export interface SiteAccess {
	apiRoot: string;
	insecure: boolean;
	/** Never shown: only used to blank these values out of body excerpts in errors. */
	secrets: string[];
	/**
	 * Handed to httpRequestWithAuthentication, so n8n does not read and decrypt the credential again on
	 * every request. Undefined when the node has no stored credential reference (n8n then reads it itself).
	 */
	decrypted?: ICredentialsDecrypted;
}

/** The REST route prefix of the API, as plain-permalink sites take it in `?rest_route=`. */
const ROUTE_PREFIX = '/esign/v1';

/**
 * Accepts the site address with or without trailing slash, the /wp-json/esign/v1 suffix, or a pasted
 * `?rest_route=…` / `index.php` form.
 */
export function normaliseSiteUrl(siteUrl: string): string {
	return String(siteUrl ?? '')
		.trim()
		.replace(/\?rest_route=.*$/i, '')
		.replace(/\/index\.php$/i, '')
		.replace(/\/+$/, '')
		.replace(/\/wp-json\/esign\/v1$/i, '')
		.replace(/\/wp-json$/i, '');
}

/**
 * The API root for a site and REST URL style: `<site>/wp-json/esign/v1` (pretty permalinks) or
 * `<site>/?rest_route=/esign/v1` (plain permalinks); an endpoint (`/documents/5`) is appended to either.
 */
function apiRootFor(siteUrl: string, style: unknown): string {
	const site = normaliseSiteUrl(siteUrl);
	return style === 'plain' ? `${site}/?rest_route=${ROUTE_PREFIX}` : site + API_PATH;
}

// One credential read per node execution. The key is n8n's context object for that execution (a new one
// per node run, webhook call or editor lookup), so the entry and the secrets in it go away with it.
const perExecution = new WeakMap<object, Promise<SiteAccess>>();

async function read(this: ESignContext): Promise<SiteAccess> {
	const data: ICredentialDataDecryptedObject = await this.getCredentials(CREDENTIAL_TYPE);
	const reference = this.getNode().credentials?.[CREDENTIAL_TYPE];
	return {
		apiRoot: apiRootFor(data.siteUrl as string, data.restUrlStyle),
		insecure: data.ignoreSslIssues === true,
		secrets: [data.apiKey, data.apiSecret, data.webhookSecret].filter(
			(value): value is string => typeof value === 'string' && value !== '',
		),
		decrypted: reference?.id
			? { id: reference.id, name: reference.name, type: CREDENTIAL_TYPE, data }
			: undefined,
	};
}

export function siteAccess(this: ESignContext): Promise<SiteAccess> {
	let entry = perExecution.get(this);
	if (!entry) {
		entry = read.call(this);
		perExecution.set(this, entry);
		// A failed read (e.g. no credential yet) is not remembered.
		entry.catch(() => perExecution.delete(this));
	}
	return entry;
}

/**
 * Drops what siteAccess remembered for this context. A poll context can live as long as the
 * activation (n8n 1.x), so a poll forgets it when it ends: an edited credential applies next poll.
 */
export function forgetSiteAccess(this: ESignContext): void {
	perExecution.delete(this);
}
