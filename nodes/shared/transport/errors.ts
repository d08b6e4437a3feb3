import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { SitePage } from './answer';
import { blank, snippet } from './answer';
import type { Headers } from './fronts';
import { frontAdvice, recogniseFront, strippedHeadersHint } from './fronts';
import type { NetworkCause } from './network';
import { describeNetworkFailure } from './network';
import { isPlainObject } from '../values';

/** How many times a read is repeated after a 5xx, a maintenance page or a network failure. */
export const GET_RETRIES = 3;

interface ApiErrorBody {
	code?: string;
	message?: string;
	data?: { status?: number; retry_after?: number; errors?: string[] } & IDataObject;
}

/** Everything an error builder needs to know about the request that failed. */
export interface RequestInfo {
	node: INode;
	method: string;
	endpoint: string;
	url: string;
	itemIndex?: number;
	/** The credential's own values, blanked out of any body text shown in an error. */
	secrets: string[];
	timeoutSeconds: number;
	/** Bytes of the file(s) a multipart request carried (uploads), for the PHP upload-limit advice. */
	fileBytes?: number;
	/** The API root the request was built on (shown in advice that names the address). */
	apiRoot: string;
	/** The key has the esign_ form: a 401 from the API then hints at headers lost on the way. */
	keyLooksIssued: boolean;
	/** The credential sends HTTP Basic auth. */
	basicAuth: boolean;
	/** A front refused the method, and the answer came to WordPress's override form of it (override.ts). */
	override?: 'query' | 'header';
}

function megabytes(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(1)} MB (${bytes.toLocaleString('en-US')} bytes)`;
}

/**
 * A request that carried a file got "no file" or 413 back: PHP (or the web server) dropped it. Debian's
 * php.ini caps uploads at upload_max_filesize = 2M and post_max_size = 8M, and PHP then hands WordPress
 * no file at all, without an error the plugin could pass on.
 */
function uploadLimitAdvice(info: RequestInfo, status: number): string | undefined {
	if (!info.fileBytes) return undefined;
	const size = megabytes(info.fileBytes);
	const start =
		status === 413
			? `The server refused the upload as too large (HTTP 413); the file is ${size}.`
			: `The site received no file, but this request carried one of ${size}.`;
	return `${start} WordPress gets no file when the file is larger than PHP's upload_max_filesize (Debian's default 2M) or the whole request larger than post_max_size (default 8M): PHP drops it before WordPress runs. Ask the site's admin to raise both in php.ini (and, for a 413, the web server's limit: client_max_body_size in nginx, LimitRequestBody in Apache), or upload a smaller file.`;
}

/** What an answer that is not the API's JSON means, per recognised page, in words a user can act on. */
function pageAdvice(page: SitePage | undefined, status: number, url = ''): string {
	if (page === 'critical') {
		return 'WordPress shows "There has been a critical error on this website": PHP failed with a fatal error on the site. Check the site\'s PHP error log (or the email WordPress sends to the admin) and fix the plugin or theme that fails.';
	}
	if (page === 'maintenance') {
		return 'WordPress is in maintenance mode ("Briefly unavailable for scheduled maintenance"), usually while updates install. Wait a minute and run it again.';
	}
	if (status === 403) {
		return 'Something in front of WordPress (a firewall, a security plugin or a CDN) refused the request before the eSign API saw it: ask the site\'s owner or host to allow /wp-json/esign/v1 for the rule that matched.';
	}
	if (status === 404) {
		const otherStyle = url.includes('?rest_route=')
			? 'If the site uses pretty permalinks, set the credential\'s REST API URL Style to /wp-json/.'
			: 'Sites whose permalinks are set to Plain serve the API only under ?rest_route=: if so, set the credential\'s REST API URL Style to ?rest_route=.';
		return `There is no eSign API at this address: the site answered with a web page, not the REST API. Check the Site URL in the credential and that the eSign plugin (Pro, REST API enabled) is active. ${otherStyle}`;
	}
	if (page === 'html') {
		return 'The site answered with a web page instead of the eSign API\'s JSON: something in front of WordPress (a cache, a login or cookie wall, a proxy) or a plugin replaced the answer. Open the URL in a browser to see what it serves.';
	}
	return 'The answer is not the eSign API\'s JSON (it may be cut off, empty or replaced by a proxy or plugin). Check the Site URL and the site\'s error log.';
}

const WRITE_NOTE =
	' The site may still have carried out the request, so it was not repeated automatically (repeating a send would email every signer twice). Check the document before running it again.';

export function build(
	info: RequestInfo,
	response: JsonObject,
	message: string,
	description: string,
	httpCode?: number,
): NodeApiError {
	// The response object is ours: never n8n's parsed body (a null body crashes n8n's normalisation).
	// Whatever the site echoed back is blanked where it matches the credential's own values.
	const clean = (text: string) => blank(text, info.secrets);
	if (typeof response.message === 'string') response.message = clean(response.message);
	return new NodeApiError(info.node, response, {
		message: clean(message),
		description: clean(description),
		httpCode: httpCode === undefined ? undefined : String(httpCode),
		itemIndex: info.itemIndex,
	});
}

/** A password prompt, bot check or block page answered instead of WordPress: named, with the fix. */
function frontError(info: RequestInfo, status: number, front: ReturnType<typeof recogniseFront> & string, shown: string): NodeApiError {
	const advice = frontAdvice(front, info.basicAuth);
	const message = `${advice.message} (HTTP ${status} to ${info.method} ${info.endpoint})`;
	let description = advice.description;
	if (info.method !== 'GET') description += ' The request did not reach WordPress, so nothing was changed.';
	if (shown && front !== 'basicAuth') description += ` Start of the answer: «${shown}»`;
	const error = build(info, { code: `blocked_${front}`, message, status } as JsonObject, message, description, status);
	error.context.apiCode = front === 'basicAuth' ? 'basic_auth_required' : `blocked_${front}`;
	return error;
}

/** A body that is not JSON at all, or JSON of the wrong shape. */
export function notApiAnswerError(
	info: RequestInfo,
	status: number,
	contentType: string,
	text: string,
	page: SitePage | undefined,
	problem?: string,
	headers?: Headers,
): NodeApiError {
	const shown = snippet(text, info.secrets);
	const front = problem || status < 400 ? undefined : recogniseFront(status, headers, text);
	if (front) return frontError(info, status, front, shown);
	const kind = problem ? `an answer the eSign API does not give (${problem})` : 'something other than the eSign API\'s JSON';
	const message = `The site answered ${info.method} ${info.endpoint} with ${kind} (HTTP ${status}, ${contentType || 'no content type'})`;
	const phpDropped = status === 413 || /POST Content-Length of \d+ bytes exceeds the limit/i.test(text);
	let description = problem
		? 'The answer has a shape the eSign API never gives: a plugin, cache or proxy may have changed it, or the Site URL points at another service.'
		: ((phpDropped && uploadLimitAdvice(info, 413 === status ? 413 : 400)) || pageAdvice(page, status, info.url));
	if (info.method !== 'GET' && status < 400) description += WRITE_NOTE;
	description += shown ? ` Start of the answer: «${shown}»` : ' The answer was empty.';
	const error = build(info, { code: 'invalid_response', message, status } as JsonObject, message, description, status);
	error.context.apiCode = page === 'critical' ? 'site_critical_error' : page === 'maintenance' ? 'site_maintenance' : 'invalid_response';
	return error;
}

/** What to do about each kind of API error, in words a workflow builder can act on. */
function describe(status: number, body: ApiErrorBody, info: RequestInfo): string {
	const code = body?.code ?? '';
	if (typeof body?.message === 'string' && /critical error on (this|your) website/i.test(body.message)) {
		return pageAdvice('critical', status);
	}
	const noFile = status === 413 || (status === 400 && (code === 'missing_file' || /no file/i.test(String(body?.message ?? ''))));
	const uploadAdvice = noFile ? uploadLimitAdvice(info, status) : undefined;
	if (uploadAdvice) return uploadAdvice;
	if (status === 401 && info.basicAuth && /^(invalid_username|incorrect_password|invalid_email|application_passwords_disabled)$/.test(code)) {
		return 'The site\'s password prompt let the request through, but WordPress then read the same Basic Auth user and password as a WordPress login (application passwords) and refused it. Ask the site\'s admin to keep the Authorization header from WordPress behind the prompt (nginx: fastcgi_param HTTP_AUTHORIZATION ""; Apache: RequestHeader unset Authorization after the auth check), or to turn application passwords off.';
	}
	if (status === 401) {
		const stripped = code === 'rest_forbidden' && info.keyLooksIssued ? strippedHeadersHint(info.apiRoot) : '';
		return `The site rejected the API key or secret. Check both values in the eSign API credential (keys start with esign_; the secret is shown once when the key is created).${stripped}`;
	}
	if (status === 403 && code === 'rest_forbidden') {
		return 'This API key is Read Only. Creating, sending, updating or deleting needs a Full Access key: create one in the eSign admin under API keys and use it in the credential.';
	}
	if (status === 403) {
		return 'The document or template belongs to another user. A non-administrator key can only reach its own documents and templates; use an administrator key or the owner’s key.';
	}
	if (info.override && (status === 405 || code === 'rest_no_route')) {
		const form = info.override === 'query' ? `?_method=${info.method}` : `the X-HTTP-Method-Override header`;
		return `A firewall in front of the site refused ${info.method}, so n8n sent it as POST with ${form}, as WordPress's own editor does; the site did not take the method from it, so it is not WordPress's REST API or something changes the request. Ask the host to allow ${info.method} for /wp-json/esign/v1. Nothing was changed.`;
	}
	if (status === 404) {
		if (code === 'rest_no_route') {
			return 'The site has no such API route. Check the Site URL in the credential and that the eSign plugin (Pro, with the REST API enabled) is active.';
		}
		return `Nothing exists at ${info.endpoint}: check the id (it may have been deleted, or it belongs to another site).`;
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
	if (status >= 500 && info.method !== 'GET') {
		return `The site failed while handling ${info.method} ${info.endpoint}.${WRITE_NOTE}`;
	}
	if (status >= 500) {
		return `The site failed while handling ${info.method} ${info.endpoint} (retried ${GET_RETRIES} times).`;
	}
	if (typeof body?.message === 'string' && body.message.trim()) return body.message;
	if (status === 400) {
		return `The site refused the request to ${info.method} ${info.endpoint} as invalid (HTTP 400) without saying why${code ? ` (code ${code})` : ''}. Check the values sent, e.g. ids, status and field data, against the operation's description.`;
	}
	return `The site answered HTTP ${status}${code ? ` (code ${code})` : ''} without a message.`;
}

/** An answer in the API's error format (`{code, message, data}`), or a JSON error without it. */
export function apiError(info: RequestInfo, status: number, rawBody: unknown, headers?: Headers): NodeApiError {
	const body: ApiErrorBody = rawBody && typeof rawBody === 'object' && !Array.isArray(rawBody) ? (rawBody as ApiErrorBody) : {};
	// A front that answers in JSON (some proxies do) is still the front, not the API.
	const front = recogniseFront(status, headers, '');
	if (front === 'basicAuth' || front === 'challenge') return frontError(info, status, front, '');
	const code = typeof body.code === 'string' && body.code ? body.code : `http_${status}`;
	const message = typeof body.message === 'string' && body.message.trim() ? body.message : `HTTP ${status}`;
	const error = build(
		info,
		{ code, message, status, data: (isPlainObject(body.data) ? body.data : {}) as JsonObject } as JsonObject,
		`${message} [${code}]`,
		describe(status, body, info),
		status,
	);
	// Keep the API's own fields where workflows (and the error output) can read them.
	error.context.apiCode = code;
	error.context.apiMessage = blank(message, info.secrets);
	if (Array.isArray(body.data?.errors)) error.context.validationErrors = body.data.errors.map((e) => blank(String(e), info.secrets));
	return error;
}

/** No HTTP answer at all: refused, not found, timed out, reset, or a certificate n8n cannot trust. */
export function networkError(info: RequestInfo, cause: NetworkCause, retried = 0): NodeApiError {
	const failure = describeNetworkFailure(cause, info.url, info.timeoutSeconds);
	const code = failure.code;
	// Our own wording: n8n's generic texts for these codes invite an immediate retry, wrong for a write.
	const message = `${info.method} ${info.endpoint} failed: ${failure.what}`;
	const tried = retried > 0 ? ` (tried ${retried + 1} times)` : '';
	const description =
		info.method !== 'GET' && failure.transient
			? `No answer arrived${code ? ` (${code})` : ''}.${WRITE_NOTE} ${failure.fix}`
			: `${failure.fix}${code ? ` [${code}]` : ''}${tried}`;
	const error = build(info, { message, networkCode: code || 'network_error' } as JsonObject, message, description);
	error.context.apiCode = failure.kind === 'timeout' ? 'timeout' : failure.kind === 'tls' ? 'tls_certificate' : 'network_error';
	return error;
}
