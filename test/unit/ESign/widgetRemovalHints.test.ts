// Remove Form Fields From the PDF, the node's side (helpers/tagRemoval.ts finishWidgetRemoval): what the writer's
// answer means for the upload and the hints. The writer is a stand-in here (its own tests are
// test/unit/pdf/widgetRemoval.test.ts); the engine suite test/ESign/document/widgetRemoval.slow.test.ts runs the real one.
import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { finishWidgetRemoval } from '../../../nodes/ESign/helpers/tagRemoval';
import type { FormWidget, PdfText, Removal } from '../../../nodes/ESign/pdf';
import { executeContext } from '../fakes';

const hints: NodeExecutionHint[] = [];
const context = Object.assign(executeContext(), { addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added) }) as unknown as IExecuteFunctions;
const WHERE = 'the file in binary field "data" (lease.pdf)';
const WIDGETS = [{ name: 'Tenant Signature' }, { name: 'Tenant Name' }] as FormWidget[];

const ORIGINAL = new Uint8Array([37, 80, 68, 70, 45, 7]);
const UPDATE = [new Uint8Array([10, 37]), new Uint8Array([37, 69, 79, 70, 10])];

/**
 * A PdfText whose removeWidgets answers `answer`, and the widgets it was given. The answer's `bytes` (the parts
 * joined, a copy of the whole file) throws: the node must not read it.
 */
function pdfOf(answer: Partial<Removal>) {
	const given: FormWidget[][] = [];
	const pdf = {
		removeWidgets: async (widgets: FormWidget[]) => {
			given.push(widgets);
			const out = { original: ORIGINAL, length: ORIGINAL.length + (answer.update?.reduce((n, piece) => n + piece.length, 0) ?? 0), changed: false, removed: 0, skipped: [], ...answer };
			return Object.defineProperty(out, 'bytes', {
				// enumerable: a spread of the answer would read it too
				enumerable: true,
				get: () => {
					throw new Error('the node read the joined bytes');
				},
			});
		},
	} as unknown as PdfText;
	return { pdf, given };
}

beforeEach(() => hints.splice(0));

describe('finishWidgetRemoval', () => {
	test('the widgets given go to the writer; a changed file is what goes up, as its parts (neither copied nor joined), with no hint when every widget left', async () => {
		const { pdf, given } = pdfOf({ update: UPDATE, changed: true, removed: 2 });
		const upload = await finishWidgetRemoval.call(context, 0, pdf, WIDGETS, WHERE);
		expect(given).toEqual([WIDGETS]);
		expect(upload?.original).toBe(ORIGINAL);
		expect(upload?.update).toBe(UPDATE);
		expect(upload?.length).toBe(ORIGINAL.length + 7);
		expect(hints).toEqual([]);
	});

	test('a file the writer would not rewrite goes up unchanged (undefined: the original), with a hint saying why and that the form boxes stay visible', async () => {
		const { pdf } = pdfOf({ reason: 'the PDF is encrypted, and this node does not write encrypted files' });
		expect(await finishWidgetRemoval.call(context, 1, pdf, WIDGETS, WHERE)).toBeUndefined();
		expect(hints).toHaveLength(1);
		expect(hints[0]).toMatchObject({ type: 'warning', location: 'outputPane' });
		expect(hints[0].message).toBe(
			`Item 2: the form fields in ${WHERE} were not removed: the PDF is encrypted, and this node does not write encrypted files. The file was uploaded unchanged. Signers see the PDF’s own empty form boxes under the eSign fields. To have them removed, save the PDF again from a PDF editor (not encrypted, not signed).`,
		);
	});

	test('a widget left in place is named (quoted) with page and why; the others left and the changed file goes up', async () => {
		const { pdf } = pdfOf({ update: UPDATE, changed: true, removed: 1, skipped: [{ page: 2, text: 'Tenant Name', reason: 'no page that lists it could be rewritten' }] });
		expect((await finishWidgetRemoval.call(context, 0, pdf, WIDGETS, WHERE))?.update).toBe(UPDATE);
		expect(hints.map((h) => h.message)).toEqual([
			`Item 1: A form field in ${WHERE} could not be removed: "Tenant Name" on page 2 (no page that lists it could be rewritten). Its eSign field is placed all the same, and the other form fields were removed. Signers see the PDF’s own empty form boxes under the eSign fields. To have them removed, save the PDF again from a PDF editor (not encrypted, not signed).`,
		]);
	});
});
