import { createHmac, timingSafeEqual } from 'crypto';

/** Header the site signs every webhook with (lower case, as Node.js exposes request headers). */
export const SIGNATURE_HEADER = 'x-esign-signature';

const SIGNATURE_PREFIX = 'sha256=';

/** Hex characters in a SHA-256 digest. */
const DIGEST_HEX_LENGTH = 64;

export type SignatureFailure =
	| 'missing_secret'
	| 'missing_header'
	| 'wrong_prefix'
	| 'wrong_length'
	| 'not_hex'
	| 'mismatch'
	| 'error';

export type SignatureCheck = { valid: true } | { valid: false; reason: SignatureFailure };

/** What a 401 says about each failure. Never contains the secret or the expected signature. */
export const SIGNATURE_FAILURE_MESSAGES: Record<SignatureFailure, string> = {
	missing_secret:
		'No webhook signing secret is configured: the eSign API credential has an empty "Webhook Signing Secret", so no request can be verified and all are rejected. Copy the secret from the webhook settings of the eSign site into the credential.',
	missing_header: 'The request has no X-ESIGN-Signature header.',
	wrong_prefix: 'The X-ESIGN-Signature header does not start with "sha256=".',
	wrong_length:
		'The X-ESIGN-Signature header has the wrong length: expected "sha256=" followed by 64 hex characters.',
	not_hex: 'The X-ESIGN-Signature header is not "sha256=" followed by hex characters.',
	mismatch:
		'Invalid signature: X-ESIGN-Signature does not match the request body signed with the configured webhook secret.',
	error: 'The X-ESIGN-Signature header could not be checked.',
};

function toBytes(body: unknown): Uint8Array {
	if (body instanceof Uint8Array) return body; // Buffer included
	if (typeof body === 'string') return Buffer.from(body, 'utf8');
	return new Uint8Array(0);
}

/**
 * Checks `X-ESIGN-Signature: sha256=<hex HMAC-SHA256 of the body>` over the raw request bytes,
 * exactly as received (never over re-serialised JSON). Compares in constant time after a length
 * check. Never throws: any unexpected failure is reported as invalid.
 */
export function verifySignature(
	rawBody: unknown,
	header: string | string[] | undefined,
	secret: unknown,
): SignatureCheck {
	try {
		if (typeof secret !== 'string' || secret.length === 0) {
			return { valid: false, reason: 'missing_secret' };
		}
		if (Array.isArray(header) && header.length > 1) {
			return { valid: false, reason: 'wrong_length' };
		}
		const value = Array.isArray(header) ? header[0] : header;
		if (typeof value !== 'string' || value.trim().length === 0) {
			return { valid: false, reason: 'missing_header' };
		}
		const signature = value.trim();
		if (!signature.startsWith(SIGNATURE_PREFIX)) {
			return { valid: false, reason: 'wrong_prefix' };
		}
		const hex = signature.slice(SIGNATURE_PREFIX.length);
		if (hex.length !== DIGEST_HEX_LENGTH) {
			return { valid: false, reason: 'wrong_length' };
		}
		if (!/^[0-9a-f]+$/i.test(hex)) {
			return { valid: false, reason: 'not_hex' };
		}

		const expected = createHmac('sha256', secret).update(toBytes(rawBody)).digest();
		const received = Buffer.from(hex, 'hex');
		if (received.length !== expected.length) {
			return { valid: false, reason: 'wrong_length' };
		}
		return timingSafeEqual(received, expected)
			? { valid: true }
			: { valid: false, reason: 'mismatch' };
	} catch {
		return { valid: false, reason: 'error' };
	}
}
