// The package's PDF reader (nodes/ESign/pdf) held to an independent reader, pdf.js, on fixtures made by real
// producers (test/fixtures/pdf, made by scripts/make-pdf-fixtures.sh): the same pages (size and rotation as
// displayed), the same tags and other {{…}} text, and every tag's and anchor text's box within 1 pt.
import { PdfError, PdfText } from '../../../nodes/ESign/pdf';
import type { Box } from '../../../nodes/ESign/pdf';
import { findAnchor } from '../../../nodes/ESign/textTags/anchors';
import { findTags, mayHoldTag } from '../../../nodes/ESign/textTags/tags';
import { readPdfFixture, readPdfFixtureManifest, readPdfWithPdfjs } from '../../support/pdfjs';
import type { Box as PdfjsBox } from '../../support/pdfjs';

const manifest = readPdfFixtureManifest();
const TOLERANCE = 1; // points, the bound
// Written with one case wherever they appear in the fixtures (pdf.js's search here is case-sensitive, ours is not).
const ANCHORS = ['Client signature', 'Signature:', 'Date:', 'Carrier'];

const strip = (text: string) => text.replace(/\s+/g, '');
const distance = (mine: Box, theirs: PdfjsBox) =>
	Math.max(Math.abs(mine.left - theirs[0]), Math.abs(mine.top - theirs[1]), Math.abs(mine.right - theirs[2]), Math.abs(mine.bottom - theirs[3]));

/** Pairs each of ours with theirs by key, in order; returns the largest box distance and what stayed unpaired. */
function pair<T extends { key: string; box: Box }>(mine: T[], theirs: Array<{ key: string; box: PdfjsBox }>) {
	const left = [...theirs];
	let worst = 0;
	const unmatched: string[] = [];
	for (const item of mine) {
		const at = left.findIndex((other) => other.key === item.key);
		if (at < 0) {
			unmatched.push(`ours only: ${item.key}`);
			continue;
		}
		worst = Math.max(worst, distance(item.box, left[at].box));
		left.splice(at, 1);
	}
	unmatched.push(...left.map((other) => `pdf.js only: ${other.key}`));
	return { worst, unmatched };
}

/** What the reader finds in a file: page sizes, tags (readable or not), other braces and anchor boxes. */
async function readWithOurs(bytes: Buffer) {
	const pdf = await PdfText.open(new Uint8Array(bytes));
	const tags: Array<{ key: string; box: Box }> = [];
	const braces: Array<{ key: string; box: Box }> = [];
	const anchors: Array<{ key: string; box: Box }> = [];
	for (const page of pdf.pages) {
		const lines = await pdf.lines(page.number);
		const others: string[] = [];
		for (const tag of findTags(lines.filter(mayHoldTag), page.number, others)) tags.push({ key: `p${page.number} ${strip(tag.text)}`, box: tag.box });
		// Other braces carry no box in findTags: their boxes are checked through the anchor search below.
		for (const other of others) braces.push({ key: `p${page.number} ${other}`, box: { left: 0, top: 0, right: 0, bottom: 0 } });
		for (const anchor of ANCHORS) {
			for (const match of findAnchor(lines, page.number, anchor)) anchors.push({ key: `p${page.number} ${anchor}`, box: match.box });
		}
	}
	return { pages: pdf.pages, tags, braces, anchors };
}

describe('the PDF reader agrees with pdf.js on files of real producers', () => {
	const readable = manifest.fixtures.filter((f) => !f.userPassword && readPdfFixture(f.file).bytes !== undefined);

	test.each(readable.map((f) => [f.file, f.producer, f] as const))('%s (%s)', async (file, _producer, fixture) => {
		const { bytes, path } = readPdfFixture(file);
		const ours = await readWithOurs(bytes as Buffer);
		const theirs = await readPdfWithPdfjs(path, { anchors: ANCHORS, glyphs: false });

		expect(ours.pages.map((p) => [p.number, p.rotate])).toEqual(theirs.pages.map((p) => [p.page, p.rotate]));
		for (const [n, page] of ours.pages.entries()) {
			expect(Math.abs(page.width - theirs.pages[n].width)).toBeLessThan(0.01);
			expect(Math.abs(page.height - theirs.pages[n].height)).toBeLessThan(0.01);
		}

		const tags = pair(ours.tags, theirs.tags.map((t) => ({ key: `p${t.page} ${t.text}`, box: t.box })));
		expect(tags.unmatched).toEqual([]);
		expect(tags.worst).toBeLessThanOrEqual(TOLERANCE);
		// Every tag the fixture's source holds is found, and nothing else.
		expect(ours.tags.map((t) => t.key).sort()).toEqual(fixture.tags.map((t) => `p${t.page} ${strip(t.text)}`).sort());

		expect(ours.braces.map((b) => b.key).sort()).toEqual(theirs.braces.map((b) => `p${b.page} ${b.text}`).sort());

		// Anchor texts: every occurrence, on both sides, with its box.
		const theirAnchors = theirs.pages.flatMap((p) => p.anchors.map((a) => ({ key: `p${p.page} ${a.text}`, box: a.box })));
		// (Every fixture with text holds some of them; the scanned one has none.)
		expect(theirAnchors.length > 0).toBe(fixture.tags.length > 0);
		const anchors = pair(ours.anchors, theirAnchors);
		expect(anchors.unmatched).toEqual([]);
		expect(anchors.worst).toBeLessThanOrEqual(TOLERANCE);
	});

	test('a PDF that needs a password to open is refused as encrypted, as pdf.js asks for its password', async () => {
		const fixture = manifest.fixtures.find((f) => f.userPassword) as { file: string };
		const { bytes, path } = readPdfFixture(fixture.file);
		await expect(readPdfWithPdfjs(path, { glyphs: false })).rejects.toThrow(/password/i);
		const refusal = await PdfText.open(new Uint8Array(bytes as Buffer)).then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(refusal).toBeInstanceOf(PdfError);
		expect((refusal as PdfError).kind).toBe('encrypted');
	});
});
