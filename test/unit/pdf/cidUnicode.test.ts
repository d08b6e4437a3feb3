// The text of a CID in Adobe's CJK character collections (nodes/ESign/pdf/fonts/cidUnicode.ts), for composite fonts without
// ToUnicode. The expected characters are the collections' own: each is the Unicode value Adobe's Adobe-<Ordering>-UCS2
// CMap gives that CID (the line is quoted), which is what pdf.js reads for it. The data is generated
// (scripts/make-cid-unicode.mjs): these tests check that what it packed comes back, in every collection.
import { cidText, readTable } from '../../../nodes/ESign/pdf/fonts/cidUnicode';
import type { CidText } from '../../../nodes/ESign/pdf/fonts/cidUnicode';
import { DEFAULT_LIMITS, PdfDocument } from '../../../nodes/ESign/pdf/read/document';
import * as filters from '../../../nodes/ESign/pdf/read/filters';
import { loadFont } from '../../../nodes/ESign/pdf/fonts/fonts';
import { PdfDict, PdfRef } from '../../../nodes/ESign/pdf/read/objects';
import { pagesPdf } from '../../support/pdfRaw';

async function collection(ordering: string): Promise<CidText> {
	const table = await cidText('Adobe', ordering);
	if (!table) throw new Error(`no table for Adobe-${ordering}`);
	return table;
}

describe("Adobe's four collections", () => {
	it('Adobe-Japan1: ASCII, kanji, a kana with a combining mark, astral characters counting up a range', async () => {
		const japan = await collection('Japan1');
		// <0001> <003c> <0020>: CID 1 a space, CID 34 "A"; <04b0> <4e00>; <3cf3> <304b309a>; <2714> <272d> <d83cdd10>
		expect([1, 34, 0x4b0, 0x3cf3].map(japan)).toEqual([' ', 'A', '一', 'か\u309a']);
		expect([0x2714, 0x2715, 0x272d].map(japan)).toEqual(['\u{1f110}', '\u{1f111}', '\u{1f129}']);
	});

	it('Adobe-GB1, Adobe-CNS1 and Adobe-Korea1: the same ideographs under their own CIDs', async () => {
		// GB1 <1042> <4e00>, <11cf> <4e2d>, <0ed3> <6587>; CNS1 <0253>, <0295>, <02d6>; Korea1 <193C>, <1B0A>, <12E8>
		expect([0x1042, 0x11cf, 0xed3].map(await collection('GB1'))).toEqual(['一', '中', '文']);
		expect([0x253, 0x295, 0x2d6].map(await collection('CNS1'))).toEqual(['一', '中', '文']);
		expect([0x193c, 0x1b0a, 0x12e8].map(await collection('Korea1'))).toEqual(['一', '中', '文']);
	});

	it('Adobe-Korea1: Hangul counting up a range, and a CID whose text is several characters', async () => {
		const korea = await collection('Korea1');
		// <043E> <043F> <AC00>; <0CE0> <D55C>; <2072> <005B00310030005D>
		expect([0x43e, 0x43f, 0xce0, 0x2072].map(korea)).toEqual(['가', '각', '한', '[10]']);
	});

	it('drops an ideographic variation selector: the ideograph alone, as pdf.js gives it and as a user types it', async () => {
		// <046d> <9022db40dd00>: U+9022 and the selector U+E0100
		expect((await collection('Japan1'))(0x46d)).toBe('\u9022');
	});

	it('has no text for a CID the collection does not map, or past its end, or that is no CID', async () => {
		const korea = await collection('Korea1');
		// Korea1 maps CIDs 0–18351 except a few (8193 among them).
		expect([8193, 18352, 65535, 65536, -1, 1.5, Number.NaN].map(korea)).toEqual(new Array(7).fill(undefined));
	});
});

describe('which fonts have text by CID', () => {
	it('only Registry Adobe with one of the four orderings (not Adobe-Identity, another registry, or object keys)', async () => {
		const answers = await Promise.all(
			[
				['Adobe', 'Identity'],
				['Adobe', 'KR'],
				['adobe', 'Japan1'],
				['Adobe', 'Japan1 '],
				['TeX', 'Japan1'],
				['Adobe', 'constructor'],
				['Adobe', '__proto__'],
				['Adobe', 'toString'],
			].map(([registry, ordering]) => cidText(registry, ordering)),
		);
		expect(answers).toEqual(new Array(8).fill(undefined));
	});

	it('unpacks a collection once, on the first font that asks for it, and no other', async () => {
		await jest.isolateModulesAsync(async () => {
			const fresh = (await import('../../../nodes/ESign/pdf/read/filters')) as typeof filters;
			const inflate = jest.spyOn(fresh, 'inflate');
			const { cidText: freshCidText } = await import('../../../nodes/ESign/pdf/fonts/cidUnicode');
			expect(inflate).not.toHaveBeenCalled();
			expect(await freshCidText('Adobe', 'Identity')).toBeUndefined();
			expect(inflate).not.toHaveBeenCalled();
			const [first, second] = await Promise.all([freshCidText('Adobe', 'GB1'), freshCidText('Adobe', 'GB1')]);
			expect(first).toBe(second);
			expect(await freshCidText('Adobe', 'GB1')).toBe(first);
			expect(inflate).toHaveBeenCalledTimes(1);
			await freshCidText('Adobe', 'CNS1');
			expect(inflate).toHaveBeenCalledTimes(2);
			inflate.mockRestore();
		});
	});
});

describe('a composite font reads through the collection (fonts.ts)', () => {
	/** The text of codes shown in an Identity-H font of Adobe-Japan1 (not embedded, as dvipdfmx writes it). */
	async function textOf(toUnicode: string | undefined, codes: number[]) {
		const objects: Array<[number, string | { dict?: string; stream: string }]> = [
			[5, `<< /Type /Font /Subtype /Type0 /BaseFont /Ryumin-Light /Encoding /Identity-H /DescendantFonts [6 0 R] ${toUnicode === undefined ? '' : '/ToUnicode 7 0 R'} >>`],
			[6, '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /Ryumin-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> >>'],
		];
		if (toUnicode !== undefined) objects.push([7, { stream: toUnicode }]);
		const doc = await PdfDocument.open(pagesPdf([{ content: '' }], { extra: objects }), DEFAULT_LIMITS);
		const font = await loadFont(doc, (await doc.resolve(new PdfRef(5, 0))) as PdfDict);
		let text = '';
		font.decode(Uint8Array.from(codes.flatMap((c) => [c >> 8, c & 255])), (glyph) => (text += glyph.text));
		return text;
	}

	it('without ToUnicode, and with one that maps nothing (pdf.js reads that as none); a ToUnicode that maps wins', async () => {
		// CID 34 "A", 0x4b0 "一" (Adobe-Japan1-UCS2)
		expect(await textOf(undefined, [34, 0x4b0])).toBe('A一');
		expect(await textOf('1 begincodespacerange <0000> <FFFF> endcodespacerange', [34, 0x4b0])).toBe('A一');
		expect(await textOf('1 beginbfchar <0022> <0042> endbfchar', [34, 0x4b0])).toBe('B\ufffd');
	});
});

describe('the packed format (readTable)', () => {
	it('reads varints: 0 for no text, else a step from the last code point (zigzag, doubled, +1) and extra code points', () => {
		// CID 0: none; CID 1: "A" (0x41 - (0 + 1) = 64, zigzag 128, ×2 +1 = 257 = 0x81 0x02); CID 2: "B" (step 0: 1);
		// CID 3: "@" (step -3, zigzag 5: 11, +1 more: 12) then 1 extra, U+0301 (0x81 0x06).
		const table = readTable(Uint8Array.from([0, 0x81, 0x02, 1, 12, 1, 0x81, 0x06]));
		expect([0, 1, 2, 3, 4].map(table)).toEqual([undefined, 'A', 'B', '@\u0301', undefined]);
	});

	it('stays bounded on data it did not write: unending varints, more than 65,536 CIDs, huge counts and code points', () => {
		expect(readTable(new Uint8Array(4096).fill(0xff))(0)).toBeUndefined();
		// Every CID one step up from the last: CID 0 is U+0001; CIDs stop at 65,535.
		const many = readTable(new Uint8Array(1_000_000).fill(1));
		expect([0, 65535, 65536].map(many)).toEqual(['\u0001', '\u{10000}', undefined]);
		// "A" with a count of 2^28 - 1 extra code points, one of them 2^28 - 1: the count ends with the data, the code
		// point is left out, the next CID ("B") still reads.
		const wild = readTable(Uint8Array.from([0x82, 0x02, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f]));
		expect(wild(0)).toBe('A');
		expect(readTable(Uint8Array.from([0x82, 0x02, 1, 0xff, 0xff, 0xff, 0x7f, 1]))(1)).toBe('B');
		// A first code point past U+10FFFF (2^23 + 1: a step of 2^21): no text.
		expect(readTable(Uint8Array.from([0x81, 0x80, 0x80, 0x04]))(0)).toBeUndefined();
	});
});
