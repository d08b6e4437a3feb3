import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

export type ESignContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

export const API_PATH = '/wp-json/esign/v1';

/** Largest page the API serves; also what Return All uses. */
export const MAX_PER_PAGE = 100;

/** Default ceiling on the total time spent waiting for rate limits within one request. */
export const DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS = 60;

const GET_RETRIES = 3;

export interface ESignRequestOptions {
	qs?: IDataObject;
	body?: IDataObject | IDataObject[] | FormData;
	/** Item the request belongs to, so errors point at it. */
	itemIndex?: number;
	/** Seconds; default 30. */
	timeout?: number;
	/** Longest total wait for 429 answers before giving up, in seconds. */
	maxRateLimitWait?: number;
}

export interface ESignFullResponse<T> {
	body: T;
	headers: Record<string, string | string[] | undefined>;
	statusCode: number;
}

interface ApiErrorBody {
	code?: string;
	message?: string;
	data?: { status?: number; retry_after?: number; errors?: string[] } & IDataObject;
}

/** Accepts the site address with or without trailing slash or the /wp-json/esign/v1 suffix. */
export function normaliseSiteUrl(siteUrl: string): string {
	return String(siteUrl ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/wp-json\/esign\/v1$/i, '')
		.replace(/\/wp-json$/i, '');
}

export async function getApiRoot(this: ESignContext): Promise<{ apiRoot: string; insecure: boolean }> {
	const credentials = await this.getCredentials('eSignApi');
	return {
		apiRoot: normaliseSiteUrl(credentials.siteUrl as string) + API_PATH,
		insecure: credentials.ignoreSslIssues === true,
	};
}

function header(headers: ESignFullResponse<unknown>['headers'], name: string): string | undefined {
	const value = headers?.[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

function retryAfterSeconds(body: ApiErrorBody, headers: ESignFullResponse<unknown>['headers']): number {
	const fromHeader = Number(header(headers, 'retry-after'));
	if (Number.isFinite(fromHeader) && fromHeader >= 0) return fromHeader;
	const fromBody = Number(body?.data?.retry_after);
	if (Number.isFinite(fromBody) && fromBody >= 0) return fromBody;
	return 1;
}

/** What to do about each kind of API failure, in words a workflow builder can act on. */
function describe(status: number, body: ApiErrorBody, method: string, endpoint: string): string {
	const code = body?.code ?? '';
	if (status === 401) {
		return 'The site rejected the API key or secret. Check both values in the eSign API credential (keys start with esign_; the secret is shown once when the key is created).';
	}
	if (status === 403 && code === 'rest_forbidden') {
		return 'This API key is Read Only. Creating, sending, updating or deleting needs a Full Access key: create one in the eSign admin under API keys and use it in the credential.';
	}
	if (status === 403) {
		return 'The document or template belongs to another user. A non-administrator key can only reach its own documents and templates; use an administrator key or the owner’s key.';
	}
	if (status === 404) {
		if (code === 'rest_no_route') {
			return 'The site has no such API route. Check the Site URL in the credential and that the eSign plugin (Pro, with the REST API enabled) is active.';
		}
		return `Nothing exists at ${endpoint}: check the id (it may have been deleted, or it belongs to another site).`;
	}
	if (status === 429) {
		const wait = Number(body?.data?.retry_after);
		return `The site's rate limit was reached (by default 1,000 requests per key per hour and 100 per IP per minute)${
			Number.isFinite(wait) ? `; it asks to wait ${wait} seconds` : ''
		}. Raise "Max Rate Limit Wait" under Request Options, space out runs, or ask the site admin to raise the key's limit.`;
	}
	if (code === 'not_due') {
		return 'Expire only applies an expiration that is already due: the document has no expiry date, or it is still in the future.';
	}
	if (code === 'validation_failed' && Array.isArray(body?.data?.errors)) {
		return body.data.errors.join('\n');
	}
	if (status >= 500 && method !== 'GET') {
		return `The site failed while handling ${method} ${endpoint}. It may still have carried out the request, so it was not repeated automatically (repeating a send would email every signer twice). Check the document before running it again.`;
	}
	if (status >= 500) {
		return `The site failed while handling ${method} ${endpoint} (retried ${GET_RETRIES} times).`;
	}
	return body?.message ?? '';
}

function apiError(
	this: ESignContext,
	status: number,
	body: ApiErrorBody,
	method: string,
	endpoint: string,
	itemIndex?: number,
): NodeApiError {
	const safeBody: ApiErrorBody = body && typeof body === 'object' ? body : {};
	const code = safeBody.code ?? `http_${status}`;
	const message = safeBody.message ?? `HTTP ${status}`;
	const error = new NodeApiError(
		this.getNode(),
		{ code, message, status, data: (safeBody.data ?? {}) as JsonObject } as JsonObject,
		{
			message: `${message} [${code}]`,
			description: describe(status, safeBody, method, endpoint),
			httpCode: String(status),
			itemIndex,
		},
	);
	// Keep the API's own fields where workflows (and the error output) can read them.
	error.context.apiCode = code;
	error.context.apiMessage = message;
	if (Array.isArray(safeBody.data?.errors)) error.context.validationErrors = safeBody.data?.errors;
	return error;
}

function networkError(
	this: ESignContext,
	cause: Error & { code?: string },
	method: string,
	endpoint: string,
	itemIndex?: number,
): NodeApiError {
	const written = method !== 'GET';
	return new NodeApiError(
		this.getNode(),
		{ message: cause.message, code: cause.code ?? 'network_error' } as JsonObject,
		{
			message: `Could not complete ${method} ${endpoint}: ${cause.code ?? cause.message}`,
			description: written
				? 'The connection failed before an answer arrived. The site may still have carried out the request, so it was not repeated automatically. Check the document before running it again.'
				: `The site could not be reached (retried ${GET_RETRIES} times). Check the Site URL and that the site is up.`,
			itemIndex,
		},
	);
}

/**
 * Every HTTP call of the package goes through here: credential auth, URL building, error mapping,
 * 429 waits (any method: a 429 means the request was not processed), and retries of GETs only.
 */
export async function eSignApiRequestFull<T = unknown>(
	this: ESignContext,
	method: IHttpRequestMethods,
	endpoint: string,
	options: ESignRequestOptions = {},
): Promise<ESignFullResponse<T>> {
	const { apiRoot, insecure } = await getApiRoot.call(this);
	const maxWait = options.maxRateLimitWait ?? DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS;
	const request: IHttpRequestOptions = {
		method,
		url: apiRoot + endpoint,
		qs: options.qs,
		json: !(options.body instanceof FormData),
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		skipSslCertificateValidation: insecure,
		timeout: (options.timeout ?? 30) * 1000,
	};
	if (options.body !== undefined) request.body = options.body;

	let waited = 0;
	let failures = 0;
	// The one place that decides whether a failed request is repeated: reads only, with backoff,
	// within the retry budget. A write that may have run is never sent again.
	const retryRead = async (): Promise<boolean> => {
		if (method !== 'GET' || failures >= GET_RETRIES) return false;
		failures++;
		await sleep(250 * 2 ** failures);
		return true;
	};
	for (;;) {
		let response: ESignFullResponse<T>;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				'eSignApi',
				request,
			)) as ESignFullResponse<T>;
		} catch (cause) {
			// No HTTP answer (refused, reset, timeout).
			if (await retryRead()) continue;
			throw networkError.call(this, cause as Error, method, endpoint, options.itemIndex);
		}

		const status = response.statusCode;
		if (status < 400) return response;
		const body = (response.body ?? {}) as ApiErrorBody;

		if (status === 429) {
			const wait = retryAfterSeconds(body, response.headers);
			if (waited + wait <= maxWait) {
				waited += wait;
				await sleep(wait * 1000);
				continue;
			}
		} else if (status >= 500 && (await retryRead())) {
			continue;
		}
		throw apiError.call(this, status, body, method, endpoint, options.itemIndex);
	}
}

export async function eSignApiRequest<T = unknown>(
	this: ESignContext,
	method: IHttpRequestMethods,
	endpoint: string,
	options: ESignRequestOptions = {},
): Promise<T> {
	const response = await eSignApiRequestFull.call(this, method, endpoint, options);
	return response.body as T;
}

/**
 * Walks GET /documents-style pages. per_page stays fixed on every page (shrinking it to the
 * remaining limit would shift the offsets); stops at X-ESIGN-TotalPages, on a short page, or
 * once `limit` items are in hand, so a Limit never costs an extra request.
 */
export async function eSignApiRequestAllItems<T = IDataObject>(
	this: ESignContext,
	endpoint: string,
	qs: IDataObject = {},
	limit?: number,
	options: Omit<ESignRequestOptions, 'qs' | 'body'> = {},
): Promise<T[]> {
	const perPage = limit !== undefined ? Math.min(Math.max(limit, 1), MAX_PER_PAGE) : MAX_PER_PAGE;
	const results: T[] = [];
	for (let page = 1; ; page++) {
		const response = await eSignApiRequestFull.call(this, 'GET', endpoint, {
			...options,
			qs: { ...qs, page, per_page: perPage },
		});
		const items = Array.isArray(response.body) ? (response.body as T[]) : [];
		results.push(...items);
		if (limit !== undefined && results.length >= limit) return results.slice(0, limit);
		const totalPages = Number(header(response.headers, 'x-esign-totalpages'));
		if (items.length < perPage) break;
		if (Number.isFinite(totalPages) && page >= totalPages) break;
	}
	return results;
}
