import type { PdfDocument } from '../read/document';
import type { UpdateObject } from './incremental';
import { PdfDict, PdfRef } from '../read/objects';
import type { Prepared } from './streamEdit';

/**
 * The font copies the tag remover shows hidden glyphs in (opRewrite.ts): one per font object, the font's own
 * dictionary with a ToUnicode giving a space for every code hidden in it anywhere. Each copy goes into the /Font
 * dictionary its streams look names up in: an indirect one (shared by every page, as LibreOffice writes it) is
 * redefined once with all the copies its streams use; an inline one goes, with its resources, on its page or form.
 */

export interface HiddenFonts {
	/** the copies, their ToUnicode streams and the shared dictionaries redefined, for the update */
	objects: UpdateObject[];
	/** the resources to write on a stream's page or form (its /Font inline), by stream */
	resourcesOf: Map<Prepared, PdfDict>;
}

/**
 * `others`: objects the same update redefines already (widgetRemoval.ts); one redefined here is taken from there and
 * written once, with both changes. `allocate` gives new object numbers.
 */
export async function hiddenFonts(doc: PdfDocument, results: Map<number, Prepared>, others: Map<string, UpdateObject>, allocate: () => number): Promise<HiddenFonts> {
	const objects: UpdateObject[] = [];
	const copies = new Map<string, { dict: PdfDict; codes: Set<string>; ref: PdfRef }>();
	const targets = new Map<string, { ref?: PdfRef; base: PdfDict; fonts: PdfDict; inFonts: boolean }>();
	const targetOf = new Map<Prepared, string>();
	for (const [stream, result] of results) {
		if (!result.hidden.length) continue;
		const resources = result.resources ?? new PdfDict();
		const fontsEntry = resources.get('Font');
		const inFonts = fontsEntry instanceof PdfRef;
		const own = result.page ? result.page.dict.get('Resources') : result.form?.dict.get('Resources');
		const ref = fontsEntry instanceof PdfRef ? fontsEntry : own instanceof PdfRef ? own : undefined;
		const key = fontsEntry instanceof PdfRef ? `fonts ${fontsEntry.key}` : own instanceof PdfRef ? `resources ${own.key}` : `stream ${stream}`;
		let target = targets.get(key);
		if (!target) {
			const fonts = result.fonts ?? new PdfDict();
			const redefined = ref ? others.get(ref.key)?.value : undefined;
			if (ref) others.delete(ref.key);
			const base = redefined instanceof PdfDict ? redefined : inFonts ? fonts : resources;
			target = { ref, base, fonts: inFonts ? base : fonts, inFonts };
			targets.set(key, target);
		}
		targetOf.set(result, key);
		for (const [original, { name, codes }] of result.hidden) {
			const entry = target.fonts.get(original);
			const copyKey = entry instanceof PdfRef ? entry.key : `${key} ${original}`;
			let copy = copies.get(copyKey);
			if (!copy) {
				const dict = await doc.resolve(entry);
				// Not a font dictionary: the name stands for the same broken value (renderers cope with it as before).
				if (!(dict instanceof PdfDict) && entry !== undefined) {
					target.fonts = target.fonts.with(name, entry);
					continue;
				}
				copy = { dict: dict instanceof PdfDict ? dict : new PdfDict(), codes: new Set(), ref: new PdfRef(allocate(), 0) };
				copies.set(copyKey, copy);
			}
			for (const code of codes) copy.codes.add(code);
			target.fonts = target.fonts.with(name, copy.ref);
		}
	}
	for (const copy of copies.values()) {
		const cmap = new PdfRef(allocate(), 0);
		objects.push({ num: cmap.num, gen: 0, value: new PdfDict(), stream: spacesCMap(copy.codes) });
		objects.push({ num: copy.ref.num, gen: 0, value: copy.dict.with('ToUnicode', cmap) });
	}
	const resourcesOf = new Map<Prepared, PdfDict>();
	for (const target of targets.values()) {
		if (target.ref) objects.push({ num: target.ref.num, gen: target.ref.gen, value: target.inFonts ? target.fonts : target.base.with('Font', target.fonts) });
	}
	for (const [result, key] of targetOf) {
		const target = targets.get(key);
		if (target && !target.ref) resourcesOf.set(result, target.base.with('Font', target.fonts));
	}
	return { objects, resourcesOf };
}

/**
 * A ToUnicode CMap (9.10.3) giving U+0020 for each code (hex, as `hexString` writes it): a hidden glyph reads as a
 * space, not as the tag's letters, in every text extractor (an empty mapping reads as the raw code in some).
 */
export function spacesCMap(codes: Iterable<string>): Uint8Array {
	const sorted = [...codes].sort();
	const lengths = [...new Set(sorted.map((code) => (code.length - 2) / 2))].sort((a, b) => a - b);
	const lines = [
		'/CIDInit /ProcSet findresource begin',
		'12 dict begin',
		'begincmap',
		'/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
		'/CMapName /ESign-Hidden-UCS def',
		'/CMapType 2 def',
		`${lengths.length} begincodespacerange`,
		...lengths.map((n) => `<${'00'.repeat(n)}> <${'FF'.repeat(n)}>`),
		'endcodespacerange',
	];
	// At most 100 entries a block (the CMap format's limit).
	for (let i = 0; i < sorted.length; i += 100) {
		const block = sorted.slice(i, i + 100);
		lines.push(`${block.length} beginbfchar`, ...block.map((code) => `${code} <0020>`), 'endbfchar');
	}
	lines.push('endcmap', 'CMapName currentdict /CMap defineresource pop', 'end', 'end', '');
	return new TextEncoder().encode(lines.join('\n'));
}
