import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ADVICE, WRITE_NOTES, explained } from './advice';
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
	return explained(status === 413 ? 'uploadTooLarge' : 'uploadDropped', { size: megabytes(info.fileBytes) });
}

/** What an answer that is not the API's JSON means, per recognised page (its row in advice.ts). */
function pageAdvice(page: SitePage | undefined, status: number, url = ''): string {
	if (page === 'critical') return explained('critical');
	if (page === 'maintenance') return explained('maintenance');
	if (status === 403) return explained('blockedInFront');
	if (status === 404) {
		const otherStyle = explained(url.includes('?rest_route=') ? 'prettyPermalinks' : 'plainPermalinks');
		return `${ADVICE.noApi.message}: the site answered with a web page, not the REST API. ${ADVICE.noApi.description} ${otherStyle}`;
	}
	return explained(page === 'html' ? 'webPage' : 'notJson');
}

const WRITE_NOTE = WRITE_NOTES.mayHaveRun;

/** The start of an answer that is not the API's, as the descriptions end with it (secrets already blanked). */
export function answerStart(shown: string): string {
	return shown ? ` Start of the answer: «${shown}»` : '';
}

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
	if (info.method !== 'GET') description += WRITE_NOTES.notReached;
	if (front !== 'basicAuth') description += answerStart(shown);
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
		? explained('wrongShape')
		: ((phpDropped && uploadLimitAdvice(info, 413 === status ? 413 : 400)) || pageAdvice(page, status, info.url));
	if (info.method !== 'GET' && status < 400) description += WRITE_NOTE;
	description += answerStart(shown) || ' The answer was empty.';
	const error = build(info, { code: 'invalid_response', message, status } as JsonObject, message, description, status);
	error.context.apiCode = page === 'critical' ? 'site_critical_error' : page === 'maintenance' ? 'site_maintenance' : 'invalid_response';
	return error;
}

/** What to do about each kind of API error: its row in advice.ts, filled in for this request. */
function describe(status: number, body: ApiErrorBody, info: RequestInfo): string {
	const code = body?.code ?? '';
	const { method, endpoint } = info;
	if (typeof body?.message === 'string' && /critical error on (this|your) website/i.test(body.message)) return explained('critical');
	const noFile = status === 413 || (status === 400 && (code === 'missing_file' || /no file/i.test(String(body?.message ?? ''))));
	const uploadAdvice = noFile ? uploadLimitAdvice(info, status) : undefined;
	if (uploadAdvice) return uploadAdvice;
	if (status === 401 && info.basicAuth && /^(invalid_username|incorrect_password|invalid_email|application_passwords_disabled)$/.test(code)) {
		return explained('applicationPasswords');
	}
	if (status === 401) {
		return explained('keyRejected') + (code === 'rest_forbidden' && info.keyLooksIssued ? strippedHeadersHint(info.apiRoot) : '');
	}
	if (status === 403) return explained(code === 'rest_forbidden' ? 'readOnlyKey' : 'notYours');
	if (info.override && (status === 405 || code === 'rest_no_route')) {
		const form = info.override === 'query' ? `?_method=${method}` : 'the X-HTTP-Method-Override header';
		return explained('overrideIgnored', { method, form });
	}
	if (status === 404) return code === 'rest_no_route' ? explained('noApiRoute') : explained('notFound', { endpoint });
	if (status === 429) {
		const wait = Number(body?.data?.retry_after);
		return explained('rateLimited', { wait: Number.isFinite(wait) ? `; it asks to wait ${wait} seconds` : '' });
	}
	if (code === 'not_due') return explained('notDue');
	if (code === 'validation_failed' && Array.isArray(body?.data?.errors)) {
		return body.data.errors.join('\n');
	}
	if (status >= 500) {
		const retried = method === 'GET' ? ` (retried ${GET_RETRIES} times)` : '';
		return explained('siteStopped', { method, endpoint, retried }) + (method === 'GET' ? '' : WRITE_NOTE);
	}
	if (typeof body?.message === 'string' && body.message.trim()) return body.message;
	const codeNote = code ? ` (code ${code})` : '';
	if (status === 400) return explained('invalidWithoutReason', { method, endpoint, code: codeNote });
	return explained('noMessage', { status, code: codeNote });
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
