// Sanity check of the pdf.js oracle against a second reader, poppler (pdftotext -bbox-layout -cropbox): poppler lays
// out each page as displayed (CropBox, then /Rotate; y down), like the oracle's viewport, so each tag's edges along its
// text should agree within 1 pt: left/right for text at 0° or 180°, top/bottom at ±90°. The edges across the text are
// not compared (poppler takes them from the font's ascent and descent, the oracle from the em box), nor is text at other
// angles (poppler builds words only in the four page directions), nor a {{…}} that poppler keeps in one word with
// other characters (e.g. a following full stop).
import { execFileSync } from 'node:child_process';

const TOLERANCE = 1;

const unescapeXml = (s) =>
	s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/** Tags poppler sees: per <line>, the words joined, {{ … }} spans, box = union of the words they touch. */
export function popplerTags(file, password) {
	const args = ['-bbox-layout', '-cropbox', ...(password ? ['-upw', password] : []), file, '-'];
	const html = execFileSync('pdftotext', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
	const tags = [];
	let pageNumber = 0;
	for (const pageHtml of html.split('<page ').slice(1)) {
		pageNumber++;
		for (const lineHtml of pageHtml.split('<line').slice(1)) {
			const words = [...lineHtml.matchAll(/<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g)].map(
				(m) => ({ box: m.slice(1, 5).map(Number), text: unescapeXml(m[5]) }),
			);
			let joined = '';
			const owner = [];
			words.forEach((w, i) => {
				for (const ch of w.text.replace(/\s+/g, '')) {
					joined += ch;
					owner.push(i);
				}
			});
			for (const m of joined.matchAll(/\{\{(?:(?!\{\{|\}\}).)*\}\}/g)) {
				const first = owner[m.index];
				const last = owner[m.index + m[0].length - 1];
				const span = words.slice(first, last + 1);
				const startsWord = m.index === 0 || owner[m.index - 1] !== first;
				const endsWord = m.index + m[0].length === owner.length || owner[m.index + m[0].length] !== last;
				tags.push({
					page: pageNumber,
					text: m[0],
					box: [
						Math.min(...span.map((w) => w.box[0])),
						Math.min(...span.map((w) => w.box[1])),
						Math.max(...span.map((w) => w.box[2])),
						Math.max(...span.map((w) => w.box[3])),
					],
					wholeWords: startsWord && endsWord,
				});
			}
		}
	}
	return tags;
}

/**
 * Compares the oracle's tags (and non-tag braces) with poppler's, on every page of one file.
 * Returns { pdfjs, poppler, matched, compared, maxDiff, problems, notes }: problems are disagreements beyond 1 pt or
 * tags only one reader found; notes are tags left out of the comparison and why.
 */
export function compareWithPoppler(file, oracle, password) {
	const ours = [...oracle.tags, ...oracle.braces];
	const theirs = popplerTags(file, password);
	const problems = [];
	const notes = [];
	let matched = 0;
	let compared = 0;
	let maxDiff = 0;
	const left = [...theirs];
	for (const tag of ours) {
		const where = `p${tag.page} ${tag.text}`;
		if (![0, 90, -90, 180].includes(tag.angle)) {
			notes.push(`${where}: text at ${tag.angle}°, not compared`);
			const i = left.findIndex((t) => t.page === tag.page && t.text === tag.text);
			if (i >= 0) left.splice(i, 1);
			continue;
		}
		// Edges along the text: x for horizontal text, y for vertical text.
		const [lo, hi] = tag.angle === 0 || tag.angle === 180 ? [0, 2] : [1, 3];
		let best = -1;
		let bestDist = Infinity;
		left.forEach((t, i) => {
			if (t.page !== tag.page || t.text !== tag.text) return;
			const dist = Math.abs(t.box[lo] - tag.box[lo]) + Math.abs(t.box[hi] - tag.box[hi]);
			if (dist < bestDist) [best, bestDist] = [i, dist];
		});
		if (best < 0) {
			problems.push(`${where}: not found by poppler`);
			continue;
		}
		const [t] = left.splice(best, 1);
		matched++;
		if (!t.wholeWords) {
			notes.push(`${where}: poppler's word holds more than the braces, not compared`);
			continue;
		}
		compared++;
		const diff = Math.max(Math.abs(t.box[lo] - tag.box[lo]), Math.abs(t.box[hi] - tag.box[hi]));
		maxDiff = Math.max(maxDiff, diff);
		if (diff > TOLERANCE) {
			const edge = lo === 0 ? 'left/right' : 'top/bottom';
			problems.push(`${where}: ${edge} ${tag.box[lo]}/${tag.box[hi]} vs poppler ${t.box[lo]}/${t.box[hi]}`);
		}
	}
	for (const t of left) problems.push(`p${t.page} ${t.text}: found by poppler only`);
	return { pdfjs: ours.length, poppler: theirs.length, matched, compared, maxDiff, problems, notes };
}
