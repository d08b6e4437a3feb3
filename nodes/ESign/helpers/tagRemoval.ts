import type { IExecuteFunctions } from 'n8n-workflow';

import type { FormWidget, PdfText, Removal } from '../pdf';
import { throwFillProblems } from './fillValues';
import { writeFill } from './pdfFill';
import type { FillPlan } from './pdfFill';

/**
 * "Remove Tags From the PDF" and "Remove Form Fields From the PDF" (issue 42), the node's side: whether the file may
 * be rewritten at all, and what the writer's answer means for the upload and for the user. The writer
 * (pdf/write/tagRemover.ts for tags, pdf/write/widgetRemoval.ts for form fields) writes an incremental update; where
 * a rewrite is not safe it gives the original back with why, and the node says so in an execution hint: never a
 * failure for that alone (the tags or form boxes then stay visible).
 */

export type TagRemover = ReturnType<PdfText['tagRemover']>;

/** What a removal's hints say: which things, and what signers see where they stay. */
interface Wording {
	/** plural, as in "the text tags in …" */
	things: string;
	/** as in "and the other tags were removed" */
	others: string;
	one: string;
	keepVisible: string;
	/** what is placed for each thing left in place, and the others */
	placed: (many: boolean) => string;
}

const TAGS: Wording = {
	things: 'text tags',
	others: 'tags',
	one: 'A text tag',
	keepVisible: 'Signers see them and they stay in the signed PDF. To have them removed, save or print the PDF to PDF again; or write the tags in white.',
	placed: (many) => `${many ? 'Their fields are' : 'Its field is'} placed all the same`,
};

const FORM_FIELDS: Wording = {
	things: 'form fields',
	others: 'form fields',
	one: 'A form field',
	keepVisible: 'Signers see the PDF’s own empty form boxes under the eSign fields. To have them removed, save the PDF again from a PDF editor (not encrypted, not signed).',
	placed: (many) => `${many ? 'Their eSign fields are' : 'Its eSign field is'} placed all the same`,
};

/**
 * A rewritten file as the parts it goes up in: the original bytes (the binary as read, not copied), then the
 * incremental update. The upload joins them once, into the request's body (helpers/documents.ts).
 */
export interface RewrittenFile {
	original: Uint8Array;
	/** the update's pieces in order */
	update: Uint8Array[];
	/** the original's length plus the update's */
	length: number;
}

/** What a removal answers (pdf/write/incremental.ts), as far as the node reads it: the parts, never the joined
 * `bytes` (a copy of the whole file). */
type Answer = Omit<Removal, 'bytes'>;

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
 * Writes the update. Returns the file to upload, as its parts, when it changed, else undefined (upload the original,
 * as before). Tags left in place, or a whole file left as it is, are named in a hint.
 */
export async function finishTagRemoval(this: IExecuteFunctions, i: number, remover: TagRemover | string, where: string): Promise<RewrittenFile | undefined> {
	const result: Answer =
		typeof remover === 'string' ? { reason: remover, skipped: [], removed: 0, changed: false, original: new Uint8Array(), length: 0 } : await remover.write();
	return report.call(this, i, result, where, TAGS);
}

/**
 * "Remove Form Fields From the PDF": the file without the form widgets that became eSign fields (`widgets`, from
 * pdf.formFields()). Returns the file to upload, as its parts, when it changed, else undefined (upload the original);
 * a file left as it is (encrypted, signed, damaged), or widgets left in place, are named in a hint, as for tags.
 */
export async function finishWidgetRemoval(this: IExecuteFunctions, i: number, pdf: PdfText, widgets: FormWidget[], where: string): Promise<RewrittenFile | undefined> {
	const result = await pdf.removeWidgets(widgets);
	const skipped = result.skipped.map((widget) => ({ ...widget, text: `"${widget.text}"` }));
	// Field by field, not a spread: what the node reads of the result is the parts (see Answer).
	const { original, update, length, changed, reason, removed } = result;
	return report.call(this, i, { original, update, length, changed, reason, removed, skipped }, where, FORM_FIELDS);
}

/**
 * Create and Send with PDF Values: the filled file, with the tags marked on the plan's tag remover and `widgets` (form
 * fields that became eSign fields) taken out in the same update. A problem of the fill stops the item before the
 * upload; signer tags or form fields left in place are named in a hint, as without a fill.
 */
export async function finishFill(this: IExecuteFunctions, i: number, plan: FillPlan, widgets: FormWidget[], where: string): Promise<RewrittenFile | undefined> {
	const { removal, problems } = await writeFill(plan, widgets);
	throwFillProblems.call(this, i, where, problems);
	const others = removal.skipped.filter((left) => !plan.filled.includes(left.text) && !/^\{\{\s*data\s*:/i.test(left.text));
	const tags = others.filter((left) => left.text.startsWith('{{'));
	const fields = others.filter((left) => !left.text.startsWith('{{')).map((left) => ({ ...left, text: `"${left.text}"` }));
	const { original, update, length, changed, removed } = removal;
	if (tags.length) report.call(this, i, { original, update, length, changed, removed, skipped: tags }, where, TAGS);
	if (fields.length) report.call(this, i, { original, update, length, changed, removed, skipped: fields }, where, FORM_FIELDS);
	return changed && update ? { original, update, length } : undefined;
}

function report(this: IExecuteFunctions, i: number, result: Answer, where: string, words: Wording): RewrittenFile | undefined {
	if (result.reason !== undefined) {
		hint.call(this, `Item ${i + 1}: the ${words.things} in ${where} were not removed: ${result.reason}. The file was uploaded unchanged. ${words.keepVisible}`);
	} else if (result.skipped.length) {
		const many = result.skipped.length > 1;
		const count = many ? `${result.skipped.length} ${words.things}` : words.one;
		hint.call(
			this,
			`Item ${i + 1}: ${count} in ${where} could not be removed: ${shown(result.skipped)}. ${words.placed(many)}${result.removed ? `, and the other ${words.others} were removed` : ''}. ${words.keepVisible}`,
		);
	}
	return result.changed && result.update ? { original: result.original, update: result.update, length: result.length } : undefined;
}
