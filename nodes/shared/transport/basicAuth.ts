import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/**
 * HTTP Basic auth for a password-protected site (typical of staging copies): the web server asks for it
 * before WordPress runs. It travels in `Authorization`, which the eSign API leaves free (its own key and
 * secret are X-ESIGN-* headers), so both are sent on every request.
 */
export function usesBasicAuth(data: ICredentialDataDecryptedObject): boolean {
	return data.basicAuth === true && String(data.basicAuthUser ?? '') !== '';
}

/** The Authorization header value (RFC 7617, UTF-8), or undefined when the credential has none. */
export function basicAuthHeader(data: ICredentialDataDecryptedObject): string | undefined {
	if (!usesBasicAuth(data)) return undefined;
	const pair = `${String(data.basicAuthUser)}:${String(data.basicAuthPassword ?? '')}`;
	return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
}
