// The reader's one error policy (nodes/ESign/pdf/recover.ts): a reader falls back only on a PdfError saying the data
// is damaged or unsupported; a limit stops the read wherever it is met (a font program, a ToUnicode map, an object
// stream read during a rebuild, a hybrid file's xref stream), and an error that is not a PdfError is never repaired.
import { CMap } from '../../../nodes/ESign/pdf/fonts/cmap';
import { DEFAULT_LIMITS, PdfDocument } from '../../../nodes/ESign/pdf/read/document';
import { loadFont } from '../../../nodes/ESign/pdf/fonts/fonts';
import { PdfDict, PdfError, PdfRef } from '../../../nodes/ESign/pdf/read/objects';
import { attempt, orElse, recoverable } from '../../../nodes/ESign/pdf/recover';
import * as xref from '../../../nodes/ESign/pdf/read/xref';
import { buildPdf, deflate, pagesPdf } from '../../support/pdfRaw';
import type { RawObject } from '../../support/pdfRaw';

async function font(objects: Array<[number, RawObject]>, limits = DEFAULT_LIMITS) {
	const doc = await PdfDocument.open(pagesPdf([{ content: '' }], { extra: objects }), limits);
	return loadFont(doc, (await doc.resolve(new PdfRef(5, 0))) as PdfDict);
}

const small = { ...DEFAULT_LIMITS, streamBytes: 50_000 };
const bomb = deflate(new Uint8Array(100_000));

afterEach(() => jest.restoreAllMocks());

describe('recoverable', () => {
	it('is true for damaged and unsupported data only', () => {
		expect(recoverable(new PdfError('damaged', 'x'))).toBe(true);
		expect(recoverable(new PdfError('unsupported', 'x'))).toBe(true);
		expect(recoverable(new PdfError('limit', 'x'))).toBe(false);
		expect(recoverable(new PdfError('encrypted', 'x'))).toBe(false);
		expect(recoverable(new TypeError('x'))).toBe(false);
		expect(recoverable(new RangeError('x'))).toBe(false);
		expect(recoverable('damaged')).toBe(false);
	});

	it('orElse and attempt fall back on damage, pass a limit and a programming error on', async () => {
		const fail = (error: Error) => () => {
			throw error;
		};
		expect(attempt(() => 1, 'fallback')).toBe(1);
		expect(attempt(fail(new PdfError('damaged', 'x')), 'fallback')).toBe('fallback');
		expect(() => attempt(fail(new PdfError('limit', 'cap')), 'fallback')).toThrow('cap');
		expect(() => attempt(fail(new TypeError('bug')), 'fallback')).toThrow(TypeError);
		await expect(orElse(Promise.resolve(1), 'fallback')).resolves.toBe(1);
		await expect(orElse(Promise.reject(new PdfError('unsupported', 'x')), 'fallback')).resolves.toBe('fallback');
		await expect(orElse(Promise.reject(new PdfError('limit', 'cap')), 'fallback')).rejects.toMatchObject({ kind: 'limit' });
		await expect(orElse(Promise.reject(new RangeError('bug')), 'fallback')).rejects.toThrow(RangeError);
	});
});

describe('a limit stops the read', () => {
	it('in a ToUnicode map (a damaged one falls back to the encoding)', async () => {
		const damaged = await font([
			[5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>'],
			[6, { dict: '/Filter /ASCIIHexDecode', stream: 'zz' }],
		]);
		const text: string[] = [];
		damaged.decode(Uint8Array.of(65), (glyph) => text.push(glyph.text));
		expect(text).toEqual(['A']);
		const limited = font(
			[
				[5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>'],
				[6, { dict: '/Filter /FlateDecode', stream: bomb }],
			],
			small,
		);
		await expect(limited).rejects.toMatchObject({ kind: 'limit' });
	});

	it("in a composite font's embedded CMap", async () => {
		const limited = font(
			[
				[5, '<< /Type /Font /Subtype /Type0 /BaseFont /Test /Encoding 6 0 R /DescendantFonts [7 0 R] >>'],
				[6, { dict: '/Type /CMap /Filter /FlateDecode', stream: bomb }],
				[7, '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /Test >>'],
			],
			small,
		);
		await expect(limited).rejects.toMatchObject({ kind: 'limit' });
	});

	it('in an object stream read while rebuilding a damaged cross-reference', async () => {
		const packed = `<< /Padding (${'x'.repeat(3000)}) >>`;
		const objects: Array<[number, RawObject]> = [
			[1, '<< /Type /Catalog /Pages 2 0 R >>'],
			[2, '<< /Type /Pages /Kids [] /Count 0 >>'],
			[3, packed],
		];
		// startxref points nowhere: the table is rebuilt by a scan, which indexes the object stream.
		const broken = buildPdf(objects, { xref: 'stream', objectStream: [3], startxref: 5 }).bytes;
		await expect(PdfDocument.open(broken)).resolves.toBeInstanceOf(PdfDocument);
		await expect(PdfDocument.open(broken, { ...DEFAULT_LIMITS, streamBytes: 1000 })).rejects.toMatchObject({ kind: 'limit' });
	});

	it("in a hybrid file's xref stream", async () => {
		const objects: Array<[number, RawObject]> = [
			[1, '<< /Type /Catalog /Pages 2 0 R >>'],
			[2, '<< /Type /Pages /Kids [] /Count 0 >>'],
			[3, '<< /Packed true >>'],
		];
		const hybrid = buildPdf(objects, { xref: 'hybrid', objectStream: [3] }).bytes;
		const doc = await PdfDocument.open(hybrid);
		expect(await doc.resolve(new PdfRef(3, 0))).toBeInstanceOf(PdfDict);
		// No stream may be decoded at all: the classic table still opens, the hybrid file's xref stream is the limit.
		const none = { ...DEFAULT_LIMITS, totalBytes: 0 };
		await expect(PdfDocument.open(buildPdf(objects).bytes, none)).resolves.toBeInstanceOf(PdfDocument);
		await expect(PdfDocument.open(hybrid, none)).rejects.toMatchObject({ kind: 'limit' });
	});
});

describe('a programming error is not swallowed', () => {
	it('a TypeError while parsing a ToUnicode map reaches the caller', async () => {
		jest.spyOn(CMap, 'parse').mockImplementation(() => {
			throw new TypeError('a bug in the CMap parser');
		});
		const loading = font([
			[5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>'],
			[6, { stream: 'begincmap endcmap' }],
		]);
		await expect(loading).rejects.toThrow(TypeError);
	});

	it('a TypeError while reading the cross-reference is not answered by a rebuild', async () => {
		const file = pagesPdf([{ content: '' }]);
		await expect(PdfDocument.open(file)).resolves.toBeInstanceOf(PdfDocument);
		jest.spyOn(xref, 'readXref').mockRejectedValue(new TypeError('a bug in the xref reader'));
		await expect(PdfDocument.open(file)).rejects.toThrow(TypeError);
	});
});
