import type { IDataObject } from 'n8n-workflow';

/** A JSON object (not null, not an array): what the API's answers and webhook bodies must be. */
export function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A document or template id as the API gives it: a positive whole number of at most 16 digits. */
export function isWholeId(text: string): boolean {
	return /^[1-9][0-9]{0,15}$/.test(text);
}

/**
 * An id taken from a site's answer, as a path segment: only a positive whole number (a string id
 * like "12" or a JSON integer). Anything else (e.g. "../stats", 0, 1.5) gives undefined.
 */
export function idFromAnswer(value: unknown): string | undefined {
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	return isWholeId(text) ? text : undefined;
}
