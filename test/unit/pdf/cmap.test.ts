// The PDF reader's CMaps (nodes/ESign/pdf/fonts/cmap.ts): ToUnicode maps (bfchar, bfrange with a base or an array),
// encoding CMaps (cidchar, cidrange) and codespace ranges of 1 to 4 bytes (Adobe technical note 5014, ISO 32000-1
// 9.7.5 and 9.10.3). Hostile maps end with a bounded map, never an exception or a heap blow-up (the maps too big to read in
// jest's process are read in a heap-limited child by hostile.slow.test.ts).
import { CMap } from '../../../nodes/ESign/pdf/fonts/cmap';

const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const toUnicode = (program: string) => CMap.parse(bytes(program), true);
const encoding = (program: string) => CMap.parse(bytes(program), false);

/** Every (code, length) a composite font's string splits into. */
function split(cmap: CMap, data: number[]): Array<[number, number]> {
	const out: Array<[number, number]> = [];
	cmap.codes(Uint8Array.from(data), (code, length) => out.push([code, length]));
	return out;
}

const HEADER = '/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Test def ';
const FOOTER = ' endcmap CMapName currentdict /CMap defineresource pop end end';

describe('ToUnicode: bfchar', () => {
	const cmap = toUnicode(
		`${HEADER}1 begincodespacerange <00> <FF> endcodespacerange 4 beginbfchar <01> <0041> <02> <0066006C> <03> <D83DDE00> <04> <00> endbfchar${FOOTER}`,
	);

	it('maps single codes to UTF-16 text: one unit, a ligature of two, a surrogate pair', () => {
		expect(cmap.unicode(1)).toBe('A');
		expect(cmap.unicode(2)).toBe('fl');
		expect(cmap.unicode(3)).toBe('\u{1F600}');
	});

	it('reads a one-byte destination as that character (seen in the wild)', () => {
		expect(cmap.unicode(4)).toBe('\0');
	});

	it('answers undefined for a code it does not name', () => {
		expect(cmap.unicode(5)).toBeUndefined();
	});

	it('reads an odd number of bytes as if a leading zero byte was dropped (LuaTeX 0.77 writes "Th" as <540068>)', () => {
		const luatex = toUnicode('3 beginbfchar <095F> <540068> <0952> <740074> <0953> <41> endbfchar');
		expect(luatex.unicode(0x095f)).toBe('Th');
		expect(luatex.unicode(0x0952)).toBe('tt');
		expect(luatex.unicode(0x0953)).toBe('A');
	});
});

describe('ToUnicode: bfrange', () => {
	const cmap = toUnicode(
		`${HEADER}2 beginbfrange <20> <22> <0041> <10> <12> [<0061> <0062> <00630064>] <0100> <0102> <00660069> <30> <31> [<0078>] endbfrange${FOOTER}`,
	);

	it('with a base: each code counts up from it', () => {
		expect([0x20, 0x21, 0x22].map((c) => cmap.unicode(c))).toEqual(['A', 'B', 'C']);
		expect(cmap.unicode(0x23)).toBeUndefined();
		expect(cmap.unicode(0x1f)).toBeUndefined();
	});

	it('with a base of several units: the last unit counts up', () => {
		expect([0x100, 0x101, 0x102].map((c) => cmap.unicode(c))).toEqual(['fi', 'fj', 'fk']);
	});

	it('with a base of an odd number of bytes: a leading zero byte, then the last unit counts up', () => {
		const luatex = toUnicode('2 beginbfrange <0A56> <0A58> <660066> <0010> <0011> [<540068> <41>] endbfrange');
		expect([0x0a56, 0x0a57, 0x0a58].map((c) => luatex.unicode(c))).toEqual(['ff', 'fg', 'fh']);
		expect([0x0010, 0x0011].map((c) => luatex.unicode(c))).toEqual(['Th', 'A']);
	});

	it('with an array: one destination per code', () => {
		expect([0x10, 0x11, 0x12].map((c) => cmap.unicode(c))).toEqual(['a', 'b', 'cd']);
	});

	it('with an array shorter than the range: the codes without an entry stay unmapped', () => {
		expect(cmap.unicode(0x30)).toBe('x');
		expect(cmap.unicode(0x31)).toBeUndefined();
	});

	it('finds codes in ranges written out of order', () => {
		const shuffled = toUnicode('3 beginbfrange <50> <5F> <0050> <00> <0F> <0000> <20> <2F> <0120> endbfrange');
		expect(shuffled.unicode(0x05)).toBe('\u0005');
		expect(shuffled.unicode(0x25)).toBe('\u0125');
		expect(shuffled.unicode(0x5f)).toBe('_');
		expect(shuffled.unicode(0x40)).toBeUndefined();
	});

	it('a range spanning 0x0000–0xFFFFFFFF is read without allocating it: codes near its start map, far ones do not', () => {
		const wide = toUnicode('1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange');
		expect(wide.unicode(0)).toBe('A');
		expect(wide.unicode(1)).toBe('B');
		expect(wide.unicode(0xfffffff0)).toBeUndefined();
	});

	it('cuts a destination longer than the format allows (512 bytes) instead of failing on it', () => {
		const huge = `<${'0041'.repeat(300_000)}>`;
		const cmap = toUnicode(`1 beginbfrange <00> <FF> ${huge} endbfrange 1 beginbfchar <01> ${huge} endbfchar`);
		expect(cmap.unicode(0x01)).toBe('A'.repeat(256));
		expect(cmap.unicode(0x02)).toBe(`${'A'.repeat(255)}C`);
	});
});

describe('encoding CMaps: cidchar and cidrange', () => {
	const cmap = encoding(
		`${HEADER}1 begincodespacerange <0000> <FFFF> endcodespacerange 1 begincidrange <0000> <00FF> 100 <1000> <10FF> 5000 endcidrange 1 begincidchar <0041> 7 endcidchar${FOOTER}`,
	);

	it('maps ranges from their first CID and single codes to theirs', () => {
		expect(cmap.cid(0x0010)).toBe(116);
		expect(cmap.cid(0x10ff)).toBe(5255);
		expect(cmap.cid(0x0041)).toBe(7);
	});

	it('maps an unknown code to CID 0 (.notdef)', () => {
		expect(cmap.cid(0x2000)).toBe(0);
	});

	it('reads /WMode 1 as vertical', () => {
		expect(encoding('/WMode 1 def').vertical).toBe(true);
		expect(encoding('/WMode 0 def').vertical).toBe(false);
	});

	it('gives an encoding CMap without codespaces two-byte codes', () => {
		expect(split(encoding('1 begincidrange <0000> <FFFF> 0 endcidrange'), [0x12, 0x34])).toEqual([[0x1234, 2]]);
	});

	it('Identity: CID = code, two-byte codes; Identity-V is vertical', () => {
		const identity = CMap.identity();
		expect(identity.cid(0x1234)).toBe(0x1234);
		expect(split(identity, [0x12, 0x34, 0x00, 0x41])).toEqual([
			[0x1234, 2],
			[0x0041, 2],
		]);
		expect(CMap.identity(true).vertical).toBe(true);
	});
});

describe('codespace ranges of 1 to 4 bytes', () => {
	// Shift-JIS-like: one byte for 00–80 and A0–DF, two bytes for 8140–9FFC; plus a 3- and a 4-byte space.
	const cmap = encoding(
		'4 begincodespacerange <00> <80> <A0> <DF> <8140> <9FFC> <E00000> <E0FFFF> <F0000000> <F0FFFFFF> endcodespacerange',
	);

	it('splits a string by the shortest codespace that matches', () => {
		expect(split(cmap, [0x41, 0x81, 0x40, 0xa5, 0xe0, 0x12, 0x34, 0xf0, 0x01, 0x02, 0x03, 0x42])).toEqual([
			[0x41, 1],
			[0x8140, 2],
			[0xa5, 1],
			[0xe01234, 3],
			[0xf0010203, 4],
			[0x42, 1],
		]);
	});

	it('takes the shortest length a codespace uses when no codespace matches', () => {
		expect(split(cmap, [0xff, 0x41])).toEqual([
			[0xff, 1],
			[0x41, 1],
		]);
	});

	it('keeps the last bytes of a cut string as a shorter code', () => {
		expect(split(cmap, [0x81])).toEqual([[0x81, 1]]);
	});

	it('knows a map of one-byte codes', () => {
		expect(encoding('1 begincodespacerange <00> <FF> endcodespacerange').singleByte).toBe(true);
		expect(cmap.singleByte).toBe(false);
	});

	it('splits with 200,000 codespace ranges in the map (a hostile CMap), without failing', () => {
		const many = encoding(`begincodespacerange ${'<0000> <0001> '.repeat(200_000)} endcodespacerange`);
		expect(split(many, [0x00, 0x01, 0xff, 0xff])).toEqual([
			[0x0001, 2],
			[0xffff, 2],
		]);
	});
});
