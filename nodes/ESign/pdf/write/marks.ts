import { Src } from '../text/provenance';

/**
 * The tag remover's marked glyphs, packed in typed arrays rather than an object each: a long contract marks thousands
 * of them, and they live while its pages are read. What an operator shows its glyphs with (stream, operator's bytes,
 * font name, size, rise, and the lift that takes them off the page) is kept once per operator; each glyph keeps its
 * operator, its TJ item and its code's range. A tag is mostly one operator's run of glyphs. The arrays grow by a
 * quarter, not double: what is grown and never used is held all the same.
 */

/** Per glyph: operator, item, code, length. */
const GLYPH = 4;
/** Per operator: stream, opStart, opEnd, font (integers); size, rise, lift (numbers). */
const OP_INTS = 4;
const OP_NUMS = 3;

export class GlyphStore {
	private glyphs = new Int32Array(GLYPH * 256);
	private opInts = new Int32Array(OP_INTS * 64);
	private opNums = new Float64Array(OP_NUMS * 64);
	private ops = 0;
	count = 0;

	/** Adds one glyph's sources (a line's SOURCE_SIZE numbers from `at`) and the rise that takes it off its page
	 * (tagRemover.ts: kept in the Up field of `view`); returns its index. */
	add(sources: number[], at: number, lift: number): number {
		const stream = sources[at + Src.Stream];
		const opStart = sources[at + Src.OpStart];
		const opEnd = sources[at + Src.OpEnd];
		const font = sources[at + Src.Font];
		const size = sources[at + Src.Size];
		const rise = sources[at + Src.Rise];
		let op = this.ops - 1;
		const o = op * OP_INTS;
		const n = op * OP_NUMS;
		const same =
			op >= 0 &&
			this.opInts[o] === stream &&
			this.opInts[o + 1] === opStart &&
			this.opInts[o + 2] === opEnd &&
			this.opInts[o + 3] === font &&
			Object.is(this.opNums[n], size) &&
			Object.is(this.opNums[n + 1], rise) &&
			Object.is(this.opNums[n + 2], lift);
		if (!same) {
			op = this.ops++;
			if (op * OP_INTS === this.opInts.length) {
				this.opInts = grown(this.opInts, op, OP_INTS);
				this.opNums = grown(this.opNums, op, OP_NUMS);
			}
			this.opInts.set([stream, opStart, opEnd, font], op * OP_INTS);
			this.opNums.set([size, rise, lift], op * OP_NUMS);
		}
		const i = this.count++;
		if (i * GLYPH === this.glyphs.length) this.glyphs = grown(this.glyphs, i, GLYPH);
		this.glyphs.set([op, sources[at + Src.Item], sources[at + Src.Code], sources[at + Src.Length]], i * GLYPH);
		return i;
	}

	/** Drops the room grown for more glyphs, once no more are marked. */
	trim(): void {
		this.glyphs = this.glyphs.slice(0, Math.max(1, this.count) * GLYPH);
		this.opInts = this.opInts.slice(0, Math.max(1, this.ops) * OP_INTS);
		this.opNums = this.opNums.slice(0, Math.max(1, this.ops) * OP_NUMS);
	}

	stream(i: number): number {
		return this.opInts[this.glyphs[i * GLYPH] * OP_INTS];
	}

	/** Glyph `i` in the SOURCE_SIZE layout, its lift in the Up field (made when asked: the rewrite reads each glyph
	 * once or twice). */
	view(i: number): number[] {
		const g = i * GLYPH;
		const op = this.glyphs[g];
		const o = op * OP_INTS;
		const n = op * OP_NUMS;
		const t = this.opInts;
		const v = this.opNums;
		const s = this.glyphs;
		return [t[o], t[o + 1], t[o + 2], s[g + 1], s[g + 2], s[g + 3], v[n], 0, t[o + 3], v[n + 1], v[n + 2]];
	}
}

/** `array` (holding `used` records of `width`) with room for a quarter more, at least 64 records. */
function grown<T extends Int32Array | Float64Array>(array: T, used: number, width: number): T {
	const out = new (array.constructor as new (length: number) => T)((used + Math.max(64, used >> 2)) * width);
	out.set(array);
	return out;
}
