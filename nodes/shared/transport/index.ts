import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Expectation, ParsedBody, SitePage } from './answer';
import { isPlainObject, parseBody, recognisePage, shapeProblem } from './answer';
import type { ESignContext } from './credentials';
import { API_PATH, siteAccess } from './credentials';
import type { RequestInfo } from './errors';
import { GET_RETRIES, apiError, networkError, notApiAnswerError, redirectError } from './errors';
import { warnIfCached } from './cacheWarning';
import type { NetworkCause } from './network';
import { describeNetworkFailure } from './network';

export type { Expectation } from './answer';
export type { ESignContext } from './credentials';
export { API_PATH, forgetSiteAccess, normaliseSiteUrl } from './credentials';

let requestSequence = 0;
/** Unique per request within this process, and across restarts (time first). */
function cacheBuster(): string {
	requestSequence = (requestSequence + 1) % 1000;
	return `${Date.now()}${String(requestSequence).padStart(3, '0')}`;
}

/** Largest page the API serves; also what Return All uses. */
export const MAX_PER_PAGE = 100;

/** Default ceiling on the total time spent waiting for rate limits within one request. */
const DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS = 60;

export interface ESignRequestOptions {
	qs?: IDataObject;
	body?: IDataObject | IDataObject[] | FormData;
	/** Item the request belongs to, so errors point at it. */
	itemIndex?: number;
	/** Seconds; default 30. */
	timeout?: number;
	/** Longest total wait for 429 answers before giving up, in seconds. */
	maxRateLimitWait?: number;
	/**
	 * The shape the answer must have (see Expectation). Without it any JSON object or array passes;
	 * a body that is not JSON always fails.
	 */
	expect?: Expectation;
	/** An API 404 (JSON) answers with body undefined instead of failing: "it no longer exists". */
	allowNotFound?: boolean;
	/**
	 * A successful answer that is a JSON object comes back as its raw bytes (a Buffer), unparsed: a
	 * document file is base64 inside JSON, and parsing it whole would hold the text twice more in memory.
	 * The caller reads it (see documentFile.ts); `expect` is not applied to it.
	 */
	rawJsonBody?: boolean;
	/**
	 * A successful answer that starts like a JSON object comes back unread, as a JsonStream: a large
	 * document file then never sits in memory whole (see documentFile.ts, which reads and checks it).
	 * Any other answer is read whole and handled as usual. `expect` is not applied to the stream.
	 */
	streamJsonBody?: boolean;
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

const isJsonSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** An answer handed over unread: its chunks, and how to make a Node stream of other chunks. */
export interface JsonStream {
	chunks: AsyncIterable<Buffer>;
	/** A Readable of `source` (made with the class of n8n's own response stream; nodes cannot import one). */
	toReadable(source: AsyncIterable<Buffer>): unknown;
}

interface StreamLike {
	pipe: unknown;
	[Symbol.asyncIterator](): AsyncIterator<Buffer | string>;
}

const isStreamLike = (value: unknown): value is StreamLike =>
	typeof value === 'object' && value !== null && typeof (value as StreamLike).pipe === 'function' && Symbol.asyncIterator in value;

/** Node's Readable class, found up the class chain of a stream (IncomingMessage, Gunzip, ReadStream, …). */
export function readableClassOf(stream: object): { from(source: AsyncIterable<Buffer>): unknown } | undefined {
	for (let c: unknown = stream.constructor; typeof c === 'function'; c = Object.getPrototypeOf(c)) {
		const candidate = c as { name?: string; from?: unknown };
		if (candidate.name === 'Readable' && typeof candidate.from === 'function') return candidate as { from(source: AsyncIterable<Buffer>): unknown };
	}
	return undefined;
}

const toBuffer = (chunk: Buffer | string) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk);

async function readAll(iterator: AsyncIterator<Buffer | string>, first?: Buffer): Promise<Buffer> {
	const chunks = first ? [first] : [];
	for (let next = await iterator.next(); !next.done; next = await iterator.next()) chunks.push(toBuffer(next.value));
	return Buffer.concat(chunks);
}

/**
 * A streamed answer: a successful one whose first byte opens a JSON object is handed over unread (the
 * first chunk put back in front); anything else is read whole, to be handled like any answer.
 */
async function takeStream(body: StreamLike, status: number): Promise<JsonStream | Buffer> {
	const iterator = body[Symbol.asyncIterator]();
	let first = await iterator.next();
	while (!first.done && toBuffer(first.value).length === 0) first = await iterator.next();
	if (first.done) return Buffer.alloc(0);
	const head = toBuffer(first.value);
	let i = 0;
	while (i < head.length && isJsonSpace(head[i])) i++;
	const Readable = readableClassOf(body);
	if (status >= 300 || head[i] !== 0x7b || !Readable) return await readAll(iterator, head);
	return {
		chunks: {
			async *[Symbol.asyncIterator]() {
				yield head;
				for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield toBuffer(next.value);
			},
		},
		toReadable: (source) => Readable.from(source),
	};
}


/** First and last non-space bytes are { and }: worth handing over unparsed. */
function looksLikeJsonObject(bytes: Buffer): boolean {
	let first = 0;
	while (first < bytes.length && isJsonSpace(bytes[first])) first++;
	let last = bytes.length - 1;
	while (last > first && isJsonSpace(bytes[last])) last--;
	return bytes[first] === 0x7b && bytes[last] === 0x7d;
}

export interface ESignFullResponse<T> {
	body: T;
	headers: Record<string, string | string[] | undefined>;
	statusCode: number;
}

function header(headers: ESignFullResponse<unknown>['headers'], name: string): string | undefined {
	const value = headers?.[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

/** Bytes of the files in a multipart body. */
function formFileBytes(form: FormData): number {
	let bytes = 0;
	form.forEach((value) => {
		if (typeof value !== 'string') bytes += value.size;
	});
	return bytes;
}

function retryAfterSeconds(body: unknown, headers: ESignFullResponse<unknown>['headers']): number {
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
 * is only returned when it is the API's JSON in the shape the caller expects.
 */
export async function eSignApiRequestFull<T = unknown>(
	this: ESignContext,
	method: IHttpRequestMethods,
	endpoint: string,
	options: ESignRequestOptions = {},
): Promise<ESignFullResponse<T>> {
	const { apiRoot, insecure, secrets, decrypted, keyLooksIssued, basicAuth } = await siteAccess.call(this);
	const maxWait = options.maxRateLimitWait ?? DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS;
	const timeoutSeconds = options.timeout ?? 30;
	const isForm = options.body instanceof FormData;
	const streamBody = options.streamBody;
	const request: IHttpRequestOptions = {
		method,
		url: apiRoot + endpoint,
		// A unique query parameter on every read: a page or REST cache in front of the site keys its entries
		// by URL (and may ignore Cache-Control), so it never has an answer for this one. WordPress ignores it.
		qs: method === 'GET' ? { ...options.qs, _: cacheBuster() } : options.qs,
		headers: streamBody
			? { Accept: 'application/json', 'Content-Type': streamBody.contentType, 'Content-Length': String(streamBody.length) }
			: { Accept: 'application/json' },
		json: !isForm && !streamBody,
		// The raw text (or bytes): this module decides what is JSON (n8n would hand back HTML as a "result").
		encoding: options.streamJsonBody === true ? 'stream' : options.rawJsonBody === true ? 'arraybuffer' : 'text',
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
		// A bad certificate or an unknown host name stays so: no point waiting for it.
		if (cause && !describeNetworkFailure(cause, request.url, timeoutSeconds).transient) return false;
		failures++;
		await sleep(250 * 2 ** failures);
		return true;
	};
	for (;;) {
		let response: ESignFullResponse<unknown>;
		if (streamBody) request.body = streamBody.open() as IDataObject;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				'eSignApi',
				request,
				// The credential read once for this node execution: n8n skips its own read and decrypt.
				decrypted ? { credentialsDecrypted: decrypted } : undefined,
			)) as ESignFullResponse<unknown>;
		} catch (cause) {
			// No HTTP answer (refused, reset, timeout, certificate).
			if (await retryRead(cause as NetworkCause)) continue;
			throw networkError(info, cause as NetworkCause, failures);
		}

		const status = response.statusCode;
		if (method === 'GET' && status < 300) warnIfCached(this, endpoint, response.headers);
		if (status >= 300 && status < 400) {
			throw redirectError(info, status, header(response.headers, 'location'), API_PATH);
		}
		const contentType = header(response.headers, 'content-type') ?? '';
		let raw: unknown = response.body;
		if (isStreamLike(raw)) {
			let taken: JsonStream | Buffer;
			try {
				taken = await takeStream(raw, status);
			} catch (cause) {
				// The connection broke while the answer was read.
				if (await retryRead(cause as NetworkCause)) continue;
				throw networkError(info, cause as NetworkCause, failures);
			}
			if (!Buffer.isBuffer(taken)) return { body: taken as T, headers: response.headers, statusCode: status };
			raw = taken;
		}
		if (Buffer.isBuffer(raw) && status < 300 && looksLikeJsonObject(raw)) {
			return { body: raw as T, headers: response.headers, statusCode: status };
		}
		const parsed: ParsedBody = parseBody(Buffer.isBuffer(raw) ? raw.toString('utf8') : raw);
		const page: SitePage | undefined = parsed.json ? undefined : recognisePage(parsed.text, contentType);

		if (status < 300) {
			if (!parsed.json) {
				// WordPress's maintenance page can come with a 200 from some caches: a read may wait it out.
				if (page === 'maintenance' && (await retryRead())) continue;
				throw notApiAnswerError(info, status, contentType, parsed.text, page, undefined, response.headers);
			}
			const problem = shapeProblem(parsed.value, options.expect ?? 'any');
			if (problem) {
				throw notApiAnswerError(info, status, contentType, JSON.stringify(parsed.value) ?? '', undefined, problem);
			}
			return { body: parsed.value as T, headers: response.headers, statusCode: status };
		}

		if (status === 429) {
			const wait = retryAfterSeconds(parsed.json ? parsed.value : undefined, response.headers);
			if (waited + wait <= maxWait) {
				waited += wait;
				await sleep(wait * 1000);
				continue;
			}
		} else if ((status >= 500 || page === 'maintenance') && (await retryRead())) {
			continue;
		}
		if (status === 404 && options.allowNotFound === true && parsed.json && isPlainObject(parsed.value)) {
			return { body: undefined as T, headers: response.headers, statusCode: status };
		}
		if (!parsed.json || !isPlainObject(parsed.value)) {
			throw notApiAnswerError(info, status, contentType, parsed.json ? JSON.stringify(parsed.value) : parsed.text, page, undefined, response.headers);
		}
		throw apiError(info, status, parsed.value, response.headers);
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
	options: Omit<ESignRequestOptions, 'qs' | 'body' | 'expect'> = {},
): Promise<T[]> {
	const perPage = limit !== undefined ? Math.min(Math.max(limit, 1), MAX_PER_PAGE) : MAX_PER_PAGE;
	const results: T[] = [];
	for (let page = 1; ; page++) {
		const response = await eSignApiRequestFull.call(this, 'GET', endpoint, {
			...options,
			qs: { ...qs, page, per_page: perPage },
			expect: 'list',
		});
		const items = response.body as T[];
		results.push(...items);
		if (limit !== undefined && results.length >= limit) return results.slice(0, limit);
		const totalPages = Number(header(response.headers, 'x-esign-totalpages'));
		if (items.length < perPage) break;
		if (Number.isFinite(totalPages) && page >= totalPages) break;
	}
	return results;
}
