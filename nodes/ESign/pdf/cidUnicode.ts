/**
 * The Unicode text of a CID in one of Adobe's four CJK character collections (Adobe-Japan1, -GB1, -CNS1, -Korea1),
 * for a composite font without a ToUnicode map, as pdf.js reads one through its Adobe-*-UCS2 maps. The tables
 * (cid*.json, made by scripts/make-cid-unicode.mjs from poppler-data) are loaded only when such a font is read.
 */

export type CidText = (cid: number) => string | undefined;

interface CidTable {
	text: string;
	wide: string;
}

const ORDERINGS = ['Japan1', 'GB1', 'CNS1', 'Korea1'] as const;
type Ordering = (typeof ORDERINGS)[number];

const loaded = new Map<Ordering, CidText>();

async function table(ordering: Ordering): Promise<CidTable> {
	// One literal path each, so that the build and the bundled reader find the files.
	if (ordering === 'Japan1') return (await import('./cidJapan1.json')) as CidTable;
	if (ordering === 'GB1') return (await import('./cidGB1.json')) as CidTable;
	if (ordering === 'CNS1') return (await import('./cidCNS1.json')) as CidTable;
	return (await import('./cidKorea1.json')) as CidTable;
}

/** The CID → text map of `Adobe-<ordering>`, or undefined for another collection. */
export async function cidText(registry: string, ordering: string): Promise<CidText | undefined> {
	if (registry !== 'Adobe' || !(ORDERINGS as readonly string[]).includes(ordering)) return undefined;
	const known = loaded.get(ordering as Ordering);
	if (known) return known;
	const { text, wide } = await table(ordering as Ordering);
	const beyond = new Map<number, string>();
	const parts = wide ? wide.split(' ') : [];
	for (let i = 0; i + 1 < parts.length; i += 2) beyond.set(Number(parts[i]), String.fromCodePoint(parseInt(parts[i + 1], 16)));
	const lookup: CidText = (cid) => {
		if (cid < 0 || cid >= text.length) return undefined;
		const unit = text.charCodeAt(cid);
		return unit !== 0xffff ? String.fromCharCode(unit) : beyond.get(cid);
	};
	loaded.set(ordering as Ordering, lookup);
	return lookup;
}
