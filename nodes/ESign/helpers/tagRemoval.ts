import type { IExecuteFunctions } from 'n8n-workflow';

import type { PdfText } from '../pdf';

/**
 * "Remove Tags From the PDF" (issue 42), the node's side: whether the file may be rewritten at all, and what the
 * writer's answer means for the upload and for the user. The writer (pdf/rewrite.ts) marks each tag's glyphs as the
 * tags are read and writes an incremental update; where a rewrite is not safe it gives the original back with why,
 * and the node says so in an execution hint: never a failure for that alone (the tags then stay visible).
 */

export type TagRemover = ReturnType<PdfText['tagRemover']>;

const KEEP_VISIBLE =
	'Signers see them and they stay in the signed PDF. To have them removed, save or print the PDF to PDF again; or write the tags in white.';

function hint(this: IExecuteFunctions, message: string): void {
	this.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
}

/**
 * A remover for the tags of `pdf`, or why the file must go up unchanged (encrypted, signed, damaged): then its lines
 * are read without glyph sources, as before.
 */
export async function startTagRemoval(pdf: PdfText): Promise<TagRemover | string> {
	const blocker = await pdf.rewriteBlocker();
	return blocker ?? pdf.tagRemover();
}

const shown = (list: Array<{ page: number; text: string; reason: string }>) =>
	list
		.slice(0, 5)
		.map((tag) => `${tag.text} on page ${tag.page} (${tag.reason})`)
		.join('; ') + (list.length > 5 ? `; and ${list.length - 5} more` : '');

/**
 * Writes the update. Returns the bytes to upload when the file changed, else undefined (upload the original, as
 * before). Tags left in place, or a whole file left as it is, are named in a hint.
 */
export async function finishTagRemoval(this: IExecuteFunctions, i: number, remover: TagRemover | string, where: string): Promise<Buffer | undefined> {
	const result = typeof remover === 'string' ? { reason: remover, skipped: [], removed: 0, changed: false, bytes: new Uint8Array() } : await remover.write();
	if (result.reason !== undefined) {
		hint.call(this, `Item ${i + 1}: the text tags in ${where} were not removed: ${result.reason}. The file was uploaded unchanged. ${KEEP_VISIBLE}`);
	} else if (result.skipped.length) {
		const count = result.skipped.length === 1 ? 'A text tag' : `${result.skipped.length} text tags`;
		hint.call(
			this,
			`Item ${i + 1}: ${count} in ${where} could not be removed: ${shown(result.skipped)}. ${result.skipped.length === 1 ? 'Its field is' : 'Their fields are'} placed all the same${result.removed ? ', and the other tags were removed' : ''}. ${KEEP_VISIBLE}`,
		);
	}
	return result.changed ? Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.length) : undefined;
}
