import type { PdfDocument } from '../read/document';
import type { Glyph, PdfFont } from '../fonts/fonts';
import { loadFont } from '../fonts/fonts';
import { Lexer, Tok } from '../read/lexer';
import { FORM_DRAW_COST, MAX_CONTENT_OPERANDS, MAX_FORM_DEPTH, MAX_STATE_DEPTH } from '../limits';
import type { Matrix } from '../matrix';
import { IDENTITY, isMatrix, multiply } from '../matrix';
import { PdfDict, PdfError, PdfRef, PdfStream, isName, isNumber } from '../read/objects';
import { readOperand, skipInlineImage, takeOperands } from './operators';
import type { GlyphSource, SourceTable } from './provenance';
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

export { pageContent } from './pages';

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
		await this.run(data, resources, initialState(display), 0, new Set(), this.sources?.id(`page ${page}`) ?? -1);
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

	/**
	 * One content stream: operands gathered, each operator run with its own (operators.ts). The operators that look
	 * in the resources (a font, a graphics state, a form) are run here; the rest by the stream's TextRun.
	 * `stream`: the content's id in the source table (-1: none, or not asked for).
	 */
	private async run(data: Uint8Array, resources: PdfDict | undefined, start: GraphicsState, depth: number, forms: Set<string>, stream: number): Promise<void> {
		this.charge(data.length);
		const lexer = new Lexer(data);
		lexer.useScratch();
		const text = new TextRun(start, this.sink, this.sources, stream);
		const ops: PdfObject[] = [];
		let opStart = 0;
		for (let tok = lexer.next(); tok !== Tok.EOF; tok = lexer.next()) {
			if (tok !== Tok.Keyword) {
				const value = readOperand(lexer, tok, 0);
				if (ops.length < MAX_CONTENT_OPERANDS && value !== undefined) ops.push(value);
				continue;
			}
			const op = lexer.value as string;
			text.at(opStart, lexer.pos);
			// Too few operands, and the operator is skipped (operators.ts).
			if (takeOperands(op, ops)) {
				if (op === 'Tf') await this.selectFont(text.gs, resources, ops);
				else if (op === 'gs') await this.extGState(resources, ops[0], text.gs);
				else if (op === 'Do') await this.xobject(resources, ops[0], text.gs, depth, forms);
				else if (op === 'BI') skipInlineImage(lexer);
				else text.operate(op, ops);
			}
			ops.length = 0;
			lexer.release();
			opStart = lexer.pos;
		}
	}

	private async selectFont(gs: GraphicsState, resources: PdfDict | undefined, ops: PdfObject[]) {
		gs.font = await this.fontOf(resources, ops[0]);
		gs.fontName = isName(ops[0]) ? ops[0].name : undefined;
		gs.size = isNumber(ops[1]) ? ops[1] : 0;
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

/** The graphics state the text interpreter keeps (ISO 32000-1, 8.4 and 9.3): no colours, nothing drawn. */
interface GraphicsState {
	ctm: Matrix;
	font: PdfFont | undefined;
	/** the name the font was selected by (Tf), in the resources of the content that selected it */
	fontName: string | undefined;
	size: number;
	charSpacing: number;
	wordSpacing: number;
	scale: number;
	leading: number;
	rise: number;
}

/** The text state operators of one number (9.3.1): Tc, Tw, Tz, TL, Ts. */
function setTextState(gs: GraphicsState, op: 'Tc' | 'Tw' | 'Tz' | 'TL' | 'Ts', value: number): void {
	switch (op) {
		case 'Tc':
			gs.charSpacing = value;
			break;
		case 'Tw':
			gs.wordSpacing = value;
			break;
		case 'Tz':
			gs.scale = value / 100;
			break;
		case 'TL':
			gs.leading = value;
			break;
		case 'Ts':
			gs.rise = value;
			break;
	}
}

const initialState = (display: Matrix): GraphicsState => ({ ctm: display, font: undefined, fontName: undefined, size: 0, charSpacing: 0, wordSpacing: 0, scale: 1, leading: 0, rise: 0 });

/**
 * One content stream's graphics and text state, and the glyphs its text-showing operators place. A string is shown
 * glyph by glyph along the text line from the current text matrix, which moves once, at the operator's end (9.4.3,
 * 9.4.4).
 */
class TextRun {
	gs: GraphicsState;
	private readonly stack: GraphicsState[] = [];
	private tm: Matrix = IDENTITY;
	private tlm: Matrix = IDENTITY;
	/** the showing operator's text rendering matrix (Tm × CTM), its advance so far and its writing direction */
	private m: Matrix = IDENTITY;
	private advance = 0;
	private vertical = false;
	/** one glyph record, refilled for every glyph: the sink reads it at once and keeps numbers, not the object */
	private readonly placed: PlacedGlyph = { text: '', x: 0, y: 0, ax: 0, ay: 0, hx: 0, hy: 0 };
	/** sources (only when asked): the operator's bytes, the string's place in a TJ array, the code's in the string */
	private readonly source: GlyphSource | undefined;

	constructor(
		start: GraphicsState,
		private readonly sink: (glyph: PlacedGlyph) => void,
		private readonly sources: SourceTable | undefined,
		stream: number,
	) {
		this.gs = { ...start };
		this.source = sources ? { stream, opStart: 0, opEnd: 0, item: 0, code: 0, length: 0, size: 0, vertical: false, font: -1, rise: 0, up: 0 } : undefined;
		this.placed.source = this.source;
	}

	/** The operator about to run spans [opStart, opEnd) of the stream. */
	at(opStart: number, opEnd: number): void {
		if (!this.source) return;
		this.source.opStart = opStart;
		this.source.opEnd = opEnd;
	}

	/** An operator that needs no resources, its operands already taken (operators.ts). */
	operate(op: string, ops: PdfObject[]): void {
		const num = (i: number) => (isNumber(ops[i]) ? ops[i] : 0);
		const gs = this.gs;
		switch (op) {
			case 'q':
				if (this.stack.length < MAX_STATE_DEPTH) this.stack.push({ ...gs });
				break;
			case 'Q':
				this.gs = this.stack.pop() ?? gs;
				break;
			case 'cm':
				gs.ctm = multiply([num(0), num(1), num(2), num(3), num(4), num(5)], gs.ctm);
				break;
			case 'BT':
				this.tm = IDENTITY;
				this.tlm = IDENTITY;
				break;
			case 'Tc':
			case 'Tw':
			case 'Tz':
			case 'TL':
			case 'Ts':
				setTextState(gs, op, num(0));
				break;
			case 'Td':
				this.moveLine(num(0), num(1));
				break;
			case 'TD':
				gs.leading = -num(1);
				this.moveLine(num(0), num(1));
				break;
			case 'Tm':
				if (ops.every(isNumber)) {
					this.tm = ops.slice() as Matrix;
					this.tlm = this.tm;
				}
				break;
			case 'T*':
				this.moveLine(0, -gs.leading);
				break;
			case 'Tj':
				this.showString(ops[0]);
				break;
			case "'":
				this.moveLine(0, -gs.leading);
				this.showString(ops[0]);
				break;
			case '"':
				gs.wordSpacing = num(0);
				gs.charSpacing = num(1);
				this.moveLine(0, -gs.leading);
				this.showString(ops[2]);
				break;
			case 'TJ':
				if (Array.isArray(ops[0])) this.showArray(ops[0]);
				break;
		}
	}

	private moveLine(tx: number, ty: number): void {
		this.tlm = multiply([1, 0, 0, 1, tx, ty], this.tlm);
		this.tm = this.tlm;
	}

	private showString(bytes: PdfObject | undefined): void {
		if (!(bytes instanceof Uint8Array)) return;
		this.begin();
		this.show(bytes, 0);
		this.end();
	}

	/** TJ: strings shown, numbers moving the position back (thousandths of text space). */
	private showArray(items: PdfObject[]): void {
		this.begin();
		const gs = this.gs;
		for (let i = 0; i < items.length; i++) {
			const item = items[i];
			if (item instanceof Uint8Array) this.show(item, i);
			else if (isNumber(item)) this.advance += this.vertical ? (item / 1000) * gs.size : (-item / 1000) * gs.size * gs.scale;
		}
		this.end();
	}

	private begin(): void {
		const gs = this.gs;
		this.m = multiply(this.tm, gs.ctm);
		this.advance = 0;
		this.vertical = gs.font?.vertical === true;
		if (this.source) {
			this.source.up = Math.hypot(this.m[2], this.m[3]);
			this.source.font = gs.fontName === undefined ? -1 : (this.sources as SourceTable).nameId(gs.fontName);
		}
	}

	private show(bytes: Uint8Array, item: number): void {
		if (this.source) {
			this.source.item = item;
			this.source.code = 0;
		}
		this.gs.font?.decode(bytes, this.place);
	}

	/** One glyph placed on the page and handed to the sink, the position advanced past it. */
	private readonly place = (glyph: Glyph): void => {
		const { size, scale, rise, charSpacing, wordSpacing } = this.gs;
		const { m, vertical, placed, source } = this;
		const own = glyph.width * size * (vertical ? 1 : scale);
		const px = vertical ? 0 : this.advance;
		const py = vertical ? rise - this.advance : rise;
		placed.text = glyph.text;
		placed.x = m[0] * px + m[2] * py + m[4];
		placed.y = m[1] * px + m[3] * py + m[5];
		placed.ax = vertical ? -m[2] * own : m[0] * own;
		placed.ay = vertical ? -m[3] * own : m[1] * own;
		placed.hx = m[2] * size;
		placed.hy = m[3] * size;
		if (source) {
			source.length = glyph.bytes;
			source.size = size;
			source.vertical = vertical;
			source.rise = rise;
		}
		this.sink(placed);
		if (source) source.code += glyph.bytes;
		const spacing = charSpacing + (glyph.wordSpace ? wordSpacing : 0);
		this.advance += vertical ? glyph.width * size + spacing : (glyph.width * size + spacing) * scale;
	};

	/** The text matrix moved past what the operator showed. */
	private end(): void {
		const [a, b, c, d, e, f] = this.tm;
		const tx = this.vertical ? 0 : this.advance;
		const ty = this.vertical ? -this.advance : 0;
		this.tm = [a, b, c, d, e + tx * a + ty * c, f + tx * b + ty * d];
	}
}
