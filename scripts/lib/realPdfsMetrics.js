'use strict';
/**
 * The real-document comparison (issue 41, item 4): one page as the package's reader reads it against the same page
 * as pdf.js reads it (test/support/pdfjsOracle.mjs, per-glyph boxes). Plain CommonJS so that both the corpus script
 * (scripts/real-pdfs.mjs) and the jest suite (test/unit/pdf/realDocuments.slow.test.ts) run the same code; the
 * reader's findAnchor is handed in, so this file loads neither reader.
 *
 * Three measures a page:
 * - letters: both texts NFKC-normalised, letters and digits kept (\p{L}\p{N}), nothing else: word boundaries are not
 *   compared (readers draw them differently: "y1" and "y 1"). How many of pdf.js's are matched in order by ours is
 *   the longest common subsequence, from the shortest edit script (Myers), whose cost grows with the difference only.
 * - U+FFFD at letters: U+FFFD glyphs of ours that start where pdf.js starts a glyph it reads as a letter or digit
 *   and we read none (by place, the glyph's origin, not by text: the text there is what differs; not by boxes, which
 *   overlap in scripts such as Nastaliq).
 * - anchors: words of three letters or more (a whole run of letters, marks and digits) outside {{…}} (findAnchor
 *   skips tag-like text) that occur exactly once on the page in both readers (case folded, NFKC): our anchor box
 *   through findAnchor against
 *   the union of pdf.js's glyph boxes for that word, both ends along the text within `tolerance` points.
 */

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const LETTER = /[\p{L}\p{N}]/u;
// A word runs over letters, digits and combining marks (Devanagari's vowel signs sit inside words).
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const WORD_RUN = /[\p{L}\p{M}\p{N}]+/gu;
/** An anchor word: letters (with their marks) only, three letters or more. */
const isAnchorWord = (word) => /^[\p{L}\p{M}]+$/u.test(word) && word.replace(/\p{M}/gu, '').length >= 3;
/** Text inside a tag-like {{…}} is not an anchor (findAnchor skips it): its words are not compared. */
const BRACES = /\{ ?\{[^{}]*\} ?\}/g;
/** Past this many edits a page's alignment stops (its cost is (N + M) × edits) and the page counts no match. */
const MAX_EDITS = 20000;

/** The letters and digits of a text, after NFKC (a ligature glyph counts as its letters). */
function lettersOf(text) {
	let out = '';
	for (const ch of text.normalize('NFKC')) if (LETTER.test(ch)) out += ch;
	return out;
}

/**
 * How many characters of `b` are matched in order in `a` (the longest common subsequence), or undefined past
 * `maxEdits` insertions and deletions. Myers's greedy forward search: O((N + M) × D) for D edits.
 */
function matchedInOrder(a, b, maxEdits = MAX_EDITS) {
	const n = a.length;
	const m = b.length;
	const max = Math.min(n + m, maxEdits);
	const offset = max + 1;
	const v = new Int32Array(2 * max + 3);
	for (let d = 0; d <= max; d++) {
		for (let k = -d; k <= d; k += 2) {
			let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
			let y = x - k;
			while (x < n && y < m && a.charCodeAt(x) === b.charCodeAt(y)) {
				x++;
				y++;
			}
			v[offset + k] = x;
			if (x >= n && y >= m) return (n + m - d) / 2;
		}
	}
	return undefined;
}

/** Glyphs start at the same place when their origins round to the same point of this grid (points): both readers
 * place a glyph's origin alike, to a few thousandths. */
const PLACE = 0.5;

/** pdf.js's page as characters (NFKC) with the glyph each came from; null marks a break (a space, a line end, a jump). */
function theirChars(glyphs) {
	const chars = [];
	let prev;
	for (const g of glyphs) {
		if (g.extra !== undefined) {
			chars.push(null);
			continue;
		}
		if (prev) {
			// No space or line end between two glyphs that do not touch: a jump to another place on the page.
			const size = Math.max(prev.box[3] - prev.box[1], prev.box[2] - prev.box[0], 1);
			const gapX = Math.max(0, g.box[0] - prev.box[2], prev.box[0] - g.box[2]);
			const gapY = Math.max(0, g.box[1] - prev.box[3], prev.box[1] - g.box[3]);
			if (gapX > 0.3 * size || gapY > 0.3 * size) chars.push(null);
		}
		prev = g;
		for (const ch of g.u.normalize('NFKC')) chars.push({ ch, glyph: g });
	}
	return chars;
}

/** Words of pdf.js's page: key (lower case) → { count, box }. */
function theirWords(glyphs) {
	const words = new Map();
	let word = '';
	let owners = [];
	const flush = () => {
		if (isAnchorWord(word)) {
			const key = word.toLowerCase();
			const seen = words.get(key);
			if (seen) seen.count++;
			else {
				const boxes = [...new Set(owners)].map((g) => g.box);
				const box = [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])), Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))];
				words.set(key, { count: 1, box });
			}
		}
		word = '';
		owners = [];
	};
	for (const c of theirChars(glyphs)) {
		if (c && WORD_CHAR.test(c.ch)) {
			word += c.ch;
			owners.push(c.glyph);
		} else flush();
	}
	flush();
	return words;
}

/** Words of our page: key (NFKC, lower case) → { count, raw, horizontal }. */
function ourWords(lines) {
	const words = new Map();
	for (const line of lines) {
		const horizontal = line.glyphs.length < 6 || Math.abs(line.glyphs[2]) >= Math.abs(line.glyphs[3]);
		const braces = [...line.text.matchAll(BRACES)].map((m) => [m.index, m.index + m[0].length]);
		for (const m of line.text.matchAll(WORD_RUN)) {
			const key = m[0].normalize('NFKC').toLowerCase();
			if (!isAnchorWord(key) || braces.some(([from, to]) => m.index < to && m.index + m[0].length > from)) continue;
			const seen = words.get(key);
			if (seen) seen.count++;
			else words.set(key, { count: 1, raw: m[0], horizontal });
		}
	}
	return words;
}

/**
 * One page compared. ourLines: the reader's TextLine[] for the page; theirGlyphs: the oracle's page.glyphs;
 * reader: { findAnchor(lines, page, text) }.
 * Returns { letters, matched, capped, fffd, fffdAtLetters, anchors: { compared, within, worst, misses } }.
 */
function comparePage(ourLines, theirGlyphs, pageNumber, reader, { tolerance = 1, maxEdits = MAX_EDITS, keepMisses = 5 } = {}) {
	const theirs = lettersOf(theirGlyphs.map((g) => (g.extra !== undefined ? ' ' : g.u)).join(''));
	const ours = lettersOf(ourLines.map((line) => line.text).join('\n'));
	const lcs = matchedInOrder(ours, theirs, maxEdits);
	const result = { letters: theirs.length, ours: ours.length, matched: lcs ?? 0, capped: lcs === undefined, fffd: 0, fffdAtLetters: 0 };

	// Places (glyph origins, on a PLACE-pt grid): pdf.js's letter glyphs there, and ours (letters, U+FFFD). A U+FFFD
	// of ours is at a letter when pdf.js has more letters at that place than we do (zero-width glyphs share a place
	// with their neighbour: pdf.js's control character beside our U+FFFD there is no letter lost).
	const places = new Map();
	const at = (x, y) => {
		const key = `${Math.round(x / PLACE)},${Math.round(y / PLACE)}`;
		let place = places.get(key);
		if (!place) places.set(key, (place = { theirs: 0, ours: 0, fffd: 0 }));
		return place;
	};
	for (const g of theirGlyphs) if (g.extra === undefined && LETTER.test(g.u.normalize('NFKC'))) at(g.origin[0], g.origin[1]).theirs++;
	for (const line of ourLines) {
		const glyphText = new Map();
		line.glyphOf.forEach((glyph, i) => glyph >= 0 && glyphText.set(glyph, (glyphText.get(glyph) ?? '') + line.text[i]));
		for (const [glyph, text] of glyphText) {
			const fffd = text.includes('\uFFFD');
			const letter = LETTER.test(text.normalize('NFKC'));
			if (!fffd && !letter) continue;
			const place = at(line.glyphs[glyph * 6], line.glyphs[glyph * 6 + 1]);
			if (letter) place.ours++;
			else place.fffd++;
		}
		for (const ch of line.text) if (ch === '\uFFFD') result.fffd++;
	}
	for (const place of places.values()) result.fffdAtLetters += Math.min(place.fffd, Math.max(0, place.theirs - place.ours));

	const anchors = { compared: 0, within: 0, worst: 0, misses: [] };
	const theirMap = theirWords(theirGlyphs);
	for (const [key, mine] of ourWords(ourLines)) {
		const other = theirMap.get(key);
		if (mine.count !== 1 || !other || other.count !== 1) continue;
		anchors.compared++;
		const found = reader.findAnchor(ourLines, pageNumber, mine.raw);
		let off = Infinity;
		if (found.length === 1) {
			const b = found[0].box;
			off = mine.horizontal
				? Math.max(Math.abs(b.left - other.box[0]), Math.abs(b.right - other.box[2]))
				: Math.max(Math.abs(b.top - other.box[1]), Math.abs(b.bottom - other.box[3]));
		}
		if (off <= tolerance) anchors.within++;
		else if (anchors.misses.length < keepMisses) anchors.misses.push(`p${pageNumber} "${mine.raw}" ${found.length === 1 ? `${off.toFixed(2)} pt off` : `found ${found.length}×`}`);
		if (Number.isFinite(off)) anchors.worst = Math.max(anchors.worst, off);
		else anchors.worst = Infinity;
	}
	result.anchors = anchors;
	return result;
}

/** Sums page results into a file's (or producer's) figures. */
function addUp(results) {
	const total = { pages: 0, letters: 0, ours: 0, matched: 0, cappedPages: 0, fffd: 0, fffdAtLetters: 0, anchors: { compared: 0, within: 0, worst: 0, misses: [] } };
	for (const r of results) {
		total.pages += r.pages ?? 1;
		total.letters += r.letters;
		total.ours += r.ours;
		total.matched += r.matched;
		total.cappedPages += r.cappedPages ?? (r.capped ? 1 : 0);
		total.fffd += r.fffd;
		total.fffdAtLetters += r.fffdAtLetters;
		total.anchors.compared += r.anchors.compared;
		total.anchors.within += r.anchors.within;
		total.anchors.worst = Math.max(total.anchors.worst, r.anchors.worst);
		for (const miss of r.anchors.misses) if (total.anchors.misses.length < 8) total.anchors.misses.push(miss);
	}
	return total;
}

const percent = (part, whole) => (whole ? (100 * part) / whole : 100);

const REAL_DIR = path.join(__dirname, '..', '..', 'test', 'fixtures', 'real');

/** test/fixtures/real/manifest.json. */
const readRealManifest = () => JSON.parse(fs.readFileSync(path.join(REAL_DIR, 'manifest.json'), 'utf8'));

/** The committed files of the corpus with their manifest entries and bytes (for the jest suite: no fs in .ts tests). */
function readCommittedRealPdfs() {
	return readRealManifest()
		.files.filter((entry) => entry.committed)
		.map((entry) => {
			const bytes = fs.readFileSync(path.join(REAL_DIR, entry.committed));
			return { entry, bytes, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
		});
}

module.exports = { lettersOf, matchedInOrder, comparePage, addUp, percent, readRealManifest, readCommittedRealPdfs, MAX_EDITS };
