import { Lexer, Tok } from '../read/lexer';
import { isNumber } from '../read/objects';
import type { PdfObject } from '../read/objects';
import { MAX_CONTENT_OPERANDS } from '../limits';
import { readOperand, takeOperands } from '../text/operators';
import { formatName, formatNumber, hexString } from './serialize';
import { joinBytes } from '../bytes';

/**
 * Rewrites one text-showing operator so that some of its glyphs are no longer seen: they are still shown, with the
 * same codes and the same font program, so that every renderer advances past them exactly as before (ISO 32000-1,
 * 9.4.4: the advance comes from the font's widths, Tc and Tw, none of which change), but
 * - in a copy of their font whose ToUnicode gives a space for each of their codes (hiddenFonts.ts), so no text is read
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
	const shown = shownItems(data, opStart, opEnd);
	if ('reason' in shown) return shown;
	const run = runOf(removals);
	if ('reason' in run) return run;
	const split = segmentsOf(shown.items, run.byItem);
	if ('reason' in split) return split;
	const { size, rise, font, lift } = run;
	const showing = `${formatName(font)} ${formatNumber(size)} Tf ${formatNumber(rise)} Ts`;
	const hiding = `${formatName(hidden)} ${formatNumber(size)} Tf ${formatNumber(lift)} Ts`;
	const lines = split.segments.map((segment) => (segment.hide ? `${hiding}\n${tj(segment.parts)}\n${showing}` : tj(segment.parts)));
	return { text: `${shown.prefix}${lines.join('\n')}`, codes: split.codes };
}

/**
 * The operator at [opStart, opEnd) read as the interpreter reads it (text/content.ts: the same operand cap, the same
 * operands, the last ones), so the string rewritten is the one it showed: its strings and numbers, and what must
 * come before them once it is a TJ (`'` and `"` move to the next line and set spacing first).
 */
function shownItems(data: Uint8Array, opStart: number, opEnd: number): { prefix: string; items: PdfObject[] } | { reason: string } {
	const lexer = new Lexer(data, opStart, Math.min(opEnd, data.length));
	// Its strings as views of one buffer, valid until this rewrite returns: a tag's TJ holds a string a glyph.
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
	if (op === undefined || !takeOperands(op, ops)) op = undefined;
	const num = (i: number) => (isNumber(ops[i]) ? ops[i] : 0);
	if (op === 'Tj') return { prefix: '', items: [ops[0]] };
	if (op === "'") return { prefix: 'T*\n', items: [ops[0]] };
	if (op === '"') return { prefix: `${formatNumber(num(0))} Tw ${formatNumber(num(1))} Tc T*\n`, items: [ops[2]] };
	if (op === 'TJ' && Array.isArray(ops[0])) return { prefix: '', items: ops[0] };
	return { reason: 'the content stream no longer reads as it did (no text operator where the glyphs were)' };
}

/** The text state the operator ran with, the rise that takes its glyphs off the page, and its removals by TJ item. */
function runOf(removals: CodeRemoval[]): { size: number; rise: number; font: string; lift: number; byItem: Map<number, CodeRemoval[]> } | { reason: string } {
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
	return { size, rise, font, lift, byItem };
}

interface Segment {
	hide: boolean;
	parts: Array<Uint8Array | number>;
}

/** The operator's strings and numbers cut into runs shown as they were and runs hidden, in order; the codes hidden. */
function segmentsOf(items: PdfObject[], byItem: Map<number, CodeRemoval[]>): { segments: Segment[]; codes: Uint8Array[] } | { reason: string } {
	const segments: Segment[] = [];
	const to = (hide: boolean) => {
		const last = segments[segments.length - 1];
		if (last?.hide === hide) return last.parts;
		const next: Segment = { hide, parts: [] };
		segments.push(next);
		return next.parts;
	};
	const codes: Uint8Array[] = [];
	for (let i = 0; i < items.length; i++) {
		const item = items[i];
		if (isNumber(item)) {
			to(segments[segments.length - 1]?.hide ?? false).push(item);
			continue;
		}
		if (!(item instanceof Uint8Array)) continue; // the interpreter ignores anything else in a TJ array
		const list = (byItem.get(i) ?? []).sort((a, b) => a.code - b.code);
		byItem.delete(i);
		let kept = 0;
		for (const removal of list) {
			if (removal.code < kept || removal.code + removal.length > item.length) return { reason: 'its codes do not lie where the reader found them in the string' };
			if (removal.code > kept) to(false).push(item.subarray(kept, removal.code));
			const code = item.subarray(removal.code, removal.code + removal.length);
			to(true).push(code);
			codes.push(code);
			kept = removal.code + removal.length;
		}
		if (kept < item.length) to(false).push(item.subarray(kept));
	}
	if (byItem.size) return { reason: 'the content stream no longer reads as it did (a string is missing)' };
	return { segments, codes };
}

/** A segment as one TJ; consecutive strings are one string (no adjustment between them), as the interpreter shows them. */
function tj(parts: Array<Uint8Array | number>): string {
	const out: string[] = [];
	let run: Uint8Array[] = [];
	const flush = () => {
		if (run.length) out.push(hexString(joinBytes(run)));
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
