import { Lexer, Tok } from '../read/lexer';
import { MAX_CMAP_DESTINATION, MAX_CMAP_ENTRIES, MAX_CMAP_OPERANDS, MAX_CODESPACES } from '../limits';

/**
 * CMaps (Adobe technical note 5014, ISO 32000-1 9.7.5 and 9.10.3): the encodings of composite fonts (codes to
 * CIDs) and ToUnicode maps (codes to text). Only embedded CMaps and Identity are known; a predefined CJK CMap
 * by name is read as two-byte codes.
 */

interface Codespace {
	bytes: number;
	low: number;
	high: number;
}

interface Range {
	low: number;
	high: number;
	/** CIDs: the first CID; ToUnicode: the UTF-16 code units of the first destination */
	start: number | number[];
}

const toNumber = (bytes: Uint8Array) => {
	let value = 0;
	for (let i = 0; i < bytes.length && i < 4; i++) value = value * 256 + bytes[i];
	return value;
};

/**
 * A destination's UTF-16 code units. An odd number of bytes lost its leading zero: LuaTeX 0.77 writes "Th" as
 * <540068>, one-byte destinations (<41>) exist too; read as if a zero byte came first (so <540068> is 0054 0068, as
 * pdf.js reads it), never as a unit made of one unit's low byte and the next one's high byte.
 */
const utf16 = (bytes: Uint8Array) => {
	const units: number[] = [];
	const pad = bytes.length % 2;
	const byte = (i: number) => (i < pad ? 0 : bytes[i - pad]);
	const end = Math.min(bytes.length + pad, MAX_CMAP_DESTINATION);
	for (let i = 0; i + 1 < end; i += 2) units.push((byte(i) << 8) | byte(i + 1));
	return units;
};

export class CMap {
	readonly codespaces: Codespace[] = [];
	private readonly singles = new Map<number, number | string>();
	private readonly ranges: Range[] = [];
	private sorted = true;
	/** Set for Identity-H/V and for CMaps whose name is unknown: two-byte codes, CID = code. */
	identity = false;
	vertical = false;

	static identity(vertical = false): CMap {
		const cmap = new CMap();
		cmap.identity = true;
		cmap.vertical = vertical;
		cmap.codespaces.push({ bytes: 2, low: 0, high: 0xffff });
		return cmap;
	}

	/** Reads a CMap program; `unicode` for ToUnicode (destinations are text), else destinations are CIDs. */
	static parse(data: Uint8Array, unicode: boolean): CMap {
		const cmap = new CMap();
		const lexer = new Lexer(data);
		const operands: Array<number | Uint8Array | number[][]> = [];
		let entries = 0;
		for (;;) {
			const tok = lexer.next();
			if (tok === Tok.EOF) break;
			if (operands.length >= MAX_CMAP_OPERANDS && tok !== Tok.Keyword && tok !== Tok.Name) continue;
			if (tok === Tok.Number) operands.push(lexer.value as number);
			else if (tok === Tok.String) operands.push(lexer.value as Uint8Array);
			else if (tok === Tok.ArrayStart) {
				const items: number[][] = [];
				while (lexer.next() === Tok.String) if (items.length < MAX_CMAP_ENTRIES) items.push(utf16(lexer.value as Uint8Array));
				operands.push(items);
			} else if (tok === Tok.Name && lexer.value === 'WMode') {
				if (lexer.next() === Tok.Number) cmap.vertical = Number(lexer.value) === 1;
			} else if (tok === Tok.Keyword) {
				const word = lexer.value as string;
				if (word === 'endcodespacerange') {
					for (let i = 0; i + 1 < operands.length; i += 2) {
						const low = operands[i];
						const high = operands[i + 1];
						if (cmap.codespaces.length >= MAX_CODESPACES) break;
						if (low instanceof Uint8Array && high instanceof Uint8Array && low.length >= 1 && low.length <= 4) {
							cmap.codespaces.push({ bytes: low.length, low: toNumber(low), high: toNumber(high) });
						}
					}
				} else if (word === 'endbfchar' || word === 'endcidchar') {
					for (let i = 0; i + 1 < operands.length && entries < MAX_CMAP_ENTRIES; i += 2, entries++) {
						const src = operands[i];
						const dst = operands[i + 1];
						if (!(src instanceof Uint8Array)) continue;
						if (unicode && dst instanceof Uint8Array) cmap.singles.set(toNumber(src), String.fromCharCode(...utf16(dst)));
						else if (!unicode && typeof dst === 'number') cmap.singles.set(toNumber(src), dst);
					}
				} else if (word === 'endbfrange' || word === 'endcidrange') {
					for (let i = 0; i + 2 < operands.length && entries < MAX_CMAP_ENTRIES; i += 3, entries++) {
						const [lowBytes, highBytes, dst] = [operands[i], operands[i + 1], operands[i + 2]];
						if (!(lowBytes instanceof Uint8Array) || !(highBytes instanceof Uint8Array)) continue;
						const low = toNumber(lowBytes);
						const high = Math.min(toNumber(highBytes), low + MAX_CMAP_ENTRIES);
						if (high < low) continue;
						if (Array.isArray(dst)) {
							for (let k = 0; k < dst.length && low + k <= high; k++) cmap.singles.set(low + k, String.fromCharCode(...dst[k]));
						} else if (unicode && dst instanceof Uint8Array) cmap.addRange({ low, high, start: utf16(dst) });
						else if (!unicode && typeof dst === 'number') cmap.addRange({ low, high, start: dst });
					}
				}
				if (word.startsWith('end') || word.startsWith('begin') || word === 'def' || word === 'usecmap') operands.length = 0;
			}
		}
		if (!unicode && !cmap.codespaces.length) cmap.codespaces.push({ bytes: 2, low: 0, high: 0xffff });
		return cmap;
	}

	private addRange(range: Range) {
		const last = this.ranges[this.ranges.length - 1];
		if (last && last.low > range.low) this.sorted = false;
		this.ranges.push(range);
	}

	private findRange(code: number): Range | undefined {
		if (!this.sorted) {
			this.ranges.sort((a, b) => a.low - b.low);
			this.sorted = true;
		}
		let lo = 0;
		let hi = this.ranges.length - 1;
		// Overlapping ranges are rare; the last one starting at or before the code is checked, then a short scan back.
		while (lo <= hi) {
			const mid = (lo + hi) >> 1;
			if (this.ranges[mid].low <= code) lo = mid + 1;
			else hi = mid - 1;
		}
		for (let i = hi; i >= 0 && i > hi - 8; i--) if (this.ranges[i].low <= code && code <= this.ranges[i].high) return this.ranges[i];
		return undefined;
	}

	/** ToUnicode: the text of a code, or undefined when the map does not name it. */
	unicode(code: number): string | undefined {
		const single = this.singles.get(code);
		if (typeof single === 'string') return single;
		const range = this.findRange(code);
		if (!range || !Array.isArray(range.start)) return undefined;
		const units = range.start.slice();
		// The last code unit counts up through the range (the spec's rule; producers rely on it).
		units[units.length - 1] += code - range.low;
		return String.fromCharCode(...units);
	}

	/** Encoding CMap: the CID of a code. */
	cid(code: number): number {
		if (this.identity) return code;
		const single = this.singles.get(code);
		if (typeof single === 'number') return single;
		const range = this.findRange(code);
		return range && typeof range.start === 'number' ? range.start + (code - range.low) : 0;
	}

	/** Splits a string of a composite font into codes (9.7.6.2): the shortest codespace match wins. */
	codes(bytes: Uint8Array, each: (code: number, length: number) => void): void {
		const spaces = this.codespaces;
		// When no codespace fits: the shortest length the map uses, as readers do.
		const shortest = Math.max(1, Math.min(...spaces.map((s) => s.bytes)));
		for (let i = 0; i < bytes.length; ) {
			let code = 0;
			let matched = 0;
			for (let n = 1; n <= 4 && i + n <= bytes.length && !matched; n++) {
				code = code * 256 + bytes[i + n - 1];
				for (const space of spaces) {
					if (space.bytes === n && code >= space.low && code <= space.high) {
						matched = n;
						break;
					}
				}
			}
			if (!matched) {
				code = 0;
				for (let k = 0; k < shortest && i + k < bytes.length; k++) code = code * 256 + bytes[i + k];
				matched = shortest;
			}
			each(code, matched);
			i += matched;
		}
	}

	/** Maps no code at all: a ToUnicode like this is no ToUnicode (pdf.js then reads the font as if it had none). */
	get empty(): boolean {
		return this.singles.size === 0 && this.ranges.length === 0;
	}

	/** Single-byte codes only (a ToUnicode of a simple font, or a one-byte encoding CMap). */
	get singleByte(): boolean {
		return this.codespaces.length > 0 && this.codespaces.every((space) => space.bytes === 1);
	}
}
