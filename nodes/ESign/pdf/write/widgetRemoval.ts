import type { PdfDocument } from '../read/document';
import type { FormWidget, WidgetSource } from '../forms/forms';
import { firstFreeNumber, updateOf, withParts } from './incremental';
import type { Removal, UpdateObject } from './incremental';
import { MAX_FIELD_DEPTH, MAX_REF_HOPS } from '../limits';
import { PdfDict, PdfRef } from '../read/objects';
import type { PdfObject } from '../read/objects';
import type { PdfPage } from '../text/pages';
import { updateBlocker } from './safety';

/**
 * Form widgets that became eSign fields, taken out of the file (issue 42): the objects an incremental update
 * redefines so that no page lists them in /Annots (what viewers draw) and no field tree holds them (what a form
 * editor lists). A field node left with no kids leaves its own parent's /Kids (or /AcroForm /Fields) in turn.
 * Widgets not given are left as they are. Nothing else changes: the widget dictionaries stay in the file, unused.
 */

/** An entry of a list (/Annots, /Kids, /Fields) as what it is: a reference's key, or a direct dictionary itself. */
type Identity = string | PdfDict;
const identityOf = (item: PdfObject): Identity | undefined => (item instanceof PdfRef ? item.key : item instanceof PdfDict ? item : undefined);

const refOf = (key: string): PdfRef => {
	const [num, gen] = key.split(' ').map(Number);
	return new PdfRef(num, gen);
};

/** Working copies of the objects the update redefines, by key: a dictionary, or an array written as its own object. */
class Redefinitions {
	private readonly objects = new Map<string, { ref: PdfRef; value: PdfDict | PdfObject[] }>();

	constructor(private readonly doc: PdfDocument) {}

	/**
	 * The indirect dictionary `ref` names and the object that holds it: `ref` itself, or the end of a chain of
	 * objects that are only references (`13 0 obj 15 0 R`), which must be redefined where the dictionary is.
	 */
	private async dict(ref: PdfRef): Promise<{ ref: PdfRef; dict: PdfDict } | undefined> {
		let at = ref;
		for (let hops = 0; hops < MAX_REF_HOPS; hops++) {
			const value = this.objects.get(at.key)?.value ?? (await this.doc.fetch(at));
			if (value instanceof PdfDict) return { ref: at, dict: value };
			if (!(value instanceof PdfRef)) return undefined;
			at = value;
		}
		return undefined;
	}

	/**
	 * Drops the entries in `drop` from the array `name` of object `ref`'s dictionary (through the direct
	 * dictionaries `path`, e.g. the catalog's direct /AcroForm). An indirect array is redefined on its own, else the
	 * object holding it. Returns how many entries are left, or undefined when nothing was dropped.
	 */
	async remove(named: PdfRef, path: string[], name: string, drop: Set<Identity>): Promise<number | undefined> {
		const found = await this.dict(named);
		const ref = found?.ref as PdfRef;
		const top = found?.dict;
		let holder = top;
		for (const step of path) holder = holder?.get(step) instanceof PdfDict ? (holder.get(step) as PdfDict) : undefined;
		const raw = holder?.get(name);
		const list = raw instanceof PdfRef ? (this.objects.get(raw.key)?.value ?? (await this.doc.fetch(raw))) : raw;
		if (!top || !Array.isArray(list)) return undefined;
		const kept = list.filter((item) => {
			const id = identityOf(item);
			return id === undefined || !drop.has(id);
		});
		if (kept.length === list.length) return undefined;
		if (raw instanceof PdfRef) {
			this.objects.set(raw.key, { ref: raw, value: kept });
			return kept.length;
		}
		// A new object and a new direct dictionary for each step on the way (the parsed originals are shared and fixed).
		const chain = [top];
		for (const step of path) chain.push(chain[chain.length - 1].get(step) as PdfDict);
		let value = chain[path.length].with(name, kept);
		for (let at = path.length - 1; at >= 0; at--) value = chain[at].with(path[at], value);
		this.objects.set(ref.key, { ref, value });
		return kept.length;
	}

	list(): UpdateObject[] {
		return [...this.objects.values()].map(({ ref, value }) => ({ num: ref.num, gen: ref.gen, value }));
	}
}

/** Where /AcroForm /Fields is: the AcroForm object itself, or the catalog holding a direct AcroForm. */
async function fieldsHolder(doc: PdfDocument): Promise<{ ref: PdfRef; path: string[] } | undefined> {
	const root = doc.rootRef;
	if (!(root instanceof PdfRef)) return undefined;
	const catalog = await doc.resolve(root);
	const acroForm = catalog instanceof PdfDict ? catalog.get('AcroForm') : undefined;
	if (acroForm instanceof PdfRef) return { ref: acroForm, path: [] };
	return acroForm instanceof PdfDict ? { ref: root, path: ['AcroForm'] } : undefined;
}

/**
 * The objects that take `widgets` out of the file (each page's /Annots, the field tree), and the widgets that stay
 * with why. Bounded by what the reader already read: each list is filtered once, the tree climbed at most as deep
 * as the reader walked it.
 */
export async function widgetObjects(doc: PdfDocument, pages: PdfPage[], widgets: FormWidget[]): Promise<{ objects: UpdateObject[]; removed: number; skipped: Removal['skipped'] }> {
	const redefined = new Redefinitions(doc);
	const skipped: Removal['skipped'] = [];
	// Each widget's object as lists name it: its reference, or the dictionary itself when written inline.
	const sources = widgets.map((widget) => {
		const source = widget.source as WidgetSource | undefined;
		return { widget, source, id: source && (source.key ?? source.dict) };
	});
	const gone = new Set<Identity>();
	for (const { widget, id } of sources) {
		if (id !== undefined) gone.add(id);
		else skipped.push({ page: widget.page, text: widget.name, reason: 'the reader did not say where it is in the file' });
	}

	// What viewers draw: each page's /Annots without them.
	const listed = new Set<Identity>();
	const onPages = new Set<Identity>();
	for (const page of pages) {
		const annots = page.dict.get('Annots');
		const list = annots instanceof PdfRef ? await doc.resolve(annots) : annots;
		if (!Array.isArray(list)) continue;
		const here = list.map(identityOf).filter((id): id is Identity => id !== undefined && gone.has(id));
		for (const id of here) onPages.add(id);
		// A page written inline cannot be redefined on its own: its widgets stay (named below).
		if (!here.length || !page.ref) continue;
		await redefined.remove(page.ref, [], 'Annots', gone);
		for (const id of here) listed.add(id);
	}
	// A widget no page lists (the reader placed it by its /P; no viewer draws it) leaves with the field tree alone.
	// One a page lists that could not be rewritten stays whole: taken out of the tree only, a viewer would still
	// draw it, no longer a field.
	const leave: typeof sources = [];
	for (const entry of sources) {
		const { widget, id } = entry;
		if (id === undefined) continue;
		if (listed.has(id) || !onPages.has(id)) leave.push(entry);
		else skipped.push({ page: widget.page, text: widget.name, reason: 'no page that lists it could be rewritten' });
	}

	// The field tree, deepest containers first: a node left with no kids leaves its parent's list in turn. The reader's
	// walk read each node once (cycles cut there), so a node has one chain of parents and one depth.
	const drops = new Map<string, { depth: number; drop: Set<Identity> }>();
	const rootDrop = new Set<Identity>();
	// Every field node that leaves the tree, for /AcroForm /CO (the calculation order lists fields by reference).
	const leaving = new Set<Identity>();
	const dropFrom = (chain: ReadonlyArray<string | undefined>, item: Identity): void => {
		leaving.add(item);
		const depth = chain.length - 1;
		const key = chain[depth];
		if (depth < 0) rootDrop.add(item);
		// A field node written inline cannot be redefined on its own: the tree above it stays as it is.
		if (key === undefined) return;
		const entry = drops.get(key) ?? { depth, drop: new Set<Identity>() };
		entry.drop.add(item);
		drops.set(key, entry);
	};
	for (const { source, id } of leave) if (source && id !== undefined) dropFrom(source.parents, id);
	const chains = new Map<string, ReadonlyArray<string | undefined>>();
	for (const { source } of leave) source?.parents.forEach((key, at) => key !== undefined && chains.set(key, source.parents.slice(0, at)));
	// The reader's walk stops at MAX_FIELD_DEPTH, so no container is deeper; each is filtered once.
	for (let depth = MAX_FIELD_DEPTH; depth >= 0; depth--) {
		for (const [key, entry] of drops) {
			if (entry.depth !== depth) continue;
			const left = await redefined.remove(refOf(key), [], 'Kids', entry.drop);
			if (left === 0) dropFrom(chains.get(key) ?? [], key);
		}
	}
	const holder = leaving.size ? await fieldsHolder(doc) : undefined;
	if (holder && rootDrop.size) await redefined.remove(holder.ref, holder.path, 'Fields', rootDrop);
	// A calculation order naming a field that is gone would have a viewer look for it: it leaves /CO too.
	if (holder) await redefined.remove(holder.ref, holder.path, 'CO', leaving);
	return { objects: redefined.list(), removed: new Set(leave.map(({ id }) => id)).size, skipped };
}

/**
 * The upload without `widgets`: the original followed by one update, or the original and why. `write` lets the tag
 * remover take the objects into its own update (a page redefined once with both changes); by default they are
 * written alone.
 */
export async function removeWidgets(
	doc: PdfDocument,
	pages: PdfPage[],
	widgets: FormWidget[],
	write?: (objects: UpdateObject[]) => Promise<Removal>,
): Promise<Removal> {
	const unchanged = (reason?: string, skipped: Removal['skipped'] = []): Removal => withParts({ changed: false, reason, removed: 0, skipped }, doc.data);
	const blocker = await updateBlocker(doc);
	if (blocker) return unchanged(blocker);
	const { objects, removed, skipped } = await widgetObjects(doc, pages, widgets);
	if (!objects.length) return unchanged(undefined, skipped);
	if (write) {
		const written = await write(objects);
		return written.changed ? withParts({ changed: true, removed, skipped }, written.original, written.update) : unchanged(written.reason, skipped);
	}
	const size = firstFreeNumber(doc.xref.trailer, doc.xref.entries.keys());
	return withParts({ changed: true, removed, skipped }, doc.data, updateOf(doc.data, doc.xref.trailer, objects, size));
}
