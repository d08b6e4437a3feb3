/**
 * An id taken from a site's answer, as a path segment: only a positive whole number (a string id
 * like "12" or a JSON integer). Anything else (e.g. "../stats", 0, 1.5) gives undefined.
 */
export function idFromAnswer(value: unknown): string | undefined {
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	return /^[1-9][0-9]{0,15}$/.test(text) ? text : undefined;
}
