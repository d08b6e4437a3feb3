// Type 1 font programs (nodes/ESign/pdf/fonts/type1Program.ts): the built-in encoding of a FontFile's cleartext, as pdfTeX
// embeds TeX's fonts (no /Encoding in the PDF): `StandardEncoding def`, or `dup <code> /<name> put` entries.
import { type1BuiltInEncoding } from '../../../nodes/ESign/pdf/fonts/type1Program';
import { type1Program } from '../../support/fontPrograms';

// ASCII text (the bytes after eexec stand for binary; their UTF-8 form is as good).
const bytes = (text: string) => new TextEncoder().encode(text);

const program = type1Program;

describe('Type 1 built-in encodings', () => {
	it('dup <code> /<name> put entries, as pdfTeX embeds them (the comment and the string before are not read)', () => {
		const { data, length1 } = program('256 array\n0 1 255 {1 index exch /.notdef put} for\ndup 11 /ff put\ndup 12 /fi put\ndup 13 /fl put\ndup 14 /ffi put\ndup 65 /A put % a comment /B\nreadonly def');
		const names = type1BuiltInEncoding(data, length1);
		expect(names?.[11]).toBe('ff');
		expect(names?.[12]).toBe('fi');
		expect(names?.[14]).toBe('ffi');
		expect(names?.[65]).toBe('A');
		expect(names?.filter(Boolean)).toHaveLength(5);
	});

	it('StandardEncoding def: the standard names', () => {
		const { data, length1 } = program('StandardEncoding def');
		const names = type1BuiltInEncoding(data, length1);
		expect(names?.[0xae]).toBe('fi');
		expect(names?.[0x41]).toBe('A');
	});

	it('a PFB segment header, and no /Length1 (read up to eexec)', () => {
		const { data } = program('256 array\ndup 12 /fi put\nreadonly def');
		const pfb = new Uint8Array(6 + data.length);
		pfb.set([0x80, 0x01, data.length & 0xff, (data.length >> 8) & 0xff, 0, 0]);
		pfb.set(data, 6);
		expect(type1BuiltInEncoding(pfb)?.[12]).toBe('fi');
		expect(type1BuiltInEncoding(data)?.[12]).toBe('fi');
	});

	it('only the cleartext is read: an /Encoding after eexec or past /Length1 is not', () => {
		const { data, length1 } = program('256 array\nreadonly def', '/Encoding 256 array dup 12 /fi put readonly def');
		expect(type1BuiltInEncoding(data, length1)).toBeUndefined();
		const early = program('256 array\ndup 12 /fi put\nreadonly def');
		expect(type1BuiltInEncoding(early.data, 40)).toBeUndefined(); // /Length1 40 ends before /Encoding
	});

	it('codes outside 0–255 and malformed entries are skipped; at most 256 entries are read', () => {
		const { data, length1 } = program('256 array\ndup 300 /A put\ndup -1 /B put\ndup x /C put\ndup 66 /B put\nreadonly def');
		const names = type1BuiltInEncoding(data, length1);
		expect(names?.[66]).toBe('B');
		expect(names?.filter(Boolean)).toHaveLength(1);
		// A million entries: the first 256 are read, the rest (here the one that would name code 65) never are.
		const many = program(`256 array\n${'dup 1 /one put\n'.repeat(1_000_000)}dup 65 /A put\nreadonly def`);
		const capped = type1BuiltInEncoding(many.data, many.length1);
		expect(capped?.[1]).toBe('one');
		expect(capped?.[65]).toBeUndefined();
	});

	it('no /Encoding, or one that names nothing: undefined', () => {
		expect(type1BuiltInEncoding(bytes('%!PS-AdobeFont-1.0\n/FontName /X def\ncurrentfile eexec\n'))).toBeUndefined();
		expect(type1BuiltInEncoding(bytes('/Encoding 256 array readonly def'))).toBeUndefined();
		expect(type1BuiltInEncoding(new Uint8Array(0))).toBeUndefined();
	});
});
