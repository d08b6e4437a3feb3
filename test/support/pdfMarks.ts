/**
 * What a PDF page draws, read back from its content streams: every painted path's bounding box and every text
 * shown, in the page's user space (the CTM and the text matrix applied). Enough of the content-stream operators
 * for the doubles' stamps (paths, q/Q/cm, text positioning and showing); XObjects are not entered, so the original
 * page content the WordPress plugin moves into a form XObject is left out, and the sandbox's original content
 * shows as whatever it drew. Independent of both doubles' code: tests compare it with boxes they compute themselves.
 */
import type { PDFDocument, PDFPage } from 'pdf-lib';
import { PDFArray, PDFRawStream, decodePDFRawStream } from 'pdf-lib';

/** [a b c d e f]: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type Matrix = [number, number, number, number, number, number];

export interface Box {
	x0: number;
	y0: number;
	x1: number;
	y1: number;
}

export interface ShownText {
	text: string;
	/** Where the text starts (its baseline origin), in user space. */
	origin: [number, number];
	/** The baseline's direction and the glyphs' up direction, in user space (unit length). */
	along: [number, number];
	up: [number, number];
	/** The font size as drawn (the text matrix's and CTM's scale applied). */
	size: number;
}

export interface PageMarks {
	paths: Box[];
	texts: ShownText[];
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m × n (apply m first, then n), as the PDF composes `cm` with the CTM. */
export function multiply(m: Matrix, n: Matrix): Matrix {
	return [
		m[0] * n[0] + m[1] * n[2],
		m[0] * n[1] + m[1] * n[3],
		m[2] * n[0] + m[3] * n[2],
		m[2] * n[1] + m[3] * n[3],
		m[4] * n[0] + m[5] * n[2] + n[4],
		m[4] * n[1] + m[5] * n[3] + n[5],
	];
}

export const apply = (m: Matrix, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

const unit = (x: number, y: number): [number, number] => {
	const length = Math.hypot(x, y);
	return [x / length, y / length];
};

type Token = { kind: 'number'; value: number } | { kind: 'string'; value: string } | { kind: 'name'; value: string } | { kind: 'op'; value: string } | { kind: 'array'; value: Token[] };

const DELIMITERS = '()<>[]{}/%';
const isSpace = (c: string) => c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\f' || c === '\0';

/** The tokens of a content stream (strings decoded as Latin-1 bytes). */
function tokenize(source: string): Token[] {
	let i = 0;
	const readLiteral = (): string => {
		let depth = 1;
		let out = '';
		i++;
		while (i < source.length) {
			const c = source[i++];
			if (c === '\\') {
				const e = source[i++];
				const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
				if (e in escapes) out += escapes[e];
				else if (/[0-7]/.test(e)) {
					let octal = e;
					while (octal.length < 3 && /[0-7]/.test(source[i])) octal += source[i++];
					out += String.fromCharCode(parseInt(octal, 8) & 0xff);
				} else if (e === '\r' || e === '\n') {
					if (e === '\r' && source[i] === '\n') i++;
				} else out += e;
			} else if (c === '(') {
				depth++;
				out += c;
			} else if (c === ')') {
				if (--depth === 0) return out;
				out += c;
			} else out += c;
		}
		return out;
	};
	const readToken = (): Token | ']' | null => {
		for (;;) {
			while (i < source.length && isSpace(source[i])) i++;
			if (source[i] !== '%') break;
			while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i++;
		}
		if (i >= source.length) return null;
		const c = source[i];
		if (c === '(') return { kind: 'string', value: readLiteral() };
		if (c === '<' && source[i + 1] !== '<') {
			const end = source.indexOf('>', i);
			const hex = source.slice(i + 1, end).replace(/\s+/g, '');
			i = end + 1;
			const bytes = (hex.length % 2 ? hex + '0' : hex).match(/../g) ?? [];
			return { kind: 'string', value: bytes.map((b) => String.fromCharCode(parseInt(b, 16))).join('') };
		}
		if (c === '[') {
			i++;
			const items: Token[] = [];
			for (;;) {
				const t = readToken();
				if (t === null || t === ']') break;
				items.push(t);
			}
			return { kind: 'array', value: items };
		}
		if (c === ']') {
			i++;
			return ']';
		}
		if (c === '/') {
			let end = i + 1;
			while (end < source.length && !isSpace(source[end]) && !DELIMITERS.includes(source[end])) end++;
			const name = source.slice(i + 1, end);
			i = end;
			return { kind: 'name', value: name };
		}
		if (c === '<' || c === '>') {
			// A dictionary's brackets (inline image or marked-content properties): read as operators and ignored.
			i += source[i + 1] === c ? 2 : 1;
			return { kind: 'op', value: c + c };
		}
		let end = i;
		while (end < source.length && !isSpace(source[end]) && !DELIMITERS.includes(source[end])) end++;
		if (end === i) end++;
		const word = source.slice(i, end);
		i = end;
		return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(word) ? { kind: 'number', value: Number(word) } : { kind: 'op', value: word };
	};
	const tokens: Token[] = [];
	for (let t = readToken(); t !== null; t = readToken()) if (t !== ']') tokens.push(t);
	return tokens;
}

/** Paths and texts drawn by a content stream (its text as Latin-1), starting from the identity CTM. */
export function readMarks(content: string): PageMarks {
	const marks: PageMarks = { paths: [], texts: [] };
	let ctm: Matrix = IDENTITY;
	const saved: Matrix[] = [];
	let points: Array<[number, number]> = [];
	let tm: Matrix = IDENTITY;
	let tlm: Matrix = IDENTITY;
	let fontSize = 0;
	let leading = 0;
	let operands: Token[] = [];
	const num = (k: number) => (operands[k] as { value: number }).value;
	const nums = () => operands.filter((t) => t.kind === 'number').map((t) => t.value as number);
	const moveLine = (tx: number, ty: number) => {
		tlm = multiply([1, 0, 0, 1, tx, ty], tlm);
		tm = tlm;
	};
	const show = (text: string) => {
		const m = multiply(tm, ctm);
		const along = unit(m[0], m[1]);
		marks.texts.push({ text, origin: [m[4], m[5]], along, up: unit(m[2], m[3]), size: fontSize * Math.hypot(m[0], m[1]) });
	};
	const paint = () => {
		if (points.length) {
			const xs = points.map((p) => p[0]);
			const ys = points.map((p) => p[1]);
			marks.paths.push({ x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) });
		}
		points = [];
	};
	for (const token of tokenize(content)) {
		if (token.kind !== 'op') {
			operands.push(token);
			continue;
		}
		const n = nums();
		switch (token.value) {
			case 'q': saved.push(ctm); break;
			case 'Q': ctm = saved.pop() ?? IDENTITY; break;
			case 'cm': ctm = multiply(n.slice(-6) as Matrix, ctm); break;
			case 'm': case 'l': points.push(apply(ctm, n[0], n[1])); break;
			case 'c': for (let k = 0; k < 6; k += 2) points.push(apply(ctm, n[k], n[k + 1])); break;
			case 'v': case 'y': for (let k = 0; k < 4; k += 2) points.push(apply(ctm, n[k], n[k + 1])); break;
			case 're': {
				const [x, y, w, h] = n;
				for (const [px, py] of [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]) points.push(apply(ctm, px, py));
				break;
			}
			case 'S': case 's': case 'f': case 'F': case 'f*': case 'B': case 'B*': case 'b': case 'b*': paint(); break;
			case 'n': points = []; break;
			case 'BT': tm = IDENTITY; tlm = IDENTITY; break;
			case 'Tf': fontSize = num(operands.length - 1); break;
			case 'TL': leading = n[0]; break;
			case 'Td': moveLine(n[0], n[1]); break;
			case 'TD': leading = -n[1]; moveLine(n[0], n[1]); break;
			case 'Tm': tlm = n.slice(-6) as Matrix; tm = tlm; break;
			case 'T*': moveLine(0, -leading); break;
			case 'Tj': show((operands[operands.length - 1] as { value: string }).value); break;
			case "'": case '"': moveLine(0, -leading); show((operands[operands.length - 1] as { value: string }).value); break;
			case 'TJ': {
				const items = (operands[operands.length - 1] as { value: Token[] }).value;
				show(items.filter((t) => t.kind === 'string').map((t) => t.value).join(''));
				break;
			}
		}
		operands = [];
	}
	return marks;
}

/** A page's content streams, decoded and joined (as Latin-1 text). */
export function pageContent(pdf: PDFDocument, page: PDFPage): string {
	const contents = page.node.Contents();
	const refs = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
	return refs
		.map((ref) => {
			// A loaded file's streams are raw (filtered or not): the signed PDF is always read back from its bytes.
			const stream = pdf.context.lookup(ref);
			if (!(stream instanceof PDFRawStream)) throw new Error(`page content ${String(ref)} is not a stream`);
			return Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
		})
		.join('\n');
}

/** What page `index` (from 0) of a loaded PDF draws. */
export const pageMarks = (pdf: PDFDocument, index: number): PageMarks => readMarks(pageContent(pdf, pdf.getPage(index)));
