import { isPlainObject } from '../values';

/**
 * What an operation needs the site's answer to be. Anything else is not the eSign API talking
 * (an HTML page, a proxy's answer, a truncated body) and must never become an output item.
 * - 'list': a JSON array of objects
 * - 'object': a JSON object
 * - string[]: a JSON object that has these keys (e.g. ['id'] for a document); 'key[]' means the key
 *   holds an array of objects
 * - 'any': a JSON object or array (what every answer must at least be)
 */
export type Expectation = 'any' | 'list' | 'object' | string[];

export type ParsedBody = { json: true; value: unknown } | { json: false; text: string };

/** The raw text of an answer parsed as JSON, or kept as text when it is not JSON. */
export function parseBody(raw: unknown): ParsedBody {
	if (raw === undefined || raw === null) return { json: false, text: '' };
	if (typeof raw !== 'string') {
		// Already parsed by the HTTP layer (objects) or bytes: normalise to one of the two forms.
		if (raw instanceof Uint8Array) return parseBody(Buffer.from(raw).toString('utf8'));
		return { json: true, value: raw };
	}
	const text = raw.replace(/^\uFEFF/, '');
	if (text.trim() === '') return { json: false, text };
	try {
		return { json: true, value: JSON.parse(text) };
	} catch {
		return { json: false, text };
	}
}

/** Why `value` does not meet the expectation, or undefined when it does. */
export function shapeProblem(value: unknown, expect: Expectation): string | undefined {
	if (expect === 'list') {
		if (!Array.isArray(value)) return `expected a JSON array, got ${describeValue(value)}`;
		const bad = value.findIndex((entry) => !isPlainObject(entry));
		return bad === -1 ? undefined : `expected a JSON array of objects, but entry ${bad} is ${describeValue(value[bad])}`;
	}
	if (expect === 'any') {
		return isPlainObject(value) || Array.isArray(value) ? undefined : `expected a JSON object or array, got ${describeValue(value)}`;
	}
	if (!isPlainObject(value)) return `expected a JSON object, got ${describeValue(value)}`;
	if (expect === 'object') return undefined;
	for (const wanted of expect) {
		// "key[]": the key must hold an array of objects (its entries become output items).
		const key = wanted.endsWith('[]') ? wanted.slice(0, -2) : wanted;
		if (value[key] === undefined || value[key] === null) return `expected a JSON object with "${key}", got an object without it`;
		if (key !== wanted) {
			const inner = shapeProblem(value[key], 'list');
			if (inner) return `"${key}": ${inner}`;
		}
	}
	return undefined;
}

function describeValue(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'string') return 'a string';
	return `a ${typeof value}`;
}

/** WordPress pages recognised in non-JSON answers, each with what it means for the user. */
export type SitePage = 'critical' | 'maintenance' | 'html';

export function recognisePage(text: string, contentType: string): SitePage | undefined {
	if (/there has been a critical error on (this|your) website/i.test(text)) return 'critical';
	if (/briefly unavailable for scheduled maintenance/i.test(text)) return 'maintenance';
	if (/text\/html/i.test(contentType) || /^\s*<(!doctype|html|head|body)/i.test(text)) return 'html';
	return undefined;
}

/** The first ~200 characters of a body, on one line, with the credential's own values blanked out. */
export function snippet(text: string, secrets: string[] = [], max = 200): string {
	const shown = blank(text.replace(/\s+/g, ' ').trim(), secrets);
	return shown.length > max ? `${shown.slice(0, max)}…` : shown;
}

/** The text with the credential's own values replaced by *** (a site may echo a key or secret back). */
export function blank(text: string, secrets: string[]): string {
	let shown = text;
	for (const secret of secrets) {
		if (secret && secret.length >= 4) shown = shown.split(secret).join('***');
	}
	return shown;
}
