// CFF font programs (nodes/ESign/pdf/fonts/cff.ts): the charset and encoding a FontFile3 /Type1C program gives its codes,
// read from programs built byte by byte (test/support/fontPrograms.js, Adobe TN 5176), from a real one (Ghostscript's, in a fixture), and
// from hostile ones (counts and offsets past the data).
import { cffBuiltInEncoding, parseCff } from '../../../nodes/ESign/pdf/fonts/cff';
import { PdfDocument } from '../../../nodes/ESign/pdf/read/document';
import { PdfDict, PdfError, PdfRef, PdfStream } from '../../../nodes/ESign/pdf/read/objects';
import { cffProgram } from '../../support/fontPrograms';
import { readPdfFixture } from '../../support/pdfjs';

const cff = cffProgram;
const sid = (n: number) => [n >> 8, n & 0xff];

describe('CFF charset and encoding', () => {
	it('charset format 0 with custom strings, encoding format 0: code → glyph → name', () => {
		// Glyphs: .notdef, fi (custom 391), A (SID 34), ffl (custom 392).
		const program = cff({ glyphs: 4, strings: ['fi', 'ffl'], charset: [0, ...sid(391), ...sid(34), ...sid(392)], encoding: [0, 3, 12, 65, 14] });
		const { glyphNames, encoding } = parseCff(program);
		expect(glyphNames).toEqual(['.notdef', 'fi', 'A', 'ffl']);
		expect(encoding?.[12]).toBe('fi');
		expect(encoding?.[65]).toBe('A');
		expect(encoding?.[14]).toBe('ffl');
		expect(encoding?.filter(Boolean)).toHaveLength(3);
	});

	it('charset formats 1 and 2 (ranges), encoding format 1 (ranges) with supplements', () => {
		// Format 1: SIDs 34–36 (A B C) then 66–67 (a b); encoding ranges 65–67 and 97–98; a supplement 200 → "B".
		const format1 = cff({ glyphs: 6, charset: [1, ...sid(34), 2, ...sid(66), 1], encoding: [0x81, 2, 65, 2, 97, 1, 1, 200, ...sid(35)] });
		const one = parseCff(format1);
		expect(one.glyphNames).toEqual(['.notdef', 'A', 'B', 'C', 'a', 'b']);
		expect([65, 66, 67, 97, 98, 200].map((code) => one.encoding?.[code])).toEqual(['A', 'B', 'C', 'a', 'b', 'B']);
		// Format 2: one range of 16-bit length.
		const format2 = cff({ glyphs: 4, charset: [2, ...sid(34), 0, 2], encoding: [0, 3, 1, 2, 3] });
		expect(parseCff(format2).glyphNames).toEqual(['.notdef', 'A', 'B', 'C']);
	});

	it('predefined: the ISOAdobe charset and the Standard encoding (only glyphs the font has)', () => {
		const program = cff({ glyphs: 5, charset: 0, encoding: 0 });
		const { glyphNames, encoding } = parseCff(program);
		expect(glyphNames).toEqual(['.notdef', 'space', 'exclam', 'quotedbl', 'numbersign']);
		expect(encoding?.[0x22]).toBe('quotedbl');
		expect(encoding?.[0x41]).toBeUndefined(); // StandardEncoding's A, but this font has no A
		// The Expert encoding names no text: no built-in encoding.
		expect(cffBuiltInEncoding(cff({ glyphs: 5, charset: 0, encoding: 1 }))).toBeUndefined();
	});

	it('a CID-keyed program (ROS) has no built-in encoding', () => {
		const program = cff({ glyphs: 3, strings: ['Adobe', 'Identity'], charset: [0, 0, 1, 0, 2], encoding: 0, cid: true });
		expect(parseCff(program).cidKeyed).toBe(true);
		expect(cffBuiltInEncoding(program)).toBeUndefined();
	});

	it('Ghostscript\'s CFF programs (delivery-ghostscript.pdf) name the glyphs of their font descriptor\'s /CharSet', async () => {
		const { bytes: file } = readPdfFixture('delivery-ghostscript.pdf');
		expect(file).toBeDefined();
		const doc = await PdfDocument.open(new Uint8Array(file as Buffer));
		let checked = 0;
		for (const key of doc.xref.entries.keys()) {
			const object = await doc.resolve(new PdfRef(key, 0));
			if (!(object instanceof PdfDict) || !object.get('FontFile3')) continue;
			const program = await doc.resolve(object.get('FontFile3'));
			const charSet = await doc.resolve(object.get('CharSet'));
			if (!(program instanceof PdfStream) || !(charSet instanceof Uint8Array)) continue;
			const names = String.fromCharCode(...charSet).split('/').filter(Boolean).sort();
			const parsed = parseCff(await doc.streamData(program));
			expect(parsed.glyphNames.filter((n) => n !== '.notdef').sort()).toEqual(names);
			checked++;
		}
		expect(checked).toBeGreaterThanOrEqual(3);
	});
});

describe('hostile CFF programs: a PdfError or nothing, never a read past the data', () => {
	it('an INDEX claiming 65,535 items with offsets of 2^32 − 1', () => {
		const program = Uint8Array.from([1, 0, 4, 4, 0xff, 0xff, 4, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff]);
		expect(() => parseCff(program)).toThrow(PdfError);
		expect(cffBuiltInEncoding(program)).toBeUndefined();
	});

	it('a charset whose ranges never end (each range claims more glyphs than the data has bytes for)', () => {
		// 65,535 glyphs claimed by the CharStrings INDEX would need far more data; the ranges run out first.
		const program = cff({ glyphs: 3, charset: [1, ...sid(34), 0], encoding: 0 });
		// The charset has one 1-glyph range for glyphs 1..2: the second range is read past the end.
		expect(() => parseCff(program)).toThrow(/charset runs past its end/);
		// A range with nLeft 255 covers all: no loop past the glyph count.
		expect(parseCff(cff({ glyphs: 3, charset: [1, ...sid(34), 255], encoding: 0 })).glyphNames).toEqual(['.notdef', 'A', 'B']);
	});

	it('a truncated program and an unknown offset size', () => {
		const program = cff({ glyphs: 2, charset: [0, ...sid(34)], encoding: [0, 1, 65] });
		for (let cut = 0; cut < program.length; cut += 7) expect(cffBuiltInEncoding(program.subarray(0, cut))).toBeUndefined();
		const badOffSize = Uint8Array.from([1, 0, 4, 4, 0, 1, 9, 0]);
		expect(() => parseCff(badOffSize)).toThrow(/offsets of 9 bytes/);
	});
});
