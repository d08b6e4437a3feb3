import { Lexer, Tok } from './lexer';
import { isNumber } from './objects';
import type { PdfObject } from './objects';
import { MAX_CONTENT_OPERANDS } from './limits';
import { readOperand } from './operands';
import { takeOperands } from './operators';
import { formatNumber, hexString } from './serialize';

/**
 * Rewrites one text-showing operator so that some of its glyphs are no longer drawn, each replaced by an equal
 * advance (ISO 32000-1, 9.4.3: a TJ number n moves the text −n/1000 · Tfs · Th along the line): the text after them
 * stays where it was. `Tj`, `'` and `"` become a TJ (after `T*`, or `aw Tw ac Tc T*`, which is what `'` and `"` do first).
 */

export interface CodeRemoval {
	/** the string's index in the operator's TJ array (0 otherwise) */
	item: number;
	/** the code's byte range in the decoded string */
	code: number;
	length: number;
	/** the glyph's advance before Tz (text space: w0·Tfs + Tc + Tw for code 32) and the Tfs it ran with */
	advance: number;
	size: number;
}


/** The operator's replacement text, or why it cannot be rewritten. */
export function rewriteOperator(data: Uint8Array, opStart: number, opEnd: number, removals: CodeRemoval[]): { text: string } | { reason: string } {
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
	const byItem = new Map<number, CodeRemoval[]>();
	for (const removal of removals) {
		const list = byItem.get(removal.item) ?? [];
		list.push(removal);
		byItem.set(removal.item, list);
	}
	// Strings and numbers of the new TJ; consecutive numbers are summed (kerning kept, the removed advance added).
	const parts: Array<Uint8Array | number> = [];
	const pushNumber = (n: number) => {
		const last = parts[parts.length - 1];
		if (typeof last === 'number') parts[parts.length - 1] = last + n;
		else parts.push(n);
	};
	for (let i = 0; i < items.length; i++) {
		const item = items[i];
		if (isNumber(item)) {
			pushNumber(item);
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
			if (!(removal.size !== 0 && Number.isFinite(removal.size))) return { reason: 'its font size is 0, so its advance cannot be written as a TJ adjustment' };
			const n = (-1000 * removal.advance) / removal.size;
			if (!Number.isFinite(n)) return { reason: 'its advance cannot be computed' };
			if (removal.code > kept) parts.push(item.subarray(kept, removal.code));
			pushNumber(n);
			kept = removal.code + removal.length;
		}
		if (kept < item.length) parts.push(item.subarray(kept));
	}
	if (byItem.size) return { reason: 'the content stream no longer reads as it did (a string is missing)' };
	const body = parts.map((part) => (typeof part === 'number' ? formatNumber(Math.abs(part) < 1e-9 ? 0 : part) : hexString(part))).join(' ');
	return { text: `${prefix}[${body}] TJ` };
}

/** `data` with each operator's bytes [start, end) replaced by its new text (edits sorted, not overlapping). */
export function applyEdits(data: Uint8Array, edits: Array<{ start: number; end: number; text: string }>): Uint8Array {
	const encoder = new TextEncoder();
	const pieces: Uint8Array[] = [];
	let at = 0;
	let total = 0;
	for (const edit of edits) {
		const before = data.subarray(at, edit.start);
		// On lines of their own: the bytes around may be an operand or keyword that needs a separator.
		const text = encoder.encode(`\n${edit.text}\n`);
		pieces.push(before, text);
		total += before.length + text.length;
		at = edit.end;
	}
	const rest = data.subarray(at);
	pieces.push(rest);
	total += rest.length;
	const out = new Uint8Array(total);
	let pos = 0;
	for (const piece of pieces) {
		out.set(piece, pos);
		pos += piece.length;
	}
	return out;
}
