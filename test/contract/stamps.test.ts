/**
 * Where the signed PDF's stamps land on rotated, cropped and mixed-size pages, against the contract site (the
 * sandbox here, the WordPress plugin under `npm run test:wordpress`).
 *
 * The spec gives field coordinates in points from the top-left corner and shows no rotated or cropped page. Both
 * doubles read it as the page as displayed (test/sandbox/CONTRACT.md → Fields on the page as displayed): the CropBox
 * (default the MediaBox, inherited, within the MediaBox) turned clockwise by the inherited /Rotate, origin at the
 * displayed top-left, as pdf.js's getViewport({scale: 1}) and a viewer show the page. A guess: every test is marked.
 *
 * The expected places are computed here from each page's construction, not from the doubles' code: a displayed point
 * (X, Y) on view [x0 y0 x1 y1] is, in user space, 0: (x0 + X, y1 - Y), 90: (x0 + Y, y0 + X), 180: (x1 - X, y0 + Y),
 * 270: (x1 - Y, y1 - X). The signed pages are read back with test/support/pdfMarks (paths and texts in user space).
 */
import { PDFDocument, PDFName, PDFNumber, StandardFonts } from 'pdf-lib';

import type { Json, KeyName } from '../support';
import { keyedRequest } from '../support';
import type { Box, ShownText } from '../support/pdfMarks';
import { pageMarks } from '../support/pdfMarks';
import type { ContractSite } from './site';
import { useContractSite } from './site';

const getSite = useContractSite();
let site: ContractSite;
beforeAll(() => {
	site = getSite();
});

const api = (method: string, path: string, body?: unknown, who: KeyName = 'admin') => keyedRequest(site.api(path), site.keys[who], method, body);
const control = (method: string, path: string, body?: unknown) => keyedRequest(site.control(path), null, method, body);

// ---------------------------------------------------------------- the pages

type Quad = [number, number, number, number];
type Rotation = 0 | 90 | 180 | 270;

interface PageSpec {
	/** The page's MediaBox [llx lly urx ury]. */
	mediaBox: Quad;
	/** Its own /CropBox and /Rotate, written as given (odd corner orders and unnormalised angles included). */
	cropBox?: Quad;
	rotate?: number;
	/** What the page shows, worked out by hand: the visible area in user space and the clockwise turn. */
	view: Quad;
	rotation: Rotation;
}

const LETTER: Quad = [0, 0, 612, 792];
const A4: Quad = [0, 0, 595.28, 841.89];

const displaySize = ({ view, rotation }: PageSpec) => {
	const [w, h] = [view[2] - view[0], view[3] - view[1]];
	return rotation % 180 ? { width: h, height: w } : { width: w, height: h };
};

/** A displayed point (X, Y) in user space, by the formulas above. */
function toUser({ view: [x0, y0, x1, y1], rotation }: PageSpec, X: number, Y: number): [number, number] {
	switch (rotation) {
		case 90: return [x0 + Y, y0 + X];
		case 180: return [x1 - X, y0 + Y];
		case 270: return [x1 - Y, y1 - X];
		default: return [x0 + X, y1 - Y];
	}
}

/** The inverse: a user-space point on the displayed page. */
function toDisplayed({ view: [x0, y0, x1, y1], rotation }: PageSpec, x: number, y: number): [number, number] {
	switch (rotation) {
		case 90: return [y - y0, x - x0];
		case 180: return [x1 - x, y - y0];
		case 270: return [y1 - y, x1 - x];
		default: return [x - x0, y1 - y];
	}
}

/** A user-space direction as displayed (Y pointing down the displayed page). */
const displayedDirection = (spec: PageSpec, [dx, dy]: [number, number]): [number, number] => {
	const [ox, oy] = toDisplayed(spec, 0, 0);
	const [px, py] = toDisplayed(spec, dx, dy);
	return [px - ox, py - oy];
};

/** A PDF with these pages (each labelled in its corner, so the original has content); `tree` sets entries on the page tree's root. */
async function makePdf(pages: PageSpec[], tree: { rotate?: number; cropBox?: Quad } = {}): Promise<Buffer> {
	const pdf = await PDFDocument.create();
	const font = await pdf.embedFont(StandardFonts.Helvetica);
	for (const [i, spec] of pages.entries()) {
		const [llx, lly, urx, ury] = spec.mediaBox;
		const page = pdf.addPage([urx - llx, ury - lly]);
		page.setMediaBox(llx, lly, urx - llx, ury - lly);
		if (spec.cropBox) page.node.set(PDFName.of('CropBox'), pdf.context.obj(spec.cropBox));
		if (spec.rotate !== undefined) page.node.set(PDFName.of('Rotate'), PDFNumber.of(spec.rotate));
		page.drawText(`Original page ${i + 1}`, { x: llx + 40, y: lly + 40, size: 10, font });
	}
	if (tree.rotate !== undefined) pdf.catalog.Pages().set(PDFName.of('Rotate'), PDFNumber.of(tree.rotate));
	if (tree.cropBox) pdf.catalog.Pages().set(PDFName.of('CropBox'), pdf.context.obj(tree.cropBox));
	return Buffer.from(await pdf.save());
}

// ---------------------------------------------------------------- one signed document

interface Placed {
	page: number;
	field_type: 'signature' | 'text' | 'checkbox';
	position_x: number;
	position_y: number;
	width: number;
	height: number;
	/** What the stamp shows. */
	shows: string;
}

/** Per page: a signature near the displayed top-left, a text field near the displayed bottom-right, a checkbox top-right. */
function fieldsFor(specs: PageSpec[]): Placed[] {
	return specs.flatMap((spec, i) => {
		const { width, height } = displaySize(spec);
		const page = i + 1;
		return [
			{ page, field_type: 'signature', position_x: 40, position_y: 50, width: 200, height: 60, shows: 'Ann Lee' },
			{ page, field_type: 'text', position_x: width - 220, position_y: height - 50, width: 200, height: 30, shows: `Text on page ${page}` },
			{ page, field_type: 'checkbox', position_x: width - 40, position_y: 20, width: 20, height: 20, shows: 'X' },
		];
	});
}

/** Uploads the PDF, adds Ann with these fields, sends, signs through the signing control; the signed PDF, loaded. */
async function signedCopy(bytes: Buffer, placed: Placed[]): Promise<PDFDocument> {
	const form = new FormData();
	form.append('file', new Blob([new Uint8Array(bytes)]), 'turned.pdf');
	const uploaded = await api('POST', '/documents/upload', form);
	expect(uploaded.status).toBe(201);
	const id = uploaded.body.id;
	await api('POST', `/documents/${id}/signers`, { name: 'Ann Lee', email: 'ann@example.org' });
	const [signer] = (await api('GET', `/documents/${id}/signers`)).body;
	const fields = placed.map(({ page, field_type, position_x, position_y, width, height }) => ({
		signer_id: Number(signer.id), field_type, page_number: page, position_x, position_y, width, height,
	}));
	expect((await api('POST', `/documents/${id}/fields`, { fields })).status).toBeLessThan(300);
	const saved: Json[] = (await api('GET', `/documents/${id}/fields`)).body;
	const values: Record<string, string> = {};
	for (const f of saved) {
		if (f.field_type === 'text') values[f.id] = `Text on page ${f.page_number}`;
		if (f.field_type === 'checkbox') values[f.id] = '1';
	}
	expect((await api('POST', `/documents/${id}/send`)).status).toBe(200);
	const [{ token }] = (await control('GET', `/signers?document_id=${id}`)).body;
	expect((await control('POST', `/sign/${token}/sign`, { values })).status).toBeLessThan(300);
	expect((await api('GET', `/documents/${id}`)).body.status).toBe('completed');
	const file = (await api('GET', `/documents/${id}/file`)).body;
	return PDFDocument.load(Buffer.from(file.content, 'base64'));
}

// ---------------------------------------------------------------- what must hold

const round = (n: number) => Math.round(n * 100) / 100;
const rounded = (b: Box) => ({ x0: round(b.x0), y0: round(b.y0), x1: round(b.x1), y1: round(b.y1) });

/** The field's box in user space: its displayed corners mapped by the formulas. */
function userBox(spec: PageSpec, f: Placed): Box {
	const [ax, ay] = toUser(spec, f.position_x, f.position_y);
	const [bx, by] = toUser(spec, f.position_x + f.width, f.position_y + f.height);
	return { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
}

/** Where a text sits on the displayed page and which way it runs there. */
function asDisplayed(spec: PageSpec, t: ShownText) {
	const [X, Y] = toDisplayed(spec, ...t.origin);
	const along = displayedDirection(spec, t.along).map(round);
	const up = displayedDirection(spec, t.up).map(round);
	return { X, Y, along, up };
}

const inside = (f: Placed, X: number, Y: number) =>
	X >= f.position_x && X <= f.position_x + f.width && Y >= f.position_y && Y <= f.position_y + f.height;

/** Every stamp of page `index` in its field's box, reading left to right and upright on the displayed page. */
function expectStampsInPlace(signed: PDFDocument, index: number, spec: PageSpec, placed: Placed[]) {
	const mine = placed.filter((f) => f.page === index + 1);
	const marks = pageMarks(signed, index);
	// The only painted path is the signature's frame, exactly the field's box in user space.
	expect(marks.paths.map(rounded)).toEqual(mine.filter((f) => f.field_type === 'signature').map((f) => rounded(userBox(spec, f))));
	const stamps = marks.texts.filter((t) => !t.text.startsWith('Original page'));
	const expected = [...mine.map((f) => f.shows), 'eSigned by Ann Lee'];
	expect(stamps.map((t) => t.text.replace(/^(eSigned by Ann Lee).*/, '$1')).sort()).toEqual(expected.sort());
	for (const t of stamps) {
		const field = mine.find((f) => f.shows === t.text) ?? mine.find((f) => f.field_type === 'signature')!;
		const shown = asDisplayed(spec, t);
		expect({ text: t.text, inside: inside(field, shown.X, shown.Y), along: shown.along, up: shown.up }).toEqual({
			text: t.text,
			inside: true,
			along: [1, 0], // left to right on the displayed page
			up: [0, -1], // glyphs upright: towards the displayed top
		});
		expect(t.size).toBeLessThanOrEqual(field.height);
	}
}

/** The effective /Rotate and CropBox of a page of the signed file (inherited values included). */
function pageEntries(pdf: PDFDocument, index: number) {
	const node = pdf.getPage(index).node;
	const rotate = node.Rotate();
	const crop = node.CropBox();
	return {
		rotate: rotate ? rotate.asNumber() : 0,
		cropBox: crop ? crop.asArray().map((_, k) => (crop.lookup(k, PDFNumber) as PDFNumber).asNumber()) : null,
	};
}

// ---------------------------------------------------------------- tests

const TURNED_AND_CROPPED: Array<PageSpec & { name: string }> = [
	{ name: 'Letter, /Rotate 90', mediaBox: LETTER, rotate: 90, view: LETTER, rotation: 90 },
	{ name: 'Letter, /Rotate 180', mediaBox: LETTER, rotate: 180, view: LETTER, rotation: 180 },
	{ name: 'Letter, /Rotate 270', mediaBox: LETTER, rotate: 270, view: LETTER, rotation: 270 },
	{ name: 'Letter with CropBox [36 36 576 756]', mediaBox: LETTER, cropBox: [36, 36, 576, 756], view: [36, 36, 576, 756], rotation: 0 },
	{ name: 'A4, neither', mediaBox: A4, view: A4, rotation: 0 },
	{ name: '400×300, CropBox in reverse corner order, /Rotate -90 (= 270)', mediaBox: [0, 0, 400, 300], cropBox: [380, 290, 20, 10], rotate: -90, view: [20, 10, 380, 290], rotation: 270 },
	{ name: 'MediaBox off the origin, CropBox partly outside it, /Rotate 450 (= 90)', mediaBox: [100, 50, 500, 650], cropBox: [80, 40, 450, 700], rotate: 450, view: [100, 50, 450, 650], rotation: 90 },
];

describe('[guess] signed PDF: stamps on the page as displayed (CropBox, /Rotate)', () => {
	test('[guess] every filled field is stamped in its displayed box, upright, on turned, cropped and mixed-size pages; the pages keep their /Rotate and CropBox', async () => {
		const placed = fieldsFor(TURNED_AND_CROPPED);
		const signed = await signedCopy(await makePdf(TURNED_AND_CROPPED), placed);
		expect(signed.getPageCount()).toBe(TURNED_AND_CROPPED.length + 1);
		for (const [i, spec] of TURNED_AND_CROPPED.entries()) {
			expect({ page: spec.name, ...pageEntries(signed, i) }).toEqual({ page: spec.name, rotate: spec.rotate ?? 0, cropBox: spec.cropBox ?? null });
			expectStampsInPlace(signed, i, spec, placed);
		}
		// The certificate page stands upright and uncropped.
		expect(pageEntries(signed, TURNED_AND_CROPPED.length)).toEqual({ rotate: 0, cropBox: null });
	});

	test('[guess] /Rotate and CropBox inherited from the page tree count, a page\'s own /Rotate 0 wins; the certificate page is neither turned nor cropped', async () => {
		const tree = { rotate: 90, cropBox: [36, 36, 576, 756] as Quad };
		const specs: PageSpec[] = [
			{ mediaBox: LETTER, view: tree.cropBox, rotation: 90 },
			{ mediaBox: LETTER, rotate: 0, view: tree.cropBox, rotation: 0 },
		];
		const placed = fieldsFor(specs);
		const signed = await signedCopy(await makePdf(specs, tree), placed);
		expect(signed.getPageCount()).toBe(3);
		expect(pageEntries(signed, 0)).toEqual({ rotate: 90, cropBox: tree.cropBox });
		expect(pageEntries(signed, 1)).toEqual({ rotate: 0, cropBox: tree.cropBox });
		for (const [i, spec] of specs.entries()) expectStampsInPlace(signed, i, spec, placed);
		const certificate = pageEntries(signed, 2);
		expect(certificate.rotate).toBe(0);
		expect(certificate.cropBox).toEqual([0, 0, 612, 792]);
		expect(signed.getPage(2).getMediaBox()).toEqual({ x: 0, y: 0, width: 612, height: 792 });
	});
});
