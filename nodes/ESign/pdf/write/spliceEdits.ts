import type { Deflater } from './deflate';
import { WINDOW } from './deflateBlock';
import type { Splice } from './recompress';

/**
 * recompress.ts's splices as the original's symbols go by: which original bytes an edit drops, where its new bytes
 * go (searched against the bytes just before them), and the distance a match keeps when an edit moved its source.
 */

const NOTHING = new Uint8Array(0);

/** The splices applied while the original's symbols go by, in order: what each becomes in the new bytes. */
export class Edits {
	/** the next splice not yet passed, and whether its new bytes are written */
	private k = 0;
	private inside = false;
	/** new position − old position after the splices passed */
	private shift = 0;
	private next = Infinity;
	/** the shift after each splice, for a match whose source lies before some */
	private readonly shifts: number[] = [];
	private out: Deflater | undefined;
	private data: Uint8Array = NOTHING;
	private splices: readonly Splice[] = [];

	/** For one stream's splices, written to `out` (undefined: none, its buffers let go). */
	reset(out: Deflater | undefined, data: Uint8Array, splices: readonly Splice[]): this {
		this.out = out;
		this.data = data;
		this.splices = splices;
		this.k = 0;
		this.inside = false;
		this.shift = 0;
		this.next = splices.length ? splices[0].start : Infinity;
		this.shifts.length = 0;
		let shift = 0;
		for (const s of splices) this.shifts.push((shift += s.length - (s.end - s.start)));
		return this;
	}

	literal(p: number): void {
		if (p < this.next) this.out?.literal(this.data[p]);
		else this.byte(p);
	}

	/** False when the match does not make data's bytes (checked here when it goes as literals; the deflater checks
	 * one written as a match against the new bytes, data's own there). */
	match(p: number, length: number, distance: number): boolean {
		// Past splices that end here (written if not yet: one that only inserts): the gap after them (else this
		// match would go as literals).
		while (this.k < this.splices.length && p >= this.next && this.splices[this.k].end <= p) {
			if (!this.inside) this.write(this.splices[this.k]);
			this.leave();
		}
		if (p + length <= this.next) {
			const moved = this.movedDistance(p - distance, length, distance);
			if (moved > 0) {
				this.out?.match(length, moved);
				return true;
			}
		}
		const data = this.data;
		for (let i = 0; i < length; i++) {
			if (data[p + i] !== data[p - distance + i]) return false;
			this.byte(p + i);
		}
		return true;
	}

	/** The splices at the end of the data (their new bytes written if not yet). */
	finish(): void {
		while (this.k < this.splices.length) {
			if (!this.inside) this.write(this.splices[this.k]);
			this.leave();
		}
	}

	/** The distance of a match whose source starts at `from` in the new bytes, or 0 when its source was edited or
	 * is now out of the window. The target is in the gap before splice k. */
	private movedDistance(from: number, length: number, distance: number): number {
		let k = this.k;
		// The gap the source is in: between splice g − 1's end and splice g's start.
		while (k > 0 && from < this.splices[k - 1].end) k--;
		if (k === this.k) return distance;
		if (from + length > this.splices[k].start) return 0;
		const moved = distance + this.shift - (k > 0 ? this.shifts[k - 1] : 0);
		return moved <= WINDOW ? moved : 0;
	}

	/** One original byte at or after the next splice's start: dropped inside a splice, its new bytes written first. */
	private byte(q: number): void {
		while (this.k < this.splices.length && q >= this.next) {
			const splice = this.splices[this.k];
			if (!this.inside) {
				this.write(splice);
				this.inside = true;
			}
			if (q < splice.end) return;
			this.leave();
		}
		this.out?.literal(this.data[q]);
	}

	/** Splice k passed (its new bytes written): on to the gap after it. */
	private leave(): void {
		this.shift = this.shifts[this.k];
		this.k++;
		this.inside = false;
		this.next = this.k < this.splices.length ? this.splices[this.k].start : Infinity;
	}

	/** A splice's new bytes, compressed among themselves and with the content just before them. */
	private write(splice: Splice): void {
		const at = splice.start + (this.k > 0 ? this.shifts[this.k - 1] : 0);
		this.out?.search(at + splice.length, LOOKBACK);
	}
}

/** Bytes before an edit its new bytes may repeat: the operators just before it name the same fonts and sizes (on the
 * 300-page contract's 402 tags: none 584 KB of update, 512 bytes 578 KB, 4 KB 577 KB). */
const LOOKBACK = 512;
