import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { type Expectation, type ParsedBody, type SitePage, parseBody, recognisePage, shapeProblem } from './answer';
import type { ESignContext } from './credentials';
import { API_PATH, siteAccess } from './credentials';
import { type RequestInfo, GET_RETRIES, apiError, networkError, notApiAnswerError, redirectError } from './errors';
import { cacheBuster, warnIfCached } from './cache';
import { type Headers, headerValue as header, recogniseFront } from './fronts';
import { type NetworkCause, describeNetworkFailure } from './network';
import { type AnswerStream, isStreamLike, looksLikeJsonObject, oneChunk, takeStream } from './stream';
import { type Page, walkPages } from '../pages';
import { isPlainObject } from '../values';

export type { Expectation } from './answer';
export type { ESignContext } from './credentials';
export { API_PATH, forgetSiteAccess, normaliseSiteUrl } from './credentials';
export type { AnswerStream } from './stream';
export { readableClassOf } from './stream';

/** Largest page the API serves; also what Return All uses. */
export const MAX_PER_PAGE = 100;

/** Default ceiling on the total time spent waiting for rate limits within one request. */
const DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS = 60;

/** What every request can be given. */
export interface ESignReadOptions {
	qs?: IDataObject;
	/** Item the request belongs to, so errors point at it. */
	itemIndex?: number;
	/** Seconds; default 30. */
	timeout?: number;
	/** Longest total wait for 429 answers before giving up, in seconds. */
	maxRateLimitWait?: number;
}

export interface ESignRequestOptions extends ESignReadOptions {
	body?: IDataObject | IDataObject[] | FormData;
	/**
	 * The shape the answer must have (see Expectation). Without it any JSON object or array passes;
	 * a body that is not JSON always fails.
	 */
	expect?: Expectation;
	/**
	 * A multipart body sent as a stream (a large upload is then never in memory whole). `open()` makes a
	 * fresh stream for each attempt: a 429 is the one answer after which a write is sent again.
	 */
	streamBody?: StreamBody;
}

export interface StreamBody {
	contentType: string;
	length: number;
	/** Bytes of the file inside, for the errors about a site's upload limits. */
	fileBytes: number;
	open(): unknown;
}

/** An answer as the request loop hands it to the public functions below. */
interface Answer {
	body: unknown;
	headers: NonNullable<Headers>;
	statusCode: number;
}

/**
 * How the one request loop hands the answer over:
 * - 'json': the parsed JSON, in the expected shape;
 * - 'ifFound': the same, or no body (undefined) for the API's own JSON 404: "it no longer exists";
 * - 'stream': a successful answer that starts like a JSON object, unread (AnswerStream); a document
 *   file is base64 inside JSON, and a large one must never sit in memory whole (see documentFile.ts).
 */
type Reading = 'json' | 'ifFound' | 'stream';

/** Bytes of the files in a multipart body. */
function formFileBytes(form: FormData): number {
	let bytes = 0;
	form.forEach((value) => {
		if (typeof value !== 'string') bytes += value.size;
	});
	return bytes;
}

function retryAfterSeconds(body: unknown, headers: Headers): number {
	const fromHeader = Number(header(headers, 'retry-after'));
	if (Number.isFinite(fromHeader) && fromHeader >= 0) return fromHeader;
	const fromBody = Number(isPlainObject(body) && isPlainObject(body.data) ? body.data.retry_after : undefined);
	if (Number.isFinite(fromBody) && fromBody >= 0) return fromBody;
	return 1;
}

/**
 * Every HTTP call of the package goes through here: credential auth, URL building, error mapping,
 * 429 waits (any method: a 429 means the request was not processed), and retries of GETs only.
 * Redirects are never followed (the key and secret must not reach another address), and an answer
 * is only handed over when it is the API's JSON in the shape the caller expects (or, for 'stream',
 * starts like a JSON object: the reader checks the rest). The public functions below pick `reading`.
 */
async function exchange(
	this: ESignContext,
	method: IHttpRequestMethods,
	endpoint: string,
	options: ESignRequestOptions,
	reading: Reading,
): Promise<Answer> {
	const { apiRoot, insecure, secrets, decrypted, keyLooksIssued, basicAuth } = await siteAccess.call(this);
	const maxWait = options.maxRateLimitWait ?? DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS;
	const timeoutSeconds = options.timeout ?? 30;
	const isForm = options.body instanceof FormData;
	const streamBody = options.streamBody;
	const request: IHttpRequestOptions = {
		method,
		url: apiRoot + endpoint,
		// A unique `_` on every read: a cache in front keyed by URL never answers it (see cache.ts).
		qs: method === 'GET' ? { ...options.qs, _: cacheBuster() } : options.qs,
		headers: streamBody
			? { Accept: 'application/json', 'Content-Type': streamBody.contentType, 'Content-Length': String(streamBody.length) }
			: { Accept: 'application/json' },
		json: !isForm && !streamBody,
		// The raw text (or stream): this module decides what is JSON (n8n would hand back HTML as a "result").
		encoding: reading === 'stream' ? 'stream' : 'text',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		skipSslCertificateValidation: insecure,
		timeout: timeoutSeconds * 1000,
	};
	if (options.body !== undefined) request.body = options.body;
	const info: RequestInfo = {
		node: this.getNode(),
		method,
		endpoint,
		url: request.url,
		itemIndex: options.itemIndex,
		secrets,
		timeoutSeconds,
		fileBytes: streamBody ? streamBody.fileBytes : isForm ? formFileBytes(options.body as FormData) : undefined,
		apiRoot,
		keyLooksIssued,
		basicAuth,
	};

	let waited = 0;
	let failures = 0;
	// The one place that decides whether a failed request is repeated: reads only, with backoff,
	// within the retry budget. A write that may have run is never sent again.
	const retryRead = async (cause?: NetworkCause): Promise<boolean> => {
		if (method !== 'GET' || failures >= GET_RETRIES) return false;
		if (cause && !describeNetworkFailure(cause, request.url, timeoutSeconds).transient) return false; // e.g. a bad certificate
		failures++;
		await sleep(250 * 2 ** failures);
		return true;
	};
	for (;;) {
		let response: Answer;
		if (streamBody) request.body = streamBody.open() as IDataObject;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				'eSignApi',
				request,
				// The credential read once for this node execution: n8n skips its own read and decrypt.
				decrypted ? { credentialsDecrypted: decrypted } : undefined,
			)) as Answer;
		} catch (cause) {
			// No HTTP answer (refused, reset, timeout, certificate).
			if (await retryRead(cause as NetworkCause)) continue;
			throw networkError(info, cause as NetworkCause, failures);
		}

		const { statusCode: status, headers } = response;
		if (method === 'GET' && status < 300) warnIfCached(this, endpoint, headers);
		if (status >= 300 && status < 400) {
			throw redirectError(info, status, header(headers, 'location'), API_PATH);
		}
		const contentType = header(headers, 'content-type') ?? '';
		let raw: unknown = response.body;
		if (isStreamLike(raw)) {
			let taken: AnswerStream | Buffer;
			try {
				taken = await takeStream(raw, status);
			} catch (cause) {
				// The connection broke while the answer was read.
				if (await retryRead(cause as NetworkCause)) continue;
				throw networkError(info, cause as NetworkCause, failures);
			}
			if (!Buffer.isBuffer(taken)) return { body: taken, headers, statusCode: status };
			raw = taken;
		}
		// Read whole after all (the HTTP layer gave no stream): the same bytes, as one chunk.
		if (reading === 'stream' && status < 300 && Buffer.isBuffer(raw) && looksLikeJsonObject(raw)) {
			return { body: oneChunk(raw), headers, statusCode: status };
		}
		const parsed: ParsedBody = parseBody(Buffer.isBuffer(raw) ? raw.toString('utf8') : raw);
		const page: SitePage | undefined = parsed.json ? undefined : recognisePage(parsed.text, contentType);

		if (status < 300) {
			if (!parsed.json) {
				// WordPress's maintenance page can come with a 200 from some caches: a read may wait it out.
				if (page === 'maintenance' && (await retryRead())) continue;
				throw notApiAnswerError(info, status, contentType, parsed.text, page, undefined, headers);
			}
			const problem = shapeProblem(parsed.value, options.expect ?? 'any');
			if (problem) {
				throw notApiAnswerError(info, status, contentType, JSON.stringify(parsed.value) ?? '', undefined, problem);
			}
			// 'stream': an object that came parsed or as text after all, handed over like a streamed one.
			const body = reading === 'stream' ? oneChunk(Buffer.from(JSON.stringify(parsed.value))) : parsed.value;
			return { body, headers, statusCode: status };
		}

		if (status === 429) {
			const wait = retryAfterSeconds(parsed.json ? parsed.value : undefined, headers);
			if (waited + wait <= maxWait) {
				waited += wait;
				await sleep(wait * 1000);
				continue;
			}
		} else if ((status >= 500 || page === 'maintenance') && !recogniseFront(status, headers, parsed.json ? '' : parsed.text) && (await retryRead())) {
			continue;
		}
		if (status === 404 && reading === 'ifFound' && parsed.json && isPlainObject(parsed.value)) {
			return { body: undefined, headers, statusCode: status };
		}
		if (!parsed.json || !isPlainObject(parsed.value)) {
			throw notApiAnswerError(info, status, contentType, parsed.json ? JSON.stringify(parsed.value) : parsed.text, page, undefined, headers);
		}
		throw apiError(info, status, parsed.value, headers);
	}
}

/** The API's JSON answer, in the shape `options.expect` names. */
export async function eSignApiRequest<T = unknown>(
	this: ESignContext,
	method: IHttpRequestMethods,
	endpoint: string,
	options: ESignRequestOptions = {},
): Promise<T> {
	return (await exchange.call(this, method, endpoint, options, 'json')).body as T;
}

/** One page of a list (GET; a JSON array of objects), with the page count from X-ESIGN-TotalPages. */
export async function eSignApiGetPage(this: ESignContext, endpoint: string, options: ESignReadOptions): Promise<Page<IDataObject>> {
	const response = await exchange.call(this, 'GET', endpoint, { ...options, expect: 'list' }, 'json');
	const totalPages = Number(header(response.headers, 'x-esign-totalpages'));
	return { items: response.body as IDataObject[], totalPages: Number.isFinite(totalPages) ? totalPages : undefined };
}

/** GET of one record; undefined when the API answers its own JSON 404 (the record no longer exists). */
export async function eSignApiGetIfFound<T = unknown>(
	this: ESignContext,
	endpoint: string,
	options: Omit<ESignRequestOptions, 'body' | 'streamBody'> = {},
): Promise<T | undefined> {
	return (await exchange.call(this, 'GET', endpoint, options, 'ifFound')).body as T | undefined;
}

/**
 * GET of an answer that is one JSON object too large to parse whole (a document file): handed over
 * unread, as an AnswerStream, once its first byte opens an object. The caller reads and checks the rest
 * (see documentFile.ts). Any other answer fails as usual (an error, a page, JSON that is not an object).
 */
export async function eSignApiGetStream(this: ESignContext, endpoint: string, options: ESignReadOptions = {}): Promise<AnswerStream> {
	return (await exchange.call(this, 'GET', endpoint, { ...options, expect: 'object' }, 'stream')).body as AnswerStream;
}

/**
 * Every item of a GET /documents-style list, or the first `limit`. per_page stays fixed on every page
 * (shrinking it to the remaining limit would shift the offsets); a Limit never costs an extra request.
 */
export async function eSignApiRequestAllItems<T = IDataObject>(
	this: ESignContext,
	endpoint: string,
	qs: IDataObject = {},
	limit?: number,
	options: Omit<ESignReadOptions, 'qs'> = {},
): Promise<T[]> {
	const perPage = limit !== undefined ? Math.min(Math.max(limit, 1), MAX_PER_PAGE) : MAX_PER_PAGE;
	const results: T[] = [];
	await walkPages(
		perPage,
		async (page) => (await eSignApiGetPage.call(this, endpoint, { ...options, qs: { ...qs, page, per_page: perPage } })) as Page<T>,
		(items) => {
			results.push(...items);
			return limit === undefined || results.length < limit;
		},
	);
	return limit === undefined ? results : results.slice(0, limit);
}
