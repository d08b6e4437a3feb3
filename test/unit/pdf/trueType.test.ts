// TrueType font programs (nodes/ESign/pdf/fonts/trueType.ts): a symbolic simple font's text by code through its `cmap`
// (formats 0, 4, 6, 12; the (3,0) subtable's 0xF000 offsets, (1,0), (3,1)) and `post` (formats 1, 2, 3) tables,
// from programs built byte by byte (test/support/fontPrograms.js), and hostile ones.
import { postNames, trueTypeSymbolicText } from '../../../nodes/ESign/pdf/fonts/trueType';
import { cmapFormat0, cmapFormat12, cmapFormat4, cmapFormat6, cmapTable, int32, postFormat2, trueTypeProgram, u16 } from '../../support/fontPrograms';

/** A post table of format 1 or 3 (the header only). */
const postHeader = (format: number) => [...int32(format), ...new Array(28).fill(0)];

describe('TrueType cmap and post', () => {
	it('(3,0) format 4 with 0xF000 offsets, names from post format 2 (custom and standard Macintosh names)', () => {
		// Glyph 1 = "fi" (custom), 2 = "A" (Mac index 36), 3 = "uni0416", 4 = "f_f_i".
		const cmap = cmapTable([[3, 0, cmapFormat4([[0xf00c, 1], [0xf041, 2], [0xf0c8, 3], [0xf00e, 4]])]]);
		const program = trueTypeProgram({ cmap, post: postFormat2([0, 'fi', 36, 'uni0416', 'f_f_i']) });
		const text = trueTypeSymbolicText(program);
		expect([12, 65, 200, 14].map((code) => text?.[code])).toEqual(['\ufb01', 'A', 'Ж', 'ffi']);
		expect(text?.[66]).toBeUndefined(); // no glyph for it
	});

	it('(1,0) format 0 and format 6; post format 1 names glyphs in the Macintosh order', () => {
		const post1 = postHeader(0x10000);
		// Mac order: glyph 36 is "A", 68 is "a".
		const format0 = trueTypeProgram({ cmap: cmapTable([[1, 0, cmapFormat0([[65, 36], [97, 68]])]]), post: post1 });
		const text0 = trueTypeSymbolicText(format0);
		expect([text0?.[65], text0?.[97]]).toEqual(['A', 'a']);
		const format6 = trueTypeProgram({ cmap: cmapTable([[1, 0, cmapFormat6(48, [19, 20, 21])]]), post: post1 });
		// Mac order: glyphs 19–21 are "zero", "one", "two".
		const text6 = trueTypeSymbolicText(format6);
		expect([48, 49, 50].map((code) => text6?.[code])).toEqual(['0', '1', '2']);
	});

	it('glyphs without names (post format 3) take their Unicode from the (3,1) subtable, format 12 too', () => {
		const cmap = cmapTable([
			[3, 0, cmapFormat4([[0xf041, 5]])],
			[3, 1, cmapFormat4([[0x00e9, 5]])],
		]);
		expect(trueTypeSymbolicText(trueTypeProgram({ cmap, post: postHeader(0x30000) }))?.[65]).toBe('é');
		const wide = cmapTable([
			[3, 0, cmapFormat4([[0xf041, 7]])],
			[3, 10, cmapFormat12([[0x1d400, 0x1d401, 7]])],
		]);
		expect(trueTypeSymbolicText(trueTypeProgram({ cmap: wide }))?.[65]).toBeUndefined(); // a glyph only past the BMP: not walked
		const bmp12 = cmapTable([
			[3, 0, cmapFormat4([[0xf041, 7]])],
			[3, 10, cmapFormat12([[0x4e00, 0x4e01, 7]])],
		]);
		expect(trueTypeSymbolicText(trueTypeProgram({ cmap: bmp12 }))?.[65]).toBe('一');
	});

	it('no cmap, or no subtable a simple font uses: undefined', () => {
		expect(trueTypeSymbolicText(trueTypeProgram({ post: postHeader(0x30000) }))).toBeUndefined();
		expect(trueTypeSymbolicText(trueTypeProgram({ cmap: cmapTable([[0, 3, cmapFormat4([[65, 1]])]]) }))).toBeUndefined();
	});
});

describe('hostile TrueType programs: bounded, never a read past the data', () => {
	it('a cmap claiming 65,535 subtables and a format 4 claiming 32,767 segments', () => {
		const subtables = [...u16(0), ...u16(65535), ...u16(3), ...u16(0), ...int32(12), ...u16(4), ...u16(14), ...u16(0), ...u16(65534)];
		expect(trueTypeSymbolicText(trueTypeProgram({ cmap: subtables }))).toBeUndefined();
	});

	it('a format 12 claiming 2^32 − 1 groups reads only those the table holds', () => {
		const groups = cmapFormat12([[0xf041, 0xf041, 3]]);
		groups.splice(12, 4, 0xff, 0xff, 0xff, 0xff);
		const text = trueTypeSymbolicText(trueTypeProgram({ cmap: cmapTable([[3, 0, groups]]), post: postFormat2([0, 1, 2, 'B']) }));
		expect(text?.[65]).toBe('B');
	});

	it('a post table whose glyph count runs past its end, and names past the last string', () => {
		const truncated = [...postHeader(0x20000), ...u16(65535), ...u16(258)];
		expect(() => postNames(Uint8Array.from(truncated))).toThrow(/post table runs past its end/);
		const pastLast = Uint8Array.from(postFormat2([0, 'x']).concat([]));
		pastLast[34 + 3] = 0xff; // glyph 1's index: 258 + 255, past the one string
		expect(postNames(pastLast)).toEqual(['.notdef', undefined]);
	});

	it('a table directory pointing past the data, and a truncated program', () => {
		const program = trueTypeProgram({ cmap: cmapTable([[3, 0, cmapFormat4([[0xf041, 1]])]]), post: postFormat2([0, 'A']) });
		for (let cut = 0; cut < program.length; cut += 5) expect(() => trueTypeSymbolicText(program.subarray(0, cut))).not.toThrow();
		const lying = Uint8Array.from(program);
		lying.set(int32(0x7fffffff), 12 + 8); // the first table's offset
		expect(trueTypeSymbolicText(lying)).toBeUndefined();
	});
});
