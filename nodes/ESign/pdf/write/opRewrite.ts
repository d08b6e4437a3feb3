import type { Splice } from './recompress';
import { Lexer, Tok } from '../read/lexer';
import { isNumber } from '../read/objects';
import type { PdfObject } from '../read/objects';
import { MAX_CONTENT_OPERANDS } from '../limits';
import { readOperand } from '../text/operands';
import { takeOperands } from '../text/operators';
import { formatName, formatNumber, hexString } from './serialize';

/**
 * Rewrites one text-showing operator so that some of its glyphs are no longer seen: they are still shown, with the
 * same codes and the same font program, so that every renderer advances past them exactly as before (ISO 32000-1,
 * 9.4.4: the advance comes from the font's widths, Tc and Tw, none of which change), but
 * - in a copy of their font whose ToUnicode gives a space for each of their codes (rewrite.ts), so no text is read
 *   from them, and
 * - raised off the page by a text rise (Ts, 9.3.7), which moves where a glyph is painted and never the text position.
 * Writing their advance as a TJ number instead is exact in PDF arithmetic, but Ghostscript rounds a TJ number apart
 * from the glyph widths it adds up, and drew the next glyph one pixel away on some pages.
 * `Tj`, `'` and `"` become TJs (after `T*`, or `aw Tw ac Tc T*`, which is what `'` and `"` do first).
 */

export interface CodeRemoval {
	/** the string's index in the operator's TJ array (0 otherwise) */
	item: number;
	/** the code's byte range in the decoded string */
	code: number;
	length: number;
	/** Tfs, Ts and the font's resource name the operator ran with */
	size: number;
	rise: number;
	font: string;
	/** the rise that takes the glyph off its page */
	lift: number;
}

/** The operator's replacement text and the codes it hides (each a code's bytes), or why it cannot be rewritten. */
export type RewrittenOperator = { text: string; codes: Uint8Array[] } | { reason: string };

/** `hidden`: the name of the font copy that reads as spaces (in the same resources as `removals[0].font`). */
export function rewriteOperator(data: Uint8Array, opStart: number, opEnd: number, removals: CodeRemoval[], hidden: string): RewrittenOperator {
	const lexer = new Lexer(data, opStart, Math.min(opEnd, data.length));
	// Its strings as views of one buffer (never released here: they all stay valid until this returns), not a new
	// array each: a tag's TJ holds a string a glyph, and those allocations were most of this function's time.
	lexer.useScratch();
	const ops: PdfObject[] = [];
	let op: string | undefined;
	for (let tok = lexer.next(); tok !== Tok.EOF; tok = lexer.next()) {
		if (tok === Tok.Keyword) {
			op = lexer.value as string;
			break;
		}
		const value = readOperand(lexer, tok, 0);
		if (ops.length < MAX_CONTENT_OPERANDS && value !== undefined) ops.push(value);
	}
	// As the interpreter reads them (content.ts): the same cap and the same operands, the last ones, so the string
	// rewritten is the one it showed.
	if (op === undefined || !takeOperands(op, ops)) op = undefined;
	const num = (i: number) => (isNumber(ops[i]) ? (ops[i] as number) : 0);
	let prefix = '';
	let items: PdfObject[];
	if (op === 'Tj' || op === "'") {
		items = [ops[0]];
		if (op === "'") prefix = 'T*\n';
	} else if (op === '"') {
		items = [ops[2]];
		prefix = `${formatNumber(num(0))} Tw ${formatNumber(num(1))} Tc T*\n`;
	} else if (op === 'TJ' && Array.isArray(ops[0])) {
		items = ops[0];
	} else return { reason: 'the content stream no longer reads as it did (no text operator where the glyphs were)' };
	const first = removals[0];
	if (!first) return { reason: 'no glyphs to hide' };
	const { size, rise, font } = first;
	let lift = first.lift;
	const byItem = new Map<number, CodeRemoval[]>();
	for (const removal of removals) {
		// One operator runs with one text state: glyphs marked from it under another are not the same operator.
		if (removal.size !== size || removal.rise !== rise || removal.font !== font) return { reason: 'the content stream no longer reads as it did (its glyphs ran with different text states)' };
		if (!(Number.isFinite(removal.lift) && Number.isFinite(size) && size !== 0)) return { reason: 'its glyphs cannot be moved off the page' };
		lift = Math.abs(removal.lift) > Math.abs(lift) ? removal.lift : lift; // a form drawn at several sizes: the farthest
		const list = byItem.get(removal.item) ?? [];
		list.push(removal);
		byItem.set(removal.item, list);
	}
	// Segments of the operator in order: shown as they were, or hidden; each a TJ of its strings and numbers.
	const segments: Array<{ hide: boolean; parts: Array<Uint8Array | number> }> = [];
	let current: { hide: boolean; parts: Array<Uint8Array | number> } | undefined;
	const to = (hide: boolean) => {
		if (current?.hide !== hide) {
			current = { hide, parts: [] };
			segments.push(current);
		}
		return current.parts;
	};
	const codes: Uint8Array[] = [];
	for (let i = 0; i < items.length; i++) {
		const item = items[i];
		if (isNumber(item)) {
			to(current?.hide ?? false).push(item);
			continue;
		}
		if (!(item instanceof Uint8Array)) continue; // the interpreter ignores anything else in a TJ array
		const list = (byItem.get(i) ?? []).sort((a, b) => a.code - b.code);
		byItem.delete(i);
		let kept = 0;
		for (const removal of list) {
			if (removal.code < kept || removal.code + removal.length > item.length) {
				return { reason: 'its codes do not lie where the reader found them in the string' };
			}
			if (removal.code > kept) to(false).push(item.subarray(kept, removal.code));
			const code = item.subarray(removal.code, removal.code + removal.length);
			to(true).push(code);
			codes.push(code);
			kept = removal.code + removal.length;
		}
		if (kept < item.length) to(false).push(item.subarray(kept));
	}
	if (byItem.size) return { reason: 'the content stream no longer reads as it did (a string is missing)' };
	// Consecutive strings of one segment are one string (no adjustment between them), as the interpreter shows them.
	const tj = (parts: Array<Uint8Array | number>) => {
		const out: string[] = [];
		let run: Uint8Array[] = [];
		const flush = () => {
			if (run.length) out.push(hexString(run.length === 1 ? run[0] : joined(run)));
			run = [];
		};
		for (const part of parts) {
			if (typeof part === 'number') {
				flush();
				out.push(formatNumber(part));
			} else run.push(part);
		}
		flush();
		return `[${out.join(' ')}] TJ`;
	};
	const shown = `${formatName(font)} ${formatNumber(size)} Tf ${formatNumber(rise)} Ts`;
	const hiding = `${formatName(hidden)} ${formatNumber(size)} Tf ${formatNumber(lift)} Ts`;
	const lines = segments.map((segment) => (segment.hide ? `${hiding}\n${tj(segment.parts)}\n${shown}` : tj(segment.parts)));
	return { text: `${prefix}${lines.join('\n')}`, codes };
}

function joined(parts: Uint8Array[]): Uint8Array {
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.length;
	}
	return out;
}

/**
 * `data` with each operator's bytes [start, end) replaced by its new text (edits sorted, not overlapping), each on
 * lines of its own (the bytes around may be an operand or keyword that needs a separator). The texts are ASCII
 * (serialize.ts writes strings in hex and names with #xx escapes): written a char a byte, into one buffer.
 */
export function applyEdits(data: Uint8Array, edits: Array<{ start: number; end: number; text: string }>): Uint8Array {
	let total = data.length;
	for (const edit of edits) total += edit.text.length + 2 - (edit.end - edit.start);
	const out = new Uint8Array(total);
	let at = 0;
	let pos = 0;
	for (const edit of edits) {
		out.set(data.subarray(at, edit.start), pos);
		pos += edit.start - at;
		out[pos++] = 0x0a;
		const text = edit.text;
		for (let k = 0; k < text.length; k++) out[pos++] = text.charCodeAt(k);
		out[pos++] = 0x0a;
		at = edit.end;
	}
	out.set(data.subarray(at), pos);
	return out;
}

/** What applyEdits makes of each edit, as the splices recompress.ts follows: its range and its new bytes' length. */
export function splicesOf(edits: Array<{ start: number; end: number; text: string }>): Splice[] {
	return edits.map((edit) => ({ start: edit.start, end: edit.end, length: edit.text.length + 2 }));
}
