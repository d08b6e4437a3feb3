// The reader's form fields (PdfText.formFields) held to pdf.js's page.getAnnotations() on every fillable fixture
// (test/fixtures/pdf, features "AcroForm fields"): the same widgets, with the same full names, kinds, flags and
// choices, and each box within 1 pt of pdf.js's rectangle on the displayed page. Runs pdf.js in a child: slow layer.
import { PdfText } from '../../../nodes/ESign/pdf';
import type { Box, FormFieldKind, FormWidget } from '../../../nodes/ESign/pdf';
import { readPdfFixture, readPdfFixtureManifest } from '../../support/pdfjs';
import { readFormsWithPdfjs } from '../../support/pdfjsForms';
import type { PdfjsWidget } from '../../support/pdfjsForms';

const TOLERANCE = 1; // points, the bound
const fillable = readPdfFixtureManifest().fixtures.filter((f) => f.features.includes('AcroForm fields'));

/** pdf.js's field type and flags as the reader's kind; undefined for a widget whose field names no type. */
function kindOf(widget: PdfjsWidget): FormFieldKind | undefined {
	switch (widget.fieldType) {
		case 'Sig':
			return 'signature';
		case 'Tx':
			return widget.multiLine ? 'textarea' : 'text';
		case 'Btn':
			return widget.pushButton ? 'button' : widget.radioButton ? 'radio' : 'checkbox';
		case 'Ch':
			return 'dropdown';
		default:
			return undefined;
	}
}

/** Everything but the box, as one comparable key. */
const keyOf = (w: Omit<FormWidget, 'box'>) =>
	JSON.stringify([w.page, w.name, w.kind, w.required, w.readOnly, w.hidden, w.options ?? null]);

const distance = (mine: Box, theirs: [number, number, number, number]) =>
	Math.max(Math.abs(mine.left - theirs[0]), Math.abs(mine.top - theirs[1]), Math.abs(mine.right - theirs[2]), Math.abs(mine.bottom - theirs[3]));

describe('form fields agree with pdf.js on the fillable fixtures', () => {
	test('there are fillable fixtures to check', () => {
		expect(fillable.map((f) => f.file)).toContain('form-pdflib.pdf');
	});

	test.each(fillable.map((f) => [f.file, f.producer, f] as const))('%s (%s)', async (file, _producer, fixture) => {
		const { bytes, path } = readPdfFixture(file);
		const pdf = await PdfText.open(new Uint8Array(bytes as Buffer));
		const ours = await pdf.formFields();
		const theirs = (await readFormsWithPdfjs(path, { password: fixture.userPassword })).widgets.flatMap((w) => {
			const kind = kindOf(w);
			if (!kind) return [];
			const { page, name, required, readOnly, hidden, options } = w;
			return [{ key: keyOf({ page, name, kind, required, readOnly, hidden, ...(options ? { options } : {}) }), box: w.box }];
		});
		expect(ours.length).toBeGreaterThan(0);

		// Paired by key, in order (a radio group's widgets share one key: their order on the page pairs them).
		const left = [...theirs];
		const unmatched: string[] = [];
		let worst = 0;
		for (const widget of ours) {
			const at = left.findIndex((other) => other.key === keyOf(widget));
			if (at < 0) {
				unmatched.push(`ours only: ${keyOf(widget)}`);
				continue;
			}
			worst = Math.max(worst, distance(widget.box, left[at].box));
			left.splice(at, 1);
		}
		unmatched.push(...left.map((other) => `pdf.js only: ${other.key}`));
		expect(unmatched).toEqual([]);
		expect(worst).toBeLessThanOrEqual(TOLERANCE);
		// Page order, as the reader promises.
		expect(ours.map((w) => w.page)).toEqual([...ours.map((w) => w.page)].sort((a, b) => a - b));
	});
});
