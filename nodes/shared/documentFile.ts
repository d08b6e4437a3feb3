/** GET /documents/{id}/file answers the file as base64 JSON. */
export interface DocumentFile {
	content?: string;
	filename?: string;
	type?: string;
	encoding?: string;
}

/** The file's bytes, or undefined when the answer holds no content. */
export function decodeDocumentFile(file: DocumentFile | undefined): Buffer | undefined {
	if (typeof file?.content !== 'string') return undefined;
	const base64 = !file.encoding || file.encoding.toLowerCase() === 'base64';
	return Buffer.from(file.content, base64 ? 'base64' : 'utf8');
}
