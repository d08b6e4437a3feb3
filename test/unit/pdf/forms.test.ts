// The reader's form fields (nodes/ESign/pdf/forms/forms.ts, formTree.ts, textString.ts) on hand-built files: the field
// tree's names and inherited entries, kinds and flags, choices, the page of each widget (/Annots, else /P), its box
// on the displayed page, widgets only /Annots reaches, and trees built to loop, nest or grow without end.
import { PdfText } from '../../../nodes/ESign/pdf';
import type { FormWidget } from '../../../nodes/ESign/pdf';
import { MAX_FIELD_DEPTH, MAX_FIELD_NODES, MAX_NAME_CHARS, MAX_OPTIONS, MAX_WIDGETS } from '../../../nodes/ESign/pdf/limits';
import { decodeTextString } from '../../../nodes/ESign/pdf/forms/textString';
import type { BuildOptions, RawObject } from '../../support/pdfRaw';
import { buildPdf } from '../../support/pdfRaw';
import { pdfError } from './run';

interface Page {
	/** the /Annots array's content, e.g. '20 0 R 21 0 R' */
	annots?: string;
	rotate?: number;
	cropBox?: number[];
}

/** A file with `pages` (objects 10, 11, …; Letter) and /AcroForm /Fields [fields] (none when undefined). */
function formPdf(pages: Page[], fields: string | undefined, objects: Array<[number, RawObject]>, build: BuildOptions = {}) {
	const form = fields === undefined ? '' : ` /AcroForm << /Fields [${fields}] >>`;
	const all: Array<[number, RawObject]> = [
		[1, `<< /Type /Catalog /Pages 2 0 R${form} >>`],
		[2, `<< /Type /Pages /Kids [${pages.map((_, i) => `${10 + i} 0 R`).join(' ')}] /Count ${pages.length} >>`],
		...pages.map((page, i): [number, RawObject] => [
			10 + i,
			`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]${page.cropBox ? ` /CropBox [${page.cropBox.join(' ')}]` : ''}` +
				`${page.rotate ? ` /Rotate ${page.rotate}` : ''}${page.annots !== undefined ? ` /Annots [${page.annots}]` : ''} >>`,
		]),
		...objects,
	];
	return buildPdf(all, build).bytes;
}

async function formFields(bytes: Uint8Array): Promise<FormWidget[]> {
	return (await PdfText.open(bytes)).formFields();
}

/** A widget dictionary's body: Rect [100 100 200 120] on page 1 (object 10), plus `extra`. */
const widget = (extra = '') => `<< /Type /Annot /Subtype /Widget /Rect [100 100 200 120] /P 10 0 R ${extra} >>`;
const summary = (w: FormWidget) => `${w.page} ${w.name} ${w.kind}${w.required ? ' required' : ''}${w.readOnly ? ' readOnly' : ''}${w.hidden ? ' hidden' : ''}`;

describe('the field tree', () => {
	it('joins partial names with ".", skips nodes without /T, and passes /FT and /Ff down (a nearer /Ff wins)', async () => {
		const bytes = formPdf([{ annots: '22 0 R 23 0 R 25 0 R' }], '20 0 R 24 0 R', [
			[20, '<< /T (applicant) /FT /Tx /Ff 2 /Kids [21 0 R 23 0 R] >>'],
			[21, '<< /Parent 20 0 R /Kids [22 0 R] >>'], // no /T: adds nothing to the name
			[22, widget('/Parent 21 0 R /T (name)')],
			[23, widget('/Parent 20 0 R /T (id) /Ff 1')],
			[24, '<< /T (group) /Kids [25 0 R] /FT /Btn >>'],
			[25, widget('/Parent 24 0 R /T (agree)')],
		]);
		expect((await formFields(bytes)).map(summary)).toEqual([
			'1 applicant.name text required',
			'1 applicant.id text readOnly',
			'1 group.agree checkbox',
		]);
	});

	it('gives each widget of a field with several widgets the field name, on its own page', async () => {
		const bytes = formPdf([{ annots: '21 0 R' }, { annots: '22 0 R' }], '20 0 R', [
			[20, '<< /T (email) /FT /Tx /Kids [21 0 R 22 0 R] >>'],
			[21, widget('/Parent 20 0 R')],
			[22, widget('/Parent 20 0 R /P 11 0 R')],
		]);
		expect((await formFields(bytes)).map(summary)).toEqual(['1 email text', '2 email text']);
	});

	it('reads kinds from the type and flags; a widget whose field names no known type is left out', async () => {
		const kinds: Array<[string, string]> = [
			['/FT /Sig', 'signature'],
			['/FT /Tx', 'text'],
			['/FT /Tx /Ff 4096', 'textarea'],
			['/FT /Btn', 'checkbox'],
			['/FT /Btn /Ff 32768', 'radio'],
			['/FT /Btn /Ff 65536', 'button'],
			['/FT /Btn /Ff 98304', 'button'], // Pushbutton wins over Radio
			['/FT /Ch /Ff 131072', 'dropdown'], // combo box
			['/FT /Ch', 'dropdown'], // list box
			['/FT /Xx', ''],
			['', ''],
		];
		const objects = kinds.map(([entries], i): [number, RawObject] => [20 + i, widget(`/T (f${i}) ${entries}`)]);
		const refs = kinds.map((_, i) => `${20 + i} 0 R`).join(' ');
		const found = await formFields(formPdf([{ annots: refs }], refs, objects));
		expect(found.map((w) => `${w.name} ${w.kind}`)).toEqual(kinds.flatMap(([, kind], i) => (kind ? [`f${i} ${kind}`] : [])));
	});

	it('reads Hidden and NoView from the widget, and a flag entry that is no whole number as 0', async () => {
		const bytes = formPdf([{ annots: '20 0 R 21 0 R 22 0 R 23 0 R' }], '20 0 R 21 0 R 22 0 R 23 0 R', [
			[20, widget('/T (a) /FT /Tx /F 2')],
			[21, widget('/T (b) /FT /Tx /F 36')],
			[22, widget('/T (c) /FT /Tx /F 4 /Ff 3')],
			[23, widget('/T (d) /FT /Tx /F 2.5 /Ff -3')],
		]);
		expect((await formFields(bytes)).map(summary)).toEqual(['1 a text hidden', '1 b text hidden', '1 c text required readOnly', '1 d text']);
	});

	it('reads choices as displayed: texts, names, [export, display] pairs; /Opt inherited from the parent', async () => {
		const bytes = formPdf([{ annots: '21 0 R 22 0 R' }], '20 0 R 22 0 R', [
			[20, '<< /T (plan) /FT /Ch /Opt [(Basic) [(p) (Pro)] /Enterprise 30 0 R] /Kids [21 0 R] >>'],
			[21, widget('/Parent 20 0 R')],
			[22, widget('/T (none) /FT /Ch')],
			[30, '[(e) <FEFF00C9006C006900740065>]'],
		]);
		const found = await formFields(bytes);
		expect(found.map((w) => [w.name, w.options])).toEqual([
			['plan', ['Basic', 'Pro', 'Enterprise', 'Élite']],
			['none', []],
		]);
	});

	it('reads /Fields through object streams', async () => {
		const objects: Array<[number, RawObject]> = [
			[20, '<< /T (parent) /FT /Sig /Kids [21 0 R] >>'],
			[21, widget('/Parent 20 0 R /T (child)')],
		];
		const bytes = formPdf([{ annots: '21 0 R' }], '20 0 R', objects, { xref: 'stream', objectStream: [1, 20, 21] });
		expect((await formFields(bytes)).map(summary)).toEqual(['1 parent.child signature']);
	});

	it('finds nothing in a file without a form', async () => {
		expect(await formFields(formPdf([{}], undefined, []))).toEqual([]);
	});
});

describe('the page and box of a widget', () => {
	it('is the page whose /Annots lists it, else its /P; a widget on no page is left out', async () => {
		const bytes = formPdf([{ annots: '21 0 R' }, { annots: '20 0 R' }], '20 0 R 21 0 R 22 0 R 23 0 R', [
			[20, widget('/T (listed_on_2) /FT /Tx')], // /P says page 1, page 2 lists it: a viewer draws it there
			[21, widget('/T (listed_on_1) /FT /Tx /P 11 0 R')],
			[22, widget('/T (p_only) /FT /Tx /P 11 0 R')],
			[23, '<< /Subtype /Widget /Rect [0 0 10 10] /T (nowhere) /FT /Tx /P 24 0 R >>'],
			[24, '<< /Type /Page >>'], // not a page of the document's tree
		]);
		// Page order, then field-tree order.
		expect((await formFields(bytes)).map(summary)).toEqual(['1 listed_on_1 text', '2 listed_on_2 text', '2 p_only text']);
	});

	it('turns /Rect as the page is displayed: CropBox offset and Rotate', async () => {
		const pages: Page[] = [
			{ annots: '20 0 R' },
			{ annots: '21 0 R', cropBox: [50, 100, 562, 742] },
			{ annots: '22 0 R', rotate: 90 },
			{ annots: '23 0 R', rotate: 270, cropBox: [50, 100, 562, 742] },
			{ annots: '24 0 R', rotate: 180 },
		];
		const objects = pages.map((_, i): [number, RawObject] => [20 + i, `<< /Subtype /Widget /FT /Tx /T (f${i}) /Rect [200 120 100 100] >>`]);
		const found = await formFields(formPdf(pages, objects.map(([n]) => `${n} 0 R`).join(' '), objects));
		expect(found.map((w) => [w.page, w.box.left, w.box.top, w.box.right, w.box.bottom])).toEqual([
			[1, 100, 672, 200, 692], // y flipped: 792 - 120 … 792 - 100
			[2, 50, 622, 150, 642], // less the CropBox corner (50, 100), flipped within its height 642
			[3, 100, 100, 120, 200], // turned clockwise: x' = y, y' = x
			[4, 622, 362, 642, 462], // turned 270°: x' = 742 - y, y' = 562 - x (the CropBox's top and right)
			[5, 412, 100, 512, 120], // upside down: x' = 612 - x, y' = y
		]);
	});

	it('leaves out a widget whose /Rect is not four finite numbers', async () => {
		const bytes = formPdf([{ annots: '20 0 R 21 0 R 22 0 R' }], '20 0 R 21 0 R 22 0 R', [
			[20, '<< /Subtype /Widget /FT /Tx /T (short) /Rect [1 2 3] >>'],
			[21, '<< /Subtype /Widget /FT /Tx /T (huge) /Rect [0 0 1e400 10] >>'],
			[22, '<< /Subtype /Widget /FT /Tx /T (words) /Rect [(a) 0 1 1] >>'],
		]);
		expect(await formFields(bytes)).toEqual([]);
	});
});

describe('the internal handle a writer uses (FormWidget.source)', () => {
	it('names the widget and its field nodes root first, and is not enumerable (never compared, copied or output)', async () => {
		const bytes = formPdf([{ annots: '22 0 R 23 0 R 25 0 R' }], '20 0 R 25 0 R', [
			[20, '<< /T (applicant) /FT /Tx /Kids [21 0 R 23 0 R] >>'],
			[21, '<< /Parent 20 0 R /T (name) /Kids [22 0 R] >>'],
			[22, widget('/Parent 21 0 R')],
			[23, widget('/Parent 20 0 R /T (id)')],
			[25, widget('/T (agree) /FT /Btn')],
		]);
		const widgets = await formFields(bytes);
		expect(widgets.map((w) => [w.name, w.source?.key, w.source?.parents])).toEqual([
			['applicant.name', '22 0', ['20 0', '21 0']],
			['applicant.id', '23 0', ['20 0']],
			['agree', '25 0', []],
		]);
		expect(Object.keys(widgets[0])).not.toContain('source');
		expect(JSON.parse(JSON.stringify(widgets[0]))).not.toHaveProperty('source');
	});
});

describe('widgets that /Fields does not reach', () => {
	it('are read up their /Parent chain when it names a field type, after the tree\'s widgets of their page', async () => {
		const bytes = formPdf([{ annots: '21 0 R 23 0 R 24 0 R 26 0 R' }], '25 0 R', [
			[20, '<< /T (extra) /FT /Tx /Ff 2 /Kids [21 0 R] >>'],
			[21, widget('/Parent 20 0 R')],
			[22, '<< /T (loose) >>'],
			[23, widget('/Parent 22 0 R')], // no /FT anywhere up the chain: left out
			[24, '<< /Subtype /Link /Rect [0 0 1 1] >>'],
			[25, widget('/T (listed) /FT /Sig')],
			[26, widget('/T (self) /FT /Tx /Parent 26 0 R')], // a /Parent loop: read once
		]);
		expect((await formFields(bytes)).map(summary)).toEqual(['1 listed signature', '1 extra text required', '1 self text']);
	});
});

describe('trees built to exhaust the reader', () => {
	it('reads a field reached twice (a /Kids cycle) once', async () => {
		const bytes = formPdf([{ annots: '22 0 R' }], '20 0 R 20 0 R', [
			[20, '<< /T (a) /FT /Tx /Kids [21 0 R 20 0 R] >>'],
			[21, '<< /T (b) /Parent 20 0 R /Kids [22 0 R 20 0 R 21 0 R] >>'],
			[22, widget('/Parent 21 0 R')],
		]);
		expect((await formFields(bytes)).map(summary)).toEqual(['1 a.b text']);
		const twice = formPdf([{ annots: '21 0 R' }], '20 0 R', [
			[20, '<< /T (a) /FT /Tx /Kids [21 0 R 20 0 R 21 0 R] >>'],
			[21, widget('/Parent 20 0 R /T (b)')],
		]);
		expect((await formFields(twice)).map(summary)).toEqual(['1 a.b text']);
	});

	it(`stops past ${MAX_FIELD_DEPTH} levels with a clear error`, async () => {
		const depth = MAX_FIELD_DEPTH + 2;
		const objects = Array.from({ length: depth }, (_, i): [number, RawObject] => [20 + i, i + 1 < depth ? `<< /T (n${i}) /Kids [${21 + i} 0 R] >>` : widget('/FT /Tx')]);
		const error = await pdfError(formFields(formPdf([{}], '20 0 R', objects)));
		expect(error.kind).toBe('damaged');
		expect(error.message).toMatch(/form-field tree .* nested more than 64/);
		// One level less is read.
		const fits = objects.slice(depth - MAX_FIELD_DEPTH - 1);
		const found = await formFields(formPdf([{ annots: `${20 + depth - 1} 0 R` }], `${fits[0][0]} 0 R`, fits));
		expect(found).toHaveLength(1);
		expect(found[0].name.split('.')).toHaveLength(MAX_FIELD_DEPTH);
	});

	it(`stops past ${MAX_WIDGETS} widgets, and past ${MAX_FIELD_NODES} kids`, async () => {
		const many = Array.from({ length: MAX_WIDGETS + 1 }, () => '<< /Subtype /Widget /Rect [0 0 1 1] >>').join(' ');
		const tooMany = await pdfError(formFields(formPdf([{}], '20 0 R', [[20, `<< /T (a) /FT /Tx /Kids [${many}] >>`]])));
		expect([tooMany.kind, tooMany.message]).toEqual(['limit', `the PDF's form has more than ${MAX_WIDGETS} widgets; the reader stops there`]);
		const kids = 'null '.repeat(MAX_FIELD_NODES + 1);
		const wide = await pdfError(formFields(formPdf([{}], '20 0 R', [[20, `<< /T (a) /Kids [${kids}] >>`]])));
		expect(wide.kind).toBe('limit');
		expect(wide.message).toMatch(/more than 50000/);
	});

	it(`stops at a choice list of more than ${MAX_OPTIONS} entries, naming the field`, async () => {
		const opt = '(x) '.repeat(MAX_OPTIONS + 1);
		const error = await pdfError(formFields(formPdf([{ annots: '20 0 R' }], '20 0 R', [[20, widget(`/T (country) /FT /Ch /Opt [${opt}]`)]])));
		expect([error.kind, error.message]).toEqual(['limit', `the form field "country" has more than ${MAX_OPTIONS} choices; the reader stops there`]);
	});

	it(`cuts a name at ${MAX_NAME_CHARS} characters`, async () => {
		const bytes = formPdf([{ annots: '21 0 R' }], '20 0 R', [
			[20, `<< /T (${'p'.repeat(800)}) /FT /Tx /Kids [21 0 R] >>`],
			[21, widget(`/Parent 20 0 R /T (${'k'.repeat(50_000)})`)],
		]);
		const [found] = await formFields(bytes);
		expect(found.name).toBe(`${'p'.repeat(800)}.${'k'.repeat(MAX_NAME_CHARS - 801)}`);
	});
});

describe('text strings', () => {
	const bytesOf = (...values: number[]) => new Uint8Array(values);

	it('reads UTF-16BE and LE after their marks, dropping a language escape, and UTF-8 after its mark', () => {
		expect(decodeTextString(bytesOf(0xfe, 0xff, 0x00, 0x50, 0x00, 0x1b, 0x65, 0x6e, 0x00, 0x1b, 0x00, 0xe9), 100)).toBe('Pé');
		expect(decodeTextString(bytesOf(0xff, 0xfe, 0x50, 0x00, 0xe9, 0x00), 100)).toBe('Pé');
		expect(decodeTextString(bytesOf(0xef, 0xbb, 0xbf, 0x50, 0xc3, 0xa9), 100)).toBe('Pé');
	});

	it('reads PDFDocEncoding where it differs from Latin-1', () => {
		expect(decodeTextString(bytesOf(0x93, 0x8d, 0x8e, 0xa0, 0x18, 0xe9), 100)).toBe('\ufb01\u201c\u201d\u20ac\u02d8é');
	});

	it('stops at maxChars, whatever the encoding', () => {
		expect(decodeTextString(new Uint8Array(1000).fill(0x41), 3)).toBe('AAA');
		expect(decodeTextString(bytesOf(0xfe, 0xff, ...new Array<number>(2000).fill(0x41)), 2)).toBe('\u4141\u4141');
		expect(decodeTextString(bytesOf(0xef, 0xbb, 0xbf, ...new Array<number>(2000).fill(0x41)), 2)).toBe('AA');
	});
});
