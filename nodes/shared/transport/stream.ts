/** Reading an answer that n8n hands over as a stream (what eSignApiGetStream asks for). */

/** An answer handed over unread: its chunks, a leading byte-order mark dropped. */
export interface AnswerStream {
	chunks: AsyncIterable<Buffer>;
}

interface StreamLike {
	pipe: unknown;
	[Symbol.asyncIterator](): AsyncIterator<Buffer | string>;
}

export const isStreamLike = (value: unknown): value is StreamLike =>
	typeof value === 'object' && value !== null && typeof (value as StreamLike).pipe === 'function' && Symbol.asyncIterator in value;

const isJsonSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

const toBuffer = (chunk: Buffer | string) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk);

/** Bytes of a UTF-8 byte-order mark at the start of `bytes` (0 or 3): some PHP files emit one. */
const bomLength = (bytes: Buffer) => (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);

/** Index of the first byte that is not JSON white space, after a byte-order mark. */
function firstByte(bytes: Buffer): number {
	let i = bomLength(bytes);
	while (i < bytes.length && isJsonSpace(bytes[i])) i++;
	return i;
}

/** First and last non-space bytes are { and }: worth handing over unparsed. */
export function looksLikeJsonObject(bytes: Buffer): boolean {
	const first = firstByte(bytes);
	let last = bytes.length - 1;
	while (last > first && isJsonSpace(bytes[last])) last--;
	return bytes[first] === 0x7b && bytes[last] === 0x7d;
}

/** Bytes already read in full, as a stream of one chunk (the one reader then handles both alike). */
export function oneChunk(bytes: Buffer): AnswerStream {
	const chunk = bytes.subarray(bomLength(bytes));
	return {
		chunks: {
			async *[Symbol.asyncIterator]() {
				yield chunk;
			},
		},
	};
}

async function readAll(iterator: AsyncIterator<Buffer | string>, first: Buffer): Promise<Buffer> {
	const chunks = [first];
	for (let next = await iterator.next(); !next.done; next = await iterator.next()) chunks.push(toBuffer(next.value));
	return Buffer.concat(chunks);
}

/**
 * A streamed answer: a successful one whose first byte opens a JSON object is handed over unread (the
 * first chunk put back in front); anything else is read whole, to be handled like any answer.
 */
export async function takeStream(body: StreamLike, status: number): Promise<AnswerStream | Buffer> {
	const iterator = body[Symbol.asyncIterator]();
	let first = await iterator.next();
	while (!first.done && toBuffer(first.value).length === 0) first = await iterator.next();
	if (first.done) return Buffer.alloc(0);
	const head = toBuffer(first.value);
	if (status >= 300 || head[firstByte(head)] !== 0x7b) return await readAll(iterator, head);
	const start = head.subarray(bomLength(head));
	return {
		chunks: {
			async *[Symbol.asyncIterator]() {
				yield start;
				for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield toBuffer(next.value);
			},
		},
	};
}
