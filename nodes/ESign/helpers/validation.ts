import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Checks of values that can arrive from expressions (so the editor's min/max never ran), made before
 * any request. As n8n's UX guidelines ask: the message says what happened and names the parameter as the
 * editor shows it; the description says what to change. The item is in the error's itemIndex, which n8n's
 * editor turns into " [item N]" after the message when several items came in (NodeErrorView's
 * addItemIndexSuffix), so the message itself carries no item number.
 */

/** The description's second half, for a value that may come from an expression. */
const fromExpression = (label: string) => `If "${label}" is an expression, check what it gives for this item.`;

function invalidParameter(
	this: IExecuteFunctions,
	i: number,
	label: string,
	problem: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(this.getNode(), `"${label}" ${problem}`, {
		itemIndex: i,
		...(description ? { description } : {}),
	});
}

function shown(value: unknown): string {
	if (typeof value === 'string') return `"${value}"`;
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}

/** A whole number in [min, max] (max optional); numeric strings from expressions are accepted. */
export function checkWholeNumber(
	this: IExecuteFunctions,
	i: number,
	label: string,
	value: unknown,
	min: number,
	max?: number,
): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isInteger(number) || number < min || (max !== undefined && number > max)) {
		const range = max === undefined ? `from ${min}` : `from ${min} to ${max}`;
		throw invalidParameter.call(this, i, label, `must be a whole number ${range}, got ${shown(value)}`, `Enter a whole number ${range} in "${label}". ${fromExpression(label)}`);
	}
	return number;
}

/** A number above 0 (e.g. seconds, points). */
export function checkPositiveNumber(this: IExecuteFunctions, i: number, label: string, value: unknown): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isFinite(number) || number <= 0) {
		throw invalidParameter.call(this, i, label, `must be a number above 0, got ${shown(value)}`, `Enter a number above 0 in "${label}". ${fromExpression(label)}`);
	}
	return number;
}

/** A number of 0 or more. */
export function checkNonNegativeNumber(this: IExecuteFunctions, i: number, label: string, value: unknown): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isFinite(number) || number < 0) {
		throw invalidParameter.call(this, i, label, `must be a number of 0 or more, got ${shown(value)}`, `Enter 0 or a larger number in "${label}". ${fromExpression(label)}`);
	}
	return number;
}

/** One of a fixed set of values (an options parameter can still get anything from an expression). */
export function checkOneOf<T extends string>(
	this: IExecuteFunctions,
	i: number,
	label: string,
	value: unknown,
	allowed: readonly T[],
): T {
	if (typeof value !== 'string' || !allowed.includes(value as T)) {
		throw invalidParameter.call(this, i, label, `must be one of ${allowed.join(', ')}, got ${shown(value)}`, `Choose one of the listed values in "${label}". ${fromExpression(label)}`);
	}
	return value as T;
}

/** Text: a string (a number or object from an expression is refused rather than sent as "[object Object]"). */
export function checkText(this: IExecuteFunctions, i: number, label: string, value: unknown): string {
	if (typeof value !== 'string') {
		throw invalidParameter.call(this, i, label, `must be text, got ${shown(value)}`, `Enter text in "${label}". An expression that gives a number or a list can turn it into text, e.g. with String() or JSON.stringify().`);
	}
	return value;
}
