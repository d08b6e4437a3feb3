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
