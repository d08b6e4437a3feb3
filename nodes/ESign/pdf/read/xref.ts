import { wordAt } from './chars';
import { Lexer, Tok, isRegular, isWhite } from './lexer';
import { PdfDict, PdfError, PdfRef, PdfStream, isName, isNumber, numberOf } from './objects';
import { Parser } from './parser';
import { attempt, orElse } from '../recover';
import { MAX_XREF_SECTIONS, MAX_XREF_SUBSECTION, STARTXREF_WINDOW, maxXrefEntries } from '../limits';

/** An object at a byte offset of the file (type 1). */
export interface OffsetEntry {
	type: 1;
	offset: number;
	gen: number;
}

/** An object inside an object stream (type 2): the stream's object number and the object's index inside it. */
export interface StreamEntry {
	type: 2;
	stream: number;
	index: number;
}

/** Where each object is. */
export type XrefEntry = OffsetEntry | StreamEntry;

/** A section's entries while the chain is read: `null` marks an object the section lists as free. */
type Section = Map<number, XrefEntry | null>;

export interface XrefTable {
	entries: Map<number, XrefEntry>;
	trailer: PdfDict;
	/** The table was rebuilt by scanning the file (its own cross-reference was unusable). */
	recovered: boolean;
}

/** Decodes an xref stream's data (filters, predictor); supplied by the document, which owns the budget. */
export type StreamDecoder = (stream: PdfStream) => Promise<Uint8Array>;

const STARTXREF = 'startxref';

function lastIndexOf(data: Uint8Array, word: string, from: number, to: number): number {
	for (let pos = to - word.length; pos >= from; pos--) if (wordAt(data, pos, word)) return pos;
	return -1;
}

/** The offset named by the last "startxref" (searched in the last 64 KB: some files carry junk after %%EOF). */
export function lastStartxref(data: Uint8Array): number | undefined {
	const at = lastIndexOf(data, STARTXREF, Math.max(0, data.length - STARTXREF_WINDOW), data.length);
	if (at < 0) return undefined;
	const lexer = new Lexer(data, at + STARTXREF.length);
	return lexer.nextNumber();
}

function addEntry(into: Section, num: number, entry: XrefEntry | null) {
	// Newest section first: an entry already known (even as free) is never replaced.
	if (!into.has(num)) into.set(num, entry);
}

/** A classic "xref" section at `pos` (just after the keyword); returns its trailer. */
function classicSection(data: Uint8Array, pos: number, into: Section): PdfDict {
	const lexer = new Lexer(data, pos);
	const section: Section = new Map();
	for (;;) {
		const save = lexer.pos;
		const tok = lexer.next();
		if (tok === Tok.Keyword && lexer.value === 'trailer') break;
		if (tok !== Tok.Number) throw new PdfError('damaged', 'the cross-reference table is damaged');
		const first = lexer.value as number;
		const count = lexer.nextNumber();
		if (count === undefined || !Number.isInteger(first) || !Number.isInteger(count) || first < 0 || count < 0 || count > MAX_XREF_SUBSECTION) {
			lexer.pos = save;
			throw new PdfError('damaged', 'the cross-reference table is damaged');
		}
		let base = first;
		for (let i = 0; i < count; i++) {
			const offset = lexer.nextNumber();
			const gen = lexer.nextNumber();
			if (offset === undefined || gen === undefined || lexer.next() !== Tok.Keyword) throw new PdfError('damaged', 'the cross-reference table is damaged');
			const kind = lexer.value;
			// A subsection "1 N" that begins with object 0's free entry is a classic producer bug: its entries are
			// objects 0 to N-1, as readers number them.
			if (i === 0 && first === 1 && kind === 'f' && offset === 0 && gen === 65535) base = 0;
			const num = base + i;
			if (!section.has(num)) section.set(num, kind === 'n' && offset > 0 ? { type: 1, offset, gen } : null);
		}
	}
	const trailer = new Parser(lexer).getObject();
	if (!(trailer instanceof PdfDict)) throw new PdfError('damaged', 'the trailer of the PDF is damaged');
	for (const [num, entry] of section) addEntry(into, num, entry);
	return trailer;
}

/** An xref stream (PDF 1.5) at `pos` ("N G obj <<…>> stream"). */
async function streamSection(data: Uint8Array, pos: number, into: Section, decode: StreamDecoder): Promise<PdfDict> {
	const lexer = new Lexer(data, pos);
	if (lexer.next() !== Tok.Number || lexer.next() !== Tok.Number || lexer.next() !== Tok.Keyword || lexer.value !== 'obj') {
		throw new PdfError('damaged', 'the cross-reference of the PDF is damaged');
	}
	const stream = new Parser(lexer).getObject();
	if (!(stream instanceof PdfStream) || !isName(stream.dict.get('Type'), 'XRef')) {
		throw new PdfError('damaged', 'the cross-reference stream of the PDF is damaged');
	}
	const dict = stream.dict;
	const widths = dict.get('W');
	if (!Array.isArray(widths) || widths.length < 3 || !widths.every((w): w is number => isNumber(w) && w >= 0 && w <= 8)) {
		throw new PdfError('damaged', 'the cross-reference stream of the PDF is damaged');
	}
	const [w1, w2, w3] = widths;
	const listed = dict.get('Index');
	const index = Array.isArray(listed) ? listed : [0, numberOf(dict, 'Size', 0)];
	const bytes = await decode(stream);
	const rowLength = w1 + w2 + w3;
	if (rowLength === 0) throw new PdfError('damaged', 'the cross-reference stream of the PDF is damaged');
	const most = maxXrefEntries(data.length);
	let row = 0;
	const field = (at: number, width: number) => {
		let value = 0;
		for (let k = 0; k < width; k++) value = value * 256 + bytes[at + k];
		return value;
	};
	for (let i = 0; i + 1 < index.length; i += 2) {
		const first = index[i];
		const count = index[i + 1];
		if (!isNumber(first) || !isNumber(count)) break;
		for (let k = 0; k < count && (row + 1) * rowLength <= bytes.length; k++, row++) {
			const at = row * rowLength;
			const type = w1 ? field(at, w1) : 1;
			const second = field(at + w1, w2);
			const third = field(at + w1 + w2, w3);
			const num = first + k;
			if (type === 1) addEntry(into, num, { type: 1, offset: second, gen: third });
			else if (type === 2) addEntry(into, num, { type: 2, stream: second, index: third });
			else addEntry(into, num, null);
			if (into.size > most) throw new PdfError('damaged', 'the cross-reference stream of the PDF lists more objects than the file can hold');
		}
	}
	return dict;
}

/** Reads the cross-reference chain from the last startxref (with /Prev and hybrid /XRefStm sections). */
export async function readXref(data: Uint8Array, decode: StreamDecoder): Promise<XrefTable> {
	let offset = lastStartxref(data);
	if (offset === undefined) throw new PdfError('damaged', 'the PDF has no "startxref"');
	const listed: Section = new Map();
	let trailer: PdfDict | undefined;
	const seen = new Set<number>();
	for (let n = 0; offset !== undefined; n++) {
		if (n >= MAX_XREF_SECTIONS || seen.has(offset) || offset < 0 || offset >= data.length) {
			if (seen.has(offset)) break; // a /Prev loop: everything it names was read
			throw new PdfError('damaged', 'the cross-reference chain of the PDF is damaged');
		}
		seen.add(offset);
		let pos = offset;
		while (pos < data.length && isWhite(data[pos])) pos++;
		let sectionTrailer: PdfDict;
		if (wordAt(data, pos, 'xref')) {
			// Hybrid files: the xref stream's entries (compressed objects) come before /Prev's.
			const section: Section = new Map();
			sectionTrailer = classicSection(data, pos + 4, section);
			const hybrid = sectionTrailer.get('XRefStm');
			if (isNumber(hybrid) && !seen.has(hybrid)) {
				const extra: Section = new Map();
				// A damaged xref stream of a hybrid file: its classic table alone still reads the file (or a rebuild does).
				await orElse(streamSection(data, hybrid, extra, decode), undefined);
				for (const [num, entry] of extra) if (entry && !section.get(num)) section.set(num, entry);
			}
			for (const [num, entry] of section) addEntry(listed, num, entry);
		} else {
			sectionTrailer = await streamSection(data, pos, listed, decode);
		}
		if (!trailer) trailer = sectionTrailer;
		else {
			// The newer section's entries win; an older one adds only the keys it lacks, after them.
			const newer = trailer;
			trailer = new PdfDict([...newer.entries(), ...[...sectionTrailer.entries()].filter(([key]) => !newer.has(key))]);
		}
		const prev = sectionTrailer.get('Prev');
		offset = isNumber(prev) ? prev : undefined;
	}
	if (!trailer) throw new PdfError('damaged', 'the PDF has no trailer');
	const entries = new Map<number, XrefEntry>();
	for (const [num, entry] of listed) if (entry) entries.set(num, entry);
	return { entries, trailer, recovered: false };
}

/** Whether `N G obj` starts at `offset` (so a table entry can be trusted). */
export function objectStartsAt(data: Uint8Array, offset: number, num: number): boolean {
	const lexer = new Lexer(data, offset);
	if (lexer.next() !== Tok.Number || lexer.value !== num) return false;
	return lexer.next() === Tok.Number && lexer.next() === Tok.Keyword && String(lexer.value) === 'obj';
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Rebuilds the table by scanning for "N G obj" (later definitions win, as with incremental updates) and takes
 * the last trailer with a /Root, as PDF readers do with a damaged file. Object streams are indexed by the caller.
 */
export function scanXref(data: Uint8Array): XrefTable {
	const entries = new Map<number, XrefEntry>();
	let trailer: PdfDict | undefined;
	for (let pos = 0; pos + 3 <= data.length; pos++) {
		const c = data[pos];
		if (c === 111 /* o */ && data[pos + 1] === 98 && data[pos + 2] === 106 && (pos + 3 >= data.length || !isRegular(data[pos + 3])) && isWhite(data[pos - 1] ?? 0)) {
			// Back over "gen" and "num".
			let at = pos - 1;
			while (at >= 0 && isWhite(data[at])) at--;
			// A generation has at most 5 digits and an object number at most 10: longer runs are no object header.
			const genEnd = at + 1;
			while (at >= 0 && isDigit(data[at]) && genEnd - at <= 5) at--;
			if (at + 1 === genEnd || !isWhite(data[at] ?? 0)) continue;
			const gen = Number(String.fromCharCode(...data.subarray(at + 1, genEnd)));
			while (at >= 0 && isWhite(data[at])) at--;
			const numEnd = at + 1;
			while (at >= 0 && isDigit(data[at]) && numEnd - at <= 10) at--;
			if (at + 1 === numEnd || isDigit(data[at] ?? 0)) continue;
			const num = Number(String.fromCharCode(...data.subarray(at + 1, numEnd)));
			entries.set(num, { type: 1, offset: at + 1, gen });
		} else if (c === 116 /* t */ && wordAt(data, pos, 'trailer')) {
			// A damaged trailer is skipped; another may follow.
			const dict = attempt(() => new Parser(new Lexer(data, pos + 7)).getObject(), undefined);
			if (dict instanceof PdfDict && dict.get('Root') instanceof PdfRef) trailer = dict;
		}
	}
	return { entries, trailer: trailer ?? new PdfDict(), recovered: true };
}
