/** Byte classes of PDF syntax (ISO 32000-1, 7.2.2) and hex digits, shared by the lexer and the filters. */

// 0 regular, 1 white-space, 2 delimiter: one table lookup per byte.
export const CLASS = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) CLASS[c] = 1;
for (const c of '()<>[]{}/%') CLASS[c.charCodeAt(0)] = 2;

export const HEX = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) HEX[48 + i] = i;
for (let i = 0; i < 6; i++) {
	HEX[65 + i] = 10 + i;
	HEX[97 + i] = 10 + i;
}

export const isWhite = (c: number) => CLASS[c] === 1;

/** Whether the ASCII `word` stands at `pos` of `data` (compared byte by byte: no string is made). */
export function wordAt(data: Uint8Array, pos: number, word: string): boolean {
	for (let i = 0; i < word.length; i++) if (data[pos + i] !== word.charCodeAt(i)) return false;
	return true;
}

/**
 * Hex digits of data[from, to) decoded into out from `at` (white-space and other bytes skipped, an odd last digit
 * padded with 0, as 7.3.4.3 and 7.4.2 say); returns where the output ends. Hex strings and ASCIIHexDecode share it.
 */
export function hexInto(data: Uint8Array, from: number, to: number, out: Uint8Array, at: number): number {
	let n = at;
	let high = -1;
	for (let pos = from; pos < to; pos++) {
		const v = HEX[data[pos]];
		if (v < 0) continue;
		if (high < 0) high = v;
		else {
			out[n++] = high * 16 + v;
			high = -1;
		}
	}
	if (high >= 0) out[n++] = high * 16;
	return n;
}

export const isRegular = (c: number) => CLASS[c] === 0;

