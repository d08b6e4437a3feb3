import type { PdfDocument } from '../read/document';
import { firstFreeNumber, updateOf, withParts } from './incremental';
import type { Additions, PageEdit, Removal, UpdateObject } from './incremental';
import type { Box, TextLine } from '../text/layout';
import { boxOf } from '../text/layout';
import { MAX_TAGS_TO_REMOVE } from '../limits';
import { PdfDict, PdfRef } from '../read/objects';
import type { PdfPage } from '../text/pages';
import { SOURCE_SIZE, Src } from '../text/provenance';
import type { SourceTable } from '../text/provenance';
import { updateBlocker } from './safety';
import type { EditTools, Prepared } from './streamEdit';
import { flateDict, loadStream, opKey, prepareStream } from './streamEdit';
import { GlyphStore } from './marks';
import { hiddenFonts } from './hiddenFonts';
import { Compressor } from './compress';

/**
 * The tag remover: marks the glyphs of tags (found in lines read with sources) and writes an incremental update in
 * which those glyphs are no longer seen: shown in a copy of their font that reads as spaces, raised off the page
 * (opRewrite.ts says why this way). Only the marked glyphs' operators change: text that only looks alike elsewhere
 * is never touched. Where a rewrite is not safe the file stays as it was.
 *
 * A page's content is rewritten and compressed as soon as tags of another page are marked (the node marks page by
 * page), from the bytes its read just decoded: the decoded content is not kept, only the compressed.
 */

interface Marked {
	page: number;
	text: string;
	/** its glyphs in the store: indices first … first + count − 1 */
	first: number;
	count: number;
}

export class TagRemover {
	private readonly marked: Marked[] = [];
	private readonly skipped: Removal['skipped'] = [];
	private readonly used = new WeakMap<TextLine, Set<number>>();
	private readonly store = new GlyphStore();
	private readonly tools: EditTools = { compressor: new Compressor(), codes: new Map() };
	/** the marked glyphs (store indices) by stream */
	private readonly byStream = new Map<number, number[]>();
	/** streams rewritten so far (a stream marked again later is rewritten again) */
	private readonly prepared = new Map<number, Promise<Prepared>>();
	/** the page stream marked last, rewritten when another stream is marked or at write() */
	private open: { stream: number; data?: Uint8Array } | undefined;

	constructor(
		private readonly doc: PdfDocument,
		private readonly pages: PdfPage[],
		private readonly sources: SourceTable,
	) {}

	/** The resource name a glyph's font was selected by (its Src.Font number in a line's sources). */
	fontName(index: number): string | undefined {
		return this.sources.names[index];
	}

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
		if (this.marked.length >= MAX_TAGS_TO_REMOVE) return this.skip(page, text, `the PDF has more than ${MAX_TAGS_TO_REMOVE} tags to remove`);
		const pageView = this.pages[page - 1]?.view;
		if (!pageView) return this.skip(page, text, 'its page is not in the document read');
		const box = boxOf(line, start, end);
		// How far a hidden glyph moves, in points: off the page whatever its size (no page is larger than 14,400 pt a
		// side), and never so far that a renderer's device coordinates run out (Ghostscript's are 24.8 fixed point).
		const away = Math.max(2 * Math.hypot(pageView[2] - pageView[0], pageView[3] - pageView[1]), OFF_PAGE) + 2 * Math.hypot(box.right - box.left, box.bottom - box.top);
		const glyphs: number[] = [];
		const lifts: number[] = [];
		let last = -1;
		for (let i = start; i < end; i++) {
			const index = line.glyphOf[i];
			if (index < 0 || index === last) continue;
			last = index;
			const at = index * SOURCE_SIZE;
			const s = (field: Src) => sources[at + field];
			if (s(Src.Stream) < 0) return this.skip(page, text, 'it is drawn by content this writer cannot rewrite (an inline form)');
			if (s(Src.Vertical)) return this.skip(page, text, 'it is written vertically, which this writer leaves as it is');
			if (s(Src.Size) === 0) return this.skip(page, text, 'its font size is 0, so it has no place on the page to leave');
			if (s(Src.Font) < 0) return this.skip(page, text, 'its font was not chosen by a name in the content that draws it');
			const lift = s(Src.Rise) + away / s(Src.Up);
			if (!(Number.isFinite(lift) && Math.abs(lift) < MAX_LIFT)) return this.skip(page, text, 'its text matrix is so small or degenerate that the glyphs cannot be moved off the page');
			glyphs.push(at);
			lifts.push(lift);
		}
		if (!glyphs.length) return this.skip(page, text, 'it has no glyphs');
		const first = this.store.count;
		glyphs.forEach((at, i) => this.store.add(sources, at, lifts[i]));
		this.marked.push({ page, text, first, count: glyphs.length });
		for (let i = first; i < first + glyphs.length; i++) this.note(i);
		return undefined;
	}

	private note(glyph: number): void {
		const stream = this.store.stream(glyph);
		const list = this.byStream.get(stream);
		if (list) list.push(glyph);
		else this.byStream.set(stream, [glyph]);
		this.prepared.delete(stream);
		if (!this.sources.keys[stream]?.startsWith('page ') || this.open?.stream === stream) return;
		if (this.open) this.finish(this.open);
		const last = this.sources.lastPage;
		this.open = { stream, data: last?.stream === stream ? last.data : undefined };
	}

	/** The page marked last, rewritten now that its marks are complete; its list of marks is let go (write() groups
	 * the tags' glyphs again, and prepares again any stream marked after). */
	private finish(open: { stream: number; data?: Uint8Array }): void {
		this.prepare(open.stream, open.data);
		this.byStream.delete(open.stream);
	}

	private prepare(stream: number, known?: Uint8Array, glyphs = this.byStream.get(stream) ?? []): Promise<Prepared> {
		const count = glyphs.length;
		const pending = loadStream(this.doc, this.pages, this.sources.keys[stream] ?? '', known).then(async (loaded) => {
			const fonts = typeof loaded === 'string' ? undefined : await this.doc.dict(loaded.resources, 'Font');
			return prepareStream(loaded, stream, glyphs.map((i) => this.store.view(i)), count, this.sources.names, this.tools, fonts);
		});
		pending.catch(() => undefined); // awaited in write()
		this.prepared.set(stream, pending);
		return pending;
	}

	private skip(page: number, text: string, reason: string): string {
		this.skipped.push({ page, text, reason });
		return reason;
	}

	/**
	 * The upload: the original with an update that no longer draws the marked tags, or the original and why. `extra`:
	 * other objects for the same update (widgetRemoval.ts); a page both redefine is written once, with both changes.
	 * `more`: objects numbered from this update's own numbers, and edits of pages (fill.ts), asked for once the tags
	 * are known; a page edit is applied on top of what the tags and `extra` did to the page.
	 */
	async write(extra: UpdateObject[] = [], more?: Additions): Promise<Removal> {
		const original = this.doc.data;
		const unchanged = (reason?: string): Removal => withParts({ changed: false, reason, removed: 0, skipped: [...this.skipped] }, original);
		const blocker = await updateBlocker(this.doc);
		if (blocker) return unchanged(blocker);
		if (this.open) this.finish(this.open);
		this.open = undefined;
		this.store.trim();
		let tags = this.marked;
		// A stream or operator that cannot be rewritten leaves every tag that touches it (and only those) in place.
		for (let round = 0; round < 3 && tags.length; round++) {
			const results = await this.results(tags);
			const failed = new Map<number | string, string>();
			for (const [stream, result] of results) {
				if (result.reason) failed.set(stream, result.reason);
				for (const [key, reason] of result.failed) failed.set(key, reason);
			}
			if (!failed.size) return this.release(await this.update(tags, results, extra, more));
			tags = tags.filter((tag) => {
				let why: string | undefined;
				for (let i = tag.first; i < tag.first + tag.count && why === undefined; i++) {
					const g = this.store.view(i);
					why = failed.get(g[Src.Stream]) ?? failed.get(opKey(g));
				}
				if (why !== undefined) this.skipped.push({ page: tag.page, text: tag.text, reason: why });
				return why === undefined;
			});
		}
		return this.release(extra.length || more ? await this.update([], new Map(), extra, more) : unchanged());
	}

	/** The rewritten streams are in the upload now: not held twice (a later write() prepares them again). */
	private release(removal: Removal): Removal {
		this.prepared.clear();
		return removal;
	}

	/** Each stream the tags touch, rewritten without exactly their glyphs (a stream prepared for others again). */
	private async results(tags: Marked[]): Promise<Map<number, Prepared>> {
		const glyphs = new Map<number, number[]>();
		for (const tag of tags) {
			for (let i = tag.first; i < tag.first + tag.count; i++) {
				const list = glyphs.get(this.store.stream(i));
				if (list) list.push(i);
				else glyphs.set(this.store.stream(i), [i]);
			}
		}
		const out = new Map<number, Prepared>();
		for (const [stream, list] of glyphs) {
			let result = await (this.prepared.get(stream) ?? this.prepare(stream, undefined, list));
			// Marks are only ever added, and a tag only ever dropped: the same number of glyphs is the same set.
			if (result.count !== list.length) result = await this.prepare(stream, undefined, list);
			out.set(stream, result);
		}
		return out;
	}

	private async update(tags: Marked[], results: Map<number, Prepared>, extra: UpdateObject[] = [], more?: Additions): Promise<Removal> {
		const list: UpdateObject[] = [];
		let next = firstFreeNumber(this.doc.xref.trailer, this.doc.xref.entries.keys());
		const added = more ? await more(() => next++) : { objects: [], pages: new Map<string, PageEdit>() };
		const others = new Map([...extra, ...added.objects].map((object) => [new PdfRef(object.num, object.gen).key, object]));
		const edits = new Map(added.pages);
		// The font copies the hidden glyphs are shown in, first; then each stream's page or form, with its resources.
		const hidden = await hiddenFonts(this.doc, results, others, () => next++);
		list.push(...hidden.objects);
		for (const result of results.values()) {
			const data = result.output as Uint8Array;
			const resources = hidden.resourcesOf.get(result);
			if (result.page?.ref) {
				// A new stream for the page's content (its old streams may be shared with other pages), the page redefined.
				const contentNum = next++;
				list.push({ num: contentNum, gen: 0, value: flateDict(new PdfDict()), stream: data });
				const key = result.page.ref.key;
				const other = others.get(key)?.value;
				others.delete(key);
				let page = (other instanceof PdfDict ? other : result.page.dict).with('Contents', new PdfRef(contentNum, 0));
				// Its resources written on the page itself (they may have been inherited from the page tree).
				if (resources) page = page.with('Resources', resources);
				const edit = edits.get(key);
				edits.delete(key);
				list.push({ num: result.page.ref.num, gen: result.page.ref.gen, value: edit ? edit(page) : page });
			} else if (result.form?.ref) {
				const form = flateDict(result.form.dict);
				list.push({ num: result.form.ref.num, gen: result.form.ref.gen, value: resources ? form.with('Resources', resources) : form, stream: data });
			}
		}
		// Pages only the additions change: on top of what `extra` made of them, else of the page as it is.
		for (const [key, edit] of edits) {
			const page = this.pages.find((p) => p.ref?.key === key);
			const other = others.get(key);
			others.delete(key);
			const base = other?.value instanceof PdfDict ? other.value : page?.dict;
			if (page?.ref && base) list.push({ num: page.ref.num, gen: page.ref.gen, value: edit(base) });
		}
		list.push(...others.values());
		if (!list.length) return withParts({ changed: false, removed: 0, skipped: [...this.skipped] }, this.doc.data);
		const update = updateOf(this.doc.data, this.doc.xref.trailer, list, next);
		return withParts({ changed: true, removed: tags.length, skipped: [...this.skipped] }, this.doc.data, update);
	}
}

/** Points a hidden glyph moves at least: twice the diagonal of the largest page (14,400 pt a side). */
const OFF_PAGE = 40_800;
/** A rise beyond this (text space) means a matrix too small to trust: the tag stays. */
const MAX_LIFT = 1e12;

const sameBox = (a: Box, b: Box) =>
	Math.abs(a.left - b.left) < 1e-6 && Math.abs(a.top - b.top) < 1e-6 && Math.abs(a.right - b.right) < 1e-6 && Math.abs(a.bottom - b.bottom) < 1e-6;
