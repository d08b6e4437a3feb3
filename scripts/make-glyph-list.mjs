// Writes nodes/ESign/pdf/fonts/glyphList.json: the Adobe Glyph List (AGL 2.0, glyph name → Unicode) the reader turns glyph
// names into text with, plus the built-in encoding of the standard Symbol font. ZapfDingbats' names (a1 … a191) are
// left out, as pdf.js's text leaves them: its text content gives a ZapfDingbats code as the code's own character.
//
// Sources, both published data already on a developer's machine through a package (never fetched from the web):
// - glyphlist.txt from Debian's texlive-base (fonts/map/glyphlist/glyphlist.txt, Adobe's AGL 2.0 as published);
//   get it with `apt-get download texlive-base && dpkg-deb -x texlive-base_*.deb /tmp/tl`, then
//   node scripts/make-glyph-list.mjs /tmp/tl/usr/share/texlive/texmf-dist/fonts/map/glyphlist/glyphlist.txt
// - the Symbol encoding of pdf-lib's @pdf-lib/standard-fonts (a dev dependency, Adobe's Core 14 data).
//
// Output, kept compact (about 60 KB): `names` is "name hex[+hex…]" pairs separated by spaces (a few AGL names stand
// for several characters); `Symbol` is 256 hex code points, "" for an unused code.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Encodings } = require('@pdf-lib/standard-fonts');

const source = process.argv[2];
if (!source) {
	console.error('usage: node scripts/make-glyph-list.mjs path/to/glyphlist.txt');
	process.exit(2);
}
const names = new Map();
for (const line of fs.readFileSync(source, 'latin1').split(/\r?\n/)) {
	if (!line || line.startsWith('#')) continue;
	const [name, codes] = line.split(';');
	if (!name || !codes) continue;
	names.set(name, codes.trim().split(/\s+/).map((hex) => parseInt(hex, 16).toString(16)).join('+'));
}
if (names.size < 4000) throw new Error(`${source}: ${names.size} names, expected the AGL's 4,281`);
const builtIn = {};
for (const font of ['Symbol']) {
	const codes = new Array(256).fill('');
	for (const [unicode, [code]] of Object.entries(Encodings[font].unicodeMappings)) {
		// Several Unicode values may share a code (space and no-break space): the first, the lower one, wins.
		if (!codes[code]) codes[code] = Number(unicode).toString(16);
	}
	builtIn[font] = codes.join(' ');
}
const out = { names: [...names].map(([name, hex]) => `${name} ${hex}`).join(' '), ...builtIn };
fs.writeFileSync(new URL('../nodes/ESign/pdf/fonts/glyphList.json', import.meta.url), JSON.stringify(out) + '\n');
console.log(`${names.size} glyph names; the Symbol encoding`);
