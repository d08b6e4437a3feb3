// Writes nodes/ESign/pdf/fontNames.json: the standard glyph-name lists of the font formats the reader reads names
// from: `cff`, the CFF specification's 391 standard strings (Adobe TN 5176, Appendix A; a CFF charset's SIDs below
// 391), and `mac`, the 258 standard Macintosh glyph names (a TrueType `post` table's indexes below 258). Each is one
// space-separated string.
//
// Source: the lists fontTools ships (Debian's python3-fonttools: cffLib/__init__.py `cffStandardStrings`,
// ttLib/standardGlyphOrder.py `standardGlyphOrder`); get them with
// `apt-get download python3-fonttools && dpkg-deb -x python3-fonttools_*.deb /tmp/ft`, then
// node scripts/make-font-names.mjs /tmp/ft/usr/lib/python3/dist-packages/fontTools
import fs from 'node:fs';
import path from 'node:path';

const root = process.argv[2];
if (!root) {
	console.error('usage: node scripts/make-font-names.mjs path/to/fontTools');
	process.exit(2);
}
function list(file, variable, count, last) {
	const text = fs.readFileSync(path.join(root, file), 'utf8');
	const match = new RegExp(`${variable} = \\[([^\\]]*)\\]`).exec(text);
	if (!match) throw new Error(`${file}: no ${variable} list`);
	// Quoted names only (the Mac list has a comment with each entry).
	const names = [...match[1].replace(/#[^\n]*/g, '').matchAll(/['"]([^'"]+)['"]/g)].map((m) => m[1]);
	if (names.length !== count || names[0] !== '.notdef' || names[count - 1] !== last) {
		throw new Error(`${file}: ${names.length} names, expected ${count}`);
	}
	return names.join(' ');
}
const out = {
	cff: list('cffLib/__init__.py', 'cffStandardStrings', 391, 'Semibold'),
	mac: list('ttLib/standardGlyphOrder.py', 'standardGlyphOrder', 258, 'dcroat'),
};
fs.writeFileSync(new URL('../nodes/ESign/pdf/fontNames.json', import.meta.url), JSON.stringify(out) + '\n');
console.log('391 CFF standard strings, 258 Macintosh glyph names');
