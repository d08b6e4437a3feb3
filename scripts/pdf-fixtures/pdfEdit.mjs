// Byte-level edits for the PDF fixtures (scripts/make-pdf-fixtures.sh): pinning volatile values, appending an
// incremental update, and damaging a cross-reference table. Files are handled as latin1 strings, one char per byte,
// so offsets in the string are byte offsets.
import { createHash } from 'node:crypto';

const latin1 = (buf) => Buffer.from(buf).toString('latin1');
const bytes = (str) => Buffer.from(str, 'latin1');

/** YYYYMMDDHHmmSS (UTC) of a Unix time in seconds. */
function pdfDateDigits(epochSeconds) {
	return new Date(epochSeconds * 1000).toISOString().replace(/[-T:]/g, '').slice(0, 14);
}

/**
 * Overwrites what changes from run to run with values of the same length, so no object moves and the xref stays right:
 * the digits of /CreationDate and /ModDate (with SOURCE_DATE_EPOCH's), and every /ID string and LibreOffice's
 * /DocChecksum (with a digest of the file with those values blanked). Only for unencrypted files (an /ID feeds the key).
 */
export function pinVolatile(buf, epochSeconds) {
	let text = latin1(buf);
	const digits = pdfDateDigits(epochSeconds);
	text = text.replace(/(\/(?:CreationDate|ModDate)\s*\(D:)(\d{4,14})/g, (_, head, old) => head + digits.slice(0, old.length));
	const idRe = /(\/ID\s*\[\s*<)([0-9A-Fa-f]*)(>\s*<)([0-9A-Fa-f]*)(>\s*\])/g;
	const sumRe = /(\/DocChecksum\s*\/)([0-9A-Fa-f]+)/g;
	const blank = (s) => '0'.repeat(s.length);
	const blanked = text
		.replace(idRe, (_, a, id1, b, id2, c) => a + blank(id1) + b + blank(id2) + c)
		.replace(sumRe, (_, a, sum) => a + blank(sum));
	const digest = createHash('sha256').update(bytes(blanked)).digest('hex').toUpperCase().repeat(2);
	const same = (old) => (old === old.toLowerCase() ? digest.toLowerCase() : digest).slice(0, old.length);
	text = blanked
		.replace(idRe, (_, a, id1, b, id2, c) => a + same(id1) + b + same(id2) + c)
		.replace(sumRe, (_, a, sum) => a + same(sum));
	return bytes(text);
}

/** The text of the dictionary starting at `start` (which must be at "<<"), brackets balanced. */
function dictAt(text, start) {
	let depth = 0;
	for (let i = start; i < text.length - 1; i++) {
		if (text[i] === '<' && text[i + 1] === '<') {
			depth++;
			i++;
		} else if (text[i] === '>' && text[i + 1] === '>') {
			depth--;
			i++;
			if (depth === 0) return text.slice(start, i + 1);
		}
	}
	throw new Error('unterminated dictionary');
}

/** The last trailer of a file with a classic xref table, and where its xref starts. */
export function lastTrailer(buf) {
	const text = latin1(buf);
	const sx = text.lastIndexOf('startxref');
	if (sx < 0) throw new Error('no startxref');
	const prev = Number(/startxref\s+(\d+)/.exec(text.slice(sx))[1]);
	const tr = text.lastIndexOf('trailer', sx);
	if (tr < 0 || !text.startsWith('xref', prev)) throw new Error('the last cross-reference section is not a classic table');
	const dict = dictAt(text, text.indexOf('<<', tr));
	const ref = (key) => new RegExp(`/${key}\\s+(\\d+\\s+\\d+\\s+R)`).exec(dict)?.[1];
	return {
		prev,
		size: Number(/\/Size\s+(\d+)/.exec(dict)[1]),
		root: ref('Root'),
		info: ref('Info'),
		id: /\/ID\s*\[[^\]]*\]/.exec(dict)?.[0],
	};
}

/**
 * Appends an incremental update: the original bytes stay as they are; after them come the new or replaced objects,
 * a cross-reference section for just those objects, and a trailer whose /Prev points at the previous section.
 * objects: [{ num, dict, stream? }] — dict is the object's dictionary text (without /Length when there is a stream).
 */
export function appendIncrementalUpdate(buf, objects) {
	const before = lastTrailer(buf);
	let text = latin1(buf);
	if (!text.endsWith('\n')) text += '\n';
	const offsets = new Map();
	for (const { num, dict, stream } of objects) {
		offsets.set(num, text.length);
		if (stream === undefined) {
			text += `${num} 0 obj\n${dict}\nendobj\n`;
		} else {
			const data = latin1(stream);
			const withLength = dict.replace(/>>\s*$/, `/Length ${data.length}>>`);
			text += `${num} 0 obj\n${withLength}\nstream\n${data}\nendstream\nendobj\n`;
		}
	}
	const xrefAt = text.length;
	text += 'xref\n';
	for (const num of [...offsets.keys()].sort((a, b) => a - b)) {
		// Each entry is exactly 20 bytes: 10-digit offset, 5-digit generation, type, two-byte end of line.
		text += `${num} 1\n${String(offsets.get(num)).padStart(10, '0')} 00000 n\r\n`;
	}
	const size = Math.max(before.size, ...[...offsets.keys()].map((n) => n + 1));
	const parts = [`/Size ${size}`, `/Root ${before.root}`];
	if (before.info) parts.push(`/Info ${before.info}`);
	if (before.id) parts.push(before.id);
	parts.push(`/Prev ${before.prev}`);
	text += `trailer\n<<${parts.join(' ')}>>\nstartxref\n${xrefAt}\n%%EOF\n`;
	return bytes(text);
}

/**
 * Shifts every object by inserting a comment line after the header, so each xref offset (and startxref) is off by its
 * length: a reader must find the objects by scanning for "N G obj".
 */
export function shiftAfterHeader(buf, comment) {
	const text = latin1(buf);
	const headerEnd = text.indexOf('\n', text.indexOf('\n') + 1) + 1; // after "%PDF-1.x" and the binary comment line
	return bytes(text.slice(0, headerEnd) + comment + text.slice(headerEnd));
}

/** Points the last startxref at `offset` (garbage, e.g. the middle of a stream). */
export function pointStartxrefAt(buf, offset) {
	const text = latin1(buf);
	const sx = text.lastIndexOf('startxref');
	return bytes(text.slice(0, sx) + text.slice(sx).replace(/startxref\s+\d+/, `startxref\n${offset}`));
}

/** Byte offset of the first occurrence of `needle` after `from`. */
export function indexOf(buf, needle, from = 0) {
	return latin1(buf).indexOf(needle, from);
}
