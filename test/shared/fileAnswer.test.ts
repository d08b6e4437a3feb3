// Reading GET /documents/{id}/file as it arrives: the base64 content is decoded piece by piece (a 20 MB
// file is ~27 MB of base64 that is never built as one string), the other members parsed without it. An
// answer the HTTP layer read whole goes through the same reader as one chunk.
import * as crypto from 'crypto';

import { FileAnswerReader } from '../../nodes/shared/fileAnswer';

/** JSON as PHP's json_encode writes it: slashes escaped as \/. */
const phpJson = (value: unknown) => JSON.stringify(value).replace(/\//g, '\\/');

describe('FileAnswerReader (the download reads the answer as it arrives)', () => {
	/** Feeds `answer` in pieces of the given sizes (cycled); [Infinity] is an answer read whole. */
	async function read(answer: Buffer, sizes: number[] = [65536]) {
		const reader = new FileAnswerReader();
		const chunks = (async function* () {
			for (let at = 0, n = 0; at < answer.length; n++) {
				const size = sizes[n % sizes.length];
				yield answer.subarray(at, at + size);
				at += size;
			}
		})();
		const out: Buffer[] = [];
		for await (const piece of reader.content(chunks)) out.push(piece);
		return { reader, bytes: Buffer.concat(out) };
	}

	test.each([
		['PHP-escaped slashes, 64 KB pieces', phpJson, [65536]],
		['PHP-escaped slashes, read whole (one chunk)', phpJson, [Infinity]],
		['plain JSON, odd small pieces', (v: unknown) => JSON.stringify(v), [1, 2, 3, 5, 7, 4099]],
		['indented JSON, one byte at a time for the start', (v: unknown) => JSON.stringify(v, null, 2), [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 131072]],
	])('%s: the bytes and members equal a whole parse', async (_, encode, sizes) => {
		const bytes = crypto.randomBytes(2 * 1024 * 1024 + 5);
		const answer = Buffer.from(encode({ content: bytes.toString('base64'), filename: 'a/b "c", {d}.pdf', type: 'application/pdf', encoding: 'base64', extra: { list: [1, '}', ','] } }));
		const { reader, bytes: got } = await read(answer, sizes as number[]);
		expect(reader.problem).toBeUndefined();
		expect(got.equals(bytes)).toBe(true);
		expect(reader.file.size).toBe(bytes.length);
		expect(reader.meta).toEqual({ filename: 'a/b "c", {d}.pdf', type: 'application/pdf', encoding: 'base64', extra: { list: [1, '}', ','] } });
		expect(reader.file.head.equals(bytes.subarray(0, 16))).toBe(true);
		expect(reader.file.tail.equals(bytes.subarray(-1024))).toBe(true);
	});

	test('members in any order, and \\u002f escapes in the content', async () => {
		const bytes = Buffer.from('%PDF-1.7 ??>>?? %%EOF');
		const base64 = bytes.toString('base64');
		expect(base64).toContain('/');
		const answer = Buffer.from(`{"filename":"x.pdf","content":"${base64.replace(/\//g, '\\u002f')}","type":"application/pdf"}`);
		const { reader, bytes: got } = await read(answer, [3]);
		expect(reader.problem).toBeUndefined();
		expect(got.toString('latin1')).toBe(bytes.toString('latin1'));
		expect(reader.meta).toEqual({ filename: 'x.pdf', type: 'application/pdf' });
	});

	test.each([
		['cut off inside the content', (a: string) => a.slice(0, 40), /cut off/],
		['cut off after the content', (a: string) => a.slice(0, -3), /cut off/],
		['text after the object', (a: string) => `${a} <!-- cache -->`, /more after the JSON object/],
		['a character that is not base64', (a: string) => a.replace('"content":"', '"content":"%'), /not base64/],
		['an HTML page', () => '<html>', /not a JSON object/],
		['a second content member', (a: string) => a.replace('{', '{"content":"QUFB",'), /appears twice/],
	])('%s: the reader stops with a problem', async (_, change, problem) => {
		const answer = phpJson({ content: crypto.randomBytes(300).toString('base64'), filename: 'x.pdf', type: 'application/pdf', encoding: 'base64' });
		const { reader } = await read(Buffer.from(change(answer)), [17]);
		expect(reader.problem).toMatch(problem);
	});

	test('an answer without content is read, and says so', async () => {
		const { reader, bytes } = await read(Buffer.from('{"filename":"x.pdf","content":null}'));
		expect(reader.problem).toBeUndefined();
		expect(reader.hasContent).toBe(false);
		expect(bytes.length).toBe(0);
	});

	test.each([
		['one chunk (read whole)', [Infinity]],
		['one byte at a time', [1]],
		['pieces of 3 bytes', [3]],
	])('the top-level "content" wins over a nested one, in every member order: %s', async (_, sizes) => {
		const answers = [
			'{"meta":{"content":"QUJD"},"content":"REVG"}',
			'{"content":"REVG","meta":{"content":"QUJD"}}',
			'{"meta":{"inner":{"content":"QUJD"}},"content":"REVG","list":[{"content":"QUJD"}]}',
			'{"list":[{"content":"QUJD"},"content"],"content" : "REVG"}',
			'{"note":"\\"content\\":\\"QUJD\\"","content":"REVG"}',
		];
		for (const answer of answers) {
			const { reader, bytes } = await read(Buffer.from(answer), sizes);
			expect({ answer, problem: reader.problem, text: bytes.toString() }).toEqual({ answer, problem: undefined, text: 'DEF' });
			expect(reader.hasContent).toBe(true);
		}
		const { reader } = await read(Buffer.from(answers[0]), sizes);
		expect(reader.meta).toEqual({ meta: { content: 'QUJD' } });
	});

	test('a nested "content" alone is no content: the answer has none', async () => {
		const { reader, bytes } = await read(Buffer.from('{"meta":{"content":"QUJD"},"filename":"x.pdf"}'), [Infinity]);
		expect(reader.problem).toBeUndefined();
		expect(reader.hasContent).toBe(false);
		expect(bytes.length).toBe(0);
	});
});
