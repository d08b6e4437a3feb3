// Form widgets that became eSign fields, taken out of the upload (nodes/ESign/pdf/write/widgetRemoval.ts, issue 42): on the
// fillable fixtures the update reads again with the reader, no widget given remains (neither on a page nor in the
// field tree), every other widget does, a field node left with no kids leaves its parent in turn, and the original
// bytes are a prefix. An encrypted file goes up unchanged with why. With tags also removed, a page is written once.
import { usableWidgets } from '../../../nodes/ESign/helpers/formFields';
import { PdfText } from '../../../nodes/ESign/pdf';
import type { FormWidget, Removal } from '../../../nodes/ESign/pdf';
import { PdfDocument } from '../../../nodes/ESign/pdf/read/document';
import { PdfDict, PdfRef } from '../../../nodes/ESign/pdf/read/objects';
import type { PdfObject } from '../../../nodes/ESign/pdf/read/objects';
import { readPdfFixture } from '../../support/pdfjs';
import { buildPdf } from '../../support/pdfRaw';
import { findTags, mayHoldTag } from '../../../nodes/ESign/textTags/tags';
import { becomesField, rewriteCheck } from '../../support/pdfRewriteCheck';
import { expectParts } from './removal';

const fixture = (file: string) => new Uint8Array(readPdfFixture(file).bytes as Buffer);

/** A widget as the node sees it (the internal handle is not enumerable, so it is not in the key). */
const keyOf = (w: FormWidget) => JSON.stringify(w);

/** Every field node reachable from /AcroForm /Fields: its key (or 'inline') and how many kids it lists. */
async function fieldTree(bytes: Uint8Array): Promise<Array<{ key: string; kids: number | undefined }>> {
	const doc = await PdfDocument.open(bytes);
	const catalog = (await doc.resolve(doc.rootRef)) as PdfDict;
	const form = await doc.dict(catalog, 'AcroForm');
	const nodes: Array<{ key: string; kids: number | undefined }> = [];
	const seen = new Set<string>();
	const visit = async (list: PdfObject | undefined, depth: number) => {
		const items = await doc.resolve(list);
		if (!Array.isArray(items) || depth > 64) return;
		for (const item of items) {
			const key = item instanceof PdfRef ? item.key : 'inline';
			if (seen.has(key)) continue;
			seen.add(key);
			const node = await doc.resolve(item);
			if (!(node instanceof PdfDict)) continue;
			const kids = await doc.get(node, 'Kids');
			nodes.push({ key, kids: Array.isArray(kids) ? kids.length : undefined });
			await visit(kids, depth + 1);
		}
	};
	await visit(await doc.get(form, 'Fields'), 0);
	return nodes;
}

async function removeUsable(bytes: Uint8Array, pick: (usable: FormWidget[]) => FormWidget[] = (u) => u) {
	const pdf = await PdfText.open(bytes);
	const widgets = await pdf.formFields();
	const gone = pick(usableWidgets(widgets).usable);
	const result = await pdf.removeWidgets(gone);
	return { widgets, gone, result };
}

const expectPrefix = (result: Removal, original: Uint8Array) => {
	expect(result.bytes.length).toBeGreaterThan(original.length);
	expect(Buffer.from(result.bytes.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);
};

describe('widgets that became fields leave the file', () => {
	test.each(['form-pdflib.pdf', 'form-tree.pdf', 'form-controls.pdf'])('%s: they are gone, the others stay, the original is a prefix', async (file) => {
		const original = fixture(file);
		const { widgets, gone, result } = await removeUsable(original);
		expect(gone.length).toBeGreaterThan(0);
		expect(result).toMatchObject({ changed: true, removed: gone.length, skipped: [] });
		expect(result.reason).toBeUndefined();
		expectPrefix(result, original);
		// The upload in parts: the original itself (not a copy), then the update alone, written to follow it.
		expectParts(result, original);

		const after = await (await PdfText.open(result.bytes)).formFields();
		const goneKeys = new Set(gone.map(keyOf));
		expect(after.map(keyOf)).toEqual(widgets.map(keyOf).filter((key) => !goneKeys.has(key)));
		// Nor does the field tree hold them, or a field node they left empty.
		const tree = await fieldTree(result.bytes);
		const goneRefs = gone.map((w) => w.source?.key);
		expect(tree.filter((node) => goneRefs.includes(node.key))).toEqual([]);
		expect(tree.filter((node) => node.kids === 0)).toEqual([]);
	});

	test('form-tree.pdf: a parent whose every kid went leaves its own parent (applicant.email leaves applicant)', async () => {
		const original = fixture('form-tree.pdf');
		const { gone, result } = await removeUsable(original, (usable) => usable.filter((w) => w.name === 'applicant.email'));
		expect(gone.length).toBeGreaterThan(0);
		// The email node: the direct parent of its widgets, the node every such widget has last in its chain.
		const email = gone[0].source?.parents.at(-1) as string;
		const before = await fieldTree(original);
		expect(before.map((node) => node.key)).toContain(email);
		const after = await fieldTree(result.bytes);
		expect(after.map((node) => node.key)).not.toContain(email);
		expect(after.filter((node) => node.kids === 0)).toEqual([]);
		// Its sibling (applicant.id) and their parent stay.
		expect((await (await PdfText.open(result.bytes)).formFields()).map((w) => w.name)).toContain('applicant.id');
	});

	test('only the widgets given leave: one taken out, every other widget stays', async () => {
		const original = fixture('form-pdflib.pdf');
		const { widgets, gone, result } = await removeUsable(original, (usable) => usable.slice(0, 1));
		expect(result).toMatchObject({ changed: true, removed: 1 });
		const after = await (await PdfText.open(result.bytes)).formFields();
		expect(after.map(keyOf)).toEqual(widgets.map(keyOf).filter((key) => key !== keyOf(gone[0])));
	});

	test('form-aes-128.pdf (encrypted): the original, unchanged, with why', async () => {
		const original = fixture('form-aes-128.pdf');
		const { gone, result } = await removeUsable(original);
		expect(gone.length).toBeGreaterThan(0);
		expect(result.changed).toBe(false);
		expect(Buffer.from(result.bytes).equals(Buffer.from(original))).toBe(true);
		expect(result.reason).toMatch(/encrypted/);
		expectParts(result, original);
	});

	test('no widget given: the original, unchanged, no reason', async () => {
		const original = fixture('form-pdflib.pdf');
		const result = await (await PdfText.open(original)).removeWidgets([]);
		expect(result).toMatchObject({ changed: false, removed: 0, skipped: [] });
		expect(Buffer.from(result.bytes).equals(Buffer.from(original))).toBe(true);
		expectParts(result, original);
	});
});

describe("the fuzzer's copy of which widgets become fields (test/support/pdfRewriteCheck.js)", () => {
	test.each(['form-pdflib.pdf', 'form-tree.pdf', 'form-controls.pdf', 'form-aes-128.pdf'])('%s: the same widgets as the node', async (file) => {
		const widgets = await (await PdfText.open(fixture(file))).formFields();
		const { usable } = usableWidgets(widgets);
		expect(usable.length).toBeGreaterThan(0);
		expect(usable.length).toBeLessThan(widgets.length);
		expect(widgets.filter(becomesField)).toEqual(usable);
	});
});

describe('hand-built forms', () => {
	const widths = `[${Array(95).fill(500).join(' ')}]`;
	const common = (annots: string, acroForm: string): Array<[number, string | { dict?: string; stream: Uint8Array }]> => [
		[2, '<< /Type /Pages /Kids [10 0 R] /Count 1 >>'],
		[3, `<< /Type /Font /Subtype /Type1 /BaseFont /TestSans /FirstChar 32 /LastChar 126 /Widths ${widths} /Encoding /WinAnsiEncoding >>`],
		[10, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 11 0 R /Annots ${annots} >>`],
		[11, { stream: new TextEncoder().encode('BT /F1 12 Tf 72 700 Td ({{signature:1}} Sign here) Tj ET') }],
		[20, '<< /T (party) /FT /Tx /Kids [21 0 R 22 0 R] >>'],
		[21, '<< /Type /Annot /Subtype /Widget /Parent 20 0 R /Rect [72 600 272 620] /P 10 0 R >>'],
		[22, '<< /Type /Annot /Subtype /Widget /Parent 20 0 R /Rect [72 560 272 580] /P 10 0 R >>'],
		[23, '<< /Type /Annot /Subtype /Widget /T (print) /FT /Btn /Ff 65536 /Rect [72 500 172 520] /P 10 0 R >>'],
		[30, acroForm],
	];

	test('an indirect /Annots array and an indirect /AcroForm: each redefined on its own, the page and catalog not', async () => {
		const objects = [
			[1, '<< /Type /Catalog /Pages 2 0 R /AcroForm 30 0 R >>'],
			...common('31 0 R', '<< /Fields 32 0 R >>'),
			[31, '[21 0 R 22 0 R 23 0 R]'],
			[32, '[20 0 R 23 0 R]'],
		] as Array<[number, string]>;
		const original = new Uint8Array(buildPdf(objects).bytes);
		const { gone, result } = await removeUsable(original);
		expect(gone.map((w) => w.name)).toEqual(['party', 'party']);
		expect(result.changed).toBe(true);
		const update = Buffer.from(result.bytes.subarray(original.length)).toString('latin1');
		const defined = [...update.matchAll(/^(\d+) 0 obj/gm)].map((m) => Number(m[1])).sort((a, b) => a - b);
		// The annotations array, the emptied field (20), and /Fields; not the page (10), catalog (1) or AcroForm (30).
		expect(defined).toEqual([20, 31, 32]);
		expect(update).toMatch(/^31 0 obj\n\[23 0 R\]/m);
		expect(update).toMatch(/^32 0 obj\n\[23 0 R\]/m);
		expect((await (await PdfText.open(result.bytes)).formFields()).map((w) => w.name)).toEqual(['print']);
	});

	test('/AcroForm /CO (calculation order): the fields that left the tree leave it too, the others stay in order', async () => {
		const objects = [
			[1, '<< /Type /Catalog /Pages 2 0 R /AcroForm 30 0 R >>'],
			...common('[21 0 R 22 0 R 23 0 R 24 0 R]', '<< /Fields 32 0 R /CO [24 0 R 23 0 R 20 0 R] >>'),
			[24, '<< /Type /Annot /Subtype /Widget /T (total) /FT /Tx /Rect [300 600 400 620] /P 10 0 R >>'],
			[32, '[20 0 R 23 0 R 24 0 R]'],
		] as Array<[number, string]>;
		const original = new Uint8Array(buildPdf(objects).bytes);
		const { gone, result } = await removeUsable(original);
		// party's two widgets (their field, 20, left empty) and total (a field merged with its widget).
		expect(gone.map((w) => w.name)).toEqual(['party', 'party', 'total']);
		expect(result.changed).toBe(true);
		const update = Buffer.from(result.bytes.subarray(original.length)).toString('latin1');
		expect(update).toMatch(/^30 0 obj\n<<.*\/CO \[23 0 R\]/m);
		expect(update).toMatch(/^32 0 obj\n\[23 0 R\]/m);
		expect((await (await PdfText.open(result.bytes)).formFields()).map((w) => w.name)).toEqual(['print']);
	});

	test('a widget no page lists (placed by its /P, drawn by no viewer): it leaves the field tree and counts as removed', async () => {
		const objects = [[1, '<< /Type /Catalog /Pages 2 0 R /AcroForm 30 0 R >>'], ...common('[21 0 R 23 0 R]', '<< /Fields [20 0 R 23 0 R] >>')] as Array<[number, string]>;
		const original = new Uint8Array(buildPdf(objects).bytes);
		const { gone, result } = await removeUsable(original);
		expect(gone.map((w) => w.name)).toEqual(['party', 'party']);
		expect(result).toMatchObject({ changed: true, removed: 2, skipped: [] });
		expect((await (await PdfText.open(result.bytes)).formFields()).map((w) => w.name)).toEqual(['print']);
	});

	test('a page written inline (cannot be redefined): its widgets stay whole, on the page and in the field tree, named as left', async () => {
		const page = '<< /Type /Page /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 11 0 R /Annots [21 0 R 22 0 R 23 0 R] >>';
		const objects = [
			[1, '<< /Type /Catalog /Pages 2 0 R /AcroForm 30 0 R >>'],
			...common('[]', '<< /Fields [20 0 R 23 0 R] >>').map(([num, value]) => (num === 2 ? [2, `<< /Type /Pages /Kids [${page}] /Count 1 >>`] : [num, value])),
		] as Array<[number, string]>;
		const original = new Uint8Array(buildPdf(objects).bytes);
		const { widgets, gone, result } = await removeUsable(original);
		expect(gone.map((w) => w.name)).toEqual(['party', 'party']);
		expect(result).toMatchObject({ changed: false, removed: 0 });
		expect(result.skipped.map((s) => s.text)).toEqual(['party', 'party']);
		expect(Buffer.from(result.bytes).equals(Buffer.from(original))).toBe(true);
		expect((await (await PdfText.open(result.bytes)).formFields()).map(keyOf)).toEqual(widgets.map(keyOf));
	});

	test('a field node reached through an object that is only a reference (40 0 obj 20 0 R): the dictionary is redefined where it is (fuzz seed 1760)', async () => {
		const objects = [
			[1, '<< /Type /Catalog /Pages 2 0 R /AcroForm 30 0 R >>'],
			...common('[21 0 R 22 0 R 23 0 R]', '<< /Fields [40 0 R 23 0 R] >>'),
			[40, '20 0 R'],
		] as Array<[number, string]>;
		const original = new Uint8Array(buildPdf(objects).bytes);
		const { gone, result } = await removeUsable(original);
		expect(gone.map((w) => w.name)).toEqual(['party', 'party']);
		expect(result).toMatchObject({ changed: true, removed: 2, skipped: [] });
		const update = Buffer.from(result.bytes.subarray(original.length)).toString('latin1');
		expect(update).toMatch(/^20 0 obj\n<<.*\/Kids \[\]/m);
		expect(update).not.toMatch(/^40 0 obj/m);
		expect((await (await PdfText.open(result.bytes)).formFields()).map((w) => w.name)).toEqual(['print']);
	});

	test('a field tree that loops (a node among its own kids): read once, its widgets still leave, the node stays where it is', async () => {
		const objects = [
			[1, '<< /Type /Catalog /Pages 2 0 R /AcroForm 30 0 R >>'],
			...common('[21 0 R 22 0 R 23 0 R]', '<< /Fields [20 0 R 23 0 R] >>').map(([num, value]) => (num === 20 ? [20, '<< /T (party) /FT /Tx /Kids [21 0 R 22 0 R 20 0 R] >>'] : [num, value])),
		] as Array<[number, string]>;
		const original = new Uint8Array(buildPdf(objects).bytes);
		const { gone, result } = await removeUsable(original);
		expect(gone.map((w) => w.name)).toEqual(['party', 'party']);
		expect(result).toMatchObject({ changed: true, removed: 2 });
		const update = Buffer.from(result.bytes.subarray(original.length)).toString('latin1');
		expect(update).toMatch(/^20 0 obj\n<<.*\/Kids \[20 0 R\]/m);
		expect((await (await PdfText.open(result.bytes)).formFields()).map((w) => w.name)).toEqual(['print']);
	});

	test("the fuzzer's check (rewriteCheck) on a form with a tag: the widgets removed alone, then with the tag in the same update", async () => {
		const objects = [[1, '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [20 0 R 23 0 R] >> >>'], ...common('[21 0 R 22 0 R 23 0 R]', '<< >>')] as Array<[number, string]>;
		const summary = await rewriteCheck({ PdfText, findTags, mayHoldTag }, new Uint8Array(buildPdf(objects).bytes));
		expect(summary).toMatchObject({ tags: 1, removed: 1, left: 0 });
		expect(summary.widgets).toMatchObject({ widgets: 3, usable: 2, changed: true, removed: 2, skipped: 0 });
		expect(summary.widgets?.both).toMatchObject({ changed: true, removed: 2, tagsLeft: 0 });
	});

	test('a direct /Annots and a direct /AcroForm, with tags removed too: one update, the page written once with both changes', async () => {
		const objects = [[1, '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [20 0 R 23 0 R] >> >>'], ...common('[21 0 R 22 0 R 23 0 R]', '<< >>')] as Array<[number, string]>;
		const original = new Uint8Array(buildPdf(objects).bytes);
		const pdf = await PdfText.open(original);
		const gone = usableWidgets(await pdf.formFields()).usable;
		const tags = pdf.tagRemover();
		const lines = await pdf.lines(1, undefined, { sources: true });
		const line = lines.find((l) => l.text.includes('{{signature:1}}')) as (typeof lines)[number];
		const start = line.text.indexOf('{{signature:1}}');
		expect(tags.removeText(1, line, start, start + '{{signature:1}}'.length)).toBeUndefined();
		const result = await pdf.removeWidgets(gone, tags);
		expect(result.changed).toBe(true);
		expectPrefix(result, original);
		// The tag remover's parts, passed on: the original itself, then the one update.
		expectParts(result, original);
		const update = Buffer.from(result.bytes.subarray(original.length)).toString('latin1');
		expect(update.match(/^10 0 obj/gm)).toHaveLength(1);
		expect(update.match(/^1 0 obj/gm)).toHaveLength(1);
		expect(update.match(/startxref/g)).toHaveLength(1);
		const out = await PdfText.open(result.bytes);
		expect((await out.formFields()).map((w) => w.name)).toEqual(['print']);
		const text = (await out.lines(1)).map((l) => l.text).join('\n');
		expect(text).not.toContain('{{signature:1}}');
		expect(text).toContain('Sign here');
	});
});
