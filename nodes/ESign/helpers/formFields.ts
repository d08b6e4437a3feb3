import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Box, FormWidget, PdfText } from '../pdf';
import { FIELD_DEFAULT_SIZES } from './fieldSizes';
import { refusal } from './pdfFile';
import { round } from './placement';

/**
 * "Define Fields → From the PDF's Form Fields": a fillable PDF's own fields become eSign fields over their boxes.
 * Pure rules first (which widgets are usable, who fills each, the rows), then the node's side (reading the PDF,
 * the refusals and the hint).
 */

/** A "Form Field Signers" row: fields whose full name contains `contains` (any case; empty: every field) → signer n. */
export interface FormSignerRule {
	contains: string;
	signer: number;
}

export interface LeftOut {
	name: string;
	why: string;
}

/** The form field kinds eSign has a field type for. */
const FIELD_TYPE_OF: Partial<Record<FormWidget['kind'], string>> = {
	signature: 'signature',
	text: 'text',
	textarea: 'textarea',
	checkbox: 'checkbox',
	dropdown: 'dropdown',
};

/** Why a widget is left out, or undefined when it becomes a field. */
function leftOutBecause(widget: FormWidget): string | undefined {
	if (widget.kind === 'button') return 'a push button: it holds no value to fill in';
	if (widget.kind === 'radio') return 'radio buttons: eSign has no radio-button field (use a dropdown or checkboxes)';
	if (widget.hidden) return 'hidden: a PDF viewer does not show it';
	if (widget.readOnly) return 'read-only: no one can fill it in';
	if (widget.kind === 'dropdown' && !widget.options?.length) return 'a dropdown with no choices';
	return FIELD_TYPE_OF[widget.kind] ? undefined : `a ${widget.kind} field, which eSign has no field type for`;
}

/** The widgets that become fields, and the fields left out (one entry per name: a radio group has many widgets). */
export function usableWidgets(widgets: FormWidget[]): { usable: FormWidget[]; leftOut: LeftOut[] } {
	const usable: FormWidget[] = [];
	const leftOut: LeftOut[] = [];
	for (const widget of widgets) {
		const why = leftOutBecause(widget);
		if (!why) usable.push(widget);
		else if (!leftOut.some((entry) => entry.name === widget.name)) leftOut.push({ name: widget.name, why });
	}
	return { usable, leftOut };
}

/** Who fills a field: the first rule whose text is in its name (an empty text matches every name); with no rule
 * matching, the only signer when there is one. */
export function signerOf(name: string, rules: FormSignerRule[], signerCount: number): number | undefined {
	const lower = name.toLowerCase();
	const rule = rules.find((r) => lower.includes(r.contains.trim().toLowerCase()));
	if (rule) return rule.signer;
	return signerCount === 1 ? 1 : undefined;
}

/** The field over a widget: its own box, or the type's default size with its bottom-left corner on the box's. */
export function onWidget(box: Box, type: string, size: 'field' | 'default') {
	if (size === 'default') {
		const { width, height } = FIELD_DEFAULT_SIZES[type];
		return { x: round(box.left), y: round(box.bottom - height), width, height };
	}
	return { x: round(box.left), y: round(box.top), width: round(box.right - box.left), height: round(box.bottom - box.top) };
}

export const quoteNames = (names: string[], most = 10) =>
	names.slice(0, most).map((name) => `"${name}"`).join(', ') + (names.length > most ? ` and ${names.length - most} more` : '');

/**
 * Field rows from usable widgets. `signerRow(n)` gives the row's signer for signer n (1 = first) or an error;
 * `signerFor(name)` which signer fills a field (undefined: no rule says). Unassigned fields are returned by name.
 */
export function formRows(
	widgets: FormWidget[],
	size: 'field' | 'default',
	signerFor: (name: string) => number | undefined,
	signerRow: (n: number) => { row?: IDataObject; error?: string },
): { rows: IDataObject[]; unassigned: string[]; errors: string[] } {
	const rows: IDataObject[] = [];
	const unassigned: string[] = [];
	const errors: string[] = [];
	for (const widget of widgets) {
		const type = FIELD_TYPE_OF[widget.kind] as string;
		const label = `Form field "${widget.name}" on page ${widget.page}`;
		const n = signerFor(widget.name);
		if (n === undefined) {
			if (!unassigned.includes(widget.name)) unassigned.push(widget.name);
			continue;
		}
		const signer = signerRow(n);
		if (!signer.row) {
			errors.push(`${label}: ${signer.error}`);
			continue;
		}
		const place = onWidget(widget.box, type, size);
		rows.push({
			...signer.row,
			field_type: type,
			page_number: widget.page,
			position_x: place.x,
			position_y: place.y,
			width: place.width,
			height: place.height,
			// A signature is what a signer is there for: required even where the PDF (as most do) leaves /Sig unflagged.
			is_required: widget.required || type === 'signature',
			field_name: widget.name,
			...(type === 'dropdown' ? { options: widget.options } : {}),
			_topLeft: true,
			_label: label,
		});
	}
	return { rows, unassigned, errors };
}

/** The "Form Field Signers" rows, checked: each needs a signer number from 1. */
export function readFormRules(this: IExecuteFunctions, i: number): FormSignerRule[] {
	const raw = ((this.getNodeParameter('formFieldSigners', i, {}) as IDataObject).rule ?? []) as IDataObject[];
	return raw.map((row, index) => {
		const signer = Number(row.signer);
		if (!Number.isInteger(signer) || signer < 1) {
			throw new NodeOperationError(this.getNode(), `"Form Field Signers" row ${index + 1}: Signer must be a whole number from 1, got "${row.signer}"`, {
				itemIndex: i,
				description: 'Signer 1 is the first signer, 2 the second, …',
			});
		}
		return { contains: String(row.nameContains ?? ''), signer };
	});
}

const ADVICE = 'Place the fields with text tags ({{signature:1}} in the document) or with coordinates instead, or save the PDF from a form editor (Acrobat, LibreOffice) with its form fields.';

export interface FormInput {
	size: 'field' | 'default';
	/** the "Form Field Signers" rows (readFormRules), checked before the file is read */
	rules: FormSignerRule[];
	signerCount: () => number | Promise<number>;
	signerRow: (n: number) => { row?: IDataObject; error?: string } | Promise<{ row?: IDataObject; error?: string }>;
	/** fields filled from PDF Values (drawn into the page): no longer fields for the signers */
	exclude?: ReadonlySet<string>;
}

/**
 * One item's field rows from the PDF's form fields, before any write: a PDF with no usable field, a rule naming a
 * signer there is not, and a field no rule assigns each stop the item; the fields left out are one hint. With the
 * rows, the widgets they came from.
 */
export async function formFieldRows(
	this: IExecuteFunctions,
	i: number,
	pdf: PdfText,
	where: string,
	input: FormInput,
): Promise<{ rows: IDataObject[]; widgets: FormWidget[] }> {
	let widgets: FormWidget[] = [];
	let failure: unknown;
	try {
		widgets = await pdf.formFields();
	} catch (cause) {
		failure = cause;
	}
	if (failure !== undefined) throw refusal.call(this, i, where, failure);
	const { usable, leftOut } = usableWidgets(widgets.filter((widget) => !input.exclude?.has(widget.name)));
	const listed = leftOut.map(({ name, why }) => `"${name}" (${why})`).join('; ');
	if (!usable.length) {
		const pages = `${pdf.pages.length} page${pdf.pages.length === 1 ? '' : 's'}`;
		const message = widgets.length
			? `${where} has no form field a signer can fill in: ${listed}`
			: `${where} has no form fields (${pages}): it is not a fillable PDF`;
		throw new NodeOperationError(this.getNode(), message, { itemIndex: i, description: ADVICE });
	}
	const rules = input.rules;
	const count = await input.signerCount();
	const signers = new Map<number, { row?: IDataObject; error?: string }>();
	for (const n of [...new Set([...rules.map((rule) => rule.signer), ...(count === 1 ? [1] : [])])]) signers.set(n, await input.signerRow(n));
	const built = formRows(usable, input.size, (name) => signerOf(name, rules, count), (n) => signers.get(n) ?? {});
	if (built.errors.length) {
		throw new NodeOperationError(this.getNode(), `"Form Field Signers" names a signer there is not: ${built.errors[0]}`, {
			itemIndex: i,
			description: built.errors.join('\n'),
		});
	}
	if (built.unassigned.length) {
		const many = built.unassigned.length > 1;
		throw new NodeOperationError(
			this.getNode(),
			`${many ? `${built.unassigned.length} form fields` : 'A form field'} in ${where} ${many ? 'have' : 'has'} no signer: ${quoteNames(built.unassigned)}`,
			{
				itemIndex: i,
				description: count === 0 ? 'The document has no signers yet: add them first (Signer → Add).' : `With ${count} signers, "Form Field Signers" says who fills each form field: add a row whose "Field Name Contains" is part of ${many ? 'these names' : 'this name'} (e.g. "${built.unassigned[0].split(/[\s._]/)[0]}"), or a last row with it empty for every field no other row matches.`,
			},
		);
	}
	if (leftOut.length) {
		this.addExecutionHints({
			message: `Item ${i + 1}: ${leftOut.length === 1 ? '1 form field of the PDF was' : `${leftOut.length} form fields of the PDF were`} left out: ${listed}`,
			type: 'info',
			location: 'outputPane',
		});
	}
	// The widgets that became fields (each has a row): the writer takes them out of the upload.
	return { rows: built.rows, widgets: usable };
}
