// Hostile files (test/support/pdfHostile.js): decompression bombs, content that multiplies, reference cycles,
// nesting and counts without end, tables that loop or lie. Each read runs in a child process whose JS heap is limited
// to 256 MB, so a blow-up shows as the outcome "oom" instead of taking jest down; every case must end in the PdfError
// it names, or read (and find the text it names). Time and peak memory are measured by scripts/pdf-hostile.mjs, not
// asserted here (no test holds a wall clock: a hang shows as the outcome "hang" after a 4-minute guard).
// Below them, the lexer's and the CMap parser's own bounds on input too large for jest's process (lexer.test.ts and
// cmap.test.ts hold the rest). Child processes: the slow layer (npm run test:slow).
import { CASES } from '../../support/pdfHostile';
import { readBounded } from '../../support/pdfReader';
import { pagesPdf } from '../../support/pdfRaw';

describe('hostile files end in a PdfError or a correct read, with a bounded heap', () => {
	it.each(CASES.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
		// The child is stopped after 4 minutes (a hang guard under jest's own 5, so a hang is reported as "hang").
		const read = await readBounded(testCase.build(), { heapMb: 256, timeoutMs: 240_000 });
		// toMatchObject shows the whole answer (a crash's message, an oom) when it differs.
		expect(read).toMatchObject(testCase.expect);
	});
});

// The lexer keeps a literal string's bytes in one typed array: the 30 MB string of escapes reads in far less heap.
describe('lexer: a 30 MB string of escapes', () => {
	it('is read within a 96 MB heap (its bytes in one typed array)', async () => {
		const huge = CASES.find((testCase) => testCase.name.startsWith('a 30 MB literal string'));
		const read = await readBounded((huge as (typeof CASES)[number]).build(), { heapMb: 96 });
		expect(read).toMatchObject({ outcome: 'ok', texts: ['after'] });
	});
});

describe('CMaps: hostile ToUnicode maps in a page, read in a child with a 256 MB heap', () => {
	it.each([
		['6,000,000 operands in one bfchar block', `1 beginbfchar <48> <0068> ${'<00> '.repeat(6_000_000)} endbfchar`],
		['an array of 5,000,000 destinations in a bfrange', `1 beginbfrange <48> <49> [<0068> ${'<0041> '.repeat(5_000_000)}] endbfrange`],
	])('%s: a bounded read, not out of memory', async (_case, block) => {
		const program = `1 begincodespacerange <00> <FF> endcodespacerange ${block}`;
		const pdf = pagesPdf([{ content: 'BT /F2 12 Tf 72 700 Td (Hi) Tj ET', resources: '/Font << /F2 5 0 R >>' }], {
			extra: [
				[5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>'],
				[6, { stream: program }],
			],
		});
		const read = await readBounded(pdf, { heapMb: 256 });
		expect(read).toMatchObject({ outcome: 'ok', texts: ['hi'] });
	});
});
