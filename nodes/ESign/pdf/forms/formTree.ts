import type { PdfDocument } from '../read/document';
import { PdfDict, PdfError, PdfRef, isName, isNumber } from '../read/objects';
import type { PdfObject } from '../read/objects';
import { decodeTextString } from './textString';
import { MAX_FIELD_DEPTH, MAX_FIELD_NODES, MAX_NAME_CHARS } from '../limits';

/**
 * The walk of a form's field tree (ISO 32000-1, 12.7.3): /AcroForm /Fields, each node's /Kids, the partial names
 * (/T) joined by "." into full names, and the inheritable /FT, /Ff and /Opt. What it finds is each widget's
 * dictionary with its field's name and inherited entries; forms.ts places and describes them.
 */

/** A widget with what its field says about it, gathered from the root of the tree (or up its /Parent chain). */
/** What a field node gives its descendants: its full name and the inheritable entries (12.7.3.1, 12.7.3.3). */
interface Inherited {
	name: string;
	type: string | undefined;
	flags: number;
	opt: PdfObject | undefined;
	/** the variable-text entries: default appearance, quadding, and a text field's /MaxLen */
	da: PdfObject | undefined;
	q: PdfObject | undefined;
	maxLen: PdfObject | undefined;
}

export interface FieldWidget extends Inherited {
	dict: PdfDict;
	/** the widget's reference ('num gen'), or undefined for a widget written inline */
	key: string | undefined;
	/** the references of the field nodes above the widget, root first (undefined for a node written inline); for
	 * the writer that takes widgets out of the file (a field leaves its parent's /Kids or /AcroForm /Fields) */
	parents: Array<string | undefined>;
}

const ROOT: Inherited = { name: '', type: undefined, flags: 0, opt: undefined, da: undefined, q: undefined, maxLen: undefined };

const joinName = (parent: string, partial: string | undefined) =>
	(partial === undefined ? parent : parent ? `${parent}.${partial}` : partial).slice(0, MAX_NAME_CHARS);

/** A node's own /T, decoded; undefined when it has none (it then adds nothing to the name). */
async function partialName(doc: PdfDocument, dict: PdfDict): Promise<string | undefined> {
	const t = await doc.get(dict, 'T');
	return t instanceof Uint8Array ? decodeTextString(t, MAX_NAME_CHARS) : undefined;
}

/** What a node sets for its descendants: its own /FT, /Ff, /Opt, /DA, /Q and /MaxLen, else its parent's. */
async function inherit(doc: PdfDocument, dict: PdfDict, parent: Inherited, name: string): Promise<Inherited> {
	const type = await doc.get(dict, 'FT');
	const flags = await doc.get(dict, 'Ff');
	return {
		name,
		type: isName(type) ? type.name : parent.type,
		flags: isNumber(flags) ? flags : parent.flags,
		opt: dict.get('Opt') ?? parent.opt,
		da: dict.get('DA') ?? parent.da,
		q: dict.get('Q') ?? parent.q,
		maxLen: dict.get('MaxLen') ?? parent.maxLen,
	};
}

export const isWidget = (dict: PdfDict) => isName(dict.get('Subtype'), 'Widget');

/** Every widget reachable from /AcroForm /Fields, in tree order; a node reached twice (a cycle) is read once. */
export async function walkFieldTree(doc: PdfDocument, fields: PdfObject | undefined, maxWidgets: number): Promise<FieldWidget[]> {
	const roots = await doc.resolve(fields);
	if (!Array.isArray(roots)) return [];
	const widgets: FieldWidget[] = [];
	const seen = new Set<string>();
	let nodes = 0;
	const visit = async (node: PdfObject, parent: Inherited, depth: number, parents: Array<string | undefined>): Promise<void> => {
		if (depth > MAX_FIELD_DEPTH) throw new PdfError('damaged', `the form-field tree of the PDF is nested more than ${MAX_FIELD_DEPTH} deep`);
		if (++nodes > MAX_FIELD_NODES) throw new PdfError('limit', `the PDF's form has more than ${MAX_FIELD_NODES} field entries; the reader stops there`);
		const key = node instanceof PdfRef ? node.key : undefined;
		if (key !== undefined) {
			if (seen.has(key)) return;
			seen.add(key);
		}
		const dict = await doc.resolve(node);
		if (!(dict instanceof PdfDict)) return;
		const own = await inherit(doc, dict, parent, joinName(parent.name, await partialName(doc, dict)));
		const kids = await doc.get(dict, 'Kids');
		if (Array.isArray(kids) && kids.length > 0) {
			if (kids.length > MAX_FIELD_NODES) throw new PdfError('limit', `a form field of the PDF has more than ${MAX_FIELD_NODES} kids; the reader stops there`);
			for (const kid of kids) await visit(kid, own, depth + 1, [...parents, key]);
			return;
		}
		// A terminal node: a field whose one widget is merged in its dictionary, or a widget of its parent field.
		if (!isWidget(dict)) return;
		if (widgets.length >= maxWidgets) throw new PdfError('limit', `the PDF's form has more than ${maxWidgets} widgets; the reader stops there`);
		widgets.push({ dict, key, ...own, parents });
	};
	if (roots.length > MAX_FIELD_NODES) throw new PdfError('limit', `the PDF's form has more than ${MAX_FIELD_NODES} fields; the reader stops there`);
	for (const root of roots) await visit(root, ROOT, 0, []);
	return widgets;
}

/**
 * A widget that /Fields does not reach (some producers list it only in the page's /Annots): its field found up its
 * /Parent chain, as viewers read it (the nearest /FT, /Ff and /Opt; names from the top down). Undefined when the
 * chain names no field type.
 */
export async function fieldOfOrphan(doc: PdfDocument, dict: PdfDict, key: string | undefined): Promise<FieldWidget | undefined> {
	const chain: PdfDict[] = [];
	const seen = new Set<PdfDict>();
	let node: PdfObject | undefined = dict;
	while (node instanceof PdfDict && !seen.has(node) && chain.length <= MAX_FIELD_DEPTH) {
		seen.add(node);
		chain.push(node);
		node = await doc.get(node, 'Parent');
	}
	let field: Inherited = ROOT;
	for (const node of chain.reverse()) field = await inherit(doc, node, field, joinName(field.name, await partialName(doc, node)));
	// Only the page's /Annots reaches such a widget: no field node holds it in a /Kids the writer would edit.
	return field.type === undefined ? undefined : { dict, key, ...field, parents: [] };
}
