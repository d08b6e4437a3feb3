// Hostile files (test/support/pdfHostile.js): decompression bombs, content that multiplies, reference cycles,
// nesting and counts without end, tables that loop or lie. Each read runs in a child process whose JS heap is limited
// to 256 MB, so a blow-up shows as the outcome "oom" instead of taking jest down; every case must end in the PdfError
// it names, or read (and find the text it names). Time and peak memory are measured by scripts/pdf-hostile.mjs, not
// asserted here (no test holds a wall clock: a hang shows as the outcome "hang" after a 4-minute guard).
import { CASES } from '../../support/pdfHostile';
import { readBounded } from '../../support/pdfReader';

describe('hostile files end in a PdfError or a correct read, with a bounded heap', () => {
	it.each(CASES.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
		// The child is stopped after 4 minutes (a hang guard under jest's own 5, so a hang is reported as "hang").
		const read = await readBounded(testCase.build(), { heapMb: 256, timeoutMs: 240_000 });
		// toMatchObject shows the whole answer (a crash's message, an oom) when it differs.
		expect(read).toMatchObject(testCase.expect);
	});
});
