import type { IDataObject } from 'n8n-workflow';

/** A JSON object (not null, not an array): what the API's answers and webhook bodies must be. */
export function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The one rule for what a document, template or signer id is ("{id} is an integer", the API description): a
 * positive whole number of at most 16 digits, written as the site writes it (no leading zeros). Every check of
 * an id derives from this: isWholeId, idFromAnswer, idFromInput and the editor's ID_INPUT_PATTERN.
 */
const ID_DIGITS = '[1-9][0-9]{0,15}';
const ID = new RegExp(`^${ID_DIGITS}$`);

/** An id exactly as the site writes it (stored state, an answer's text). */
export function isWholeId(text: string): boolean {
	return ID.test(text);
}

/**
 * An id taken from a site's answer, as a path segment: only a positive whole number (a string id
 * like "12" or a JSON integer). Anything else (e.g. "../stats", 0, 1.5) gives undefined.
 */
export function idFromAnswer(value: unknown): string | undefined {
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	return isWholeId(text) ? text : undefined;
}

/**
 * The editor's check of an id typed By ID (a resource locator's regex validation): the same rule, with the
 * spaces around it and the leading zeros that idFromInput drops.
 */
export const ID_INPUT_PATTERN = `^\\s*0*${ID_DIGITS}\\s*$`;

/**
 * An id a user typed or mapped (a parameter, an expression's number): spaces around it and leading zeros are
 * dropped ("007" is document 7, as the site reads it), so the request names the id as the site writes it.
 * Undefined when it is no id: empty, 0, negative, a fraction, longer than 16 digits, or anything but digits.
 */
export function idFromInput(value: unknown): string | undefined {
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	return idFromAnswer(text.replace(/^0+(?=[0-9])/, ''));
}
