import type { IDataObject } from 'n8n-workflow';

import type { Expectation } from './answer';

/**
 * The defaults every request has, and the Request Options of the action node show: the one place to change
 * them. Both are what saved workflows that never set them rely on (CONTRIBUTING → Versioning policy).
 */
/** How long to wait for each answer from the site, in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 30;
/** The longest total wait for 429 answers within one request, in seconds. */
export const DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS = 60;

/** What every request can be given. */
export interface ESignReadOptions {
	qs?: IDataObject;
	/** Item the request belongs to, so errors point at it. */
	itemIndex?: number;
	/** Seconds; default DEFAULT_TIMEOUT_SECONDS. */
	timeout?: number;
	/** Longest total wait for 429 answers before giving up, in seconds; default DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS. */
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
	 * fresh stream for each attempt: a write is sent again only after a 429 or a front's refusal, which
	 * both mean it was not processed.
	 */
	streamBody?: StreamBody;
}

export interface StreamBody {
	contentType: string;
	length: number;
	/** Bytes of the file inside, for the errors about a site's upload limits. */
	fileBytes: number;
	/** The text parts inside (and the file's name), for naming what a firewall may have refused. */
	fields?: Record<string, string>;
	/** A Node stream (what the HTTP layer sends as it reads). */
	open(): Promise<unknown>;
}
