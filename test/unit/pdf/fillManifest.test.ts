// The fill fixtures' manifest (test/fixtures/pdf/fill/manifest.json, made by scripts/pdf-fixtures/makeFill.mjs and
// read by scripts/fill-check.mjs) agrees with the files as the reader reads them: every file exists with the size and
// page count the manifest gives; every value names a field the file has (PdfText.formFields(), full names) or a data
// tag its text holds ({{data:KEY}} in a line of pdf.lines(page)); each expected box is that widget's box or that
// tag's line, on its page; the kept fields and the signer tags are there.
import { PdfText } from '../../../nodes/ESign/pdf';
import type { FormFieldKind, FormWidget } from '../../../nodes/ESign/pdf';
import type { Box, FillExpectation, FillFixture } from '../../support/fillFixtures';
import { readFillFixture, readFillManifest } from '../../support/fillFixtures';

const manifest = readFillManifest();
const squash = (text: string) => text.replace(/\s+/g, '');
const asBox = (b: { left: number; top: number; right: number; bottom: number }): Box => [b.left, b.top, b.right, b.bottom];
const within = (a: Box, b: Box, tolerance: number) => a.every((v, i) => Math.abs(v - b[i]) <= tolerance);

/** The reader's kind for a manifest entry (the manifest says text with `multiline`, the reader textarea). */
function readerKind(e: { kind: string; multiline?: true }): FormFieldKind | string {
	return e.kind === 'text' && e.multiline ? 'textarea' : e.kind;
}

async function open(fixture: FillFixture) {
	const { bytes } = readFillFixture(fixture.file);
	if (!bytes) throw new Error(`${fixture.file} is missing (bash scripts/make-pdf-fixtures.sh --fill makes it)`);
	return { bytes, pdf: await PdfText.open(new Uint8Array(bytes)) };
}

it('lists form fixtures and data tag fixtures, each with values and where each goes', () => {
	expect(manifest.fixtures.filter((f) => f.kind === 'form').length).toBeGreaterThanOrEqual(3);
	expect(manifest.fixtures.filter((f) => f.kind === 'tags').length).toBeGreaterThanOrEqual(2);
	for (const fixture of manifest.fixtures) {
		const named = new Set(fixture.expect.map((e) => ('key' in e ? e.key : e.name)));
		expect([fixture.file, [...named].sort()]).toEqual([fixture.file, Object.keys(fixture.values).sort()]);
	}
});

describe.each(manifest.fixtures.filter((f) => f.kind === 'form').map((f) => [f.file, f] as const))('%s', (_, fixture) => {
	const read = open(fixture);

	it('exists with the size and pages the manifest gives', async () => {
		const { bytes, pdf } = await read;
		expect([bytes.length, pdf.pages.length]).toEqual([fixture.bytes, fixture.pages]);
	});

	it('has a field for every value, with a widget at each expected box (0.5 pt), and the kept fields', async () => {
		const widgets: FormWidget[] = await (await read).pdf.formFields();
		const names = new Set(widgets.map((w) => w.name));
		expect(Object.keys(fixture.values).filter((name) => !names.has(name))).toEqual([]);
		const entries = [...fixture.expect, ...(fixture.keep ?? [])] as Array<Extract<FillExpectation, { name: string }>>;
		const unmatched = entries.filter(
			(e) => !widgets.some((w) => w.name === e.name && w.page === e.page && w.kind === readerKind(e) && within(asBox(w.box), e.box, 0.5)),
		);
		expect(unmatched.map((e) => `${e.name} p${e.page} ${e.kind} [${e.box.join(' ')}]`)).toEqual([]);
	});
});

describe.each(manifest.fixtures.filter((f) => f.kind === 'tags').map((f) => [f.file, f] as const))('%s', (_, fixture) => {
	const read = open(fixture);

	it('exists with the size and pages the manifest gives', async () => {
		const { bytes, pdf } = await read;
		expect([bytes.length, pdf.pages.length]).toEqual([fixture.bytes, fixture.pages]);
	});

	it('holds {{data:KEY}} for every value on its page, in a line across the expected box, and the signer tags', async () => {
		const { pdf } = await read;
		const missing: string[] = [];
		for (const e of fixture.expect) {
			if (e.kind !== 'tag') continue;
			const tag = `{{data:${e.key}}}`;
			const lines = await pdf.lines(e.page);
			// The line holding the tag crosses the tag's baseline and reaches its left edge.
			const line = lines.find((l) => squash(l.text).includes(tag));
			const origins = line ? Array.from({ length: line.glyphs.length / 6 }, (_, i) => [line.glyphs[i * 6], line.glyphs[i * 6 + 1]]) : [];
			if (!line || !origins.some(([x, y]) => Math.abs(x - e.box[0]) <= 0.5 && Math.abs(y - e.baseline) <= 0.5)) missing.push(`${tag} p${e.page}`);
		}
		for (const s of fixture.signerTags ?? []) {
			if (!(await pdf.lines(s.page)).some((l) => squash(l.text).includes(squash(s.text)))) missing.push(`${s.text} p${s.page}`);
		}
		expect(missing).toEqual([]);
	});
});
