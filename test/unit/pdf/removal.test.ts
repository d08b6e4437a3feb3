// Tag removal on every tag fixture (test/fixtures/pdf/manifest.json): the upload read again by the reader has the
// same pages, none of the manifest's tags, the same other text with every other glyph where it was (±0.01 pt), and
// the original bytes in front. Files an update would not be safe for (encrypted, damaged) go up unchanged with the
// reason. The renderers' and other readers' view of the same uploads is scripts/tags-vanish.mjs's (slow) check.
import { PdfError, PdfText } from '../../../nodes/ESign/pdf';
import type { TagRemover } from '../../../nodes/ESign/pdf';
import type { PdfFixture as Fixture } from '../../support/pdfjs';
import { readPdfFixture, readPdfFixtureManifest } from '../../support/pdfjs';
import { largestShift, roundTrip } from './removal';

const manifest = readPdfFixtureManifest();
const bytesOf = (file: string) => new Uint8Array(readPdfFixture(file).bytes ?? []);
// The 300-page contract is the bench's (npm run bench:pdf); a password-protected file cannot be read at all.
const tagged = manifest.fixtures.filter((f) => f.tags.length && f.file !== 'contract-300-pages.pdf' && !f.userPassword);
const squash = (text: string) => text.replace(/\s+/g, '');

/** Why a fixture must go up unchanged (by its features), or undefined. */
const blocked = (f: Fixture) =>
	f.features.some((feature) => /RC4|AES|encrypt/i.test(feature)) ? /encrypted/ : /damaged/.test(f.file) ? /damaged/ : undefined;

describe.each(tagged.map((f) => [f.file, f] as const))('%s', (_, fixture) => {
	const bytes = bytesOf(fixture.file);
	const tagTexts = new Set(fixture.tags.map((tag) => squash(tag.text)));
	const trip = roundTrip(bytes, (text) => tagTexts.has(squash(text)));

	it('same pages, original bytes in front, other glyphs unmoved', async () => {
		const { result, pages, pagesAfter, before, after } = await trip;
		expect(pagesAfter).toBe(pages);
		expect(Buffer.from(result.bytes.subarray(0, bytes.length)).equals(Buffer.from(bytes))).toBe(true);
		for (let page = 0; page < pages; page++) expect(largestShift(before[page], after[page])).toBeLessThanOrEqual(0.01);
	});

	const reason = blocked(fixture);
	if (reason) {
		it('goes up unchanged, with the reason', async () => {
			const { result } = await trip;
			expect(result.changed).toBe(false);
			expect(result.bytes).toBe(bytes);
			expect(result.reason).toMatch(reason);
		});
	} else {
		it('every tag removed, none left', async () => {
			const { result, tags, left } = await trip;
			expect(tags).toBeGreaterThanOrEqual(fixture.tags.length);
			expect(result).toMatchObject({ changed: true, removed: tags, skipped: [] });
			expect(left).toEqual([]);
		});
	}
});

it('a password-protected file cannot be opened, so there is nothing to rewrite', async () => {
	const locked = manifest.fixtures.find((f) => f.userPassword);
	expect(locked).toBeDefined();
	await expect(roundTrip(bytesOf((locked as Fixture).file), () => true)).rejects.toBeInstanceOf(PdfError);
});

// Two removals at once, as two executions of the node, each marking and writing between the other's steps, share
// nothing: each uploads the same bytes as alone.
it('two removals at once upload the same bytes as each alone', async () => {
	const files = ['agreement-libreoffice.pdf', 'web-chromium.pdf', 'delivery-ghostscript.pdf'];
	const remove = async (pdf: PdfText, remover: TagRemover, page: number) => {
		for (const line of await pdf.lines(page, undefined, { sources: true })) {
			for (const match of line.text.matchAll(/\{\{[^{}]*\}\}/g)) remover.removeText(page, line, match.index, match.index + match[0].length);
		}
	};
	const alone: Uint8Array[] = [];
	for (const file of files) {
		const pdf = await PdfText.open(bytesOf(file));
		const remover = pdf.tagRemover();
		for (const { number } of pdf.pages) await remove(pdf, remover, number);
		alone.push((await remover.write()).bytes);
	}
	const docs = await Promise.all(files.map((file) => PdfText.open(bytesOf(file))));
	const removers = docs.map((pdf) => pdf.tagRemover());
	// Page by page in turn; the first written before the others' last pages are read.
	for (let page = 1; page <= 2; page++) for (let k = 0; k < docs.length; k++) await remove(docs[k], removers[k], page);
	const first = await removers[0].write();
	const rest = await Promise.all(removers.slice(1).map((remover) => remover.write()));
	const together = [first, ...rest];
	together.forEach((result, k) => {
		expect(result.changed).toBe(true);
		expect([files[k], Buffer.from(result.bytes).equals(Buffer.from(alone[k]))]).toEqual([files[k], true]);
	});
});
