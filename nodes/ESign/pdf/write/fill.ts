import type { PdfDocument } from '../read/document';
import type { FormWidget } from '../forms/forms';
import type { WidgetLook } from '../forms/look';
import type { TextLine } from '../text/layout';
import type { Matrix } from '../matrix';
import { invert } from '../matrix';
import { PdfDict, PdfName, PdfRef } from '../read/objects';
import type { PdfObject } from '../read/objects';
import type { PdfPage } from '../text/pages';
import { displayMatrix } from '../text/pages';
import standardFonts from '../fonts/standardFonts.json';
import { SOURCE_SIZE, Src } from '../text/provenance';
import type { PageEdit, Removal, UpdateObject } from './incremental';
import { formatName, formatNumber, hexString } from './serialize';
import { LEADING, fit, textFontOf } from './standardText';
import { carriedFont, fontKey, standardFont } from './drawFonts';
import type { DrawFont } from './drawFonts';
import type { TagRemover } from './tagRemover';
import { widgetObjects } from './widgetRemoval';

/**
 * Values drawn into a PDF's pages (issue 51): a form field's value where its widget is, in the field's own font,
 * size, colour and alignment, as a viewer shows it; a data tag's value where the tag stood, from its left edge on its
 * baseline, at its size, in black. They are drawn into the page content, not left as form values, so that neither a
 * site that imports pages without their annotations nor a signer can lose or change them: the filled fields' widgets
 * leave the file, and a data tag's glyphs are taken off the page by the tag remover. Everything goes into the tag
 * remover's one incremental update.
 *
 * Each page's drawings are one Form XObject with fonts of its own (the standard 14: nothing is embedded), drawn by a
 * content stream appended to the page, after the page's own content wrapped in q … Q (whatever state it leaves, the
 * drawing starts from the page's default).
 */

const ZAPF = (standardFonts as unknown as Record<string, number[]>).ZapfDingbats;
/** Points between a widget's edge and its text, as viewers leave them. */
const PADDING = 2;
/** Field flags (12.7.4.3): a text field spread over /MaxLen equal cells. */
const COMB = 1 << 24;
const MULTILINE = 1 << 12;
/** ZapfDingbats' check mark (a20) and filled circle (a71): what a check box and a radio button show when on. */
const CHECK = '4';
const DOT = 'l';

export class Filler {
	/** the content drawn on each page (page number → pieces, in user space) */
	private readonly drawn = new Map<number, string[]>();
	/** the fonts the drawings use: font key → resource name and the font object */
	private readonly fonts = new Map<string, { name: string; resource: PdfObject }>();
	/** the PDF's own fonts read for drawing (undefined: not usable), by key */
	private readonly carried = new Map<string, Promise<DrawFont | undefined>>();
	private readonly inline = new Map<PdfObject, number>();
	private readonly filled = new Set<FormWidget>();

	constructor(
		private readonly doc: PdfDocument,
		private readonly pages: PdfPage[],
		private readonly tags: TagRemover,
	) {}

	/** A text in a text field or a choice field's widget; undefined, or why it cannot be drawn. */
	async text(widget: FormWidget, value: string): Promise<string | undefined> {
		const look = widget.look;
		if (!look) return 'its widget has no rectangle to draw in';
		const font = await this.fontFor(value, textFontOf(look.baseFont ?? look.font), [look.fontEntry]);
		if ('lacking' in font) return `it holds characters neither the standard PDF fonts nor the field's own font can draw: ${font.lacking.join(' ')}`;
		const color = `${look.color ?? '0 g'} `;
		const measure = (text: string, size: number) => font.width(text, size);
		const body = this.boxed(widget, look, (width, height) => {
			const inner = { width: width - 2 * PADDING, height: height - 2 * PADDING };
			if (look.flags & COMB && look.maxLen && !(look.flags & MULTILINE)) return this.comb(value, font, look, width, height, color);
			const multiline = (look.flags & MULTILINE) !== 0;
			const fitted = fit(value, measure, look.size, inner.width, inner.height, multiline);
			if (!fitted) return undefined;
			const { size, lines } = fitted;
			// One line: centred on the box's middle (its em box, 0.2 below to 0.8 above the baseline); lines: from the top.
			const first = multiline ? height - PADDING - 0.8 * size : height / 2 - 0.3 * size;
			return lines
				.map((line, k) => {
					const w = measure(line, size);
					const x = look.quadding === 1 ? (width - w) / 2 : look.quadding === 2 ? width - PADDING - w : PADDING;
					return this.show(font, size, x, first - k * size * LEADING, font.encode(line), color);
				})
				.join('\n');
		});
		return body === undefined ? 'it does not fit its box, even in 6 pt type' : this.keep(widget, body);
	}

	/** A check box or radio button: a mark when `on`, nothing when not; the widget leaves the file either way. */
	mark(widget: FormWidget, on: boolean): string | undefined {
		const look = widget.look;
		if (!look) return 'its widget has no rectangle to draw in';
		if (!on) {
			this.filled.add(widget);
			return undefined;
		}
		const char = look.checkChar ?? (widget.kind === 'radio' ? DOT : CHECK);
		const code = char.charCodeAt(0);
		const body = this.boxed(widget, look, (width, height) => {
			const size = Math.min(width, height) * (widget.kind === 'radio' ? 0.6 : 0.8);
			const w = ((ZAPF[code] ?? 0) * size) / 1000;
			return this.show(standardFont('ZapfDingbats'), size, (width - w) / 2, height / 2 - 0.35 * size, Uint8Array.of(code & 255), `${look.color ?? '0 g'} `);
		});
		return body === undefined ? 'its box is too small to draw in' : this.keep(widget, body);
	}

	/**
	 * A data tag's value: drawn from the left edge of `line.text.slice(start, end)` on its baseline, at its size and
	 * in its direction, in black; the tag's glyphs are handed to the tag remover. Undefined, or why it cannot be.
	 */
	async tag(page: number, line: TextLine, start: number, end: number, value: string): Promise<string | undefined> {
		const pdfPage = this.pages[page - 1];
		const glyph = line.glyphOf.slice(start, end).find((index) => index >= 0);
		const toUser = pdfPage && invert(displayMatrix(pdfPage));
		if (!pdfPage || glyph === undefined || !toUser) return 'its place on the page is not known';
		const text = value.replace(/\s*[\r\n]+\s*/g, ' ');
		// The tag's own font, by the name its content selected it with, in its page's resources.
		const own = line.sources?.[glyph * SOURCE_SIZE + Src.Font];
		const name = own === undefined || own < 0 ? undefined : this.tags.fontName(own);
		const entry = name === undefined ? undefined : (await this.doc.dict(pdfPage.resources, 'Font'))?.get(name);
		const font = await this.fontFor(text, 'Helvetica', [entry]);
		if ('lacking' in font) return `it holds characters neither the standard PDF fonts nor the tag's own font can draw: ${font.lacking.join(' ')}`;
		const [x, y, ax, ay, hx, hy] = line.glyphs.slice(glyph * 6, glyph * 6 + 6);
		const size = Math.hypot(hx, hy);
		const along = unit(linear(toUser, ax, ay));
		const up = unit(linear(toUser, hx, hy));
		if (!along || !up || !(size > 0)) return 'its text has no direction on the page';
		const why = this.tags.removeText(page, line, start, end);
		if (why !== undefined) return `its tag cannot be taken off the page: ${why}`;
		const origin = apply(toUser, x, y);
		const matrix: Matrix = [along[0], along[1], up[0], up[1], origin[0], origin[1]];
		const draw = `q 0 g BT ${this.fontName(font)} ${formatNumber(round(size))} Tf ${matrix.map((n) => formatNumber(round(n))).join(' ')} Tm ${hexString(font.encode(text))} Tj ET Q`;
		this.add(page, draw);
		return undefined;
	}

	/**
	 * The upload: the original with one update holding the drawings, the data tags' removal (and any other tags marked
	 * on the same tag remover), and the filled widgets' and `moreWidgets`' removal; or the original and why.
	 */
	async write(moreWidgets: FormWidget[] = []): Promise<Removal> {
		let left: Removal['skipped'] = [];
		const result = await this.tags.write([], async (allocate) => {
			const added = await this.objects(allocate, moreWidgets);
			left = added.skipped;
			return added;
		});
		result.skipped.push(...left);
		return result;
	}

	/**
	 * The objects that carry the drawings (each page's form and the stream that draws it), the edits that add them to
	 * their pages, and the objects that take the filled widgets (and `moreWidgets`) out of the file.
	 */
	async objects(allocate: () => number, moreWidgets: FormWidget[] = []): Promise<{ objects: UpdateObject[]; pages: Map<string, PageEdit>; skipped: Removal['skipped']; widgets: number }> {
		const removal = await widgetObjects(this.doc, this.pages, [...this.filled, ...moreWidgets]);
		const objects: UpdateObject[] = [...removal.objects];
		const edits = new Map<string, PageEdit>();
		if (!this.drawn.size) return { objects, pages: edits, skipped: removal.skipped, widgets: removal.removed };
		const fonts = new PdfDict([...this.fonts.values()].map(({ name, resource }) => [name, resource]));
		const opening = allocate();
		objects.push({ num: opening, gen: 0, value: new PdfDict(), stream: ascii('q\n') });
		for (const [number, pieces] of this.drawn) {
			const page = this.pages[number - 1];
			if (!page?.ref) continue;
			const form = allocate();
			const drawing = allocate();
			const [x0, y0, x1, y1] = page.view;
			objects.push({
				num: form,
				gen: 0,
				value: new PdfDict([
					['Type', PdfName.of('XObject')],
					['Subtype', PdfName.of('Form')],
					['BBox', [x0, y0, x1, y1]],
					['Resources', new PdfDict([['Font', fonts]])],
				]),
				stream: ascii(`${pieces.join('\n')}\n`),
			});
			const xobjects = (await this.doc.dict(page.resources, 'XObject')) ?? new PdfDict();
			const name = freeName(xobjects);
			objects.push({ num: drawing, gen: 0, value: new PdfDict(), stream: ascii(`Q\nq ${formatName(name)} Do Q\n`) });
			const contents = await this.contentsOf(page);
			const original = page.dict.get('Contents');
			edits.set(page.ref.key, (dict) => {
				// The page's content as this update leaves it: the tag remover's new stream, or the page's own.
				const current = dict.get('Contents');
				const items = current === original ? contents : current === undefined ? [] : [current];
				const own = dict.get('Resources');
				const resources = own instanceof PdfDict ? own : (page.resources ?? new PdfDict());
				const listed = resources.get('XObject');
				const named = (listed instanceof PdfDict ? listed : xobjects).with(name, new PdfRef(form, 0));
				return dict.with('Contents', [new PdfRef(opening, 0), ...items, new PdfRef(drawing, 0)]).with('Resources', resources.with('XObject', named));
			});
		}
		return { objects, pages: edits, skipped: removal.skipped, widgets: removal.removed };
	}

	/** The page's /Contents as a list of streams (an indirect array read out). */
	private async contentsOf(page: PdfPage): Promise<PdfObject[]> {
		const contents = page.dict.get('Contents');
		if (contents === undefined) return [];
		const resolved = contents instanceof PdfRef ? await this.doc.resolve(contents) : contents;
		return Array.isArray(resolved) ? resolved : [contents];
	}

	/** `body(width, height)` drawn in the widget's box as its content is turned (/MK /R), clipped to it. */
	private boxed(widget: FormWidget, look: WidgetLook, body: (width: number, height: number) => string | undefined): string | undefined {
		const [x0, y0, x1, y1] = look.rect;
		const turned = look.rotation === 90 || look.rotation === 270;
		const width = turned ? y1 - y0 : x1 - x0;
		const height = turned ? x1 - x0 : y1 - y0;
		if (!(width > 0 && height > 0)) return undefined;
		const inner = body(width, height);
		if (inner === undefined) return undefined;
		const place: Matrix =
			look.rotation === 90 ? [0, 1, -1, 0, x1, y0] : look.rotation === 180 ? [-1, 0, 0, -1, x1, y1] : look.rotation === 270 ? [0, -1, 1, 0, x0, y1] : [1, 0, 0, 1, x0, y0];
		return `q ${place.map((n) => formatNumber(round(n))).join(' ')} cm 0 0 ${formatNumber(round(width))} ${formatNumber(round(height))} re W n\n${inner}\nQ`;
	}

	/** A comb field: each character centred in its own of /MaxLen equal cells. */
	private comb(value: string, font: DrawFont, look: WidgetLook, width: number, height: number, color: string): string | undefined {
		const cells = look.maxLen as number;
		const cell = width / cells;
		const chars = [...value.replace(/[\r\n]+/g, ' ')];
		const size = look.size > 0 ? look.size : Math.min(12, height * 0.7);
		if (chars.some((char) => font.width(char, size) > cell) || size > height) return undefined;
		return chars.map((char, k) => this.show(font, size, k * cell + (cell - font.width(char, size)) / 2, height / 2 - 0.3 * size, font.encode(char), color)).join('\n');
	}

	/** Codes shown at (x, y) of the current space in `font`, in `color`. */
	private show(font: DrawFont, size: number, x: number, y: number, codes: Uint8Array, color: string): string {
		return `${color}BT ${this.fontName(font)} ${formatNumber(round(size))} Tf ${formatNumber(round(x))} ${formatNumber(round(y))} Td ${hexString(codes)} Tj ET`;
	}

	/** The standard font `standard` when it holds every character of `text`, else the first of `carried` that does. */
	private async fontFor(text: string, standard: string, carried: Array<PdfObject | undefined>): Promise<DrawFont | { lacking: string[] }> {
		const first = standardFont(standard);
		let missing = first.missing(text);
		if (!missing.length) return first;
		for (const entry of carried) {
			if (entry === undefined) continue;
			const key = fontKey(entry, (dict) => {
				if (!this.inline.has(dict)) this.inline.set(dict, this.inline.size + 1);
				return this.inline.get(dict) as number;
			});
			let font = this.carried.get(key);
			if (!font) this.carried.set(key, (font = carriedFont(this.doc, entry, key)));
			const usable = await font;
			if (!usable) continue;
			const lacks = usable.missing(text);
			if (!lacks.length) return usable;
			// What no font here holds: the characters to name.
			missing = missing.filter((char) => lacks.includes(char));
		}
		return { lacking: missing };
	}

	private keep(widget: FormWidget, body: string): undefined {
		this.add(widget.page, body);
		this.filled.add(widget);
		return undefined;
	}

	private add(page: number, content: string): void {
		const list = this.drawn.get(page);
		if (list) list.push(content);
		else this.drawn.set(page, [content]);
	}

	private fontName(font: DrawFont): string {
		let known = this.fonts.get(font.key);
		if (!known) this.fonts.set(font.key, (known = { name: `F${this.fonts.size + 1}`, resource: font.resource }));
		return formatName(known.name);
	}
}

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0x7f);
const round = (n: number) => Math.round(n * 1000) / 1000;
const linear = (m: Matrix, x: number, y: number): [number, number] => [m[0] * x + m[2] * y, m[1] * x + m[3] * y];
const apply = (m: Matrix, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
const unit = ([x, y]: [number, number]): [number, number] | undefined => {
	const length = Math.hypot(x, y);
	return length > 0 && Number.isFinite(length) ? [x / length, y / length] : undefined;
};

/** A name for the fill's form not yet in the page's /XObject dictionary. */
function freeName(xobjects: PdfDict): string {
	for (let n = 1; ; n++) {
		const name = n === 1 ? 'ESignFill' : `ESignFill${n}`;
		if (xobjects.get(name) === undefined) return name;
	}
}
