/**
 * PUT and DELETE through firewalls that refuse them. Many shared hosts run ModSecurity with the OWASP Core
 * Rule Set, whose default method policy allows only GET, HEAD, POST and OPTIONS (CRS 3.3 rule 911100): a
 * PUT or DELETE gets the web server's bare 403 page and never reaches WordPress. WordPress's REST server
 * (WP_REST_Server::serve_request) takes the method from the `_method` query parameter, or else from the
 * X-HTTP-Method-Override header, on every route, and its own editor (@wordpress/api-fetch) sends PUT and
 * DELETE as POST with that header for this reason.
 *
 * The order (docs/hosting.md says why): the real method first, as the spec describes the API (a site that
 * is not WordPress may not know `_method`); only after a refusal by something in front of the API (its
 * page, never the API's JSON), POST with `?_method=` (CRS 4 at its default paranoia level refuses the
 * override headers, rule 920450, but lets the query parameter pass); after another refusal, POST with the
 * header (some firewalls block the parameter, e.g. CRS 4 at paranoia level 2, rule 920650). A refused
 * attempt ran nothing, so sending it again in another form cannot run a write twice.
 */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import type { ParsedBody } from './answer';
import type { Front } from './fronts';
import { isPlainObject } from '../values';

/** How a request goes out: in its own method, or as POST with WordPress's `_method` parameter or override header. */
export type SendForm = 'method' | 'query' | 'header';

export const OVERRIDE_HEADER = 'X-HTTP-Method-Override';

/** Methods that firewalls refuse and WordPress takes from an override (the API uses PUT and DELETE). */
const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);

/** Statuses with which web servers and firewalls refuse a method or a request they take for an attack. */
const REFUSAL_STATUSES = new Set([403, 405, 406, 501]);

/**
 * Fronts whose refusal has nothing to do with the method (a password prompt, a bot check, an address locked
 * out or blocked by a WordPress security plugin): sending the request in another form would not help.
 */
const NOT_ABOUT_THE_METHOD: ReadonlySet<Front> = new Set<Front>(['basicAuth', 'challenge', 'wordfence', 'solid']);

/** The forms a request may go out in, in order; a form remembered for the site starts the list. */
export function sendForms(method: string, remembered?: SendForm): SendForm[] {
	if (!OVERRIDABLE.has(method.toUpperCase())) return ['method'];
	const ladder: SendForm[] = ['method', 'query', 'header'];
	return remembered && remembered !== 'method' ? ladder.slice(ladder.indexOf(remembered)) : ladder;
}

/** The request as it goes out in `form` (a copy; `request` stays in its own method). */
export function inForm(request: IHttpRequestOptions, form: SendForm): IHttpRequestOptions {
	const method = String(request.method ?? 'GET').toUpperCase();
	if (form === 'query') return { ...request, method: 'POST', qs: { ...request.qs, _method: method } };
	if (form === 'header') return { ...request, method: 'POST', headers: { ...request.headers, [OVERRIDE_HEADER]: method } };
	return { ...request };
}

/**
 * The answer is a refusal by something in front of the API: a refusal status with a body that is not the
 * API's JSON (a web page, plain text, nothing). WordPress did not run the request. Any JSON object is taken
 * as the API's own answer, after which a write is never sent again.
 */
export function refusedByFront(status: number, parsed: ParsedBody): boolean {
	if (!REFUSAL_STATUSES.has(status)) return false;
	return !(parsed.json && isPlainObject(parsed.value));
}

/** After a front's refusal: whether sending the request in the next form may get it through. */
export const anotherFormMayHelp = (front: Front | undefined) => front === undefined || !NOT_ABOUT_THE_METHOD.has(front);

// The form that got through, per node execution: the key is n8n's context object for that execution (as in
// credentials.ts), so later writes of the same run go straight to it, and the next run starts afresh.
const perExecution = new WeakMap<object, SendForm>();

export const rememberedForm = (context: object): SendForm | undefined => perExecution.get(context);

/** Keeps an override form that worked, for the rest of this node execution. */
export function rememberForm(context: object, form: SendForm): void {
	if (form !== 'method') perExecution.set(context, form);
}

/** The text values a request carried, by where they were (`title`, `signers[0].name`, `prefill.company`). */
export function requestValues(body: unknown, qs?: IDataObject): Array<[string, string]> {
	const found: Array<[string, string]> = [];
	const walk = (value: unknown, at: string, depth: number) => {
		if (typeof value === 'string') found.push([at, value]);
		else if (depth > 6) return;
		else if (Array.isArray(value)) value.forEach((entry, i) => walk(entry, `${at}[${i}]`, depth + 1));
		else if (isPlainObject(value)) for (const [key, entry] of Object.entries(value)) walk(entry, at ? `${at}.${key}` : key, depth + 1);
	};
	if (body instanceof FormData) {
		body.forEach((value, key) => {
			if (typeof value === 'string') found.push([key, value]);
			else if ('name' in value && typeof value.name === 'string') found.push([`${key} (file name)`, value.name]);
		});
	} else {
		walk(body, '', 0);
	}
	for (const [key, value] of Object.entries(qs ?? {})) if (key !== '_' && key !== '_method') walk(value, key, 1);
	return found;
}
