// Every CID of Adobe's four CJK collections, read by both readers: a PDF shows each CID once, in a grid, in a
// non-embedded Identity-H font without ToUnicode (as dvipdfmx writes Japanese), and pdf.js's text for each glyph
// (found by its place in the grid) is compared with ours (fonts.ts → cidUnicode.ts). Both are taken through NFKC
// (pdf.js gives some CIDs as compatibility ideographs or vertical forms, which NFKC turns into what we give).
// pdf.js bundles an older release of Adobe's UCS2 CMaps than the one the data is made from (poppler-data
// 0.4.12-1): the CIDs whose letters differ were counted on 2026-11-28 (test/fixtures/pdf/README.md) and may not
// grow. pdf.js runs in a child process: hence `.slow`.
import { DEFAULT_LIMITS, PdfDocument } from '../../../nodes/ESign/pdf/read/document';
import { loadFont } from '../../../nodes/ESign/pdf/fonts/fonts';
import { PdfDict, PdfRef } from '../../../nodes/ESign/pdf/read/objects';
import { readPdfWithPdfjs } from '../../support/pdfjs';
import { pagesPdf } from '../../support/pdfRaw';
import type { RawPage } from '../../support/pdfRaw';

/** The last CID of each collection, and how many CIDs' letters differed from pdf.js's (NFKC) when measured. */
const COLLECTIONS = [
	{ ordering: 'Japan1', last: 23059, differed: 180 },
	{ ordering: 'GB1', last: 30283, differed: 2 },
	{ ordering: 'CNS1', last: 19178, differed: 96 },
	{ ordering: 'Korea1', last: 18351, differed: 1 },
];
const COLUMNS = 100;
const PER_PAGE = 10_000;
const LETTER = /[\p{L}\p{N}]/u;

const hex = (cid: number) => cid.toString(16).padStart(4, '0');

/** The CIDs 0…last on pages of 100 × 100, 10 pt apart; font 5 of the file is the composite font. */
function gridPdf(ordering: string, last: number) {
	const pages: RawPage[] = [];
	for (let start = 0; start <= last; start += PER_PAGE) {
		const shows: string[] = [];
		for (let cid = start; cid <= Math.min(last, start + PER_PAGE - 1); cid++) {
			const k = cid - start;
			shows.push(`1 0 0 1 ${10 + (k % COLUMNS) * 10} ${1010 - Math.floor(k / COLUMNS) * 10} Tm <${hex(cid)}> Tj`);
		}
		pages.push({ content: `BT /F1 5 Tf\n${shows.join('\n')}\nET`, mediaBox: [0, 0, 1020, 1020], resources: '/Font << /F1 5 0 R >>' });
	}
	return pagesPdf(pages, {
		extra: [
			[5, '<< /Type /Font /Subtype /Type0 /BaseFont /CJK /Encoding /Identity-H /DescendantFonts [6 0 R] >>'],
			[6, `<< /Type /Font /Subtype /CIDFontType0 /BaseFont /CJK /CIDSystemInfo << /Registry (Adobe) /Ordering (${ordering}) /Supplement 7 >> /DW 1000 >>`],
		],
	});
}

describe("every CID of Adobe's CJK collections: our text is pdf.js's", () => {
	for (const { ordering, last, differed } of COLLECTIONS) {
		test(`Adobe-${ordering} (CIDs 0–${last}): letters differ at no more than the ${differed} CIDs measured`, async () => {
			const bytes = new Uint8Array(gridPdf(ordering, last));
			const doc = await PdfDocument.open(bytes, DEFAULT_LIMITS);
			const font = await loadFont(doc, (await doc.resolve(new PdfRef(5, 0))) as PdfDict);
			const ours = (cid: number) => {
				let text = '';
				font.decode(Uint8Array.from([cid >> 8, cid & 255]), (glyph) => (text += glyph.text));
				return text;
			};
			const theirs = await readPdfWithPdfjs(bytes);
			let compared = 0;
			const different: string[] = [];
			for (const page of theirs.pages) {
				for (const glyph of page.glyphs ?? []) {
					if (!('u' in glyph)) continue;
					const [x, y] = glyph.origin;
					const cid = (page.page - 1) * PER_PAGE + Math.round((y - 10) / 10) * COLUMNS + Math.round((x - 10) / 10);
					compared++;
					// A CID the collection leaves out: we have no text, pdf.js gives the code as a character of its own.
					if (ours(cid) === '\ufffd' && glyph.u === String.fromCharCode(cid)) continue;
					const [a, b] = [ours(cid).normalize('NFKC'), glyph.u.normalize('NFKC')];
					if (a !== b && LETTER.test(b)) different.push(`CID ${cid}: ours ${JSON.stringify(a)}, pdf.js ${JSON.stringify(b)}`);
				}
			}
			// pdf.js reports no glyph for a blank one (spaces: a few CIDs a collection).
			expect(compared).toBeGreaterThan(last - 20);
			if (different.length > differed) throw new Error(`${different.length} CIDs differ (measured: ${differed}):\n${different.slice(0, 20).join('\n')}`);
			expect(different.length).toBeLessThanOrEqual(differed);
		});
	}
});
