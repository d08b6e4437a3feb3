// Reading GET /documents/{id}/file from its raw bytes: the base64 content is decoded piece by piece (a 20 MB
// file is ~27 MB of base64 that is never built as one string), the other members parsed without it.
import * as crypto from 'crypto';

import { readFileAnswer } from '../../nodes/shared/documentFile';

/** JSON as PHP's json_encode writes it: slashes escaped as \/. */
const phpJson = (value: unknown) => JSON.stringify(value).replace(/\//g, '\\/');

describe('readFileAnswer', () => {
	test.each([
		['PHP-escaped slashes', phpJson],
		['plain JSON', (v: unknown) => JSON.stringify(v)],
		['spaces and newlines around members', (v: unknown) => JSON.stringify(v, null, 2)],
	])('%s: the bytes equal a whole parse, across many decode steps', (_, encode) => {
		const bytes = crypto.randomBytes(3 * 1024 * 1024 + 7); // > 3 decode steps, not a multiple of 3
		const answer = Buffer.from(encode({ content: bytes.toString('base64'), filename: 'a/b.pdf', type: 'application/pdf', encoding: 'base64' }));
		const read = readFileAnswer(answer);
		expect(read?.meta).toEqual({ content: '', filename: 'a/b.pdf', type: 'application/pdf', encoding: 'base64' });
		expect(read?.bytes?.equals(bytes)).toBe(true);
	});

	test('"content" inside another string is not taken for the member', () => {
		const bytes = Buffer.from('%PDF-1.7 hello');
		const answer = Buffer.from(phpJson({ filename: 'x","content":"AAAA', content: bytes.toString('base64') }));
		const read = readFileAnswer(answer);
		expect(read?.bytes?.toString()).toBe('%PDF-1.7 hello');
		expect(read?.meta.filename).toBe('x","content":"AAAA');
	});

	test('other escapes, other encodings and a null content fall back to a whole parse', () => {
		const unicodeEscaped = Buffer.from('{"content":"QUJD\\u002fRA==","encoding":"base64"}');
		expect(readFileAnswer(unicodeEscaped)?.bytes).toEqual(Buffer.from('QUJD/RA==', 'base64'));
		const utf8 = Buffer.from(JSON.stringify({ content: 'plain text', encoding: 'utf8' }));
		expect(readFileAnswer(utf8)?.bytes?.toString()).toBe('plain text');
		const none = readFileAnswer(Buffer.from('{"content":null,"filename":"x.pdf"}'));
		expect(none?.meta.filename).toBe('x.pdf');
		expect(none?.bytes).toBeUndefined();
	});

	test('bytes that are not JSON give undefined', () => {
		expect(readFileAnswer(Buffer.from('{"content":"QUJD", "filename": }'))).toBeUndefined();
		expect(readFileAnswer(Buffer.from('{ not json }'))).toBeUndefined();
	});
});
