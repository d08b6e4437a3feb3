import { Src } from './provenance';

/**
 * The tag remover's marked glyphs, packed: the integer fields (stream, operator, TJ item, code range) in one
 * Int32Array and the advance and font size in one Float64Array, 40 bytes a glyph, grown by doubling. A long contract's
 * thousands of tag glyphs then weigh a fraction of the file, not an array object each.
 */

const INTS = 6;

export class GlyphStore {
	private ints = new Int32Array(INTS * 256);
	private nums = new Float64Array(2 * 256);
	count = 0;

	/** Adds one glyph's sources (a line's SOURCE_SIZE numbers from `at`); returns its index. */
	add(sources: number[], at: number): number {
		if (this.count * INTS === this.ints.length) {
			const ints = new Int32Array(this.ints.length * 2);
			ints.set(this.ints);
			this.ints = ints;
			const nums = new Float64Array(this.nums.length * 2);
			nums.set(this.nums);
			this.nums = nums;
		}
		const i = this.count++;
		this.ints.set([sources[at + Src.Stream], sources[at + Src.OpStart], sources[at + Src.OpEnd], sources[at + Src.Item], sources[at + Src.Code], sources[at + Src.Length]], i * INTS);
		this.nums[i * 2] = sources[at + Src.Advance];
		this.nums[i * 2 + 1] = sources[at + Src.Size];
		return i;
	}

	/** Drops the room grown for more glyphs (doubling leaves up to half unused: 0.3 × the file on the 300-page
	 * contract's 4,000 tag glyphs), once no more are marked. */
	trim(): void {
		if (this.count * INTS === this.ints.length) return;
		this.ints = this.ints.slice(0, Math.max(1, this.count) * INTS);
		this.nums = this.nums.slice(0, Math.max(1, this.count) * 2);
	}

	stream(i: number): number {
		return this.ints[i * INTS];
	}

	/** Glyph `i` in the SOURCE_SIZE layout (made when asked: the rewrite reads each glyph once or twice). */
	view(i: number): number[] {
		const o = i * INTS;
		const t = this.ints;
		return [t[o], t[o + 1], t[o + 2], t[o + 3], t[o + 4], t[o + 5], this.nums[i * 2], this.nums[i * 2 + 1], 0];
	}
}
