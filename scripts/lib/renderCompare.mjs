// The pixel rule of scripts/tags-vanish.mjs (issue 42): one page rendered before and after the tags' removal by the
// same renderer at the same resolution, and the tags' boxes (the reader's, viewport points: top-left origin, y down).
//
// A tag's outline (its glyphs' em boxes, first to last: a parallelogram along the baseline, turned with rotated text)
// has two pixel regions: the INNER one (pixels wholly inside it) and the OUTER one (it widened by `margin` pixels, for
// anti-aliasing: a glyph's edge pixels are partly inked beyond its em box).
//   outside  every pixel outside all the outer regions is identical before and after (nothing else moved or went);
//   inside   every pixel of an inner region in the after-image is background: no tag ink left;
//   band     a pixel between the two is background after, or unchanged (a neighbour's edge may reach into it).
// "Background" is what the page shows under the tag without it, read from the before-image just outside the outer
// region's bounding rectangle (a one-pixel ring, which the tag never inks): the ring's most frequent colour (white paper, or a tinted
// table cell's colour), or for a pixel in row y the colour both ends of that row of the ring share (a rule or a cell
// edge crossing the box horizontally), or likewise for its column (one crossing vertically). Tag ink is none of these:
// it is darker than the paper and does not run through the box from one side to the other.
// Exact colours, no tolerance: each renderer is deterministic, and what the tag covered is painted only by what lies
// under it, the same operations in both files.

/**
 * A tag's outline in points: four corners in order (the reader's glyph em boxes from its first glyph to its last, a
 * parallelogram along the baseline: a tag at 30° is not its axis-aligned bounds, which reach over its neighbours).
 * Returns { inner(x, y), outer(x, y), rect }: whether pixel (x, y) lies wholly inside (its centre at least half a
 * diagonal inside every edge) or within `margin` pixels of it, and the outer region's bounds [x0, y0, x1, y1) clipped.
 */
export function pixelRegion(quad, scale, margin, width, height) {
	const q = quad.map(([x, y]) => [x * scale, y * scale]);
	const area = q.reduce((sum, [x, y], i) => sum + x * q[(i + 1) % 4][1] - q[(i + 1) % 4][0] * y, 0);
	const edges = q.map(([x, y], i) => {
		const [nx, ny] = q[(i + 1) % 4];
		const len = Math.hypot(nx - x, ny - y) || 1;
		const sign = area >= 0 ? 1 : -1; // inward normal whichever way the corners turn
		return [x, y, (-(ny - y) / len) * sign, ((nx - x) / len) * sign];
	});
	const depth = (x, y) => {
		const [cx, cy] = [x + 0.5, y + 0.5];
		let min = Infinity;
		for (const [ex, ey, nx, ny] of edges) min = Math.min(min, (cx - ex) * nx + (cy - ey) * ny);
		return min;
	};
	const xs = q.map(([x]) => x);
	const ys = q.map(([, y]) => y);
	const rect = [Math.max(0, Math.floor(Math.min(...xs)) - margin), Math.max(0, Math.floor(Math.min(...ys)) - margin), Math.min(width, Math.ceil(Math.max(...xs)) + margin), Math.min(height, Math.ceil(Math.max(...ys)) + margin)];
	return { rim: (x, y) => depth(x, y) < margin + Math.SQRT1_2, inner: (x, y) => depth(x, y) >= Math.SQRT1_2, outer: (x, y) => depth(x, y) > -(margin + Math.SQRT1_2), rect };
}

/** An axis-aligned box { left, top, right, bottom } as a quad. */
export const quadOfBox = (b) => [[b.left, b.top], [b.right, b.top], [b.right, b.bottom], [b.left, b.bottom]];

const rgbAt = (img, x, y) => {
	const i = (y * img.width + x) * 3;
	return (img.data[i] << 16) | (img.data[i + 1] << 8) | img.data[i + 2];
};

/** Bounds of flagged pixels, grown one at a time. */
const grow = (b, x, y) => (b ? [Math.min(b[0], x), Math.min(b[1], y), Math.max(b[2], x + 1), Math.max(b[3], y + 1)] : [x, y, x + 1, y + 1]);

/** The background candidates of one tag: the ring's mode, and per row / per column the colour both ends share (or -1). */
function backgroundOf(before, [X0, Y0, X1, Y1]) {
	const { width, height } = before;
	const counts = new Map();
	const count = (x, y) => {
		if (x < 0 || y < 0 || x >= width || y >= height) return;
		const c = rgbAt(before, x, y);
		counts.set(c, (counts.get(c) ?? 0) + 1);
	};
	for (let x = X0 - 1; x <= X1; x++) {
		count(x, Y0 - 1);
		count(x, Y1);
	}
	for (let y = Y0; y < Y1; y++) {
		count(X0 - 1, y);
		count(X1, y);
	}
	let mode = 0xffffff;
	let best = -1;
	for (const [c, n] of counts) if (n > best) [mode, best] = [c, n];
	const rows = new Int32Array(Y1 - Y0).fill(-1);
	if (X0 > 0 && X1 < width) {
		for (let y = Y0; y < Y1; y++) {
			const c = rgbAt(before, X0 - 1, y);
			if (c === rgbAt(before, X1, y)) rows[y - Y0] = c;
		}
	}
	const cols = new Int32Array(X1 - X0).fill(-1);
	if (Y0 > 0 && Y1 < height) {
		for (let x = X0; x < X1; x++) {
			const c = rgbAt(before, x, Y0 - 1);
			if (c === rgbAt(before, x, Y1)) cols[x - X0] = c;
		}
	}
	return { mode, rows, cols };
}

/**
 * Compares one page. Returns { sizeBefore, sizeAfter, compared, differing, diffBounds, inside, ink, inkBounds, band,
 * bandBounds } (counts in pixels; bounds [x0, y0, x1, y1) in pixels or undefined). Images of different sizes: only
 * the sizes (every pixel counts as differing).
 */
export function comparePage(before, after, quads, { scale, margin }) {
	const { width, height } = before;
	const out = { sizeBefore: `${width}×${height}`, sizeAfter: `${after.width}×${after.height}`, compared: width * height, differing: 0, inside: 0, ink: 0, band: 0 };
	if (after.width !== width || after.height !== height) return { ...out, differing: width * height, diffBounds: [0, 0, width, height] };
	// A quad, or { quad, band }: a band (points) wider than the margin for glyphs whose ink leaves their em box (an
	// italic f's tail left of its origin, a descender: the real documents' words).
	const regions = quads.map((q) => (q.quad ? pixelRegion(q.quad, scale, Math.max(margin, Math.ceil(q.band * scale)), width, height) : pixelRegion(q, scale, margin, width, height)));
	const masked = new Uint8Array(width * height);
	for (const { outer, rect: [X0, Y0, X1, Y1] } of regions) {
		for (let y = Y0; y < Y1; y++) for (let x = X0; x < X1; x++) if (outer(x, y)) masked[y * width + x] = 1;
	}
	const a = before.data;
	const b = after.data;
	for (let p = 0; p < width * height; p++) {
		if (masked[p]) {
			out.compared--;
			continue;
		}
		const i = p * 3;
		if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) {
			out.differing++;
			out.diffBounds = grow(out.diffBounds, p % width, Math.floor(p / width));
		}
	}
	for (const { inner, outer, rect, rim } of regions) {
		const [X0, Y0, X1, Y1] = rect;
		const bg = backgroundOf(before, rect);
		for (let y = Y0; y < Y1; y++) {
			for (let x = X0; x < X1; x++) {
				if (!outer(x, y)) continue;
				const c = rgbAt(after, x, y);
				const background = c === bg.mode || c === bg.rows[y - Y0] || c === bg.cols[x - X0];
				if (inner(x, y)) {
					out.inside++;
					// Within the margin of the edge, a pixel as it was before is a neighbour's anti-aliased edge reaching in
					// (a comma's ink 0.3 pt left of its own origin), as the band outside allows; tag ink further in counts.
					if (!background && !(rim(x, y) && c === rgbAt(before, x, y))) {
						out.ink++;
						out.inkBounds = grow(out.inkBounds, x, y);
					}
				} else if (!background && c !== rgbAt(before, x, y)) {
					out.band++;
					out.bandBounds = grow(out.bandBounds, x, y);
				}
			}
		}
	}
	return out;
}

/** Pixel bounds → points, for a report ("x 120–180, y 300–312 pt"). */
export const pointsOf = (bounds, scale) => (bounds ? `x ${(bounds[0] / scale).toFixed(1)}–${(bounds[2] / scale).toFixed(1)}, y ${(bounds[1] / scale).toFixed(1)}–${(bounds[3] / scale).toFixed(1)} pt` : '');
