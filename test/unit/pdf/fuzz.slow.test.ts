// A fixed-seed slice of the PDF reader's fuzzing (scripts/fuzz-pdf.mjs runs tens of thousands of cases): mutated
// fixtures (test/support/pdfFuzz.js: bytes flipped, cut, moved and inserted, and content streams, CMaps, object
// streams, xref streams and objects mutated behind a sound cross-reference) must each read to a result (lines, tags,
// anchor texts, form fields, the tag removal's upload read again) or end in a PdfError, never another exception. Read in this process: no wall clock here; a hang shows as jest's hang guard.
import { PdfError, PdfText } from '../../../nodes/ESign/pdf';
import { findAnchor } from '../../../nodes/ESign/textTags/anchors';
import { findTags, mayHoldTag } from '../../../nodes/ESign/textTags/tags';
import { loadFuzzBases, makeCase } from '../../support/pdfFuzz';
import { rewriteCheck } from '../../support/pdfRewriteCheck';

const SEED = 7_000_000;
const CASES = 600;

describe('fuzz: mutated fixtures', () => {
	it(`${CASES} cases from seed ${SEED} each read to a result or a PdfError, never another exception`, async () => {
		// The 300-page fixture takes a second a read; the other fixtures hold every feature it has.
		const bases = await loadFuzzBases({ exclude: ['contract-300-pages.pdf'] });
		const outcomes = new Map<string, number>();
		const crashes: string[] = [];
		const mutations = new Set<string>();
		let withFields = 0;
		let rewritten = 0;
		let widgetsRemoved = 0;
		for (let i = 0; i < CASES; i++) {
			const made = makeCase(bases, SEED + i);
			mutations.add(made.kind);
			let outcome = 'ok';
			try {
				const pdf = await PdfText.open(new Uint8Array(made.bytes));
				for (const page of pdf.pages) {
					// What the node does with each page: its tags, and an anchor text's places.
					const lines = await pdf.lines(page.number);
					findTags(lines.filter(mayHoldTag), page.number, []);
					findAnchor(lines, page.number, 'Signature:');
				}
				// And its form fields, as the node reads a fillable PDF.
				if ((await pdf.formFields()).length > 0) withFields++;
				// And the tag removal (issue 42): the upload reads again with the same pages and without the removed tags.
				const rewrite = await rewriteCheck({ PdfText, findTags, mayHoldTag }, new Uint8Array(made.bytes));
				if (rewrite.changed) rewritten++;
				// And the form-widget removal (rewriteCheck's widgetCheck), where the form has widgets that become fields.
				if (rewrite.widgets?.changed) widgetsRemoved++;
			} catch (error) {
				if (error instanceof PdfError) outcome = error.kind;
				else {
					outcome = 'crash';
					crashes.push(`${made.description}\n${(error as Error).stack}`);
				}
			}
			outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
		}
		expect(crashes).toEqual([]);
		// The cases reach both sides: files that still read, and files refused as damaged; every kind of mutation ran.
		expect(outcomes.get('ok') ?? 0).toBeGreaterThan(CASES / 10);
		expect(outcomes.get('damaged') ?? 0).toBeGreaterThan(0);
		// Mutated fillable fixtures still reach the form-field reader with widgets to read.
		expect(withFields).toBeGreaterThan(0);
		// Mutated tagged fixtures reach the removal and come out rewritten.
		expect(rewritten).toBeGreaterThan(0);
		// Mutated fillable fixtures reach the widget removal and come out written.
		expect(widgetsRemoved).toBeGreaterThan(0);
		expect([...mutations].sort()).toEqual(['bytes', 'content', 'font', 'hybrid', 'object', 'objstm', 'xrefstream']);
	});
});
