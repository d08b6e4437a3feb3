// The PDF reader held to pdf.js on real documents nobody here wrote (issue 41, item 4): the small files of the
// real-document corpus committed in test/fixtures/real/ (gropdf, LuaTeX through pandoc, xdvipdfmx in French,
// dvipdfmx in Japanese), compared exactly as `npm run test:real-pdfs` compares the whole corpus
// (scripts/lib/realPdfsMetrics.js): ≥ 99.9 % of pdf.js's letters and digits matched in order, no U+FFFD where
// pdf.js reads a letter, and every anchor word within 1 pt of pdf.js's glyph boxes along the text. A shortfall the
// manifest records (`known`) must be no worse than recorded. pdf.js runs in a child process: hence `.slow`.
import { PdfText } from '../../../nodes/ESign/pdf';
import type { TextLine } from '../../../nodes/ESign/pdf';
import { findAnchor } from '../../../nodes/ESign/textTags/anchors';
import type { Figures, RealPdfEntry } from '../../../scripts/lib/realPdfsMetrics';
import { addUp, comparePage, percent, readCommittedRealPdfs } from '../../../scripts/lib/realPdfsMetrics';
import type { PdfjsGlyph } from '../../support/pdfjs';
import { readPdfWithPdfjs } from '../../support/pdfjs';

const LETTER_BAR = 99.9;
const ANCHOR_BAR = 100;
const reader = { findAnchor };
const committed = readCommittedRealPdfs();

/** Both readers' pages (the manifest's first `pages`), as the comparison takes them. */
async function readBoth(entry: RealPdfEntry, bytes: Buffer) {
	const pdf = await PdfText.open(new Uint8Array(bytes));
	const numbers = Array.from({ length: Math.min(entry.pages, pdf.pages.length) }, (_, i) => i + 1);
	const theirs = await readPdfWithPdfjs(new Uint8Array(bytes), { pages: numbers });
	const pages: Array<{ number: number; lines: TextLine[]; glyphs: PdfjsGlyph[] }> = [];
	for (const page of theirs.pages) pages.push({ number: page.page, lines: await pdf.lines(page.page), glyphs: page.glyphs ?? [] });
	return { ourPageCount: pdf.pages.length, theirPageCount: theirs.numPages, pages };
}

type Pages = Awaited<ReturnType<typeof readBoth>>['pages'];
const figuresOf = (pages: Pages): Figures => addUp(pages.map((p) => comparePage(p.lines, p.glyphs, p.number, reader)));

describe('the PDF reader agrees with pdf.js on real documents (test/fixtures/real)', () => {
	test('the committed files are those the manifest measured', () => {
		expect(committed.length).toBeGreaterThanOrEqual(5);
		for (const { entry, bytes, sha256 } of committed) {
			expect([entry.id, sha256, bytes.length]).toEqual([entry.id, entry.sha256, entry.bytes]);
		}
	});

	test.each(committed.map((c) => [c.entry.id, c.entry.producer, c] as const))('%s (%s)', async (_id, _producer, { entry, bytes }) => {
		const both = await readBoth(entry, bytes);
		expect(both.ourPageCount).toBe(both.theirPageCount);
		const f = figuresOf(both.pages);
		expect(f.pages).toBe(entry.pages);
		expect(f.letters).toBeGreaterThan(0);

		const letters = percent(f.matched, f.letters);
		const anchors = percent(f.anchors.within, f.anchors.compared);
		const known = entry.known ?? { why: '' };
		// Each figure against the bar, or, where the manifest records a shortfall, against the figure recorded then.
		expect(letters).toBeGreaterThanOrEqual(known.letters ?? LETTER_BAR);
		expect(f.fffdAtLetters).toBeLessThanOrEqual(known.fffdAtLetters ?? 0);
		expect(f.anchors.compared).toBeGreaterThan(0);
		expect(anchors).toBeGreaterThanOrEqual(known.anchors ?? ANCHOR_BAR);
	});

	// The comparison cannot pass unearned: on a file read alike by both, a letter lost, a U+FFFD at a letter and an
	// anchor 2 pt off are each seen.
	test('the comparison sees a lost letter, a U+FFFD at a letter and an anchor moved by 2 pt', async () => {
		const { entry, bytes } = committed.find((c) => c.entry.id === 'mom-letter') ?? committed[0];
		const { pages } = await readBoth(entry, bytes);
		const clean = figuresOf(pages);
		expect([clean.matched, clean.fffdAtLetters, clean.anchors.within]).toEqual([clean.letters, 0, clean.anchors.compared]);

		// The first line with a word of five letters or more: one of its letters replaced by U+FFFD, or dropped.
		const at = pages[0].lines.findIndex((line) => /\p{L}{5}/u.test(line.text));
		const line = pages[0].lines[at];
		const index = line.text.search(/\p{L}{5}/u) + 2;
		const withLine = (changed: TextLine) => [{ ...pages[0], lines: pages[0].lines.map((l, i) => (i === at ? changed : l)) }, ...pages.slice(1)];
		const fffd = figuresOf(withLine({ ...line, text: `${line.text.slice(0, index)}\uFFFD${line.text.slice(index + 1)}` }));
		expect([clean.letters - fffd.matched, fffd.fffdAtLetters]).toEqual([1, 1]);
		const dropped = figuresOf(withLine({ ...line, text: line.text.slice(0, index) + line.text.slice(index + 1), glyphOf: [...line.glyphOf.slice(0, index), ...line.glyphOf.slice(index + 1)] }));
		expect(clean.letters - dropped.matched).toBe(1);

		// Every glyph of the page moved 2 pt to the right: no anchor stays within 1 pt.
		const moved = pages[0].lines.map((l) => ({ ...l, glyphs: l.glyphs.map((v, i) => (i % 6 === 0 ? v + 2 : v)) }));
		const shifted = figuresOf([{ ...pages[0], lines: moved }]);
		expect(shifted.anchors.compared).toBeGreaterThan(0);
		expect(shifted.anchors.within).toBe(0);
	});
});
