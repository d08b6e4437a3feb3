import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { apiRootFor } from './siteUrl';
import { usesBasicAuth } from './basicAuth';

export { API_PATH, apiRootFor, normaliseSiteUrl } from './siteUrl';

export type ESignContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions;

const CREDENTIAL_TYPE = 'eSignApi';

/** What every request of one node execution needs from the credential. */
export interface SiteAccess {
	apiRoot: string;
	insecure: boolean;
	/** Never shown: only used to blank these values out of body excerpts in errors. */
	secrets: string[];
	/** The key has the form keys are issued in (esign_…): a 401 then more likely means lost headers. */
	keyLooksIssued: boolean;
	/** A user and password for HTTP Basic auth in front of the site are set in the credential. */
	basicAuth: boolean;
	/**
	 * Handed to httpRequestWithAuthentication, so n8n does not read and decrypt the credential again on
	 * every request. Undefined when the node has no stored credential reference (n8n then reads it itself).
	 */
	decrypted?: ICredentialsDecrypted;
}

// One credential read per node execution. The key is n8n's context object for that execution (a new one
// per node run, webhook call or editor lookup), so the entry and the secrets in it go away with it.
const perExecution = new WeakMap<object, Promise<SiteAccess>>();

async function read(this: ESignContext): Promise<SiteAccess> {
	const data: ICredentialDataDecryptedObject = await this.getCredentials(CREDENTIAL_TYPE);
	const reference = this.getNode().credentials?.[CREDENTIAL_TYPE];
	return {
		apiRoot: apiRootFor(data.siteUrl, data.restUrlStyle),
		insecure: data.ignoreSslIssues === true,
		secrets: [data.apiKey, data.apiSecret, data.webhookSecret, data.basicAuthPassword].filter(
			(value): value is string => typeof value === 'string' && value !== '',
		),
		keyLooksIssued: /^esign_\S+$/.test(String(data.apiKey ?? '').trim()),
		basicAuth: usesBasicAuth(data),
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
