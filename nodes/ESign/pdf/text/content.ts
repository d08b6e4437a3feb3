import type { PdfDocument } from '../read/document';
import type { Glyph, PdfFont } from '../fonts/fonts';
import { loadFont } from '../fonts/fonts';
import { Lexer, Tok } from '../read/lexer';
import { FORM_DRAW_COST, MAX_CONTENT_OPERANDS, MAX_FORM_DEPTH, MAX_STATE_DEPTH } from '../limits';
import type { Matrix } from '../matrix';
import { IDENTITY, isMatrix, multiply } from '../matrix';
import { PdfDict, PdfError, PdfRef, PdfStream, isName, isNumber } from '../read/objects';
import { readOperand, skipInlineImage } from './operands';
import { takeOperands } from './operators';
import type { GlyphSource, SourceTable } from './provenance';
import type { GraphicsState } from './textState';
import { setTextState } from './textState';
import type { PdfObject } from '../read/objects';

/**
 * Runs a page's content streams for their text (ISO 32000-1, 8.4 graphics state, 9.3–9.4 text): every shown
 * glyph comes out with its origin, advance and height vectors on the displayed page. Nothing is drawn.
 */

export interface PlacedGlyph {
	text: string;
	/** origin on the baseline, displayed page coordinates (top-left origin, y down) */
	x: number;
	y: number;
	/** the glyph's own advance (no character or word spacing) and its font size along text y, as vectors */
	ax: number;
	ay: number;
	hx: number;
	hy: number;
	/** where the glyph's code is, when the runner was asked for sources (provenance.ts) */
	source?: GlyphSource;
}

export { pageContent } from './pageContent';

/** Loaded fonts by reference: one per document, so a font the pages share is read once (not once a page). */
export type FontCache = Map<PdfObject | string, Promise<PdfFont>>;

export class ContentRunner {
	constructor(
		private readonly doc: PdfDocument,
		private readonly sink: (glyph: PlacedGlyph) => void,
		private readonly fonts: FontCache = new Map(),
		private readonly sources?: SourceTable,
	) {}

	/** Runs one page's content (as `pageContent` gives it) under `display`. */
	async runPage(data: Uint8Array, resources: PdfDict | undefined, display: Matrix, page = 0): Promise<void> {
		await this.run(data, resources, this.initialState(display), 0, new Set(), this.sources?.id(`page ${page}`) ?? -1);
	}

	private initialState(display: Matrix): GraphicsState {
		return { ctm: display, font: undefined, fontName: undefined, size: 0, charSpacing: 0, wordSpacing: 0, scale: 1, leading: 0, rise: 0 };
	}

	private charge(bytes: number) {
		this.doc.interpreted += bytes;
		if (this.doc.interpreted > this.doc.limits.contentBytes) {
			throw new PdfError('limit', `the PDF's page content runs to more than ${Math.round(this.doc.limits.contentBytes / 1048576)} MB (Form XObjects counted each time they are drawn); the reader stops there`);
		}
	}

	private async fontOf(resources: PdfDict | undefined, name: PdfObject): Promise<PdfFont | undefined> {
		if (!isName(name)) return undefined;
		const fonts = await this.doc.dict(resources, 'Font');
		const entry = fonts?.get(name.name);
		if (entry === undefined) return undefined;
		return this.font(entry);
	}

	private font(entry: PdfObject): Promise<PdfFont> {
		const key = entry instanceof PdfRef ? entry.key : entry;
		let pending = this.fonts.get(key);
		if (!pending) {
			pending = (async () => {
				const dict = await this.doc.resolve(entry);
				return loadFont(this.doc, dict instanceof PdfDict ? dict : new PdfDict());
			})();
			this.fonts.set(key, pending);
		}
		return pending;
	}

	/** `stream`: the content's id in the source table (-1: none, or not asked for). */
	private async run(data: Uint8Array, resources: PdfDict | undefined, start: GraphicsState, depth: number, forms: Set<string>, stream: number): Promise<void> {
		this.charge(data.length);
		const lexer = new Lexer(data);
		lexer.useScratch();
		const stack: GraphicsState[] = [];
		let gs: GraphicsState = { ...start };
		let tm: Matrix = IDENTITY;
		let tlm: Matrix = IDENTITY;
		const ops: PdfObject[] = [];
		const num = (i: number) => (isNumber(ops[i]) ? (ops[i] as number) : 0);
		const moveLine = (tx: number, ty: number) => {
			tlm = multiply([1, 0, 0, 1, tx, ty], tlm);
			tm = tlm;
		};
		// One glyph record, refilled for every glyph: the sink reads it at once and keeps numbers, not the object.
		const placed: PlacedGlyph = { text: '', x: 0, y: 0, ax: 0, ay: 0, hx: 0, hy: 0 };
		let m: Matrix = IDENTITY;
		let advance = 0;
		let vertical = false;
		// Sources (only when asked): the operator's bytes, the string's place in a TJ array, the code's in the string.
		const source: GlyphSource | undefined = this.sources ? { stream, opStart: 0, opEnd: 0, item: 0, code: 0, length: 0, size: 0, vertical: false, font: -1, rise: 0, up: 0 } : undefined;
		placed.source = source;
		let opStart = 0;
		const each = (glyph: Glyph) => {
			const { size, scale, rise, charSpacing, wordSpacing } = gs;
			const own = glyph.width * size * (vertical ? 1 : scale);
			const px = vertical ? 0 : advance;
			const py = vertical ? rise - advance : rise;
			placed.text = glyph.text;
			placed.x = m[0] * px + m[2] * py + m[4];
			placed.y = m[1] * px + m[3] * py + m[5];
			placed.ax = vertical ? -m[2] * own : m[0] * own;
			placed.ay = vertical ? -m[3] * own : m[1] * own;
			placed.hx = m[2] * size;
			placed.hy = m[3] * size;
			const spacing = charSpacing + (glyph.wordSpace ? wordSpacing : 0);
			if (source) {
				source.length = glyph.bytes;
				source.size = size;
				source.vertical = vertical;
				source.rise = rise;
			}
			this.sink(placed);
			if (source) source.code += glyph.bytes;
			advance += vertical ? glyph.width * size + spacing : (glyph.width * size + spacing) * scale;
		};
		// A text-showing operator: strings and TJ's adjustments advance along the text line from the current Tm, which
		// moves once at the end (9.4.3, 9.4.4).
		const begin = () => {
			m = multiply(tm, gs.ctm);
			advance = 0;
			vertical = gs.font?.vertical === true;
			if (source) {
				source.up = Math.hypot(m[2], m[3]);
				source.font = gs.fontName === undefined ? -1 : (this.sources as SourceTable).nameId(gs.fontName);
			}
		};
		const show = (bytes: Uint8Array, item = 0) => {
			if (source) {
				source.item = item;
				source.code = 0;
			}
			if (gs.font) gs.font.decode(bytes, each);
		};
		const end = () => {
			const [a, b, c, d, e, f] = tm;
			const tx = vertical ? 0 : advance;
			const ty = vertical ? -advance : 0;
			tm = [a, b, c, d, e + tx * a + ty * c, f + tx * b + ty * d];
		};
		const showOne = (bytes: PdfObject | undefined) => {
			if (!(bytes instanceof Uint8Array)) return;
			begin();
			show(bytes);
			end();
		};
		for (;;) {
			const tok = lexer.next();
			if (tok === Tok.EOF) break;
			if (tok !== Tok.Keyword) {
				const value = readOperand(lexer, tok, 0);
				if (ops.length < MAX_CONTENT_OPERANDS && value !== undefined) ops.push(value);
				continue;
			}
			const op = lexer.value as string;
			if (source) {
				source.opStart = opStart;
				source.opEnd = lexer.pos;
			}
			// Each operator reads its own operands, the last ones before it (operators.ts); too few, and it is skipped.
			const read = takeOperands(op, ops) ? op : '';
			switch (read) {
				case 'q':
					if (stack.length < MAX_STATE_DEPTH) stack.push({ ...gs });
					break;
				case 'Q':
					gs = stack.pop() ?? gs;
					break;
				case 'cm':
					gs.ctm = multiply([num(0), num(1), num(2), num(3), num(4), num(5)], gs.ctm);
					break;
				case 'BT':
					tm = IDENTITY;
					tlm = IDENTITY;
					break;
				case 'Tc':
				case 'Tw':
				case 'Tz':
				case 'TL':
				case 'Ts':
					setTextState(gs, read, num(0));
					break;
				case 'Tf':
					gs.font = await this.fontOf(resources, ops[0]);
					gs.fontName = isName(ops[0]) ? ops[0].name : undefined;
					gs.size = num(1);
					break;
				case 'Td':
					moveLine(num(0), num(1));
					break;
				case 'TD':
					gs.leading = -num(1);
					moveLine(num(0), num(1));
					break;
				case 'Tm':
					if (ops.every(isNumber)) {
						tm = ops.slice() as Matrix;
						tlm = tm;
					}
					break;
				case 'T*':
					moveLine(0, -gs.leading);
					break;
				case 'Tj':
					showOne(ops[0]);
					break;
				case "'":
					moveLine(0, -gs.leading);
					showOne(ops[0]);
					break;
				case '"':
					gs.wordSpacing = num(0);
					gs.charSpacing = num(1);
					moveLine(0, -gs.leading);
					showOne(ops[2]);
					break;
				case 'TJ':
					if (Array.isArray(ops[0])) {
						begin();
						for (let i = 0; i < ops[0].length; i++) {
							const item = ops[0][i];
							if (item instanceof Uint8Array) show(item, i);
							else if (isNumber(item)) advance += vertical ? (item / 1000) * gs.size : (-item / 1000) * gs.size * gs.scale;
						}
						end();
					}
					break;
				case 'gs':
					await this.extGState(resources, ops[0], gs);
					break;
				case 'Do':
					await this.xobject(resources, ops[0], gs, depth, forms);
					break;
				case 'BI':
					skipInlineImage(lexer);
					break;
			}
			ops.length = 0;
			lexer.release();
			opStart = lexer.pos;
		}
	}

	private async extGState(resources: PdfDict | undefined, name: PdfObject, gs: GraphicsState) {
		if (!isName(name)) return;
		const states = await this.doc.dict(resources, 'ExtGState');
		const state = await this.doc.dict(states, name.name);
		const font = await this.doc.get(state, 'Font');
		if (Array.isArray(font) && font.length >= 2) {
			gs.font = await this.font(font[0]);
			gs.fontName = undefined; // set by a graphics state, not by a name a Tf could write again
			const size = await this.doc.resolve(font[1]);
			gs.size = isNumber(size) ? size : gs.size;
		}
	}

	private async xobject(resources: PdfDict | undefined, name: PdfObject, gs: GraphicsState, depth: number, forms: Set<string>) {
		if (!isName(name)) return;
		const xobjects = await this.doc.dict(resources, 'XObject');
		const entry = xobjects?.get(name.name);
		const key = entry instanceof PdfRef ? entry.key : undefined;
		if (key && forms.has(key)) return; // a form that draws itself: each form runs once per chain
		const stream = await this.doc.resolve(entry);
		if (!(stream instanceof PdfStream) || !isName(stream.dict.get('Subtype'), 'Form')) return;
		if (depth >= MAX_FORM_DEPTH) throw new PdfError('limit', `Form XObjects in the PDF are nested more than ${MAX_FORM_DEPTH} deep; the reader stops there`);
		const matrix = await this.doc.resolve(stream.dict.get('Matrix'));
		const own = await this.doc.resolve(stream.dict.get('Resources'));
		const data = await this.doc.formData(stream);
		// Forms that draw forms multiply: 12 levels of ten draws of an empty form are 10^12 draws of no bytes.
		this.charge(Math.max(0, FORM_DRAW_COST - data.length));
		// A form with resources of its own names fonts in them: the font it inherits has no name there.
		const state = { ...gs, ctm: isMatrix(matrix) ? multiply(matrix, gs.ctm) : gs.ctm, fontName: own instanceof PdfDict ? undefined : gs.fontName };
		const chain = new Set(forms);
		if (key) chain.add(key);
		await this.run(data, own instanceof PdfDict ? own : resources, state, depth + 1, chain, key && this.sources ? this.sources.id(key) : -1);
	}
}
