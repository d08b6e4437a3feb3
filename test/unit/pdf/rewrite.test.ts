// The tag remover (nodes/ESign/pdf/rewrite.ts, opRewrite.ts, incremental.ts): on hand-built pages, every way a tag is
// drawn (Tj, TJ split by kerning, ', ", Tc/Tw/Tz, composite and vertical fonts, Form XObjects, several content
// streams) loses exactly the tag's glyphs, the other glyphs stay where they were, and the update is appended to the
// original bytes. Font /F1 of the test files is 500/1000 em wide for every code (test/support/pdfRaw.js). A tag's
// glyphs stay shown, with their codes, in a copy of their font that reads as spaces, raised off the page by Ts.
import { PdfText } from '../../../nodes/ESign/pdf';
import type { Removal, TextLine } from '../../../nodes/ESign/pdf';
import type { RawObject, RawPage } from '../../support/pdfRaw';
import { deflate, inflate, pagesPdf } from '../../support/pdfRaw';
import { expectParts, glyphsOf, largestShift } from './removal';

const TAG = /\{\{[^}]*\}\}/g;

interface Removed {
	result: Removal;
	/** what each marking call answered (undefined: marked) */
	answers: Array<string | undefined>;
	shift: number;
	/** the text of the output's pages, joined */
	textAfter: string;
}

/** Marks every `{{…}}` on every page (or only those `pick` keeps), writes the update and reads it again. */
async function remove(bytes: Uint8Array, pick: (text: string, index: number) => boolean = () => true): Promise<Removed> {
	const pdf = await PdfText.open(bytes);
	const remover = pdf.tagRemover();
	const answers: Array<string | undefined> = [];
	const before: ReturnType<typeof glyphsOf> = [];
	let index = 0;
	for (const { number } of pdf.pages) {
		const lines = await pdf.lines(number, undefined, { sources: true });
		const skip = new Map<TextLine, Array<[number, number]>>();
		for (const line of lines) {
			for (const match of line.text.matchAll(TAG)) {
				if (!pick(match[0], index++)) continue;
				const answer = remover.removeText(number, line, match.index, match.index + match[0].length);
				answers.push(answer);
				if (answer === undefined) skip.set(line, [...(skip.get(line) ?? []), [match.index, match.index + match[0].length]]);
			}
		}
		before.push(...glyphsOf(lines, skip));
	}
	const result = await remover.write();
	const out = await PdfText.open(result.bytes);
	const after: ReturnType<typeof glyphsOf> = [];
	let textAfter = '';
	for (const { number } of out.pages) {
		const lines = await out.lines(number);
		after.push(...glyphsOf(lines));
		textAfter += lines.map((line) => line.text).join('\n') + '\n';
	}
	const sort = (list: typeof before) => list.sort((a, b) => a.y - b.y || a.x - b.x);
	return { result, answers, shift: largestShift(sort(before), sort(after)), textAfter };
}

const page = (content: string, extra: Array<[number, RawObject]> = [], more: Partial<RawPage> = {}, build = {}) =>
	new Uint8Array(pagesPdf([{ content, ...more }], { extra, build }));

/** The update's text (after the original bytes), with its Flate streams inflated. */
function updateText(result: Removal, original: Uint8Array): string {
	const tail = Buffer.from(result.bytes.subarray(original.length));
	let text = tail.toString('latin1');
	for (const match of text.matchAll(/\/FlateDecode[^]*?stream\n/g)) {
		const start = match.index + match[0].length;
		const end = tail.indexOf('\nendstream', start);
		text += '\n' + inflate(tail.subarray(start, end)).toString('latin1');
	}
	return text;
}

const hexOf = (text: string) => Buffer.from(text, 'latin1').toString('hex').toUpperCase();

/** The hidden run as the writer writes it: the copy font and the lift, the codes (and numbers) as a TJ, then the font
 * and the rise the operator ran with again. */
const hidden = (body: string, size = '10', font = 'F1', rise = '0') =>
	`/ESignHidden\\d*\\.${font} ${size} Tf ([\\d.]+) Ts\\n\\[${body}\\] TJ\\n/${font} ${size} Tf ${rise} Ts`;

describe('operators', () => {
	it('Tj: a tag between words is shown apart, raised off the page in a copy of its font; the words stay put', async () => {
		const bytes = page('BT /F1 10 Tf 100 700 Td (Sign {{sig:1}} now) Tj ET');
		const { result, answers, shift, textAfter } = await remove(bytes);
		expect(answers).toStrictEqual([undefined]);
		expect(result).toMatchObject({ changed: true, removed: 1, skipped: [] });
		expect(textAfter).not.toContain('{');
		expect(textAfter).toContain('now');
		expect(shift).toBeLessThan(0.01);
		const text = updateText(result, bytes);
		const run = new RegExp(`\\[<5369676E20>\\] TJ\\n${hidden(`<${hexOf('{{sig:1}}')}>`)}\\n\\[<206E6F77>\\] TJ`).exec(text);
		expect(run).not.toBeNull();
		// Raised past the page (612 × 792 pt; text space is the page's here): no renderer paints it.
		expect(Number(run?.[1])).toBeGreaterThan(2 * Math.hypot(612, 792));
		// The copy: the font's own dictionary with a ToUnicode giving a space for each of the 7 codes hidden in it.
		const copy = /(\d+) 0 obj\n<<\/Type \/Font[^]*?\/ToUnicode (\d+) 0 R>>/.exec(text);
		expect(copy).not.toBeNull();
		expect(text).toMatch(new RegExp(`/Resources <<.*/Font <<.*/F1 3 0 R/ESignHidden\\.F1 ${copy?.[1]} 0 R>>`));
		const cmap = new RegExp(`^${copy?.[2]} 0 obj\\n[^]*?beginbfchar\\n([^]*?)endbfchar`, 'm').exec(text)?.[1] ?? '';
		expect(cmap.trim().split('\n').sort()).toEqual([...new Set('{{sig:1}}')].map((c) => `<${hexOf(c)}> <0020>`).sort());
	});

	it('TJ: a tag split by kerning: the kept parts and the tag keep their kerning', async () => {
		const bytes = page('BT /F1 10 Tf 100 700 Td [(A) -200 (B {{si) -120 (g:1}} C) 50 (D)] TJ ET');
		const { result, shift, textAfter } = await remove(bytes);
		expect(result.removed).toBe(1);
		expect(textAfter).not.toContain('{');
		expect(shift).toBeLessThan(0.01);
		// The kerning inside the tag goes with the hidden codes; the kept parts keep theirs.
		expect(updateText(result, bytes)).toMatch(new RegExp(`\\[<41> -200 <4220>\\] TJ\\n${hidden(`<${hexOf('{{si')}> -120 <${hexOf('g:1}}')}>`)}\\n\\[<2043> 50 <44>\\] TJ`));
	});

	it("' moves to the next line first: T* then the TJ", async () => {
		const bytes = page("BT /F1 10 Tf 14 TL 100 700 Td (A) Tj (x {{date:1}} y) ' ET");
		const { result, shift, textAfter } = await remove(bytes);
		expect(result.removed).toBe(1);
		expect(textAfter).toMatch(/x\s+y/);
		expect(shift).toBeLessThan(0.01);
		expect(updateText(result, bytes)).toMatch(new RegExp(`T\\*\\n\\[<7820>\\] TJ\\n${hidden(`<${hexOf('{{date:1}}')}>`)}\\n\\[<2079>\\] TJ`));
	});

	it('" sets Tw and Tc then moves: aw Tw ac Tc T* then the TJ, its advance with that spacing', async () => {
		const bytes = page('BT /F1 10 Tf 14 TL 100 700 Td (A) Tj 2 1.5 (x {{a:1}} y) " ET');
		const { result, shift } = await remove(bytes);
		expect(result.removed).toBe(1);
		expect(shift).toBeLessThan(0.01);
		expect(updateText(result, bytes)).toMatch(new RegExp(`2 Tw 1\\.5 Tc T\\*\\n\\[<7820>\\] TJ\\n${hidden(`<${hexOf('{{a:1}}')}>`)}\\n\\[<2079>\\] TJ`));
	});

	it('Tc, Tw and Tz: the advance of a tag with a space in it; everything after stays put', async () => {
		const bytes = page('BT /F1 12 Tf 80 Tz 1 Tc 4 Tw 100 700 Td (before {{text:1: Name}} after) Tj ET');
		const { result, shift, textAfter } = await remove(bytes);
		expect(result.removed).toBe(1);
		expect(textAfter).toMatch(/before\s+after/);
		expect(shift).toBeLessThan(0.01);
	});

	it('a rise in force: the hidden run is lifted from it and the rise is given back after', async () => {
		const bytes = page('BT /F1 10 Tf 3 Ts 100 700 Td (Sign {{sig:1}} now) Tj ET');
		const { result, shift, textAfter } = await remove(bytes);
		expect(result.removed).toBe(1);
		expect(textAfter).toContain('now');
		expect(shift).toBeLessThan(0.01);
		const run = new RegExp(hidden(`<${hexOf('{{sig:1}}')}>`, '10', 'F1', '3')).exec(updateText(result, bytes));
		expect(Number(run?.[1]) - 3).toBeGreaterThan(2 * Math.hypot(612, 792));
	});

	it('text space scaled down 100 times: the lift grows to match, so the glyphs still leave the page', async () => {
		const bytes = page('BT /F1 1000 Tf 0.01 0 0 0.01 100 700 Tm (Sign {{sig:1}} now) Tj ET');
		const { result } = await remove(bytes);
		const run = new RegExp(hidden(`<${hexOf('{{sig:1}}')}>`, '1000')).exec(updateText(result, bytes));
		expect(Number(run?.[1]) * 0.01).toBeGreaterThan(2 * Math.hypot(612, 792));
	});

	it('a font copy named like one the page has already: the next free name', async () => {
		const bytes = page('BT /F1 10 Tf 100 700 Td (Sign {{sig:1}} now) Tj ET', [], { resources: '/Font << /F1 3 0 R /ESignHidden.F1 3 0 R >>' });
		const { result } = await remove(bytes);
		const text = updateText(result, bytes);
		expect(text).toMatch(/\/ESignHidden2\.F1 10 Tf/);
		expect(text).toMatch(/\/ESignHidden\.F1 3 0 R\/ESignHidden2\.F1 \d+ 0 R>>/);
	});

	it('a /Font dictionary shared by two pages, each hiding another font: redefined once with both copies', async () => {
		const shared: Array<[number, RawObject]> = [[40, '<< /F1 3 0 R /F2 3 0 R >>']];
		const bytes = new Uint8Array(
			pagesPdf(
				[
					{ content: 'BT /F1 10 Tf 100 700 Td (one {{sig:1}}) Tj ET', resources: '/Font 40 0 R' },
					{ content: 'BT /F2 12 Tf 100 700 Td (two {{sig:2}}) Tj ET', resources: '/Font 40 0 R' },
				],
				{ extra: shared },
			),
		);
		const { result, textAfter } = await remove(bytes);
		expect(result.removed).toBe(2);
		expect(textAfter).not.toContain('{');
		const text = updateText(result, bytes);
		expect(text.match(/^40 0 obj$/gm)).toHaveLength(1);
		expect(text).toMatch(/^40 0 obj\n<<\/F1 3 0 R\/F2 3 0 R\/ESignHidden\.F1 (\d+) 0 R\/ESignHidden\.F2 (\d+) 0 R>>/m);
		// Both pages draw from it, so neither gets resources of its own.
		expect(text).not.toMatch(/\/Resources <<\/Font <</);
		expect(text).toMatch(/\/ESignHidden\.F1 10 Tf/);
		expect(text).toMatch(/\/ESignHidden\.F2 12 Tf/);
	});

	it('a font written inline in the page\'s resources: its copy is a new object, the page gets the resources with it', async () => {
		const bytes = page('BT /F1 10 Tf 100 700 Td (Sign {{sig:1}} now) Tj ET', [], { resources: '/Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >>' });
		const { result, textAfter } = await remove(bytes);
		expect(result.removed).toBe(1);
		expect(textAfter).toContain('now');
		const text = updateText(result, bytes);
		const copy = /^(\d+) 0 obj\n<<\/Type \/Font\/Subtype \/Type1\/BaseFont \/Helvetica.*\/ToUnicode \d+ 0 R>>/m.exec(text);
		expect(copy).not.toBeNull();
		expect(text).toMatch(new RegExp(`/Resources <</Font <</F1 <<[^>]*>>/ESignHidden\\.F1 ${copy?.[1]} 0 R>>>>`));
	});

	it('a font resource that is not a dictionary: no copy is made, the hidden name stands for the same object', async () => {
		const bytes = page('BT /F1 10 Tf 100 700 Td (Sign {{sig:1}} now) Tj ET', [[7, '42']], { resources: '/Font << /F1 7 0 R >>' });
		const { result } = await remove(bytes);
		expect(result.removed).toBe(1);
		const text = updateText(result, bytes);
		expect(text).toMatch(/\/Font <<\/F1 7 0 R\/ESignHidden\.F1 7 0 R>>/);
		expect(text).not.toContain('/ToUnicode');
	});

	it('a font set by a graphics state (gs /Font), not by a name: the tag stays, with the reason', async () => {
		const bytes = page('/G1 gs BT 100 700 Td ({{sig:1}}) Tj ET', [], { resources: '/Font << /F1 3 0 R >> /ExtGState << /G1 << /Font [3 0 R 10] >> >>' });
		const { result, answers } = await remove(bytes);
		expect(answers[0]).toMatch(/not chosen by a name/);
		expect(result).toMatchObject({ changed: false, removed: 0 });
	});

	it('two tags in one string, and a tag alone in its string', async () => {
		const bytes = page('BT /F1 10 Tf 100 700 Td ({{sig:1}} and {{sig:2}}) Tj 0 -20 Td ({{date:1}}) Tj (tail) Tj ET');
		const { result, shift, textAfter } = await remove(bytes);
		expect(result.removed).toBe(3);
		expect(textAfter).not.toContain('{');
		expect(textAfter).toContain('tail');
		expect(shift).toBeLessThan(0.01);
	});
});

describe('fonts', () => {
	const cid = (encoding: string): Array<[number, RawObject]> => [
		[5, `<< /Type /Font /Subtype /Type0 /BaseFont /CJK /Encoding /${encoding} /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>`],
		[6, '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /CJK /DW 600 >>'],
		[7, { stream: '1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfrange <0000> <00FF> <0000> endbfrange' }],
	];
	const hex = (text: string) => [...text].map((c) => c.charCodeAt(0).toString(16).padStart(4, '0')).join('');

	it('a composite font (Identity-H): two-byte codes, the tag\'s codes go whole', async () => {
		const bytes = page(`BT /F2 10 Tf 100 700 Td <${hex('ab {{sig:1}} cd')}> Tj ET`, cid('Identity-H'), { resources: '/Font << /F2 5 0 R >>' });
		const { result, shift, textAfter } = await remove(bytes);
		expect(result.removed).toBe(1);
		expect(textAfter).toMatch(/ab\s+cd/);
		expect(shift).toBeLessThan(0.01);
		const text = updateText(result, bytes);
		expect(text).toMatch(new RegExp(`\\[<${hex('ab ').toUpperCase()}>\\] TJ\\n${hidden(`<${hex('{{sig:1}}').toUpperCase()}>`, '10', 'F2')}\\n\\[<${hex(' cd').toUpperCase()}>\\] TJ`));
		// The copy's ToUnicode reads its two-byte codes as spaces.
		expect(text).toMatch(/1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n7 beginbfchar\n/);
		expect(text).toContain('<007B> <0020>\n<007D> <0020>\nendbfchar');
	});

	it('a vertical font (Identity-V): the tag stays, with the reason', async () => {
		const bytes = page(`BT /F2 10 Tf 100 700 Td <${hex('{{sig:1}}')}> Tj ET`, cid('Identity-V'), { resources: '/Font << /F2 5 0 R >>' });
		const { result, answers } = await remove(bytes);
		expect(answers[0]).toMatch(/vertically/);
		expect(result).toMatchObject({ changed: false, removed: 0 });
		expect(result.bytes).toBe(bytes);
	});

	it('font size 0: the glyphs have no box, so no line holds the tag', async () => {
		const bytes = page('BT /F1 0 Tf 100 700 Td ({{sig:1}}) Tj ET');
		const pdf = await PdfText.open(bytes);
		// A zero-size glyph has no box, so the layout drops it: no line, nothing to remove.
		expect(await pdf.lines(1, undefined, { sources: true })).toEqual([]);
	});
});

describe('where the glyphs come from', () => {
	const form = (content: string): Array<[number, RawObject]> => [[20, { dict: '/Type /XObject /Subtype /Form /BBox [0 0 600 100] /Resources << /Font << /F1 3 0 R >> >>', stream: content }]];

	it('a Form XObject drawn twice: its stream is redefined once, both draws lose the tag', async () => {
		const bytes = page('q 1 0 0 1 0 600 cm /X1 Do Q q 1 0 0 1 0 300 cm /X1 Do Q', form('BT /F1 10 Tf 100 50 Td (Form {{sig:1}} end) Tj ET'), {
			resources: '/Font << /F1 3 0 R >> /XObject << /X1 20 0 R >>',
		});
		const { result, answers, shift, textAfter } = await remove(bytes);
		expect(answers).toStrictEqual([undefined, undefined]);
		expect(result.removed).toBe(2);
		expect(textAfter).not.toContain('{');
		expect(shift).toBeLessThan(0.01);
		expect(updateText(result, bytes)).toMatch(/^20 0 obj/m);
	});

	it('a form without resources of its own (it borrows its page\'s): its tag stays, with the reason', async () => {
		const bare: Array<[number, RawObject]> = [[20, { dict: '/Type /XObject /Subtype /Form /BBox [0 0 600 100]', stream: 'BT /F1 10 Tf 100 50 Td ({{sig:1}}) Tj ET' }]];
		const bytes = page('/X1 Do', bare, { resources: '/Font << /F1 3 0 R >> /XObject << /X1 20 0 R >>' });
		const { result } = await remove(bytes);
		expect(result).toMatchObject({ changed: false, removed: 0 });
		expect(result.skipped[0].reason).toMatch(/no resources of its own/);
	});

	it('text that only looks alike is never touched: only the marked occurrence goes', async () => {
		const bytes = page('BT /F1 10 Tf 100 700 Td ({{sig:1}}) Tj 0 -20 Td ({{sig:1}}) Tj ET');
		const { result, textAfter } = await remove(bytes, (_, index) => index === 1);
		expect(result.removed).toBe(1);
		expect(textAfter.match(/\{\{sig:1\}\}/g)).toHaveLength(1);
		expect(textAfter.split('\n')[0]).toBe('{{sig:1}}');
	});

	it('a page of several content streams is rewritten as one new stream; the page is redefined', async () => {
		const extra: Array<[number, RawObject]> = [
			[30, { stream: 'BT /F1 10 Tf 100 700 Td (head {{si' }],
			[31, { stream: 'g:1}} tail) Tj ET' }],
		];
		const bytes = page('', extra, { raw: '[30 0 R 31 0 R]' } as Partial<RawPage>);
		const { result, shift, textAfter } = await remove(bytes);
		expect(result.removed).toBe(1);
		expect(textAfter).toMatch(/head\s+tail/);
		expect(shift).toBeLessThan(0.01);
		expect(updateText(result, bytes)).toMatch(/^10 0 obj\n<<.*\/Contents \d+ 0 R/m);
	});
});

describe('the incremental update', () => {
	const body = 'BT /F1 10 Tf 100 700 Td (Sign {{sig:1}} now) Tj ET';

	it.each(['classic', 'stream', 'hybrid'] as const)('%s cross-reference: the original bytes in front, the same kind of section, /Prev, /Root and /ID kept', async (xref) => {
		const bytes = new Uint8Array(pagesPdf([{ content: body }], { build: { xref, trailer: '/ID [<00112233> <44556677>]', ...(xref === 'hybrid' ? { objectStream: [3] } : {}) } }));
		const { result } = await remove(bytes);
		expect(result.changed).toBe(true);
		expect(Buffer.from(result.bytes.subarray(0, bytes.length)).equals(Buffer.from(bytes))).toBe(true);
		const original = Buffer.from(bytes).toString('latin1');
		const prev = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(original)?.[1]);
		const tail = Buffer.from(result.bytes.subarray(bytes.length)).toString('latin1');
		expect(tail).toContain(`/Prev ${prev}`);
		expect(tail).toContain('/Root 1 0 R');
		expect(tail).toContain('/ID [<00112233> <44556677>]');
		if (xref === 'stream') expect(tail).toMatch(/\/Type \/XRef/);
		else expect(tail).toMatch(/^xref\n/m);
		const at = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(tail)?.[1]);
		const xrefObject = `${/(\d+) 0 obj\n<<\/Root/.exec(tail)?.[1]} 0 obj`;
		expect(Buffer.from(result.bytes.subarray(at, at + 12)).toString('latin1')).toMatch(xref === 'stream' ? new RegExp(`^${xrefObject}`) : /^xref\n/);
	});

	it('each table entry points at its object', async () => {
		const bytes = page(body);
		const { result } = await remove(bytes);
		const tail = Buffer.from(result.bytes).toString('latin1').slice(bytes.length);
		const table = /xref\n([^]*?)trailer/.exec(tail)?.[1] ?? '';
		let checked = 0;
		for (const section of table.matchAll(/^(\d+) (\d+)\n((?:\d{10} \d{5} n\r\n)+)/gm)) {
			section[3].trim().split(/\r\n/).forEach((row, k) => {
				const offset = Number(row.slice(0, 10));
				expect(Buffer.from(result.bytes.subarray(offset, offset + 20)).toString('latin1')).toMatch(new RegExp(`^${Number(section[1]) + k} 0 obj`));
				checked++;
			});
		}
		expect(checked).toBe(4); // the font copy, its ToUnicode, the new content stream and the redefined page
	});

	it.each(['classic', 'stream', 'hybrid'] as const)(
		'%s cross-reference: the upload in parts, the original itself (not a copy) and the update alone, written to follow it; joined, they are `bytes`',
		async (xref) => {
			const bytes = new Uint8Array(pagesPdf([{ content: body }], { build: { xref, ...(xref === 'hybrid' ? { objectStream: [3] } : {}) } }));
			const { result } = await remove(bytes);
			expect(result.changed).toBe(true);
			// the font copy, its ToUnicode, the new content stream and the redefined page (and the xref stream itself)
			expect(expectParts(result, bytes)).toBe(xref === 'stream' ? 5 : 4);
		},
	);

	it('a second write() gives the same upload (the streams released after the first are rewritten again)', async () => {
		const bytes = new Uint8Array(pagesPdf([{ content: body }, { content: 'BT /F1 10 Tf 100 700 Td ({{init:1}}) Tj ET' }]));
		const pdf = await PdfText.open(bytes);
		const remover = pdf.tagRemover();
		for (const { number } of pdf.pages) {
			for (const line of await pdf.lines(number, undefined, { sources: true })) {
				for (const match of line.text.matchAll(TAG)) remover.removeText(number, line, match.index, match.index + match[0].length);
			}
		}
		const first = await remover.write();
		const second = await remover.write();
		expect(first.removed).toBe(2);
		expect(second.removed).toBe(2);
		expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);
		expect(updateText(second, bytes)).not.toContain('{{');
	});
});

describe('where the file stays unchanged', () => {
	it.each([
		['/AcroForm << /Fields [] /SigFlags 3 >>', /digitally signed/],
		['/AcroForm << /Fields [] /SigFlags 1 >>', /digitally signed/],
		['/AcroForm << /Fields [40 0 R] >>', /digitally signed/],
		['/Perms << /DocMDP 41 0 R >>', /\/Perms/],
	])('%s: unchanged, with the reason', async (entries, reason) => {
		const withCatalog = new Uint8Array(
			pagesPdf([{ content: 'BT /F1 10 Tf 100 700 Td ({{sig:1}}) Tj ET' }], {
				extra: [
					[40, '<< /FT /Sig /T (Signature1) /V 41 0 R >>'],
					[41, '<< /Type /Sig /Filter /Adobe.PPKLite >>'],
					[50, `<< /Type /Catalog /Pages 2 0 R ${entries} >>`],
				],
				build: { root: 50 },
			}),
		);
		const { result } = await remove(withCatalog);
		expect(result).toMatchObject({ changed: false, removed: 0 });
		expect(result.reason).toMatch(reason);
		expect(result.bytes).toBe(withCatalog);
		expectParts(result, withCatalog);
	});

	it('a /Sig field without a value (not signed yet) does not stop the update', async () => {
		const bytes = new Uint8Array(
			pagesPdf([{ content: 'BT /F1 10 Tf 100 700 Td ({{sig:1}}) Tj ET' }], {
				extra: [
					[40, '<< /FT /Sig /T (Signature1) >>'],
					[50, '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [40 0 R] >> >>'],
				],
				build: { root: 50 },
			}),
		);
		expect((await remove(bytes)).result.changed).toBe(true);
	});

	it('a content stream cut short (its Flate data ends early): the tag stays, with the reason', async () => {
		const content = Buffer.from(deflate('BT /F1 10 Tf 100 700 Td ({{sig:1}}) Tj ET ' + '0 0 m '.repeat(2000), { level: 0 }));
		const bytes = page('', [], { raw: { dict: '/Filter /FlateDecode', stream: content.subarray(0, content.length - 40) } } as Partial<RawPage>);
		const { result, answers } = await remove(bytes);
		expect(answers).toStrictEqual([undefined]);
		expect(result).toMatchObject({ changed: false, removed: 0 });
		expect(result.skipped[0].reason).toMatch(/damaged/);
	});
});
