// Values drawn into a PDF (issue 51; nodes/ESign/helpers/pdfFill.ts, nodes/ESign/pdf/write/fill.ts): the filled file
// read back by the reader itself: each value's text where its field or tag was, the filled widgets gone and the others
// kept, the data tags' text gone and the signer tags kept, the original bytes in front; and every refusal named.
// Independent readers (poppler, Ghostscript, MuPDF, pdf.js) and pdftk's own fill hold the same files in
// scripts/fill-check.mjs.
import { fillPdf } from '../../../nodes/ESign/helpers/pdfFill';
import type { FillProblem } from '../../../nodes/ESign/helpers/pdfFill';
import { PdfText } from '../../../nodes/ESign/pdf';
import type { Box, FormWidget } from '../../../nodes/ESign/pdf';
import { readFillFixture } from '../../support/fillFixtures';
import { readPdfFixture } from '../../support/pdfjs';
import { pagesPdf } from '../../support/pdfRaw';

const fixture = (file: string) => new Uint8Array(readPdfFixture(file).bytes as Buffer);

async function filled(bytes: Uint8Array, values: Record<string, unknown>) {
	const out = await fillPdf(bytes, values);
	if (!out.ok) throw new Error(`fill refused: ${out.problems.map((p) => p.message).join('; ')}`);
	const whole = new Uint8Array(out.length);
	whole.set(out.original);
	let at = out.original.length;
	for (const piece of out.update) {
		whole.set(piece, at);
		at += piece.length;
	}
	return { out, bytes: whole, pdf: await PdfText.open(whole) };
}

async function problems(bytes: Uint8Array, values: Record<string, unknown>): Promise<FillProblem[]> {
	const out = await fillPdf(bytes, values);
	return out.ok ? [] : out.problems;
}

/** Where `text` is drawn on `page` (the box of its first occurrence, or of the one nearest `near`), or undefined. */
async function find(pdf: PdfText, page: number, text: string, near?: Box): Promise<Box | undefined> {
	if (near) {
		const all: Box[] = [];
		for (const line of await pdf.lines(page)) {
			const box = line.text.includes(text) ? await find({ lines: async () => [line] } as unknown as PdfText, page, text) : undefined;
			if (box) all.push(box);
		}
		return all.sort((a, b) => Math.abs(a.bottom - near.bottom) - Math.abs(b.bottom - near.bottom))[0];
	}
	for (const line of await pdf.lines(page)) {
		const at = line.text.indexOf(text);
		if (at < 0) continue;
		const first = line.glyphOf[at];
		const last = line.glyphOf[at + text.length - 1];
		const g = (i: number) => line.glyphs.slice(i * 6, i * 6 + 6);
		const [x0, y0] = g(first);
		const [x1, y1, ax] = g(last);
		return { left: Math.min(x0, x1 + ax), top: Math.min(y0, y1) - line.size * 0.8, right: Math.max(x0, x1 + ax), bottom: Math.max(y0, y1) };
	}
	return undefined;
}

const inside = (inner: Box | undefined, outer: Box) =>
	inner !== undefined && inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5 && inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5;

/** Whether any glyph of `page` has its origin inside `box` (a mark drawn there). */
async function drawnIn(pdf: PdfText, page: number, box: Box): Promise<boolean> {
	for (const line of await pdf.lines(page)) {
		for (let i = 0; i < line.glyphs.length; i += 6) {
			const [x, y] = [line.glyphs[i], line.glyphs[i + 1]];
			if (x >= box.left && x <= box.right && y >= box.top && y <= box.bottom) return true;
		}
	}
	return false;
}

const widgetsOf = async (bytes: Uint8Array) => (await (await PdfText.open(bytes)).formFields()).map((w: FormWidget) => w.name);

describe('Fill PDF: a fillable PDF (pdf-lib)', () => {
	const original = fixture('form-pdflib.pdf');
	let before: FormWidget[] = [];
	beforeAll(async () => {
		before = await (await PdfText.open(original)).formFields();
	});
	const box = (name: string) => (before.find((w) => w.name === name) as FormWidget).box;

	it('draws each text inside its field, keeps the original in front, and takes out only the filled widgets', async () => {
		const { bytes, pdf, out } = await filled(original, { 'Tenant Name': 'Ada Lovelace', 'Tenant Date': '2026-12-02', Plan: 'Pro' });
		expect(Buffer.from(bytes.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);
		expect(out.filled.sort()).toEqual(['Plan', 'Tenant Date', 'Tenant Name']);
		expect(inside(await find(pdf, 1, 'Ada Lovelace'), box('Tenant Name'))).toBe(true);
		expect(inside(await find(pdf, 1, 'Pro'), box('Plan'))).toBe(true);
		expect(inside(await find(pdf, 2, '2026-12-02'), box('Tenant Date'))).toBe(true);
		const left = await widgetsOf(bytes);
		expect(left).not.toContain('Tenant Name');
		expect(left).not.toContain('Plan');
		expect(left).toContain('Landlord Name');
		expect(left).toContain('Tenant Signature');
	});

	it('wraps a multi-line field over lines inside its box, and centres or right-aligns as /Q says', async () => {
		const text = 'Pets allowed on the ground floor only. The tenant keeps the garden tidy and waters the roses every week.';
		const { pdf } = await filled(original, { Notes: text });
		const lines = (await pdf.lines(1)).filter((line) => /Pets allowed|garden|roses/.test(line.text));
		expect(lines.length).toBeGreaterThanOrEqual(2);
		expect(inside(await find(pdf, 1, 'Pets allowed'), box('Notes'))).toBe(true);
		expect(inside(await find(pdf, 1, 'roses'), box('Notes'))).toBe(true);
	});

	it('ticks a check box for true and its synonyms, draws nothing for false, and takes the widget out either way', async () => {
		for (const yes of [true, 'yes', 'ON', '1', 'x', 1]) {
			const { pdf, bytes } = await filled(original, { 'Agree Terms': yes });
			expect([yes, await drawnIn(pdf, 1, box('Agree Terms'))]).toEqual([yes, true]);
			expect(await widgetsOf(bytes)).not.toContain('Agree Terms');
		}
		expect(await drawnIn(await PdfText.open(original), 1, box('Agree Terms'))).toBe(false);
		const { pdf, bytes } = await filled(original, { 'Agree Terms': 'no' });
		expect(await drawnIn(pdf, 1, box('Agree Terms'))).toBe(false);
		expect(await widgetsOf(bytes)).not.toContain('Agree Terms');
	});

	it('marks the radio button whose export value is given, and only it', async () => {
		const radios = before.filter((w) => w.name === 'Pets');
		expect(radios.map((w) => w.look?.exportValue)).toEqual(['Yes', 'No']);
		const { pdf, bytes } = await filled(original, { Pets: 'No' });
		expect([await drawnIn(pdf, 1, radios[0].box), await drawnIn(pdf, 1, radios[1].box)]).toEqual([false, true]);
		expect(await widgetsOf(bytes)).not.toContain('Pets');
	});

	it('names every value it refuses, with what to change, before writing anything', async () => {
		const refused = await problems(original, {
			Nope: 'x',
			Plan: 'Gold',
			'Agree Terms': 'maybe',
			'Tenant Signature': 'Ada',
			'Tenant Name': 'Ada 李',
			Pets: 'Cat',
		});
		const by = (name: string) => refused.find((p) => p.name === name) as FillProblem;
		expect(by('Nope').message).toMatch(/neither a form field nor a data tag/);
		expect(by('Nope').description).toContain('"Tenant Name"');
		expect(by('Plan').message).toMatch(/"Gold" is not one of the options/);
		expect(by('Plan').description).toMatch(/Basic, "Pro"|"Basic", "Pro", "Enterprise"/);
		expect(by('Agree Terms').message).toMatch(/neither true nor false/);
		expect(by('Tenant Signature').message).toMatch(/signature field/);
		expect(by('Tenant Name').message).toMatch(/characters neither the standard PDF fonts nor the field's own font can draw: 李$/);
		expect(by('Pets').message).toMatch(/not one of the choices/);
	});

	it('leaves a field whose value is empty as it is (its widget stays)', async () => {
		const { bytes, out } = await filled(original, { 'Tenant Name': '', 'Landlord Name': 'Bob' });
		expect(out.filled).toEqual(['Landlord Name']);
		expect(await widgetsOf(bytes)).toContain('Tenant Name');
	});
});

describe('Fill PDF: a LibreOffice form', () => {
	const original = fixture('form-controls.pdf');

	it('refuses a text over /MaxLen and a text too long for its box even at 6 pt', async () => {
		const widgets = await (await PdfText.open(original)).formFields();
		expect(widgets.map((w) => w.name)).toContain('full_name');
		const refused = await problems(original, { full_name: 'A very long name '.repeat(40) });
		expect(refused[0].message).toMatch(/does not fit its box, even in 6 pt type/);
		expect(refused[0].description).toMatch(/Shorten the value/);
	});

	it('draws a dropdown’s option chosen by its text', async () => {
		const { pdf } = await filled(original, { plan: 'Enterprise' });
		expect(await find(pdf, 1, 'Enterprise')).toBeDefined();
	});
});

describe('Fill PDF: data tags', () => {
	// One page: a data tag between words, two on one line, and a signer tag that must stay.
	const content = [
		'BT /F1 12 Tf 72 700 Td (Tenant: {{data:tenant_name}} agrees.) Tj ET',
		'BT /F1 12 Tf 72 660 Td ({{data:city}}, {{data:zip}}) Tj ET',
		'BT /F1 12 Tf 72 620 Td (Sign here {{signature:1}}) Tj ET',
		'BT 1 g /F1 10 Tf 300 620 Td ({{data:white}}) Tj ET',
	].join('\n');
	const original = new Uint8Array(pagesPdf([{ content }]));

	it('draws each value from its tag’s left edge on its baseline, takes the tags’ text away and leaves the signer tag', async () => {
		const tagAt = async (text: string) => find(await PdfText.open(original), 1, text);
		const tenantTag = await tagAt('{{data:tenant_name}}');
		const cityTag = await tagAt('{{data:city}}');
		const { pdf } = await filled(original, { tenant_name: 'Ada Lovelace', city: 'Lyon', zip: 69001, white: 'shown' });
		const text = (await pdf.lines(1)).map((line) => line.text).join('\n');
		expect(text).not.toContain('{{data:');
		expect(text).toContain('{{signature:1}}');
		const ada = await find(pdf, 1, 'Ada Lovelace');
		expect(Math.abs((ada as Box).left - (tenantTag as Box).left)).toBeLessThan(0.5);
		expect(Math.abs((ada as Box).bottom - (tenantTag as Box).bottom)).toBeLessThan(0.5);
		const lyon = await find(pdf, 1, 'Lyon');
		expect(Math.abs((lyon as Box).left - (cityTag as Box).left)).toBeLessThan(0.5);
		expect(await find(pdf, 1, '69001')).toBeDefined();
		expect(await find(pdf, 1, 'shown')).toBeDefined();
	});

	it('refuses a data tag with no value, and a key the PDF does not have', async () => {
		const refused = await problems(original, { tenant_name: 'Ada', city: '', zip: '1' });
		expect(refused.map((p) => p.message)).toEqual(
			expect.arrayContaining([expect.stringMatching(/\{\{data:city\}\} on page 1 has no value/), expect.stringMatching(/\{\{data:white\}\} on page 1 has no value/)]),
		);
		const unknown = await problems(original, { tenant_name: 'Ada', city: 'Lyon', zip: '1', white: 'w', town: 'x' });
		expect(unknown[0].description).toContain('"data:city"');
	});
});

describe('Fill PDF: characters the standard fonts lack', () => {
	// Chromium's subset of the tag's font holds Ł, ó, d, ź because the page's text uses them (test/fixtures/pdf/fill).
	const original = new Uint8Array(readFillFixture('city-tags-chromium.pdf').bytes as Buffer);

	it('draws them in the tag’s own font, from the tag’s left edge on its baseline', async () => {
		const tag = await find(await PdfText.open(original), 1, '{{data:miasto}}');
		const { pdf } = await filled(original, { miasto: 'Łódź' });
		// Where the tag was ("Miasto: …"), not the page's own "Łódź" a line below.
		const drawn = (await find(pdf, 1, 'Łódź', tag)) as Box;
		expect(Math.abs(drawn.left - (tag as Box).left)).toBeLessThan(0.5);
		expect(Math.abs(drawn.bottom - (tag as Box).bottom)).toBeLessThan(0.5);
		expect((await pdf.lines(1)).map((line) => line.text).join('\n')).not.toContain('{{data:');
	});

	it('refuses what neither the standard fonts nor the tag’s font holds, naming the characters', async () => {
		const refused = await problems(original, { miasto: 'Łódź 李' });
		expect(refused[0].message).toMatch(/neither the standard PDF fonts nor the tag's own font can draw: 李$/);
	});
});

describe('Fill PDF: files that must not change', () => {
	it('refuses an encrypted PDF, saying why', async () => {
		const refused = await problems(fixture('agreement-rc4-128.pdf'), { anything: 'x' });
		expect(refused[0].message).toMatch(/cannot be filled: the PDF is encrypted/);
	});
});
