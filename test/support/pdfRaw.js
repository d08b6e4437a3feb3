'use strict';
/**
 * Raw PDF bytes for the PDF reader's unit tests (nodes/ESign/pdf): objects written as text, assembled with a
 * cross-reference table whose offsets are counted here (classic table, xref stream, hybrid file, objects packed into
 * an object stream), or left without one. Independent of the reader: nothing here parses PDF. Node's zlib makes the
 * Flate data (a .js helper, so the lint's ban on Node built-ins in .ts files does not apply).
 */
const zlib = require('node:zlib');

const bytesOf = (value) => (typeof value === 'string' ? Buffer.from(value, 'latin1') : Buffer.from(value));

/** zlib-wrapped deflate (FlateDecode's format). */
const deflate = (data, options) => zlib.deflateSync(bytesOf(data), options);
/** Raw deflate without the zlib header, as some producers write it. */
const deflateRaw = (data) => zlib.deflateRawSync(bytesOf(data));
const inflate = (data) => zlib.inflateSync(bytesOf(data));

/**
 * An object's body: a string (written as is), or a stream `{ dict, stream }` where `dict` holds the entries
 * without << >> (a /Length is added unless `dict` has one) and `stream` the bytes as stored.
 */
function body(object) {
	if (typeof object === 'string' || Buffer.isBuffer(object) || object instanceof Uint8Array) return bytesOf(object);
	const data = bytesOf(object.stream);
	const dict = object.dict ?? '';
	const length = /\/Length\b/.test(dict) ? '' : `/Length ${data.length} `;
	return Buffer.concat([bytesOf(`<< ${length}${dict} >>\nstream\n`), data, bytesOf('\nendstream')]);
}

const pad = (n, width) => String(n).padStart(width, '0');

/**
 * Assembles a PDF. `objects`: [[num, object], …] in file order (or { num: object }). Options:
 * - `xref`: 'classic' (default), 'stream' (a PDF 1.5 xref stream, /W [1 4 2]), 'hybrid' (a classic table whose
 *   trailer names the stream by /XRefStm; objects in `objectStream` are only in the stream), 'none';
 * - `objectStream`: numbers of objects to pack into one object stream (numbered `objectStreamNumber`, default the
 *   highest number + 1), deflated; needs xref 'stream' or 'hybrid';
 * - `root` (default 1), `trailer` (extra trailer entries, text), `header` (default '%PDF-1.7'), `size`;
 * - `offsetShift`: added to every offset written in the table (a table that lies), `startxref` (replaces the
 *   offset after "startxref"), `tail` (bytes after %%EOF);
 * - for the fuzzer: `mutateObjectStream(data)` and `mutateXrefStream(data)` change the decoded bytes of the object
 *   stream and of the xref stream before they are written, `objectStreamDict` adds entries to the object stream's
 *   dictionary and `xrefStreamDict` replaces the xref stream's entries (all but /Length).
 * Returns { bytes, offsets: { num: offset }, xrefOffset }.
 */
function buildPdf(objects, options = {}) {
	const list = Array.isArray(objects) ? objects.map(([num, object]) => [Number(num), object]) : Object.entries(objects).map(([num, object]) => [Number(num), object]);
	const xref = options.xref ?? 'classic';
	const packed = new Set(options.objectStream ?? []);
	const highest = Math.max(0, ...list.map(([num]) => num));
	const streamNumber = options.objectStreamNumber ?? highest + 1;
	const chunks = [];
	let at = 0;
	const write = (data) => {
		const bytes = bytesOf(data);
		chunks.push(bytes);
		at += bytes.length;
	};
	const offsets = {};
	write(`${options.header ?? '%PDF-1.7'}\n%\xe2\xe3\xcf\xd3\n`);
	const direct = list.filter(([num]) => !packed.has(num));
	for (const [num, object] of direct) {
		offsets[num] = at;
		write(`${num} 0 obj\n`);
		write(body(object));
		write('\nendobj\n');
	}
	const inStream = list.filter(([num]) => packed.has(num));
	if (inStream.length) {
		let header = '';
		let content = '';
		for (const [num, object] of inStream) {
			header += `${num} ${content.length} `;
			content += `${bytesOf(object).toString('latin1')}\n`;
		}
		let data = Buffer.from(header + content, 'latin1');
		if (options.mutateObjectStream) data = options.mutateObjectStream(data);
		offsets[streamNumber] = at;
		write(`${streamNumber} 0 obj\n`);
		write(body({ dict: `/Type /ObjStm /N ${inStream.length} /First ${header.length} /Filter /FlateDecode ${options.objectStreamDict ?? ''}`, stream: deflate(data) }));
		write('\nendobj\n');
	}
	const shift = options.offsetShift ?? 0;
	const size = options.size ?? Math.max(highest, inStream.length ? streamNumber : 0) + 2;
	const root = options.root ?? 1;
	const extra = options.trailer ?? '';
	let xrefOffset = at;
	const rows = (withStreamEntries, selfNumber, selfOffset) => {
		// One row per object number 0 .. size-1: [type, field2, field3].
		const out = [];
		for (let num = 0; num < size; num++) {
			const index = inStream.findIndex(([n]) => n === num);
			if (num === selfNumber) out.push([1, selfOffset + shift, 0]);
			else if (index >= 0 && withStreamEntries) out.push([2, streamNumber, index]);
			else if (offsets[num] !== undefined && !(index >= 0)) out.push([1, offsets[num] + shift, 0]);
			else out.push([0, 0, num === 0 ? 65535 : 0]);
		}
		return out;
	};
	const xrefStream = (selfNumber, trailerEntries) => {
		const selfOffset = at;
		const table = rows(true, selfNumber, selfOffset);
		let data = Buffer.alloc(table.length * 7);
		table.forEach(([type, second, third], i) => {
			data.writeUInt8(type, i * 7);
			data.writeUInt32BE(second, i * 7 + 1);
			data.writeUInt16BE(third, i * 7 + 5);
		});
		if (options.mutateXrefStream) data = options.mutateXrefStream(data);
		write(`${selfNumber} 0 obj\n`);
		write(body({ dict: options.xrefStreamDict ?? `/Type /XRef /Size ${size} /W [1 4 2] /Root ${root} 0 R ${trailerEntries}`, stream: data }));
		write('\nendobj\n');
		return selfOffset;
	};
	if (xref === 'classic' || xref === 'hybrid') {
		let hybridOffset;
		if (xref === 'hybrid') hybridOffset = xrefStream(size - 1, '');
		xrefOffset = at;
		const table = rows(false, -1, 0).map(([type, second, third], num) =>
			num === size - 1 && hybridOffset !== undefined ? [0, 0, 0] : [type, second, third],
		);
		write(`xref\n0 ${table.length}\n`);
		for (const [type, second, third] of table) write(`${pad(second, 10)} ${pad(third, 5)} ${type === 1 ? 'n' : 'f'}\r\n`);
		const hybrid = hybridOffset !== undefined ? ` /XRefStm ${hybridOffset}` : '';
		write(`trailer\n<< /Size ${size} /Root ${root} 0 R${hybrid} ${extra} >>\n`);
	} else if (xref === 'stream') {
		xrefOffset = xrefStream(size - 1, extra);
	}
	if (xref !== 'none') write(`startxref\n${options.startxref ?? xrefOffset}\n%%EOF\n`);
	if (options.tail) write(options.tail);
	return { bytes: Buffer.concat(chunks), offsets, xrefOffset };
}

/** Widths of a test font: every code from 32 to 126 is 500/1000 em wide, except those given. */
function widthsArray(overrides = {}) {
	const widths = [];
	for (let code = 32; code <= 126; code++) widths.push(overrides[code] ?? 500);
	return `[${widths.join(' ')}]`;
}

/**
 * A PDF of pages with the given content streams. Each page: { content (text), mediaBox, cropBox, rotate,
 * resources (text of the Resources dict's entries; default one font /F1, see below), deflate (bool), raw (the
 * content stream object as written, e.g. { dict: '/Filter /FlateDecode', stream: bytes }) }. Font /F1 is
 * a Type1 font "TestSans" with /FirstChar 32 and every width 500 (so positions are easy to work out), WinAnsi.
 * `extra`: more objects [[num, object]] (numbers from 100 up are free). Returns the bytes.
 */
function pagesPdf(pages, options = {}) {
	const objects = [
		[1, '<< /Type /Catalog /Pages 2 0 R >>'],
		[2, `<< /Type /Pages /Kids [${pages.map((_, i) => `${10 + i * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`],
		[3, `<< /Type /Font /Subtype /Type1 /BaseFont /TestSans /FirstChar 32 /LastChar 126 /Widths ${widthsArray(options.widths)} /Encoding /WinAnsiEncoding >>`],
	];
	pages.forEach((page, i) => {
		const box = (name, rect) => (rect ? ` /${name} [${rect.join(' ')}]` : '');
		const resources = page.resources ?? '/Font << /F1 3 0 R >>';
		const rotate = page.rotate !== undefined ? ` /Rotate ${page.rotate}` : '';
		objects.push([
			10 + i * 2,
			`<< /Type /Page /Parent 2 0 R${box('MediaBox', page.mediaBox ?? [0, 0, 612, 792])}${box('CropBox', page.cropBox)}${rotate} /Resources << ${resources} >> /Contents ${11 + i * 2} 0 R >>`,
		]);
		const content = bytesOf(page.content ?? '');
		objects.push([11 + i * 2, page.raw ?? (page.deflate ? { dict: '/Filter /FlateDecode', stream: deflate(content) } : { stream: content })]);
	});
	for (const extra of options.extra ?? []) objects.push(extra);
	return buildPdf(objects, options.build ?? {}).bytes;
}

module.exports = { buildPdf, pagesPdf, deflate, deflateRaw, inflate };
