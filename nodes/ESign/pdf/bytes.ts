/**
 * Byte arrays joined into one, the only way the reader and the writer join them. `separator`, when given, goes
 * between the pieces and after the last (a page's content streams read as one: ISO 32000-1, 7.8.2).
 */
export function joinBytes(pieces: readonly Uint8Array[], separator?: number): Uint8Array {
	if (pieces.length === 1 && separator === undefined) return pieces[0];
	const gap = separator === undefined ? 0 : 1;
	let total = 0;
	for (const piece of pieces) total += piece.length + gap;
	const out = new Uint8Array(total);
	let at = 0;
	for (const piece of pieces) {
		out.set(piece, at);
		at += piece.length;
		if (gap) out[at++] = separator as number;
	}
	return out;
}
