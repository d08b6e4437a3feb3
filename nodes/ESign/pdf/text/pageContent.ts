import type { PdfDocument } from '../read/document';
import { PdfStream } from '../read/objects';
import type { PdfObject } from '../read/objects';

/** A page's /Contents (a stream or an array of streams) decoded and read as one, as the format says (joined by a
 * space: operators may be split across the streams of one page). */
export async function pageContent(doc: PdfDocument, contents: PdfObject | undefined): Promise<Uint8Array> {
	const resolved = await doc.resolve(contents);
	const parts = Array.isArray(resolved) ? resolved : [resolved];
	const chunks: Uint8Array[] = [];
	for (const part of parts.slice(0, 10_000)) {
		const stream = await doc.resolve(part);
		if (stream instanceof PdfStream) chunks.push(await doc.streamData(stream));
	}
	if (chunks.length === 1) return chunks[0];
	let total = 0;
	for (const chunk of chunks) total += chunk.length + 1;
	const data = new Uint8Array(total);
	let at = 0;
	for (const chunk of chunks) {
		data.set(chunk, at);
		at += chunk.length;
		data[at++] = 32;
	}
	return data;
}
