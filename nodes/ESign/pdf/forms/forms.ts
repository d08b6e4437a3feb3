import type { PdfDocument } from '../read/document';
import type { FieldWidget } from './formTree';
import { fieldOfOrphan, isWidget, walkFieldTree } from './formTree';
import type { Box } from '../text/layout';
import { PdfDict, PdfError, PdfName, PdfRef } from '../read/objects';
import type { PdfObject } from '../read/objects';
import type { PdfPage } from '../text/pages';
import { displayMatrix } from '../text/pages';
import { lookOf, rectOf } from './look';
import type { WidgetLook } from './look';
import { decodeTextString } from './textString';
import { MAX_ANNOTATIONS, MAX_OPTION_CHARS, MAX_OPTIONS, MAX_WIDGETS } from '../limits';

/**
 * A fillable PDF's form fields (AcroForm), one entry per widget as a viewer shows it: the field's full name, what
 * kind of field it is, its flags and where its widget sits on the displayed page.
 */

export type FormFieldKind = 'signature' | 'text' | 'textarea' | 'checkbox' | 'dropdown' | 'radio' | 'button';

export interface FormWidget {
	/** the field's full name: the partial names (/T) from the root of the field tree, joined by "." */
	name: string;
	kind: FormFieldKind;
	/** 1-based page the widget is on */
	page: number;
	/** the widget's rectangle on the displayed page (points, top-left origin, CropBox and Rotate applied) */
	box: Box;
	/** field flags, inherited through the field tree: Required (bit 2), ReadOnly (bit 1) */
	required: boolean;
	readOnly: boolean;
	/** annotation flags Hidden or NoView: a viewer does not show the widget */
	hidden: boolean;
	/** a combo or list box's choices, as displayed */
	options?: string[];
	/** internal: where the widget is in the file, for the writer that removes widgets (non-enumerable, so it is never
	 * compared, copied or output; the node's rules must not read it) */
	readonly source?: WidgetSource;
	/** how a value is drawn in it (non-enumerable, as `source`) */
	readonly look?: WidgetLook;
}


/** A widget's objects: its annotation dictionary and reference, and the references of its field nodes, root first. */
export interface WidgetSource {
	key: string | undefined;
	dict: PdfDict;
	parents: ReadonlyArray<string | undefined>;
}


// Field flags (12.7.3.1, 12.7.4) and annotation flags (12.5.3), as bit masks.
const READ_ONLY = 1 << 0;
const REQUIRED = 1 << 1;
const MULTILINE = 1 << 12;
const RADIO = 1 << 15;
const PUSHBUTTON = 1 << 16;
const HIDDEN = 1 << 1;
const NO_VIEW = 1 << 5;

/** The field type and flags as a kind; undefined for a widget whose field has no known type. */
function kindOf(type: string | undefined, flags: number): FormFieldKind | undefined {
	switch (type) {
		case 'Sig':
			return 'signature';
		case 'Tx':
			return flags & MULTILINE ? 'textarea' : 'text';
		case 'Btn':
			// Pushbutton wins over Radio, as in viewers.
			return flags & PUSHBUTTON ? 'button' : flags & RADIO ? 'radio' : 'checkbox';
		case 'Ch':
			// Combo boxes and list boxes alike: one choice among the options.
			return 'dropdown';
		default:
			return undefined;
	}
}

/** A flags entry as viewers read it: a non-negative integer, anything else 0. */
const flagsOf = (value: PdfObject | undefined): number =>
	typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;

/** Where each annotation is: the page whose /Annots lists it (the first, if several do), by reference. */
interface AnnotationPages {
	byKey: Map<string, number>;
	/** each page's annotations in order, for the widgets /Fields does not reach */
	lists: PdfObject[][];
}

async function annotationPages(doc: PdfDocument, pages: PdfPage[]): Promise<AnnotationPages> {
	const byKey = new Map<string, number>();
	const lists: PdfObject[][] = [];
	let count = 0;
	for (const page of pages) {
		const annots = await doc.get(page.dict, 'Annots');
		const list = Array.isArray(annots) ? annots : [];
		count += list.length;
		if (count > MAX_ANNOTATIONS) throw new PdfError('limit', `the PDF has more than ${MAX_ANNOTATIONS} annotations; the reader stops there`);
		for (const item of list) if (item instanceof PdfRef && !byKey.has(item.key)) byKey.set(item.key, page.number);
		lists.push(list);
	}
	return { byKey, lists };
}

/** The widget's /Rect on the displayed page; undefined unless it is four finite numbers. */
async function boxOf(doc: PdfDocument, widget: PdfDict, page: PdfPage): Promise<Box | undefined> {
	const rect = await rectOf(doc, widget);
	if (!rect) return undefined;
	const [x0, y0, x1, y1] = rect;
	const [a, b, c, d, e, f] = displayMatrix(page);
	const xs = [a * x0 + c * y0 + e, a * x1 + c * y1 + e];
	const ys = [b * x0 + d * y0 + f, b * x1 + d * y1 + f];
	return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
}

/** A choice field's /Opt: each entry a text (or name), or an [export, display] pair; as [export, display]. */
async function choicesOf(doc: PdfDocument, opt: PdfObject | undefined, name: string): Promise<Array<[string, string]>> {
	const list = await doc.resolve(opt);
	if (!Array.isArray(list)) return [];
	if (list.length > MAX_OPTIONS) throw new PdfError('limit', `the form field "${name}" has more than ${MAX_OPTIONS} choices; the reader stops there`);
	const text = async (value: PdfObject | undefined) => {
		const item = await doc.resolve(value);
		return item instanceof Uint8Array ? decodeTextString(item, MAX_OPTION_CHARS) : item instanceof PdfName ? item.name.slice(0, MAX_OPTION_CHARS) : undefined;
	};
	const choices: Array<[string, string]> = [];
	for (const item of list) {
		const entry = await doc.resolve(item);
		const exported = await text(Array.isArray(entry) ? entry[0] : entry);
		const shown = Array.isArray(entry) ? await text(entry[1] ?? entry[0]) : exported;
		if (exported !== undefined && shown !== undefined) choices.push([exported, shown]);
	}
	return choices;
}

async function describe(doc: PdfDocument, field: FieldWidget, page: PdfPage, form: PdfDict | undefined): Promise<FormWidget | undefined> {
	const flags = flagsOf(field.flags);
	const kind = kindOf(field.type, flags);
	const box = kind && (await boxOf(doc, field.dict, page));
	if (!kind || !box) return undefined;
	const annotationFlags = flagsOf(await doc.get(field.dict, 'F'));
	const widget: FormWidget = {
		name: field.name,
		kind,
		page: page.number,
		box,
		required: (flags & REQUIRED) !== 0,
		readOnly: (flags & READ_ONLY) !== 0,
		hidden: (annotationFlags & (HIDDEN | NO_VIEW)) !== 0,
	};
	const choices = kind === 'dropdown' ? await choicesOf(doc, field.opt, field.name) : [];
	if (kind === 'dropdown') widget.options = choices.map(([, shown]) => shown);
	const source: WidgetSource = { key: field.key, dict: field.dict, parents: field.parents };
	Object.defineProperty(widget, 'source', { value: source, enumerable: false });
	Object.defineProperty(widget, 'look', { value: await lookOf(doc, field, form, choices), enumerable: false });
	return widget;
}

/** Every widget of the document's form fields, in page order then field-tree order; [] when it has no form. */
export async function readFormFields(doc: PdfDocument, pages: PdfPage[]): Promise<FormWidget[]> {
	const catalog = await doc.resolve(doc.rootRef);
	const acroForm = catalog instanceof PdfDict ? await doc.dict(catalog, 'AcroForm') : undefined;
	const tree = await walkFieldTree(doc, acroForm?.get('Fields'), MAX_WIDGETS);
	const annotations = await annotationPages(doc, pages);
	const pageOfDict = new Map(pages.map((page) => [page.dict, page] as const));

	// The page a viewer draws the widget on: the one whose /Annots lists it; else its /P, if that is a page.
	const placed: Array<{ field: FieldWidget; page: PdfPage }> = [];
	const reached = new Set<string>();
	for (const field of tree) {
		if (field.key !== undefined) reached.add(field.key);
		const listed = field.key === undefined ? undefined : annotations.byKey.get(field.key);
		const p = listed === undefined ? await doc.get(field.dict, 'P') : undefined;
		const page = listed !== undefined ? pages[listed - 1] : p instanceof PdfDict ? pageOfDict.get(p) : undefined;
		if (page) placed.push({ field, page });
	}
	// Widgets only the pages list, with their field up the /Parent chain (viewers show them too).
	for (const [index, list] of annotations.lists.entries()) {
		for (const item of list) {
			const key = item instanceof PdfRef ? item.key : undefined;
			if (key !== undefined && (reached.has(key) || annotations.byKey.get(key) !== index + 1)) continue;
			const dict = await doc.resolve(item);
			if (!(dict instanceof PdfDict) || !isWidget(dict)) continue;
			const field = await fieldOfOrphan(doc, dict, key);
			if (!field) continue;
			if (placed.length >= MAX_WIDGETS) throw new PdfError('limit', `the PDF's form has more than ${MAX_WIDGETS} widgets; the reader stops there`);
			placed.push({ field, page: pages[index] });
		}
	}
	const widgets: FormWidget[] = [];
	for (const { field, page } of placed) {
		const widget = await describe(doc, field, page, acroForm);
		if (widget) widgets.push(widget);
	}
	// Page order; within a page the order above (field tree, then the orphans), as Array.sort is stable.
	return widgets.sort((a, b) => a.page - b.page);
}
