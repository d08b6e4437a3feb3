import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PdfText, TagRemover } from '../pdf';
import type { CoordinateSettings } from './fields';
import { buildFields, coordinateSettings, fieldsError, isAnchorRow, readFieldRows } from './fields';
import { formFieldRows, readFormRules } from './formFields';
import { noTagsError, openPdf, readPdf, tagRows } from './pdfFile';
import { finishFill, finishTagRemoval, finishWidgetRemoval, startTagRemoval } from './tagRemoval';
import type { RewrittenFile } from './tagRemoval';
import { throwFillProblems } from './fillValues';
import { planFill } from './pdfFill';
import type { FillPlan, FillValues } from './pdfFill';

/**
 * One item's fields, from whichever "Define Fields" it uses, checked and placed before any write: the rows (UI or
 * JSON, by coordinates or anchor texts), the PDF's text tags or its form fields. The file is read when the fields need it (tags,
 * anchor texts, bottom-left coordinates, or `always`); its pages then convert and check every field.
 */
export interface PlanInput {
	options: IDataObject;
	/** The document's file; called at most once. */
	file: () => Promise<{ bytes: Buffer; where: string } | undefined>;
	/** Read the file even when no field needs it, to check fields against its pages (the file is in hand). */
	always?: boolean;
	/** How many signers the document has (form fields: with one, that signer fills every field). */
	signerCount: () => number | Promise<number>;
	/** The row signer of tag signer n (1 = first); form fields' signer numbers mean the same. */
	tagSigner: (n: number) => { row?: IDataObject; error?: string } | Promise<{ row?: IDataObject; error?: string }>;
	resolveSigner: (row: IDataObject) => { id?: number; error?: string };
	firstNumber?: number;
	/** Create and Send: the tags' glyphs leave the file it uploads (the option "Remove Tags From the PDF"). */
	removeTags?: boolean;
	/** Create and Send: the form fields that became fields leave the file it uploads ("Remove Form Fields From the PDF"). */
	removeFormFields?: boolean;
	/** Create and Send's PDF Values: drawn into the file it uploads, in the same update (helpers/pdfFill.ts). */
	fill?: FillValues;
}

export async function planFields(
	this: IExecuteFunctions,
	i: number,
	input: PlanInput,
): Promise<{ fields: IDataObject[]; rowCount: number; upload?: RewrittenFile }> {
	const source = this.getNodeParameter('fieldsInput', i);
	const tags = source === 'tags';
	const form = source === 'formFields';
	let rows = tags || form ? [] : readFieldRows.call(this, i);
	const anchors = rows.filter(isAnchorRow).map((row) => String(row.anchor_text ?? ''));
	const settings: CoordinateSettings = coordinateSettings.call(this, i, input.options);
	// The rewritten file is written last, once every field is placed (from the tags' positions read before) and checked.
	let finishRemoval: (() => Promise<RewrittenFile | undefined>) | undefined;
	// PDF Values: an empty object fills nothing (the option's default), so the file is read only when there are values.
	const values = input.fill && Object.keys(input.fill).length ? input.fill : undefined;
	/** The fill, checked before anything is written; its problems stop the item before the upload. */
	const fill = async (pdf: PdfText, where: string, tags?: TagRemover): Promise<FillPlan | undefined> => {
		if (!values) return undefined;
		const plan = await planFill(pdf, values, tags);
		throwFillProblems.call(this, i, where, plan.problems);
		return plan;
	};
	if (form) {
		const rules = readFormRules.call(this, i); // checked before the file is read (Replace All downloads it)
		const file = await input.file();
		if (!file) {
			throw new NodeOperationError(this.getNode(), 'The document has no file to read form fields from', {
				itemIndex: i,
				description: 'Form fields are read from the document’s PDF: upload one, or place the fields with coordinates.',
			});
		}
		const pdf = (await openPdf.call(this, i, file.bytes, file.where, true, 'form fields')) as PdfText;
		settings.pages = pdf.pages;
		const size = input.options.formFieldSize === 'default' ? 'default' : 'field';
		// Form fields filled from the values are drawn into the page: signers get only the fields that are left.
		const plan = await fill(pdf, file.where);
		const filled = new Set(plan?.filled);
		const read = await formFieldRows.call(this, i, pdf, file.where, { size, rules, signerCount: input.signerCount, signerRow: input.tagSigner, exclude: filled });
		rows = read.rows;
		const removeWidgets = input.removeFormFields ? read.widgets : [];
		if (plan) finishRemoval = async () => await finishFill.call(this, i, plan, removeWidgets, file.where);
		else if (input.removeFormFields) finishRemoval = async () => await finishWidgetRemoval.call(this, i, pdf, read.widgets, file.where);
	}
	const needsText = tags || anchors.some((anchor) => anchor.trim() !== '');
	const needsPdf = needsText || values !== undefined;
	if (!form && (needsPdf || input.always || settings.origin === 'bottomLeft')) {
		// Page sizes only improve coordinates: when the file cannot be had, they are placed as before.
		const file = needsPdf ? await input.file() : await input.file().catch(() => undefined);
		const pdf = file ? await openPdf.call(this, i, file.bytes, file.where, needsPdf, needsText ? undefined : 'form fields or data tags') : undefined;
		// Coordinates alone trust the pages only of a file read as written: a repaired one may lack pages the site sees.
		settings.pages = pdf && (needsText || !pdf.repaired) ? pdf.pages : undefined;
		if (pdf && file && needsText) {
			const remover = tags && input.removeTags ? await startTagRemoval(pdf) : undefined;
			const reading = await readPdf.call(this, i, pdf, file.where, { tags, anchors, remover: typeof remover === 'string' ? undefined : remover });
			settings.anchors = reading.anchors;
			if (tags) {
				if (!reading.tags.length) throw noTagsError.call(this, i, file.where, pdf, reading);
				const size = input.options.tagFieldSize === 'default' ? 'default' : 'tag';
				const signers = new Map<number, { row?: IDataObject; error?: string }>();
				for (const tag of reading.tags) {
					if (tag.spec && !signers.has(tag.spec.signer)) signers.set(tag.spec.signer, await input.tagSigner(tag.spec.signer));
				}
				const built = tagRows(reading.tags, size, (n) => signers.get(n) ?? {});
				if (built.errors.length) {
					throw new NodeOperationError(
						this.getNode(),
						`${built.errors.length === 1 ? 'A text tag' : `${built.errors.length} text tags`} in ${file.where} cannot be used: ${built.errors[0]}`,
						{ itemIndex: i, description: built.errors.join('\n') },
					);
				}
				rows = built.rows;
				if (remover !== undefined) finishRemoval = async () => await finishTagRemoval.call(this, i, remover, file.where);
			}
			// The values go through the same tag remover as the signer tags: one update for both.
			const plan = await fill(pdf, file.where, typeof remover === 'object' ? remover : undefined);
			if (plan) finishRemoval = async () => await finishFill.call(this, i, plan, [], file.where);
		} else if (pdf && file) {
			const plan = await fill(pdf, file.where);
			if (plan) finishRemoval = async () => await finishFill.call(this, i, plan, [], file.where);
		}
	}
	const planned = buildFields(rows, settings, input.resolveSigner, input.firstNumber);
	if (planned.errors.length && form) {
		throw new NodeOperationError(this.getNode(), `A field from the PDF's form fields does not fit: ${planned.errors[0]}`, {
			itemIndex: i,
			description: `${planned.errors.join('\n')}\nSet Options → Form Field Size to the form field's box.`,
		});
	}
	if (planned.errors.length) {
		throw tags
			? new NodeOperationError(this.getNode(), `A field from the PDF's text tags does not fit: ${planned.errors[0]}`, {
					itemIndex: i,
					description: `${planned.errors.join('\n')}\nMove the tag, or set Options → Tag Field Size to the tag's box.`,
				})
			: fieldsError.call(this, i, planned.errors);
	}
	if (planned.warnings.length) {
		this.addExecutionHints(...planned.warnings.map((message) => ({ message: `Item ${i + 1}, ${message}`, type: 'warning' as const, location: 'outputPane' as const })));
	}
	const upload = finishRemoval ? await finishRemoval() : undefined;
	return { fields: planned.fields, rowCount: rows.length, upload };
}
