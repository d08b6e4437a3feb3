// Writes nodes/ESign/pdf/fonts/cidUnicodeData.ts: the text of every CID of Adobe's four CJK character collections
// (Adobe-Japan1, Adobe-GB1, Adobe-CNS1, Adobe-Korea1), which a composite font without ToUnicode is read through
// (ISO 32000-1 9.10.2, as pdf.js does it: CID → Adobe-<Ordering>-UCS2 CMap → Unicode). cidUnicode.ts reads it.
//
// Source: Adobe's Adobe-<Ordering>-UCS2 CMaps as Debian's poppler-data package ships them (cMap/Adobe-*/; the same
// CMaps pdf.js bundles), never fetched from the web. Licence: BSD-3-Clause, Adobe (the package's copyright file,
// "Files: cMap/*"; the CMaps' own headers). The notice travels with the data (a /*! comment tsc keeps). Get it with
//   cd /tmp && apt-get download poppler-data && dpkg-deb -x poppler-data_*.deb /tmp/poppler-data
//   node scripts/make-cid-unicode.mjs /tmp/poppler-data
// (poppler-data's cidToUnicode/ files hold similar tables, not quite Adobe's (CID 1 is U+00A0 there), under GPL-2
// (Glyph & Cog): not used.)
//
// Output, one string per collection: ASCII85 (PDF's ASCII85Decode) of zlib-deflated bytes, inflated and decoded
// once, on the first font that needs that collection. The bytes are varints (7 bits a byte, low first), CID 0 up:
//   0           the CID has no text;
//   n + 1       n = zigzag(first - (previous first + 1)) * 2 + more: the CID's first code point, as a step from the
//               last CID's that had text (runs of consecutive code points are runs of 1s, which deflate packs);
//               when `more`, a count k (1–8) and k code points follow (Korean parenthesised numbers, kana with a
//               combining mark, ...). Variation selectors are left out (see readCMap).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const ORDERINGS = ['Japan1', 'GB1', 'CNS1', 'Korea1'];
const MAX_EXTRA = 8; // code points after the first, as cidUnicode.ts accepts them

const root = process.argv[2];
if (!root) {
	console.error('usage: node scripts/make-cid-unicode.mjs /path/to/extracted/poppler-data (dpkg-deb -x)');
	process.exit(2);
}
const cmapDir = path.join(root, 'usr/share/poppler/cMap');
const changelog = zlib.gunzipSync(fs.readFileSync(path.join(root, 'usr/share/doc/poppler-data/changelog.Debian.gz'))).toString('utf8');
const version = /^poppler-data \(([^)]+)\)/.exec(changelog)?.[1];
if (!version) throw new Error('no version in poppler-data changelog.Debian.gz');

/** A UCS2 CMap's bfchar and bfrange entries: CID → code points (UTF-16 destinations, the last unit counting up). */
function readCMap(file) {
	const text = fs.readFileSync(file, 'latin1');
	const map = new Map();
	const codePoints = (units) => [...String.fromCharCode(...units)].map((c) => c.codePointAt(0));
	const units = (hex) => {
		if (hex.length % 4) throw new Error(`${file}: destination <${hex}> is not whole UTF-16 units`);
		return hex.match(/.{4}/g).map((u) => parseInt(u, 16));
	};
	const blocks = (name) => [...text.matchAll(new RegExp(`begin${name}([\\s\\S]*?)end${name}`, 'g'))].map((m) => m[1].trim().split(/\r?\n/));
	for (const line of blocks('bfchar').flat()) {
		const m = /^<([0-9a-f]{4})>\s+<([0-9a-f]+)>$/i.exec(line.trim());
		if (!m) throw new Error(`${file}: unexpected bfchar line ${line}`);
		map.set(parseInt(m[1], 16), codePoints(units(m[2])));
	}
	for (const line of blocks('bfrange').flat()) {
		const m = /^<([0-9a-f]{4})>\s+<([0-9a-f]{4})>\s+<([0-9a-f]+)>$/i.exec(line.trim());
		if (!m) throw new Error(`${file}: unexpected bfrange line ${line}`);
		const [low, high, start] = [parseInt(m[1], 16), parseInt(m[2], 16), units(m[3])];
		for (let cid = low; cid <= high; cid++) {
			const dst = start.slice();
			dst[dst.length - 1] += cid - low;
			map.set(cid, codePoints(dst));
		}
	}
	const title = /%%Title: \(([^)]*)\)/.exec(text)?.[1];
	const cmapVersion = /%%Version: (\S+)/.exec(text)?.[1];
	const notice = text
		.split(/\r?\n/)
		.filter((l) => l.startsWith('%%Copyright:'))
		.map((l) => l.slice('%%Copyright:'.length).trimEnd().replace(/^ /, ''))
		.filter((l) => !/^-+$/.test(l));
	// Variation selectors (U+FE00–FE0F, U+E0100–E01EF) name a glyph variant, not text: dropped, as pdf.js's text has
	// none for these CIDs and as a user types the ideograph alone (an anchor "葛飾" must match).
	for (const [cid, points] of map) {
		const text = points.filter((p) => !((p >= 0xfe00 && p <= 0xfe0f) || (p >= 0xe0100 && p <= 0xe01ef)));
		if (text.length) map.set(cid, text);
		else map.delete(cid);
	}
	return { map, title, cmapVersion, notice };
}

const zigzag = (n) => (n < 0 ? -2 * n - 1 : 2 * n);

function encode(map) {
	const out = [];
	const varint = (n) => {
		for (; n >= 128; n = Math.floor(n / 128)) out.push((n % 128) | 128);
		out.push(n);
	};
	const last = Math.max(...map.keys());
	let previous = 0;
	for (let cid = 0; cid <= last; cid++) {
		const points = map.get(cid);
		if (!points) {
			varint(0);
			continue;
		}
		if (points.length - 1 > MAX_EXTRA) throw new Error(`CID ${cid}: ${points.length} code points`);
		varint(zigzag(points[0] - (previous + 1)) * 2 + (points.length > 1 ? 1 : 0) + 1);
		previous = points[0];
		if (points.length > 1) {
			varint(points.length - 1);
			for (const p of points.slice(1)) varint(p);
		}
	}
	return Buffer.from(out);
}

/** The decoder cidUnicode.ts has, in plain JS: every CID must come back as it went in. */
function decode(bytes) {
	const map = new Map();
	let at = 0;
	const varint = () => {
		let n = 0;
		for (let shift = 1; ; shift *= 128) {
			const b = bytes[at++];
			n += (b & 127) * shift;
			if (b < 128) return n;
		}
	};
	let previous = 0;
	for (let cid = 0; at < bytes.length; cid++) {
		const v = varint();
		if (v === 0) continue;
		const n = (v - 1) >> 1;
		const first = previous + 1 + (n & 1 ? -(n + 1) / 2 : n / 2);
		previous = first;
		const points = [first];
		if ((v - 1) & 1) for (let k = varint(); k > 0; k--) points.push(varint());
		map.set(cid, points);
	}
	return map;
}

function ascii85(bytes) {
	let out = '';
	for (let i = 0; i < bytes.length; i += 4) {
		const n = Math.min(4, bytes.length - i);
		let value = 0;
		for (let k = 0; k < 4; k++) value = value * 256 + (k < n ? bytes[i + k] : 0);
		if (n === 4 && value === 0) {
			out += 'z';
			continue;
		}
		const digits = [];
		for (let k = 0; k < 5; k++, value = Math.floor(value / 85)) digits.unshift(String.fromCharCode(33 + (value % 85)));
		out += digits.slice(0, n + 1).join('');
	}
	return `${out}~>`;
}

const tables = [];
let notice;
for (const ordering of ORDERINGS) {
	const file = path.join(cmapDir, `Adobe-${ordering}`, `Adobe-${ordering}-UCS2`);
	const cmap = readCMap(file);
	// The CMaps differ in their years only: each one's copyright line, then the licence text they share.
	const [line, ...body] = cmap.notice;
	notice ??= { lines: [], body };
	if (body.join('\n') !== notice.body.join('\n')) throw new Error(`${file}: a different licence text`);
	notice.lines.push(`Adobe-${ordering}-UCS2: ${line}`);
	const raw = encode(cmap.map);
	const back = decode(raw);
	for (const [cid, points] of cmap.map) {
		if (back.get(cid)?.join() !== points.join()) throw new Error(`${ordering} CID ${cid}: encoded wrongly`);
	}
	if (back.size !== cmap.map.size) throw new Error(`${ordering}: ${back.size} CIDs decoded, ${cmap.map.size} written`);
	const packed = ascii85(zlib.deflateSync(raw, { level: 9 }));
	tables.push({ ordering, packed, cids: cmap.map.size, last: Math.max(...cmap.map.keys()), title: cmap.title, cmapVersion: cmap.cmapVersion, raw: raw.length });
}

const lines = [
	'/*!',
	` * CID → Unicode for Adobe's CJK character collections, generated by scripts/make-cid-unicode.mjs (do not edit) from`,
	` * Debian's poppler-data ${version}, the CMaps`,
	...tables.map((t) => ` *   ${t.title}, version ${t.cmapVersion}`),
	' * Their licence (BSD-3-Clause), as the CMaps state it:',
	' *',
	...[...notice.lines, ...notice.body].map((l) => (l ? ` * ${l}` : ' *')),
	' */',
	'',
	`/** Per ordering (Registry Adobe): ASCII85 of deflated varints, the format scripts/make-cid-unicode.mjs describes. */`,
	'export const CID_UNICODE_DATA: Readonly<Record<string, string>> = {',
	...tables.map((t) => `\t${t.ordering}: ${JSON.stringify(t.packed)},`),
	'};',
	'',
];
const target = new URL('../nodes/ESign/pdf/fonts/cidUnicodeData.ts', import.meta.url);
fs.writeFileSync(target, lines.join('\n'));
for (const t of tables) console.log(`Adobe-${t.ordering}: ${t.cids} CIDs (0–${t.last}), ${t.raw} bytes of varints, ${t.packed.length} characters packed`);
console.log(`${fs.statSync(target).size} bytes written to nodes/ESign/pdf/fonts/cidUnicodeData.ts (poppler-data ${version})`);
