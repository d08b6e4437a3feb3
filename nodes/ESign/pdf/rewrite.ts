import type { PdfDocument } from './document';
import { firstFreeNumber, updateBytes } from './incremental';
import type { UpdateObject } from './incremental';
import type { Box, TextLine } from './layout';
import { boxOf } from './layout';
import { PdfDict, PdfName, PdfRef, PdfStream } from './objects';
import { pageContent } from './pageContent';
import type { CodeRemoval } from './opRewrite';
import { applyEdits, rewriteOperator } from './opRewrite';
import type { PdfPage } from './pages';
import { SOURCE_SIZE, Src } from './provenance';
import type { SourceTable } from './provenance';
import { decodesFully, updateBlocker } from './safety';
import { deflate } from './serialize';

/**
 * The tag remover: marks the glyphs of tags (found in lines read with sources) and writes an incremental update in
 * which those glyphs are no longer drawn, each replaced by an equal advance. Only the marked glyphs' codes change:
 * text that only looks alike elsewhere is never touched. Where a rewrite is not safe the file stays as it was.
 */

export interface TagRemoval {
	/** the upload: the original bytes, or the original followed by the update */
	bytes: Uint8Array;
	/** false: `bytes` is the original */
	changed: boolean;
	/** why nothing was rewritten for the whole file (encrypted, signed, damaged …), in plain words */
	reason?: string;
	/** tags whose glyphs are no longer drawn */
	removed: number;
	/** tags left in place, each with why */
	skipped: Array<{ page: number; text: string; reason: string }>;
}

interface Marked {
	page: number;
	text: string;
	/** glyph sources: [stream, opStart, opEnd, item, code, length, advance, size] per glyph, from the line */
	glyphs: number[][];
}

interface Loaded {
	data: Uint8Array;
	page?: PdfPage;
	form?: PdfStream;
}

const MAX_TAGS = 100_000;

export class TagRemover {
	private readonly marked: Marked[] = [];
	private readonly skipped: TagRemoval['skipped'] = [];
	private readonly used = new WeakMap<TextLine, Set<number>>();
	/** Streams loaded by `write` (checked, then rewritten: decoded once). */
	private readonly loaded = new Map<number, Promise<Loaded | string>>();

	constructor(
		private readonly doc: PdfDocument,
		private readonly pages: PdfPage[],
		private readonly sources: SourceTable,
	) {}

	/** Marks a found tag (its text and box on a line of `lines`); undefined, or why it stays. */
	removeTag(tag: { page: number; text: string; box: Box }, lines: TextLine[]): string | undefined {
		for (const line of lines) {
			const used = this.used.get(line) ?? new Set<number>();
			for (let start = line.text.indexOf(tag.text); start >= 0; start = line.text.indexOf(tag.text, start + 1)) {
				if (used.has(start) || !sameBox(boxOf(line, start, start + tag.text.length), tag.box)) continue;
				used.add(start);
				this.used.set(line, used);
				return this.removeText(tag.page, line, start, start + tag.text.length);
			}
		}
		return this.skip(tag.page, tag.text, 'it was not found in the lines given (read them with { sources: true })');
	}

	/** Marks `line.text.slice(start, end)`; undefined, or why it stays. */
	removeText(page: number, line: TextLine, start: number, end: number): string | undefined {
		const text = line.text.slice(start, end);
		const sources = line.sources;
		if (!sources) return this.skip(page, text, 'its line was read without glyph sources');
		if (this.marked.length >= MAX_TAGS) return this.skip(page, text, `the PDF has more than ${MAX_TAGS} tags to remove`);
		const glyphs: number[][] = [];
		let last = -1;
		for (let i = start; i < end; i++) {
			const index = line.glyphOf[i];
			if (index < 0 || index === last) continue;
			last = index;
			const s = sources.slice(index * SOURCE_SIZE, (index + 1) * SOURCE_SIZE);
			if (s[Src.Stream] < 0) return this.skip(page, text, 'it is drawn by content this writer cannot rewrite (an inline form)');
			if (s[Src.Vertical]) return this.skip(page, text, 'it is written vertically, which this writer leaves as it is');
			if (s[Src.Size] === 0) return this.skip(page, text, 'its font size is 0, so its advance cannot be written as a TJ adjustment');
			glyphs.push(s);
		}
		if (!glyphs.length) return this.skip(page, text, 'it has no glyphs');
		this.marked.push({ page, text, glyphs });
		return undefined;
	}

	private skip(page: number, text: string, reason: string): string {
		this.skipped.push({ page, text, reason });
		return reason;
	}

	/** The upload: the original with an update that no longer draws the marked tags, or the original and why. */
	async write(): Promise<TagRemoval> {
		const original = this.doc.data;
		const unchanged = (reason?: string): TagRemoval => ({ bytes: original, changed: false, reason, removed: 0, skipped: [...this.skipped] });
		const blocker = await updateBlocker(this.doc);
		if (blocker) return unchanged(blocker);
		let tags = this.marked;
		// A stream or operator that cannot be rewritten leaves every tag that touches it (and only those) in place.
		for (let round = 0; round < 2 && tags.length; round++) {
			const failed = await this.failures(tags);
			if (!failed.size) break;
			tags = tags.filter((tag) => {
				const why = tag.glyphs.map((g) => failed.get(g[Src.Stream]) ?? failed.get(opKey(g))).find((reason) => reason !== undefined);
				if (why !== undefined) this.skipped.push({ page: tag.page, text: tag.text, reason: why });
				return why === undefined;
			});
		}
		if (!tags.length) return unchanged();
		const objects = await this.objects(tags);
		this.loaded.clear();
		if (!objects) return unchanged('the PDF changed while it was being read');
		const { list, size } = objects;
		const update = updateBytes(original, this.doc.xref.trailer, list, size);
		const bytes = new Uint8Array(original.length + update.length);
		bytes.set(original);
		bytes.set(update, original.length);
		return { bytes, changed: true, removed: tags.length, skipped: [...this.skipped] };
	}

	/** Each stream's and operator's failure (by stream id, or "stream:opStart"), for the tags given. */
	private async failures(tags: Marked[]): Promise<Map<number | string, string>> {
		const failed = new Map<number | string, string>();
		for (const [stream, ops] of group(tags)) {
			const loaded = await this.load(stream);
			if (typeof loaded === 'string') {
				failed.set(stream, loaded);
				continue;
			}
			for (const [opStart, { opEnd, removals }] of ops) {
				const result = rewriteOperator(loaded.data, opStart, opEnd, removals);
				if ('reason' in result) failed.set(`${stream}:${opStart}`, result.reason);
			}
		}
		return failed;
	}

	private load(stream: number): Promise<Loaded | string> {
		let pending = this.loaded.get(stream);
		if (!pending) {
			pending = this.read(stream);
			this.loaded.set(stream, pending);
		}
		return pending;
	}

	/** A content stream's decoded bytes and what it is: a page's /Contents (one or several streams) or a form. */
	private async read(stream: number): Promise<Loaded | string> {
		const key = this.sources.keys[stream] ?? '';
		const pageMatch = /^page (\d+)$/.exec(key);
		if (pageMatch) {
			const page = this.pages[Number(pageMatch[1]) - 1];
			if (!page?.ref) return 'its page is not an object of its own';
			const contents = await this.doc.resolve(page.dict.get('Contents'));
			for (const part of Array.isArray(contents) ? contents : [contents]) {
				const part2 = await this.doc.resolve(part);
				if (part2 instanceof PdfStream && !(await decodesFully(this.doc, part2))) return 'its page content is damaged (it did not decode to its end)';
			}
			return { data: await pageContent(this.doc, page.dict.get('Contents')), page };
		}
		const [num, gen] = key.split(' ').map(Number);
		const form = await this.doc.resolve(new PdfRef(num, gen));
		if (!(form instanceof PdfStream)) return 'its form is missing';
		if (!(await decodesFully(this.doc, form))) return 'its form content is damaged (it did not decode to its end)';
		return { data: await this.doc.streamData(form), form };
	}

	/** The update's objects: each rewritten page content as a new stream (the page redefined), each form redefined. */
	private async objects(tags: Marked[]): Promise<{ list: UpdateObject[]; size: number } | undefined> {
		const list: UpdateObject[] = [];
		let next = firstFreeNumber(this.doc.xref.trailer, this.doc.xref.entries.keys());
		for (const [stream, ops] of group(tags)) {
			const loaded = await this.load(stream);
			if (typeof loaded === 'string') return undefined;
			const edits: Array<{ start: number; end: number; text: string }> = [];
			for (const [opStart, { opEnd, removals }] of [...ops].sort((a, b) => a[0] - b[0])) {
				const result = rewriteOperator(loaded.data, opStart, opEnd, removals);
				if ('reason' in result) return undefined;
				edits.push({ start: opStart, end: opEnd, text: result.text });
			}
			const data = await deflate(applyEdits(loaded.data, edits));
			if (loaded.page?.ref) {
				const contentNum = next++;
				list.push({ num: contentNum, gen: 0, value: streamDict(new PdfDict()), stream: data });
				const page = copy(loaded.page.dict);
				page.set('Contents', new PdfRef(contentNum, 0));
				list.push({ num: loaded.page.ref.num, gen: loaded.page.ref.gen, value: page });
			} else if (loaded.form?.ref) {
				list.push({ num: loaded.form.ref.num, gen: loaded.form.ref.gen, value: streamDict(copy(loaded.form.dict)), stream: data });
			} else return undefined;
		}
		return { list, size: next };
	}
}

const opKey = (g: number[]) => `${g[Src.Stream]}:${g[Src.OpStart]}`;

const sameBox = (a: Box, b: Box) =>
	Math.abs(a.left - b.left) < 1e-6 && Math.abs(a.top - b.top) < 1e-6 && Math.abs(a.right - b.right) < 1e-6 && Math.abs(a.bottom - b.bottom) < 1e-6;

/** Removals by stream, then by operator; a glyph drawn twice (a form drawn twice) is removed once. */
function group(tags: Marked[]): Map<number, Map<number, { opEnd: number; removals: CodeRemoval[] }>> {
	const streams = new Map<number, Map<number, { opEnd: number; removals: CodeRemoval[] }>>();
	const seen = new Set<string>();
	for (const tag of tags) {
		for (const g of tag.glyphs) {
			const key = `${opKey(g)}:${g[Src.Item]}:${g[Src.Code]}`;
			if (seen.has(key)) continue;
			seen.add(key);
			const ops = streams.get(g[Src.Stream]) ?? new Map<number, { opEnd: number; removals: CodeRemoval[] }>();
			streams.set(g[Src.Stream], ops);
			const op = ops.get(g[Src.OpStart]) ?? { opEnd: g[Src.OpEnd], removals: [] };
			ops.set(g[Src.OpStart], op);
			op.removals.push({ item: g[Src.Item], code: g[Src.Code], length: g[Src.Length], advance: g[Src.Advance], size: g[Src.Size] });
		}
	}
	return streams;
}

function copy(dict: PdfDict): PdfDict {
	const out = new PdfDict();
	for (const [key, value] of dict.map) out.set(key, value);
	return out;
}

/** A stream dictionary for Flate data: the old filters, parameters and lengths go (the data is new). */
function streamDict(dict: PdfDict): PdfDict {
	for (const key of ['Length', 'Filter', 'DecodeParms', 'F', 'FFilter', 'FDecodeParms', 'DL']) dict.map.delete(key);
	dict.set('Filter', PdfName.of('FlateDecode'));
	return dict;
}
