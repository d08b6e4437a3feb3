import type { PdfDocument } from '../read/document';
import { PdfDict, PdfName, PdfRef, PdfStream } from '../read/objects';
import type { CodeRemoval } from './opRewrite';
import { applyEdits, rewriteOperator } from './opRewrite';
import { pageContent } from '../text/pages';
import type { PdfPage } from '../text/pages';
import { Src } from '../text/provenance';
import { hexString } from './serialize';
import type { Compressor } from './compress';

/**
 * One content stream's rewrite for the tag remover: its decoded bytes (a page's /Contents read as one, or a form's
 * stream), the marked glyphs' operators rewritten, the result compressed. A stream or operator that cannot be rewritten
 * is reported, so that the tags touching it can stay.
 */

export interface Loaded {
	data: Uint8Array;
	/** the resources the stream's names are looked up in (a form's own, or its page's) */
	resources: PdfDict;
	page?: PdfPage;
	form?: PdfStream;
}

export interface Prepared {
	/** how many marked glyphs it was prepared for (a glyph drawn twice counts twice) */
	count: number;
	/** why the whole stream cannot be rewritten */
	reason?: string;
	/** operators that cannot be rewritten ("stream:opStart") and why */
	failed: ReadonlyMap<string, string>;
	/** the new stream's Flate data, when nothing failed */
	output?: Uint8Array;
	/** the font copies its hidden glyphs are shown in: the original font's resource name, the copy's name and the
	 * codes shown in it (hex), as arrays: a removal keeps one of these per page until write() */
	hidden: Array<[font: string, copy: { name: string; codes: string[] }]>;
	/** the resources its names are looked up in, and their /Font dictionary (resolved) */
	resources?: PdfDict;
	fonts?: PdfDict;
	page?: PdfPage;
	form?: PdfStream;
}

export type OpGroup = Map<number, { opEnd: number; removals: CodeRemoval[] }>;

/** What a removal's streams share while they are prepared one after another (tagRemover.ts keeps one per removal). */
export interface EditTools {
	compressor: Compressor;
	/** the hidden codes' hex texts, each kept once: thousands of tag glyphs repeat a few dozen codes */
	codes: Map<string, string>;
}

export const opKey = (g: number[]) => `${g[Src.Stream]}:${g[Src.OpStart]}`;
export const glyphKey = (g: number[]) => `${opKey(g)}:${g[Src.Item]}:${g[Src.Code]}`;

/** Removals by operator; a glyph drawn twice (a form drawn twice) is removed once. `names`: the source table's font
 * names (GlyphSource.font). */
export function groupOps(glyphs: Iterable<number[]>, names: readonly string[]): { ops: OpGroup; keys: Set<string> } {
	const ops: OpGroup = new Map();
	const keys = new Set<string>();
	for (const g of glyphs) {
		const key = glyphKey(g);
		if (keys.has(key)) continue;
		keys.add(key);
		const op = ops.get(g[Src.OpStart]) ?? { opEnd: g[Src.OpEnd], removals: [] };
		ops.set(g[Src.OpStart], op);
		op.removals.push({ item: g[Src.Item], code: g[Src.Code], length: g[Src.Length], size: g[Src.Size], rise: g[Src.Rise], font: names[g[Src.Font]] ?? '', lift: g[Src.Up] });
	}
	return { ops, keys };
}

/** A stream's content by its source key ("page N" or a form's "num gen"); `known`: the page's bytes from its read. */
export async function loadStream(doc: PdfDocument, pages: PdfPage[], key: string, known?: Uint8Array): Promise<Loaded | string> {
	const pageMatch = /^page (\d+)$/.exec(key);
	if (pageMatch) {
		const page = pages[Number(pageMatch[1]) - 1];
		if (!page?.ref) return 'its page is not an object of its own';
		const data = known ?? (await pageContent(doc, page.dict.get('Contents')));
		const contents = await doc.resolve(page.dict.get('Contents'));
		for (const part of Array.isArray(contents) ? contents : [contents]) {
			const stream = await doc.resolve(part);
			if (stream instanceof PdfStream && !(await doc.decodedWhole(stream))) return 'its page content is damaged (it did not decode to its end)';
		}
		if (!page.resources) return 'its page has no resources';
		return { data, page, resources: page.resources };
	}
	const [num, gen] = key.split(' ').map(Number);
	const form = await doc.resolve(new PdfRef(num, gen));
	if (!(form instanceof PdfStream)) return 'its form is missing';
	const resources = await doc.resolve(form.dict.get('Resources'));
	// Its hidden glyphs' font copies go into its resources: a form that borrows its page's would change with the page.
	if (!(resources instanceof PdfDict)) return 'its form has no resources of its own';
	const data = await doc.formData(form);
	if (!(await doc.decodedWhole(form))) return 'its form content is damaged (it did not decode to its end)';
	return { data, resources, form };
}

/** The stream rewritten with the glyphs given hidden (all of one stream) and compressed, or what failed. `fonts`: the
 * stream's /Font resources (the copies' names must not be taken there). */
export async function prepareStream(loaded: Loaded | string, stream: number, glyphs: Iterable<number[]>, count: number, names: readonly string[], tools: EditTools, fonts?: PdfDict): Promise<Prepared> {
	const hidden = new Map<string, { name: string; codes: Set<string> }>();
	if (typeof loaded === 'string') return { count, reason: loaded, failed: NO_FAILURES, hidden: [] };
	const { ops } = groupOps(glyphs, names);
	const failed = new Map<string, string>();
	const edits: Array<{ start: number; end: number; text: string }> = [];
	for (const [opStart, { opEnd, removals }] of [...ops].sort((a, b) => a[0] - b[0])) {
		const font = removals[0].font;
		let copy = hidden.get(font);
		if (!copy && font && fonts?.get(font) !== undefined) {
			copy = { name: hiddenName(font, fonts), codes: new Set() };
			hidden.set(font, copy);
		}
		const result = copy ? rewriteOperator(loaded.data, opStart, opEnd, removals, copy.name) : { reason: 'its font is not in the resources of the content that draws it' };
		if ('reason' in result) failed.set(`${stream}:${opStart}`, result.reason);
		else {
			edits.push({ start: opStart, end: opEnd, text: result.text });
			for (const code of result.codes) {
				const hex = hexString(code);
				let kept = tools.codes.get(hex);
				if (kept === undefined) tools.codes.set(hex, (kept = hex));
				copy?.codes.add(kept);
			}
		}
	}
	const output = failed.size ? undefined : await tools.compressor.deflate(applyEdits(loaded.data, edits));
	return {
		count,
		failed: failed.size ? failed : NO_FAILURES,
		output,
		hidden: [...hidden].map(([font, copy]) => [font, { name: copy.name, codes: [...copy.codes] }]),
		resources: loaded.resources,
		fonts,
		page: loaded.page,
		form: loaded.form,
	};
}

const NO_FAILURES: ReadonlyMap<string, string> = new Map();

/**
 * The name of font `font`'s hidden copy in the /Font dictionary `fonts`: made from the font's own name and only the
 * dictionary's names, so every stream sharing the dictionary picks the same one, and two fonts never the same.
 */
export function hiddenName(font: string, fonts: PdfDict): string {
	for (let n = 1; ; n++) {
		const name = n === 1 ? `ESignHidden.${font}` : `ESignHidden${n}.${font}`;
		if (fonts.get(name) === undefined) return name;
	}
}

/** A stream dictionary for new Flate data: the old filters, parameters and lengths left out (the data is new). */
export function flateDict(dict: PdfDict): PdfDict {
	return dict.without('Length', 'Filter', 'DecodeParms', 'F', 'FFilter', 'FDecodeParms', 'DL').with('Filter', PdfName.of('FlateDecode'));
}
