// The eSign Trigger's signature check (verifySignature.ts) on its own: raw bytes, header forms, secrets and
// the constant-time comparison. The node's answers (401/400/200) are tested in test/ESignTrigger/ through
// n8n-core's WebhookContext.
import { createHmac, timingSafeEqual } from 'crypto';

import { SIGNATURE_FAILURE_MESSAGES, verifySignature } from '../../../nodes/ESignTrigger/verifySignature';

const SECRET = ['whsec', 'unit', '3c9e0f5a'].join('_');
const BODY = '{"event":"document.completed","data":{"document_id":"21","document_title":"Lease 2024\\/25 — signé"}}';

// Node's own functions, observable: the helper's comparison and HMAC are watched, and can be made to fail.
jest.mock('crypto', () => {
	const actual = jest.requireActual('crypto');
	return { ...actual, createHmac: jest.fn(actual.createHmac), timingSafeEqual: jest.fn(actual.timingSafeEqual) };
});
const compare = jest.mocked(timingSafeEqual);

/** The expected header, computed here with Node's crypto, independently of the helper. */
const sign = (body: string | Buffer, secret = SECRET) =>
	`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

afterEach(() => {
	jest.clearAllMocks();
});

describe('valid signatures', () => {
	test('over the raw bytes, given as a Buffer or a string', () => {
		expect(verifySignature(Buffer.from(BODY, 'utf8'), sign(BODY), SECRET)).toEqual({ valid: true });
		expect(verifySignature(BODY, sign(BODY), SECRET)).toEqual({ valid: true });
		expect(verifySignature(new Uint8Array(Buffer.from(BODY)), sign(BODY), SECRET)).toEqual({ valid: true });
	});

	test('matches the RFC 4231 HMAC-SHA256 test vector (case 2)', () => {
		const hex = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
		expect(verifySignature(Buffer.from('what do ya want for nothing?'), `sha256=${hex}`, 'Jefe')).toEqual({ valid: true });
		expect(verifySignature(Buffer.from('what do ya want for nothing!'), `sha256=${hex}`, 'Jefe')).toEqual({ valid: false, reason: 'mismatch' });
	});

	test('upper-case hex digits, blanks around the header, and a header given once as an array are accepted', () => {
		const hex = sign(BODY).slice('sha256='.length);
		expect(verifySignature(BODY, `sha256=${hex.toUpperCase()}`, SECRET)).toEqual({ valid: true });
		expect(verifySignature(BODY, `  ${sign(BODY)}\t`, SECRET)).toEqual({ valid: true });
		expect(verifySignature(BODY, [sign(BODY)], SECRET)).toEqual({ valid: true });
	});
});

describe('refused', () => {
	test('a forged signature (right form, made up digest)', () => {
		expect(verifySignature(BODY, `sha256=${'ab'.repeat(32)}`, SECRET)).toEqual({ valid: false, reason: 'mismatch' });
	});

	test('a signature made with another secret', () => {
		expect(verifySignature(BODY, sign(BODY, 'whsec_other'), SECRET)).toEqual({ valid: false, reason: 'mismatch' });
		expect(verifySignature(BODY, sign(BODY), `${SECRET} `)).toEqual({ valid: false, reason: 'mismatch' });
	});

	test.each([
		['one character changed', BODY, BODY.replace('"21"', '"22"')],
		['re-serialised JSON (escapes and unicode rewritten)', BODY, JSON.stringify(JSON.parse(BODY))],
		['a trailing newline added', BODY, `${BODY}\n`],
		['a byte-order mark added', BODY, `\ufeff${BODY}`],
		['CRLF instead of LF', '{\n"event":"x"}', '{\r\n"event":"x"}'],
	])('a body whose bytes differ from the signed ones: %s', (_name, signed, received) => {
		expect(received).not.toBe(signed);
		expect(verifySignature(received, sign(signed), SECRET)).toEqual({ valid: false, reason: 'mismatch' });
	});

	test('the same text in another encoding is other bytes', () => {
		const latin1 = Buffer.from(BODY, 'latin1');
		expect(verifySignature(latin1, sign(Buffer.from(BODY, 'utf8')), SECRET)).toEqual({ valid: false, reason: 'mismatch' });
	});

	test.each([
		['no header', undefined, 'missing_header'],
		['an empty header', '', 'missing_header'],
		['a header of blanks', '   ', 'missing_header'],
		['an empty array', [], 'missing_header'],
		['two headers', [sign(BODY), sign(BODY)], 'wrong_length'],
		['sha1= instead of sha256=', sign(BODY).replace('sha256=', 'sha1='), 'wrong_prefix'],
		['SHA256= in capitals', sign(BODY).replace('sha256=', 'SHA256='), 'wrong_prefix'],
		['the bare digest', sign(BODY).slice('sha256='.length), 'wrong_prefix'],
		['a digest one short', sign(BODY).slice(0, -1), 'wrong_length'],
		['a digest one long', `${sign(BODY)}0`, 'wrong_length'],
		['the prefix alone', 'sha256=', 'wrong_length'],
		['non-hex characters', `sha256=${'zz'.repeat(32)}`, 'not_hex'],
	])('%s', (_name, header, reason) => {
		expect(verifySignature(BODY, header as string | string[] | undefined, SECRET)).toEqual({ valid: false, reason });
	});

	test('no secret configured refuses everything, even a signature made with an empty key', () => {
		for (const secret of [undefined, null, '', 5]) {
			expect(verifySignature(BODY, sign(BODY, ''), secret)).toEqual({ valid: false, reason: 'missing_secret' });
		}
	});
});

describe('the comparison', () => {
	test('is crypto.timingSafeEqual over two 32-byte digests, once, for a match and a mismatch alike', () => {
		verifySignature(BODY, sign(BODY), SECRET);
		const hex = sign(BODY).slice('sha256='.length);
		const firstDiffers = `sha256=${hex[0] === '0' ? '1' : '0'}${hex.slice(1)}`;
		const lastDiffers = `sha256=${hex.slice(0, -1)}${hex.endsWith('0') ? '1' : '0'}`;
		expect(verifySignature(BODY, firstDiffers, SECRET)).toEqual({ valid: false, reason: 'mismatch' });
		expect(verifySignature(BODY, lastDiffers, SECRET)).toEqual({ valid: false, reason: 'mismatch' });
		expect(compare).toHaveBeenCalledTimes(3);
		for (const [a, b] of compare.mock.calls) {
			expect(Buffer.isBuffer(a) && Buffer.isBuffer(b)).toBe(true);
			expect([(a as Buffer).length, (b as Buffer).length]).toEqual([32, 32]);
		}
	});

	test('decides the result: nothing else compares the digests', () => {
		compare.mockReturnValueOnce(true);
		expect(verifySignature(BODY, `sha256=${'ab'.repeat(32)}`, SECRET)).toEqual({ valid: true });
	});

	test('is not reached for a header of the wrong form (nothing to compare in constant time)', () => {
		verifySignature(BODY, 'sha256=abc', SECRET);
		verifySignature(BODY, `sha256=${'zz'.repeat(32)}`, SECRET);
		expect(compare).not.toHaveBeenCalled();
	});
});

describe('robustness', () => {
	test('never throws, whatever it is given', () => {
		const odd = [undefined, null, 42, {}, [], Symbol.for('x'), Buffer.alloc(0), 'text'];
		for (const body of odd) {
			for (const header of [undefined, '', 'sha256=', ['a', 'b'], [sign('x')], 'sha256=' + 'ff'.repeat(32)]) {
				for (const secret of [undefined, null, '', 'k', 5]) {
					expect(() => verifySignature(body, header, secret)).not.toThrow();
					expect(verifySignature(body, header, secret)).toHaveProperty('valid', expect.any(Boolean));
				}
			}
		}
	});

	test('a failure inside the check is reported as invalid, not thrown', () => {
		const header = sign(BODY);
		jest.mocked(createHmac).mockImplementationOnce(() => {
			throw new Error('boom');
		});
		expect(verifySignature(BODY, header, SECRET)).toEqual({ valid: false, reason: 'error' });
	});

	test('no failure message contains a secret or a digest', () => {
		for (const message of Object.values(SIGNATURE_FAILURE_MESSAGES)) {
			expect(message).not.toMatch(/[0-9a-f]{16,}/);
			expect(message).not.toContain(SECRET);
		}
	});
});
