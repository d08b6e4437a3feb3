// The PDF reader's page tree (nodes/ESign/pdf/text/pages.ts): inherited attributes, the visible area (CropBox ∩
// MediaBox), /Rotate and the matrix to the displayed page (top-left origin, y down, as a viewer shows it), and page
// trees that loop or nest without end.
import { PdfText } from '../../../nodes/ESign/pdf';
import { PdfDocument } from '../../../nodes/ESign/pdf/read/document';
import { displayMatrix, readPages } from '../../../nodes/ESign/pdf/text/pages';
import type { PdfPage } from '../../../nodes/ESign/pdf/text/pages';
import type { RawObject } from '../../support/pdfRaw';
import { buildPdf, pagesPdf } from '../../support/pdfRaw';
import { pdfError } from './run';

const CATALOG: [number, RawObject] = [1, '<< /Type /Catalog /Pages 2 0 R >>'];

async function pagesOf(objects: Array<[number, RawObject]>, max = 100) {
	return readPages(await PdfDocument.open(buildPdf([CATALOG, ...objects]).bytes), max);
}

const geometry = (page: PdfPage) => ({ view: page.view, rotate: page.rotate, width: page.width, height: page.height });

/** Maps a user-space point through a page's display matrix. */
function display(page: PdfPage, x: number, y: number): [number, number] {
	const [a, b, c, d, e, f] = displayMatrix(page);
	return [a * x + c * y + e + 0, b * x + d * y + f + 0];
}

describe('inheritance', () => {
	it('MediaBox, Rotate and Resources come from an ancestor unless the page has its own', async () => {
		const pages = await pagesOf([
			[2, '<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 3 /MediaBox [0 0 500 400] /Rotate 90 /Resources << /Font << /F1 9 0 R >> >> >>'],
			[3, '<< /Type /Pages /Parent 2 0 R /Kids [4 0 R 5 0 R] /Count 2 /Rotate 180 >>'],
			[4, '<< /Type /Page /Parent 3 0 R >>'],
			[5, '<< /Type /Page /Parent 3 0 R /MediaBox [0 0 300 200] /Rotate 0 /Resources << >> >>'],
			[6, '<< /Type /Page /Parent 2 0 R >>'],
		]);
		expect(pages.map((page) => [page.number, page.view, page.rotate])).toEqual([
			[1, [0, 0, 500, 400], 180],
			[2, [0, 0, 300, 200], 0],
			[3, [0, 0, 500, 400], 90],
		]);
		expect(pages[0].resources?.get('Font')).toBeDefined();
		expect(pages[1].resources?.get('Font')).toBeUndefined();
		expect(pages[2].resources?.get('Font')).toBeDefined();
	});

	it('a page without a MediaBox anywhere is US Letter', async () => {
		const [page] = await pagesOf([
			[2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
			[3, '<< /Type /Page /Parent 2 0 R >>'],
		]);
		expect(geometry(page)).toEqual({ view: [0, 0, 612, 792], rotate: 0, width: 612, height: 792 });
	});

	it('reads boxes and /Rotate given as indirect objects', async () => {
		const [page] = await pagesOf([
			[2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
			[3, '<< /Type /Page /Parent 2 0 R /MediaBox 4 0 R /Rotate 5 0 R >>'],
			[4, '[0 0 6 0 R 700]'],
			[5, '270'],
			[6, '400'],
		]);
		expect(geometry(page)).toEqual({ view: [0, 0, 400, 700], rotate: 270, width: 700, height: 400 });
	});
});

describe('the visible area', () => {
	const one = async (entries: string) =>
		geometry(
			(
				await pagesOf([
					[2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
					[3, `<< /Type /Page /Parent 2 0 R ${entries} >>`],
				])
			)[0],
		);

	it('is the CropBox cut to the MediaBox', async () => {
		expect(await one('/MediaBox [0 0 612 792] /CropBox [36 36 700 756]')).toEqual({ view: [36, 36, 612, 756], rotate: 0, width: 576, height: 720 });
	});

	it('is the MediaBox when the CropBox lies outside it', async () => {
		expect(await one('/MediaBox [0 0 612 792] /CropBox [700 800 900 1000]')).toEqual({ view: [0, 0, 612, 792], rotate: 0, width: 612, height: 792 });
	});

	it('normalises boxes written corner to corner the other way round', async () => {
		expect(await one('/MediaBox [612 792 0 0] /CropBox [550 700 50 100]')).toEqual({ view: [50, 100, 550, 700], rotate: 0, width: 500, height: 600 });
	});

	it('ignores a box that is empty or not numbers', async () => {
		expect((await one('/MediaBox [0 0 0 792]')).view).toEqual([0, 0, 612, 792]);
		expect((await one('/MediaBox [0 0 (a) 792]')).view).toEqual([0, 0, 612, 792]);
		expect((await one('/MediaBox [0 0 500 500] /CropBox [1 2 3]')).view).toEqual([0, 0, 500, 500]);
	});

	it.each([
		[0, 0],
		[90, 90],
		[180, 180],
		[270, 270],
		[360, 0],
		[450, 90],
		[-90, 270],
		[-180, 180],
		[-450, 270],
		[45, 0],
		[91, 0],
	])('/Rotate %d is displayed as %d', async (rotate, expected) => {
		const shown = await one(`/MediaBox [0 0 600 800] /Rotate ${rotate}`);
		expect(shown.rotate).toBe(expected);
		expect([shown.width, shown.height]).toEqual(expected === 90 || expected === 270 ? [800, 600] : [600, 800]);
	});
});

describe('the display matrix: user space to the page as shown (origin top-left, y down)', () => {
	// A view [x0 y0 x1 y1] = [10 20 610 820] (600 wide, 800 high). Unturned, the top-left corner (x0, y1) is the
	// origin and y runs down: (x, y) → (x − x0, y1 − y). Turning the page clockwise by 90° puts its left edge on
	// top: the bottom-left corner becomes the top-left one and user x runs down, (x, y) → (y − y0, x − x0). By 180°
	// the bottom-right corner (x1, y0) becomes the top-left: (x1 − x, y − y0). By 270° the top-right
	// corner (x1, y1) becomes the top-left and user x runs up: (y1 − y, x1 − x).
	const view = async (rotate: number) =>
		(
			await pagesOf([
				[2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
				[3, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 700 900] /CropBox [10 20 610 820] /Rotate ${rotate} >>`],
			])
		)[0];

	it.each([
		[0, (x: number, y: number) => [x - 10, 820 - y]],
		[90, (x: number, y: number) => [y - 20, x - 10]],
		[180, (x: number, y: number) => [610 - x, y - 20]],
		[270, (x: number, y: number) => [820 - y, 610 - x]],
	])('Rotate %d', async (rotate, expected) => {
		const page = await view(rotate);
		for (const [x, y] of [
			[10, 20],
			[610, 820],
			[10, 820],
			[610, 20],
			[100, 300],
		]) {
			expect(display(page, x, y)).toEqual(expected(x, y));
		}
		// The view's corners land on the displayed page's corners.
		const corners = [
			[10, 20],
			[610, 20],
			[10, 820],
			[610, 820],
		].map(([x, y]) => display(page, x, y));
		expect(Math.min(...corners.map(([x]) => x))).toBe(0);
		expect(Math.min(...corners.map(([, y]) => y))).toBe(0);
		expect(Math.max(...corners.map(([x]) => x))).toBe(page.width);
		expect(Math.max(...corners.map(([, y]) => y))).toBe(page.height);
	});

	it('PdfText gives the displayed sizes and lines in displayed coordinates', async () => {
		const bytes = pagesPdf([
			{ content: 'BT /F1 10 Tf 72 700 Td (Up) Tj ET' },
			{ content: 'BT /F1 10 Tf 72 700 Td (Turned) Tj ET', rotate: 90 },
		]);
		const pdf = await PdfText.open(bytes);
		expect(pdf.pages).toEqual([
			{ number: 1, width: 612, height: 792, rotate: 0 },
			{ number: 2, width: 792, height: 612, rotate: 90 },
		]);
		const [first] = await pdf.lines(1);
		expect(first.glyphs.slice(0, 2)).toEqual([72, 792 - 700]);
		const [second] = await pdf.lines(2);
		expect(second.glyphs.slice(0, 2)).toEqual([700, 72]);
		expect(await pdf.lines(3)).toEqual([]);
	});
});

describe('page trees that loop, nest or claim too much', () => {
	it('reads each node once when /Kids loops back to an ancestor or repeats a page', async () => {
		const pages = await pagesOf([
			[2, '<< /Type /Pages /Kids [3 0 R 4 0 R 3 0 R 2 0 R] /Count 3 >>'],
			[3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>'],
			[4, '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 5 0 R 4 0 R] /Count 1 >>'],
			[5, '<< /Type /Page /Parent 4 0 R /MediaBox [0 0 200 200] >>'],
		]);
		expect(pages.map((page) => page.width)).toEqual([100, 200]);
	});

	it('skips kids that are not dictionaries, and reads a node without /Type by its /Kids', async () => {
		const pages = await pagesOf([
			[2, '<< /Kids [3 0 R 99 0 R 42 (x) null 4 0 R] >>'],
			[3, '<< /Type /Page /MediaBox [0 0 100 100] >>'],
			[4, '<< /Kids [5 0 R] >>'],
			[5, '<< /Type /Page /MediaBox [0 0 300 300] >>'],
		]);
		expect(pages.map((page) => page.width)).toEqual([100, 300]);
	});

	it('ignores /Count: a claim of a million pages reads the pages there are', async () => {
		const pages = await pagesOf([
			[2, '<< /Type /Pages /Kids [3 0 R] /Count 1000000 >>'],
			[3, '<< /Type /Page /Parent 2 0 R >>'],
		]);
		expect(pages).toHaveLength(1);
	});

	it('refuses a tree nested more than 64 deep as damaged', async () => {
		const objects: Array<[number, RawObject]> = [];
		for (let k = 0; k < 70; k++) objects.push([2 + k, `<< /Type /Pages /Kids [${3 + k} 0 R] >>`]);
		objects.push([72, '<< /Type /Page >>']);
		const error = await pdfError(pagesOf(objects));
		expect(error.kind).toBe('damaged');
	});

	it('stops at the page limit with a PdfError "limit"', async () => {
		const kids = Array.from({ length: 30 }, (_, k) => `${10 + k} 0 R`).join(' ');
		const objects: Array<[number, RawObject]> = [[2, `<< /Type /Pages /Kids [${kids}] >>`]];
		for (let k = 0; k < 30; k++) objects.push([10 + k, '<< /Type /Page >>']);
		expect(await pagesOf(objects, 30)).toHaveLength(30);
		expect((await pdfError(pagesOf(objects, 29))).kind).toBe('limit');
	});

	it('a file without a catalog is damaged', async () => {
		const bytes = buildPdf([[1, '(not a catalog)']]).bytes;
		const error = await pdfError(PdfText.open(bytes));
		expect(error.kind).toBe('damaged');
	});
});
