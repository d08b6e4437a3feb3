// Writes nodes/ESign/pdf/standardFonts.json: the advance widths of the 14 standard PDF fonts (Adobe's Core 14 AFM
// metrics, which Adobe allows to be copied and distributed), for PDFs that use a standard font without /Widths
// (ReportLab and hand-made files do). Read from the copy of the AFM data in pdf-lib's @pdf-lib/standard-fonts
// (a dev dependency). Run once when that data changes: node scripts/make-font-metrics.mjs
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Font, Encodings } = require('@pdf-lib/standard-fonts');

const out = {};
for (const name of ['Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique', 'Times-Roman', 'Times-Bold', 'Times-Italic', 'Times-BoldItalic']) {
	const font = Font.load(name);
	out[name] = Object.fromEntries(font.CharMetrics.map((m) => [m.N, m.WX]));
}
// The symbolic fonts are read through their own built-in encodings: widths by character code.
for (const name of ['Symbol', 'ZapfDingbats']) {
	const font = Font.load(name);
	const byName = Object.fromEntries(font.CharMetrics.map((m) => [m.N, m.WX]));
	const codes = new Array(256).fill(0);
	for (const [code, glyph] of Object.values(Encodings[name].unicodeMappings)) codes[code] = byName[glyph] ?? 0;
	out[name] = codes;
}
// Oblique shapes share their upright widths: keep one table and a pointer, so the file stays small.
for (const [slanted, upright] of [['Helvetica-Oblique', 'Helvetica'], ['Helvetica-BoldOblique', 'Helvetica-Bold']]) {
	if (JSON.stringify(out[slanted]) === JSON.stringify(out[upright])) out[slanted] = upright;
}
fs.writeFileSync(new URL('../nodes/ESign/pdf/standardFonts.json', import.meta.url), JSON.stringify(out) + '\n');
console.log(Object.entries(out).map(([k, v]) => `${k}: ${typeof v === 'string' ? `= ${v}` : Array.isArray(v) ? 'by code' : Object.keys(v).length}`).join('\n'));
