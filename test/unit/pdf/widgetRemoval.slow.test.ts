// Form widgets that became eSign fields, taken out of the file (pdf/widgetRemoval.ts), held to pdf.js and qpdf rather
// than to the node's own reader: on every fillable fixture that can be rewritten, page.getAnnotations() on the output
// finds exactly the widgets that were not given, and qpdf --check reads the output clean. Runs pdf.js and qpdf in
// children: slow layer.
import { usableWidgets } from '../../../nodes/ESign/helpers/formFields';
import { PdfText } from '../../../nodes/ESign/pdf';
import { readPdfFixture } from '../../support/pdfjs';
import type { PdfjsWidget } from '../../support/pdfjsForms';
import { readFormsWithPdfjs } from '../../support/pdfjsForms';
import { qpdfCheck } from '../../support/qpdf';

const keyOf = (w: { page: number; name: string }) => `${w.page} ${w.name}`;
const boxKey = (w: PdfjsWidget) => `${keyOf(w)} ${w.box.map(Math.round).join(',')}`;

describe('the update without the widgets that became fields, read by pdf.js and qpdf', () => {
	test.each(['form-pdflib.pdf', 'form-tree.pdf', 'form-controls.pdf'])('%s', async (file) => {
		const bytes = new Uint8Array(readPdfFixture(file).bytes as Buffer);
		const pdf = await PdfText.open(bytes);
		const { usable } = usableWidgets(await pdf.formFields());
		const result = await pdf.removeWidgets(usable);
		expect(result.changed).toBe(true);

		const before = (await readFormsWithPdfjs(bytes)).widgets;
		const after = (await readFormsWithPdfjs(result.bytes)).widgets;
		// A widget is gone when the reader's widget of the same page and name was given: every one of those, only those.
		const gone = (w: PdfjsWidget) => usable.some((u) => keyOf(u) === keyOf(w) && Math.abs(u.box.left - w.box[0]) <= 1 && Math.abs(u.box.top - w.box[1]) <= 1);
		expect(before.filter(gone)).toHaveLength(usable.length);
		expect(after.map(boxKey)).toEqual(before.filter((w) => !gone(w)).map(boxKey));

		const check = qpdfCheck(result.bytes);
		// qpdf missing (and not installable here): the reason, not a bare null.
		expect(check.status === null ? check.output : '').toBe('');
		expect({ status: check.status, output: check.status === 0 ? '' : check.output }).toEqual({ status: 0, output: '' });
	});
});
