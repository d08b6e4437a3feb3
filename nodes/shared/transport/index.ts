import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import type { ESignContext } from './credentials';
import { exchange } from './exchange';
import type { ESignReadOptions, ESignRequestOptions } from './options';
import { headerValue as header } from './fronts';
import type { AnswerStream } from './stream';
import { type Page, walkPages } from '../pages';

export type { Expectation } from './answer';
export type { ESignContext } from './credentials';
export { API_PATH, forgetSiteAccess, normaliseSiteUrl } from './credentials';
export type { ESignReadOptions, ESignRequestOptions, StreamBody } from './options';
export { DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS, DEFAULT_TIMEOUT_SECONDS } from './options';
export type { AnswerStream } from './stream';

/** Largest page the API serves; also what Return All uses. */
export const MAX_PER_PAGE = 100;

/** The API's JSON answer, in the shape `options.expect` names. */
export async function eSignApiRequest<T = unknown>(
	this: ESignContext,
	method: IHttpRequestMethods,
	endpoint: string,
	options: ESignRequestOptions = {},
): Promise<T> {
	return (await exchange.call(this, method, endpoint, options, 'json')).body as T;
}

/**
 * One page of a list (GET; a JSON array of objects), with the page count the site sends: the spec's
 * X-ESIGN-TotalPages, else WordPress's own X-WP-TotalPages (sites of the same plugin family send only that).
 */
export async function eSignApiGetPage(this: ESignContext, endpoint: string, options: ESignReadOptions): Promise<Page<IDataObject>> {
	const response = await exchange.call(this, 'GET', endpoint, { ...options, expect: 'list' }, 'json');
	const counts = ['x-esign-totalpages', 'x-wp-totalpages'].map((name) => header(response.headers, name)?.trim() ?? '');
	const count = counts.find((value) => /^[0-9]+$/.test(value));
	return { items: response.body as IDataObject[], totalPages: count === undefined ? undefined : Number(count) };
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
