/** Affine matrices as PDF writes them, [a b c d e f]: a point (x, y) maps to (a·x + c·y + e, b·x + d·y + f). */
export type Matrix = [number, number, number, number, number, number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** The matrix that applies `first`, then `second` (PDF's "first × second"). */
export function multiply(first: Matrix, second: Matrix): Matrix {
	const [a1, b1, c1, d1, e1, f1] = first;
	const [a2, b2, c2, d2, e2, f2] = second;
	return [a1 * a2 + b1 * c2, a1 * b2 + b1 * d2, c1 * a2 + d1 * c2, c1 * b2 + d1 * d2, e1 * a2 + f1 * c2 + e2, e1 * b2 + f1 * d2 + f2];
}

export function isMatrix(value: unknown): value is Matrix {
	return Array.isArray(value) && value.length === 6 && value.every((n) => typeof n === 'number' && Number.isFinite(n));
}

/** The matrix that undoes `m`; undefined when it has no inverse (it flattens the plane). */
export function invert(m: Matrix): Matrix | undefined {
	const [a, b, c, d, e, f] = m;
	const det = a * d - b * c;
	if (!det || !Number.isFinite(det)) return undefined;
	return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}
