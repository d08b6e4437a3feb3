// The PDF fixtures (test/fixtures/pdf, made by scripts/make-pdf-fixtures.sh) and the pdf.js oracle that the package's
// own PDF reader is checked against (test/support/pdfjsOracle.mjs): for every fixture the oracle finds exactly the
// tags and other {{…}} text the manifest declares, page by page, and gives the page sizes the manifest records. This
// also fails loudly when a pdfjs-dist update moves the worker code the oracle patches.
import { readPdfFixture, readPdfFixtureManifest, readPdfWithPdfjs } from '../../support/pdfjs';
import type { PdfjsTag } from '../../support/pdfjs';

const manifest = readPdfFixtureManifest();
const strip = (s: string) => s.replace(/\s+/g, '');
const keys = (list: Array<{ page: number; text: string }>) => list.map((t) => `p${t.page} ${strip(t.text)}`).sort();
const present = manifest.fixtures.filter((f) => readPdfFixture(f.file).bytes !== undefined);

describe('PDF fixtures read by the pdf.js oracle', () => {
	it.each(present.map((f) => [f.file, f] as const))('%s', async (file, fixture) => {
		const result = await readPdfWithPdfjs(readPdfFixture(file).path, { password: fixture.userPassword, glyphs: false });
		expect(result.numPages).toBe(fixture.pages);
		expect(result.pages.map((p) => ({ page: p.page, width: p.width, height: p.height, rotate: p.rotate }))).toEqual(fixture.pageSizes);
		expect(keys(result.tags)).toEqual(keys(fixture.tags));
		expect(keys(result.braces)).toEqual(keys(fixture.nonTags));
		for (const tag of result.tags as PdfjsTag[]) {
			const page = fixture.pageSizes[tag.page - 1];
			const [left, top, right, bottom] = tag.box;
			// Every box is non-empty and on its page.
			expect(left).toBeLessThan(right);
			expect(top).toBeLessThan(bottom);
			expect(left).toBeGreaterThanOrEqual(0);
			expect(top).toBeGreaterThanOrEqual(0);
			expect(right).toBeLessThanOrEqual(page.width);
			expect(bottom).toBeLessThanOrEqual(page.height);
		}
	});

	it('gives per-glyph positions and anchor boxes in viewport points', async () => {
		const result = await readPdfWithPdfjs(readPdfFixture('delivery-ghostscript.pdf').bytes as Buffer, {
			anchors: ['Signature:', 'Client signature'],
			pages: [2],
		});
		const [page] = result.pages;
		expect(page.page).toBe(2);
		// "Client signature" and its tag are one TJ string in the file; the oracle still boxes each on its own.
		const anchor = page.anchors.find((a) => a.text === 'Client signature');
		const tag = result.tags.find((t) => t.text === '{{signature:1:n:Returns}}');
		expect(anchor && tag).toBeTruthy();
		expect(anchor!.box[2]).toBeLessThan(tag!.box[0]);
		// The PostScript source moves to x = 180 pt for the tag: its left edge is that origin.
		expect(tag!.box[0]).toBeCloseTo(180, 3);
		const braces = page.glyphs!.filter((g) => 'u' in g && g.u === '{');
		expect(braces.some((g) => 'origin' in g && Math.abs(g.origin[0] - 180) < 0.001)).toBe(true);
	});

	it('refuses a wrong password', async () => {
		await expect(readPdfWithPdfjs(readPdfFixture('delivery-aes-256-userpw.pdf').path, { password: 'wrong' })).rejects.toThrow(
			/password/i,
		);
	});
});
