import { joinBytes } from '../bytes';

/**
 * The update's new content streams, compressed by the platform's CompressionStream('deflate'): zlib data, what
 * /FlateDecode reads, and the counterpart of the DecompressionStream the read decodes with (read/filters.ts). The
 * compression runs on the thread pool, so the page reads go on meanwhile; a few streams at a time, so that what a
 * removal holds waiting is a few pages' content, not every page's.
 */
export class Compressor {
	private running = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(private readonly atOnce = COMPRESSIONS_AT_ONCE) {}

	async deflate(data: Uint8Array): Promise<Uint8Array> {
		// A finished compression hands its place to the next one waiting (running stays the same).
		if (this.running >= this.atOnce) await new Promise<void>((resolve) => this.waiting.push(resolve));
		else this.running++;
		try {
			return await deflate(data);
		} finally {
			const next = this.waiting.shift();
			if (next) next();
			else this.running--;
		}
	}
}

/** Streams compressed at once by one removal: enough to keep the thread pool's workers busy. */
const COMPRESSIONS_AT_ONCE = 4;

async function deflate(data: Uint8Array): Promise<Uint8Array> {
	const stream = new CompressionStream('deflate');
	const writer = stream.writable.getWriter();
	// Errors surface on the readable side; these promises settle as the reader drains.
	writer.write(data as Uint8Array<ArrayBuffer>).catch(() => undefined);
	writer.close().catch(() => undefined);
	const reader = stream.readable.getReader();
	const chunks: Uint8Array[] = [];
	for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
	return joinBytes(chunks);
}
