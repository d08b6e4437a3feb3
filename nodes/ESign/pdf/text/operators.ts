import type { Lexer } from '../read/lexer';
import { Tok, isWhite } from '../read/lexer';
import { MAX_OPERAND_ITEMS, MAX_OPERAND_NESTING } from '../limits';
import { PdfDict, PdfName } from '../read/objects';
import type { PdfObject } from '../read/objects';

/** A content operator's operands (ISO 32000-1, 7.8.2 and Annex A): read, counted, and inline images skipped. */

/**
 * How many operands each content operator the interpreter reads takes (ISO 32000-1, Annex A). Operands are taken
 * from the end of what precedes the operator, so a stray extra operand (a producer's slip, junk after a damaged
 * string) is dropped instead of shifting the meaning of the rest; an operator with too few is skipped whole, as a
 * viewer does, rather than read with zeros. The kinds (number, name, string, array) are checked where each operator
 * is read (content.ts): a wrong kind leaves that operand's default.
 */
export const OPERATOR_ARITY: Readonly<Record<string, number>> = {
	q: 0,
	Q: 0,
	cm: 6,
	BT: 0,
	Tc: 1,
	Tw: 1,
	Tz: 1,
	TL: 1,
	Ts: 1,
	Tf: 2,
	Td: 2,
	TD: 2,
	Tm: 6,
	'T*': 0,
	Tj: 1,
	"'": 1,
	'"': 3,
	TJ: 1,
	gs: 1,
	Do: 1,
	BI: 0,
};

/**
 * Leaves in `operands` exactly the last `arity` of them for `op`, and says whether the operator is to be read: false
 * when it has too few (or is not one the interpreter reads).
 */
export function takeOperands(op: string, operands: unknown[]): boolean {
	const arity = Object.hasOwn(OPERATOR_ARITY, op) ? OPERATOR_ARITY[op] : undefined;
	if (arity === undefined || operands.length < arity) return false;
	if (operands.length > arity) operands.splice(0, operands.length - arity);
	return true;
}

/** An operand: numbers, strings, names, arrays and dictionaries (nesting bounded). */
export function readOperand(lexer: Lexer, tok: Tok, depth: number): PdfObject | undefined {
	switch (tok) {
		case Tok.Number:
			return lexer.value as number;
		case Tok.String:
			return lexer.value as Uint8Array;
		case Tok.Name:
			return PdfName.of(lexer.value as string);
		case Tok.ArrayStart: {
			const items: PdfObject[] = [];
			for (let t = lexer.next(); t !== Tok.ArrayEnd && t !== Tok.EOF; t = lexer.next()) {
				if (t === Tok.Keyword) {
					const word = lexer.value;
					if (word === 'true' || word === 'false') items.push(word === 'true');
					continue;
				}
				const item = depth < MAX_OPERAND_NESTING ? readOperand(lexer, t, depth + 1) : undefined;
				if (item !== undefined && items.length < MAX_OPERAND_ITEMS) items.push(item);
			}
			return items;
		}
		case Tok.DictStart: {
			const entries: [string, PdfObject][] = [];
			for (let t = lexer.next(); t !== Tok.DictEnd && t !== Tok.EOF; t = lexer.next()) {
				if (t !== Tok.Name) continue;
				const key = lexer.value as string;
				const value = depth < MAX_OPERAND_NESTING ? readOperand(lexer, lexer.next(), depth + 1) : undefined;
				if (value !== undefined) entries.push([key, value]);
			}
			return new PdfDict(entries);
		}
		default:
			return undefined;
	}
}

/** Skips "BI … ID <data> EI": the data ends at an "EI" between white-space (or at /L bytes when given). */
export function skipInlineImage(lexer: Lexer) {
	const data = lexer.data;
	let length: number | undefined;
	for (let t = lexer.next(); t !== Tok.EOF; t = lexer.next()) {
		if (t === Tok.Keyword && lexer.value === 'ID') break;
		if (t === Tok.Name && (lexer.value === 'L' || lexer.value === 'Length')) {
			if (lexer.next() === Tok.Number) length = Number(lexer.value);
		}
	}
	let pos = lexer.pos + 1;
	if (length !== undefined && length >= 0 && pos + length <= lexer.end) pos += length;
	for (; pos + 1 < lexer.end; pos++) {
		if (data[pos] === 69 && data[pos + 1] === 73 && isWhite(data[pos - 1]) && (pos + 2 >= lexer.end || isWhite(data[pos + 2]))) {
			lexer.pos = pos + 2;
			return;
		}
	}
	lexer.pos = lexer.end;
}
