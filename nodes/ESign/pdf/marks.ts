import { Src } from './provenance';

/**
 * The tag remover's marked glyphs, packed: the integer fields (stream, operator, TJ item, code range, font name) in one
 * Int32Array and the font size, rise and lift in one Float64Array, 52 bytes a glyph, grown by doubling. A long contract's
 * thousands of tag glyphs then weigh a fraction of the file, not an array object each.
 */

const INTS = 7;
const NUMS = 3;

export class GlyphStore {
	private ints = new Int32Array(INTS * 256);
	private nums = new Float64Array(NUMS * 256);
	count = 0;

	/** Adds one glyph's sources (a line's SOURCE_SIZE numbers from `at`) and the rise that takes it off its page
	 * (rewrite.ts: kept in the Up field of `view`); returns its index. */
	add(sources: number[], at: number, lift: number): number {
		if (this.count * INTS === this.ints.length) {
			// By a quarter: the store lives while the pages are read, and doubling left up to half of it unused.
			const more = Math.max(256, this.count >> 2);
			const ints = new Int32Array((this.count + more) * INTS);
			ints.set(this.ints);
			this.ints = ints;
			const nums = new Float64Array((this.count + more) * NUMS);
			nums.set(this.nums);
			this.nums = nums;
		}
		const i = this.count++;
		this.ints.set([sources[at + Src.Stream], sources[at + Src.OpStart], sources[at + Src.OpEnd], sources[at + Src.Item], sources[at + Src.Code], sources[at + Src.Length], sources[at + Src.Font]], i * INTS);
		const n = i * NUMS;
		this.nums[n] = sources[at + Src.Size];
		this.nums[n + 1] = sources[at + Src.Rise];
		this.nums[n + 2] = lift;
		return i;
	}

	/** Drops the room grown for more glyphs, once no more are marked. */
	trim(): void {
		if (this.count * INTS === this.ints.length) return;
		this.ints = this.ints.slice(0, Math.max(1, this.count) * INTS);
		this.nums = this.nums.slice(0, Math.max(1, this.count) * NUMS);
	}

	stream(i: number): number {
		return this.ints[i * INTS];
	}

	/** Glyph `i` in the SOURCE_SIZE layout, its lift in the Up field (made when asked: the rewrite reads each glyph
	 * once or twice). */
	view(i: number): number[] {
		const o = i * INTS;
		const t = this.ints;
		const n = i * NUMS;
		const v = this.nums;
		return [t[o], t[o + 1], t[o + 2], t[o + 3], t[o + 4], t[o + 5], v[n], 0, t[o + 6], v[n + 1], v[n + 2]];
	}
}
