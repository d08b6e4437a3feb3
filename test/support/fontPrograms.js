'use strict';
/**
 * Font programs built byte by byte, for the reader's font tests (test/unit/pdf/cff.test.ts, trueType.test.ts,
 * fonts.test.ts) and the hostile files (pdfHostile.js): a CFF program (Adobe TN 5176), a TrueType program with
 * `cmap` and `post` tables, and a Type 1 cleartext like pdfTeX's. Small and exact: each test says what it holds.
 */

const int32 = (n) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u16 = (n) => [(n >>> 8) & 0xff, n & 0xff];
const ascii = (text) => Array.from(text, (c) => c.charCodeAt(0) & 0xff);

/** A CFF INDEX of the items, with 4-byte offsets. */
function cffIndex(items) {
	if (!items.length) return [0, 0];
	const out = [...u16(items.length), 4, ...int32(1)];
	let offset = 1;
	for (const item of items) out.push(...int32((offset += item.length)));
	for (const item of items) out.push(...item);
	return out;
}

/** A DICT operand as a 5-byte integer (fixed size: offsets are known before the tables are laid out). */
const dictInt = (n) => [29, ...int32(n)];

/**
 * A CFF program: `glyphs` glyphs (CharStrings of one `endchar` each), custom `strings` (SIDs 391 on), the charset and
 * encoding as their tables' bytes or a predefined id (charset 0 ISOAdobe; encoding 0 Standard, 1 Expert); `cid` adds
 * a ROS (CID-keyed).
 */
function cffProgram({ glyphs, strings = [], charset, encoding, cid = false }) {
	const header = [1, 0, 4, 4];
	const name = cffIndex([ascii('Test')]);
	const stringIndex = cffIndex(strings.map(ascii));
	const globalSubrs = cffIndex([]);
	const topLength = (cid ? 17 : 0) + 18;
	const topIndexLength = cffIndex([new Array(topLength).fill(0)]).length;
	const charStringsAt = header.length + name.length + topIndexLength + stringIndex.length + globalSubrs.length;
	const charStrings = cffIndex(Array.from({ length: glyphs }, () => [14]));
	const charsetAt = charStringsAt + charStrings.length;
	const charsetBytes = typeof charset === 'number' ? [] : charset;
	const encodingAt = charsetAt + charsetBytes.length;
	const top = [
		...(cid ? [...dictInt(391), ...dictInt(392), ...dictInt(0), 12, 30] : []),
		...dictInt(typeof charset === 'number' ? charset : charsetAt),
		15,
		...dictInt(typeof encoding === 'number' ? encoding : encodingAt),
		16,
		...dictInt(charStringsAt),
		17,
	];
	const program = [...header, ...name, ...cffIndex([top]), ...stringIndex, ...globalSubrs, ...charStrings, ...charsetBytes];
	if (typeof encoding !== 'number') for (const b of encoding) program.push(b);
	return Uint8Array.from(program);
}

/** A cmap format 4 subtable mapping each [code, glyph] pair (one segment a code, then the closing 0xFFFF one). */
function cmapFormat4(pairs) {
	const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
	const segments = [...sorted.map(([code, glyph]) => ({ start: code, end: code, delta: (glyph - code) & 0xffff })), { start: 0xffff, end: 0xffff, delta: 1 }];
	const n = segments.length;
	const body = [
		...u16(n * 2), ...u16(0), ...u16(0), ...u16(0),
		...segments.flatMap((s) => u16(s.end)), ...u16(0),
		...segments.flatMap((s) => u16(s.start)),
		...segments.flatMap((s) => u16(s.delta)),
		...segments.flatMap(() => u16(0)),
	];
	return [...u16(4), ...u16(body.length + 6), ...u16(0), ...body];
}

/** A cmap format 0 subtable (codes 0–255). */
function cmapFormat0(pairs) {
	const glyphs = new Array(256).fill(0);
	for (const [code, glyph] of pairs) glyphs[code] = glyph;
	return [...u16(0), ...u16(262), ...u16(0), ...glyphs];
}

/** A cmap format 6 subtable from `first` with the glyph ids in order. */
const cmapFormat6 = (first, glyphs) => [...u16(6), ...u16(10 + glyphs.length * 2), ...u16(0), ...u16(first), ...u16(glyphs.length), ...glyphs.flatMap(u16)];

/** A cmap format 12 subtable of [start, end, first glyph] groups. */
const cmapFormat12 = (groups) => [...u16(12), ...u16(0), ...int32(16 + groups.length * 12), ...int32(0), ...int32(groups.length), ...groups.flatMap((g) => g.flatMap(int32))];

/** A cmap table of [platform, encoding, subtable bytes] entries. */
function cmapTable(subtables) {
	const out = [...u16(0), ...u16(subtables.length)];
	let offset = 4 + subtables.length * 8;
	for (const [platform, encoding, bytes] of subtables) {
		out.push(...u16(platform), ...u16(encoding), ...int32(offset));
		offset += bytes.length;
	}
	for (const [, , bytes] of subtables) for (const b of bytes) out.push(b);
	return out;
}

/** A post table of format 2 naming each glyph: a standard Macintosh index (a number) or a name of its own. */
function postFormat2(names) {
	const custom = [];
	const indexes = names.map((name) => (typeof name === 'number' ? name : 258 + custom.push(name) - 1));
	return [...int32(0x20000), ...new Array(28).fill(0), ...u16(names.length), ...indexes.flatMap(u16), ...custom.flatMap((n) => [n.length, ...ascii(n)])];
}

/** A TrueType program of the given tables ({ tag: bytes }). */
function trueTypeProgram(tables) {
	const tags = Object.keys(tables).sort();
	const out = [...int32(0x10000), ...u16(tags.length), 0, 0, 0, 0, 0, 0];
	let offset = 12 + tags.length * 16;
	for (const tag of tags) {
		out.push(...ascii(tag.padEnd(4)), 0, 0, 0, 0, ...int32(offset), ...int32(tables[tag].length));
		offset += tables[tag].length;
	}
	for (const tag of tags) for (const b of tables[tag]) out.push(b); // a loop: a hostile table is too big to spread
	return Uint8Array.from(out);
}

/** A Type 1 cleartext like pdfTeX's (cmr10) with `encoding` after /Encoding, then eexec and `after`. */
function type1Program(encoding, after = '') {
	const clear =
		'%!PS-AdobeFont-1.0: CMR10 003.002\n%%Title: CMR10\n/FontName /CMR10 def\n/PaintType 0 def\n' +
		'/FontInfo 7 dict dup begin\n/Notice (Copyright (c) /Encoding 1997) readonly def\nend readonly def\n' +
		`/Encoding ${encoding}\ncurrentfile eexec\n`;
	// Buffer.from, not a spread: a hostile cleartext runs to megabytes.
	const data = new Uint8Array(Buffer.concat([Buffer.from(clear, 'latin1'), Buffer.from([0xd9, 0xd6, 0x09, 0x8f]), Buffer.from(after, 'latin1')]));
	return { data, length1: clear.length };
}

module.exports = { cffProgram, cmapFormat0, cmapFormat4, cmapFormat6, cmapFormat12, cmapTable, postFormat2, trueTypeProgram, type1Program, u16, int32 };
