import type { ICredentialsDecrypted, IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { type ParsedBody, type SitePage, parseBody, recognisePage, shapeProblem } from './answer';
import type { ESignContext, SiteAccess } from './credentials';
import { API_PATH, siteAccess } from './credentials';
import { type RequestInfo, GET_RETRIES, apiError, networkError, notApiAnswerError } from './errors';
import { firewallError } from './firewall';
import { cacheBuster, warnIfCached } from './cache';
import { type Headers, headerValue as header, recogniseFront } from './fronts';
import { type NetworkCause, describeNetworkFailure } from './network';
import { type ESignRequestOptions, DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS, DEFAULT_TIMEOUT_SECONDS } from './options';
import { type SendForm, anotherFormMayHelp, inForm, refusedByFront, rememberForm, rememberedForm, requestValues, sendForms } from './override';
import { redirectError } from './redirect';
import { type AnswerStream, isStreamLike, looksLikeJsonObject, oneChunk, takeStream } from './stream';
import { isPlainObject } from '../values';

/**
 * One request, from the node's call to the answer it hands back (index.ts has the public functions that
 * call it). Read exchange() first: build the request, send it, read the answer, decide; then each step.
 */

/** An answer as exchange() hands it to the public functions in index.ts. */
export interface Answer {
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
export type Reading = 'json' | 'ifFound' | 'stream';

/** One request on its way: what was built for it, and what has happened to it so far. */
interface Call {
	method: IHttpRequestMethods;
	options: ESignRequestOptions;
	reading: Reading;
	/** The request in its own method; each attempt sends it in the form at the head of `forms`. */
	request: IHttpRequestOptions;
	info: RequestInfo;
	decrypted?: ICredentialsDecrypted;
	/** The forms still to try (override.ts): ['method'] for all but PUT and DELETE. */
	forms: SendForm[];
	/** The forms a front refused. */
	refused: SendForm[];
	/** Seconds waited for 429s; reads repeated after a failure. */
	waited: number;
	failures: number;
}

/** What came back from one attempt. */
type Reply =
	| { kind: 'noAnswer'; cause: NetworkCause }
	| { kind: 'unread'; answer: Answer }
	| { kind: 'read'; status: number; headers: NonNullable<Headers>; contentType: string; parsed: ParsedBody; page?: SitePage };

/** decide()'s word for "send it again" (after a wait, a backoff, or in the next form). */
const AGAIN = Symbol('again');

/**
 * Every HTTP call of the package goes through here, in four steps: build the request (credential, URL,
 * headers), send it, read the answer, decide. The decision hands the answer over, sends the request again
 * (a read after a passing failure; any request after a 429, which means it was not processed; a PUT or
 * DELETE that a front refused, in WordPress's override form), or fails with an error in plain words.
 * Redirects are never followed (the key and secret must not reach another address), and an answer is
 * only handed over when it is the API's JSON in the shape the caller expects (or, for 'stream', starts
 * like a JSON object: the reader checks the rest). The public functions in index.ts pick `reading`.
 */
export async function exchange(
	this: ESignContext,
	method: IHttpRequestMethods,
	endpoint: string,
	options: ESignRequestOptions,
	reading: Reading,
): Promise<Answer> {
	const call = buildRequest.call(this, await siteAccess.call(this), method, endpoint, options, reading);
	for (;;) {
		const reply = await send.call(this, call);
		const decided = await decide.call(this, call, reply.kind === 'sent' ? await readAnswer(call, reply.response) : reply);
		if (decided !== AGAIN) return decided;
	}
}

/** Step 1: the request as the site will get it, and what the errors need to know about it. */
function buildRequest(
	this: ESignContext,
	access: SiteAccess,
	method: IHttpRequestMethods,
	endpoint: string,
	options: ESignRequestOptions,
	reading: Reading,
): Call {
	const { apiRoot, insecure, secrets, decrypted, keyLooksIssued, basicAuth } = access;
	const timeoutSeconds = options.timeout ?? DEFAULT_TIMEOUT_SECONDS;
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
	// A site whose front refused PUT or DELETE earlier in this node execution gets the override at once.
	const forms = sendForms(method, rememberedForm(this));
	return { method, options, reading, request, info, decrypted, forms, refused: [], waited: 0, failures: 0 };
}

/** Step 2: one attempt, in the form at the head of call.forms (a streamed body opened afresh each time). */
async function send(this: ESignContext, call: Call): Promise<{ kind: 'sent'; response: Answer } | Reply> {
	const request = inForm(call.request, call.forms[0]);
	if (call.options.streamBody) request.body = (await call.options.streamBody.open()) as IDataObject;
	try {
		const response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			'eSignApi',
			request,
			// The credential read once for this node execution: n8n skips its own read and decrypt.
			call.decrypted ? { credentialsDecrypted: call.decrypted } : undefined,
		)) as Answer;
		return { kind: 'sent', response };
	} catch (cause) {
		return { kind: 'noAnswer', cause: cause as NetworkCause }; // refused, reset, timeout, certificate
	}
}

/** Step 3: the answer read: a stream handed over unread, or the body parsed, with the WordPress page it shows. */
async function readAnswer(call: Call, response: Answer): Promise<Reply> {
	const { statusCode: status, headers } = response;
	let raw: unknown = response.body;
	if (isStreamLike(raw)) {
		let taken: AnswerStream | Buffer;
		try {
			taken = await takeStream(raw, status);
		} catch (cause) {
			return { kind: 'noAnswer', cause: cause as NetworkCause }; // the connection broke while the answer was read
		}
		if (!Buffer.isBuffer(taken)) return { kind: 'unread', answer: { body: taken, headers, statusCode: status } };
		raw = taken;
	}
	// Read whole after all (the HTTP layer gave no stream): the same bytes, as one chunk.
	if (call.reading === 'stream' && status < 300 && Buffer.isBuffer(raw) && looksLikeJsonObject(raw)) {
		return { kind: 'unread', answer: { body: oneChunk(raw), headers, statusCode: status } };
	}
	const contentType = header(headers, 'content-type') ?? '';
	const parsed = parseBody(Buffer.isBuffer(raw) ? raw.toString('utf8') : raw);
	return { kind: 'read', status, headers, contentType, parsed, page: parsed.json ? undefined : recognisePage(parsed.text, contentType) };
}

/**
 * The one place that decides whether a failed request is repeated: reads only, with backoff, within the
 * retry budget. A write that may have run is never sent again.
 */
async function retryRead(call: Call, cause?: NetworkCause): Promise<boolean> {
	if (call.method !== 'GET' || call.failures >= GET_RETRIES) return false;
	if (cause && !describeNetworkFailure(cause, call.info.url, call.info.timeoutSeconds).transient) return false; // e.g. a bad certificate
	call.failures++;
	await sleep(250 * 2 ** call.failures);
	return true;
}

/** Step 4: hand the answer over, send the request again (AGAIN), or fail with an error in plain words. */
async function decide(this: ESignContext, call: Call, reply: Reply): Promise<Answer | typeof AGAIN> {
	const { info, options, reading } = call;
	if (reply.kind === 'noAnswer') {
		if (await retryRead(call, reply.cause)) return AGAIN;
		throw networkError(info, reply.cause, call.failures);
	}
	if (reply.kind === 'unread') return reply.answer;
	const { status, headers, contentType, parsed, page } = reply;
	const text = parsed.json ? (JSON.stringify(parsed.value) ?? '') : parsed.text;
	if (call.method === 'GET' && status < 300) warnIfCached(this, info.endpoint, headers);
	if (status >= 300 && status < 400) throw redirectError(info, status, header(headers, 'location'), API_PATH);

	if (status < 300) {
		// WordPress's maintenance page can come with a 200 from some caches: a read may wait it out.
		if (!parsed.json && page === 'maintenance' && (await retryRead(call))) return AGAIN;
		if (!parsed.json) throw notApiAnswerError(info, status, contentType, text, page, undefined, headers);
		const problem = shapeProblem(parsed.value, options.expect ?? 'any');
		if (problem) throw notApiAnswerError(info, status, contentType, text, undefined, problem);
		rememberForm(this, call.forms[0]);
		// 'stream': an object that came parsed or as text after all, handed over like a streamed one.
		return { body: reading === 'stream' ? oneChunk(Buffer.from(text)) : parsed.value, headers, statusCode: status };
	}
	// Not processed: a 429 (any method, within Max Rate Limit Wait), or a read that may pass on a second try.
	if (status === 429) {
		const wait = retryAfterSeconds(parsed.json ? parsed.value : undefined, headers);
		if (call.waited + wait <= (options.maxRateLimitWait ?? DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS)) {
			call.waited += wait;
			await sleep(wait * 1000);
			return AGAIN;
		}
	}
	const front = recogniseFront(status, headers, parsed.json ? '' : parsed.text);
	if ((status >= 500 || page === 'maintenance') && !front && (await retryRead(call))) return AGAIN;
	if (refusedByFront(status, parsed)) {
		// Refused before WordPress: nothing ran, so the next form may go out (a PUT or DELETE only).
		call.refused.push(call.forms.shift() as SendForm);
		if (call.forms.length && anotherFormMayHelp(front)) return AGAIN;
		if (!front || front === 'modsecurity') {
			throw firewallError(info, status, text, front, call.refused, requestValues(options.streamBody?.fields ?? options.body, options.qs));
		}
	}
	// The API's own answer (or a page that is neither the API nor a refusal): never sent again.
	if (call.forms[0] !== 'method') info.override = call.forms[0] as RequestInfo['override'];
	if (status === 404 && reading === 'ifFound' && parsed.json && isPlainObject(parsed.value)) return { body: undefined, headers, statusCode: status };
	if (!parsed.json || !isPlainObject(parsed.value)) throw notApiAnswerError(info, status, contentType, text, page, undefined, headers);
	throw apiError(info, status, parsed.value, headers);
}

/** Bytes of the files in a multipart body. */
function formFileBytes(form: FormData): number {
	let bytes = 0;
	form.forEach((value) => {
		if (typeof value !== 'string') bytes += value.size;
	});
	return bytes;
}

/** The wait a 429 asks for: Retry-After, else the body's data.retry_after, else 1 second. */
function retryAfterSeconds(body: unknown, headers: Headers): number {
	const fromHeader = Number(header(headers, 'retry-after'));
	if (Number.isFinite(fromHeader) && fromHeader >= 0) return fromHeader;
	const fromBody = Number(isPlainObject(body) && isPlainObject(body.data) ? body.data.retry_after : undefined);
	if (Number.isFinite(fromBody) && fromBody >= 0) return fromBody;
	return 1;
}
