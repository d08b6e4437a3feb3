'use strict';
/**
 * Hostile PDFs for the reader (nodes/ESign/pdf): decompression bombs, content that multiplies, reference cycles,
 * nesting and counts without end, tables that loop or lie. Each case says what the read must end in: a PdfError of a
 * kind, or a read that succeeds (`outcome: 'ok'`, with the texts it must find when that is known). Used by
 * test/unit/pdf/hostile.slow.test.ts (in a heap-limited child) and scripts/pdf-hostile.mjs (time and peak memory, each in
 * its own process). Files are built on demand: some are megabytes.
 */
const { buildPdf, pagesPdf, deflate } = require('./pdfRaw.js');
const { bitWriter, widthFor } = require('./pdfEncoders.js');
const { cffProgram, cmapFormat4, cmapTable, int32, postFormat2, trueTypeProgram, type1Program, u16 } = require('./fontPrograms.js');

const MB = 1048576;

/**
 * A zlib stream of `size` zero bytes, made without compressing them: zlib's deflate of 1 MiB of zeros, flushed so it
 * ends on a byte boundary, repeated (each copy decodes to another MiB: its back-references only reach zeros), then
 * an empty final block and the Adler-32 of the whole (for n zeros: a = 1, b = n mod 65521).
 */
function zeroBomb(size) {
	const zlib = require('node:zlib');
	const block = zlib.deflateRawSync(Buffer.alloc(MB), { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
	const copies = Math.ceil(size / MB);
	const adler = Buffer.alloc(4);
	adler.writeUInt32BE((((copies * MB) % 65521) * 65536 + 1) >>> 0);
	return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: copies }, () => block), Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]), adler]);
}

/**
 * LZW codes that make a zero-byte string one byte longer each time (the decoder's KwKwK case) until the table is
 * full, then clear it: 1 + 2 + … + 3,839 bytes per table, `tables` times (~7.4 MB each).
 */
function lzwZeroBomb(tables) {
	const { put, bytes } = bitWriter();
	const width = (size) => widthFor(size + 1); // the decoder's table lags the writer's by one code
	put(256, 9);
	for (let t = 0; t < tables; t++) {
		let size = 258;
		put(0, width(size));
		for (let code = 258; code <= 4095; code++) {
			put(code, width(size));
			size++;
		}
		put(256, width(size));
	}
	put(257, 9);
	return Buffer.from(bytes());
}

const FONT = '/Font << /F1 3 0 R >>';
const text = (words) => `BT /F1 12 Tf 72 700 Td (${words}) Tj ET`;

/**
 * A page showing "font" in a simple font with no ToUnicode and no /Encoding whose descriptor embeds `program` as
 * `key` (FontFile, FontFile2, FontFile3; `dict` more stream entries, deflated), so the reader reads the program.
 */
const fontProgramPdf = (key, dict, program, flags = '/Flags 32') =>
	pagesPdf([{ content: 'BT /F2 12 Tf 72 700 Td (font) Tj ET', resources: '/Font << /F2 5 0 R >>' }], {
		extra: [
			[5, `<< /Type /Font /Subtype /${key === 'FontFile2' ? 'TrueType' : 'Type1'} /BaseFont /ABCDEF+Hostile /FirstChar 32 /LastChar 126 /Widths [] /FontDescriptor 6 0 R >>`],
			[6, `<< /Type /FontDescriptor /FontName /ABCDEF+Hostile ${flags} /${key} 7 0 R >>`],
			[7, { dict: `/Filter /FlateDecode ${dict}`, stream: deflate(program) }],
		],
	});

/** Forms 20… drawn by the page: `forms` is [[num, content, extra dict text]]. */
const formObject = (num, content, dict = '') => [num, { dict: `/Type /XObject /Subtype /Form /BBox [0 0 612 792] ${dict}`, stream: content }];

/** A one-page file with /AcroForm /Fields [fields] and the page's /Annots [annots] (objects from 20 on). */
const formPdf = (fields, annots, objects) =>
	buildPdf([
		[1, `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [${fields}] >> >>`],
		[2, '<< /Type /Pages /Kids [10 0 R] /Count 1 >>'],
		[10, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [${annots}] >>`],
		...objects,
	]).bytes;
const formWidget = (extra) => `<< /Type /Annot /Subtype /Widget /Rect [100 100 200 120] /P 10 0 R ${extra} >>`;

const CASES = [
	{
		name: 'Flate bomb: 1 GiB of zeros in a 1 MB page content stream',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () => pagesPdf([{ raw: { dict: '/Filter /FlateDecode', stream: zeroBomb(1024 * MB) } }]),
	},
	{
		name: 'Flate bomb in every one of 50 pages (the read stops at the first)',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () => {
			const bomb = zeroBomb(64 * MB);
			return pagesPdf(Array.from({ length: 50 }, () => ({ raw: { dict: '/Filter /FlateDecode', stream: bomb } })));
		},
	},
	{
		name: 'Flate streams of 30 MB each on 12 pages (each under the stream cap; the 256 MB read total stops them)',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () => {
			const big = zeroBomb(30 * MB);
			return pagesPdf(Array.from({ length: 12 }, () => ({ raw: { dict: '/Filter /FlateDecode', stream: big } })));
		},
	},
	{
		name: 'LZW bomb: 74 MB of zeros from 56 KB of codes',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () => pagesPdf([{ raw: { dict: '/Filter /LZWDecode', stream: lzwZeroBomb(10) } }]),
	},
	{
		name: 'RunLength bomb: 64 MB from 1 MB',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () => pagesPdf([{ raw: { dict: '/Filter /RunLengthDecode', stream: Buffer.alloc(MB, 129) } }]),
	},
	{
		name: 'ASCII85 bomb: 40 MB of zeros from 10 MB of "z"',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () => pagesPdf([{ raw: { dict: '/Filter /ASCII85Decode', stream: `${'z'.repeat(10 * MB)}~>` } }]),
	},
	{
		name: 'a 64 KB Form XObject drawn 10,000 times (640 MB of content)',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () =>
			pagesPdf([{ content: '/Fm1 Do '.repeat(10_000), resources: `${FONT} /XObject << /Fm1 20 0 R >>` }], {
				extra: [formObject(20, `${text('form')} `.repeat(Math.ceil(65536 / 40)))],
			}),
	},
	{
		name: 'forms that draw the next one 10 times, 12 levels deep (10^12 draws of tiny forms)',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () => {
			const extra = [];
			for (let level = 0; level < 12; level++) {
				const next = level < 11 ? `/Fm${level + 1} Do `.repeat(10) : text('x');
				extra.push(formObject(20 + level, next, level < 11 ? `/Resources << /XObject << /Fm${level + 1} ${21 + level} 0 R >> ${FONT} >>` : `/Resources << ${FONT} >>`));
			}
			return pagesPdf([{ content: '/Fm0 Do', resources: `${FONT} /XObject << /Fm0 20 0 R >>` }], { extra });
		},
	},
	{
		name: 'a 64 KB Form XObject of paths (no text) drawn 10,000 times',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () =>
			pagesPdf([{ content: '/Fm1 Do '.repeat(10_000), resources: `${FONT} /XObject << /Fm1 20 0 R >>` }], {
				extra: [formObject(20, '10 10 m 20 20 l S '.repeat(Math.ceil(65536 / 18)))],
			}),
	},
	{
		name: 'empty forms that draw the next one 10 times, 12 levels deep (10^12 draws, no text)',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () => {
			const extra = [];
			for (let level = 0; level < 12; level++) {
				const next = level < 11 ? `/Fm${level + 1} Do `.repeat(10) : '';
				extra.push(formObject(20 + level, next, level < 11 ? `/Resources << /XObject << /Fm${level + 1} ${21 + level} 0 R >> >>` : ''));
			}
			return pagesPdf([{ content: '/Fm0 Do', resources: `${FONT} /XObject << /Fm0 20 0 R >>` }], { extra });
		},
	},
	{
		name: 'a form that draws itself',
		expect: { outcome: 'ok', texts: ['self'] },
		build: () =>
			pagesPdf([{ content: '/Fm1 Do', resources: `${FONT} /XObject << /Fm1 20 0 R >>` }], {
				extra: [formObject(20, `${text('self')} /Fm1 Do`, `/Resources << ${FONT} /XObject << /Fm1 20 0 R >> >>`)],
			}),
	},
	{
		name: 'reference cycles: /Contents, /Resources, /MediaBox and a font that are references to each other',
		expect: { outcome: 'ok' },
		build: () =>
			buildPdf([
				[1, '<< /Type /Catalog /Pages 2 0 R >>'],
				[2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
				[3, '<< /Type /Page /Parent 2 0 R /MediaBox 5 0 R /Resources 6 0 R /Contents 5 0 R >>'],
				[5, '6 0 R'],
				[6, '5 0 R'],
			]).bytes,
	},
	{
		name: 'a chain of 10,000 references (ref → ref → …)',
		expect: { outcome: 'ok' },
		build: () => {
			const objects = [
				[1, '<< /Type /Catalog /Pages 2 0 R >>'],
				[2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
				[3, '<< /Type /Page /Parent 2 0 R /Resources 10 0 R /Contents 10 0 R >>'],
			];
			for (let num = 10; num < 10_010; num++) objects.push([num, `${num + 1} 0 R`]);
			return buildPdf(objects).bytes;
		},
	},
	{
		name: '/Kids that loop back to the root and to the catalog',
		expect: { outcome: 'ok', texts: ['kids'] },
		build: () =>
			pagesPdf([{ content: text('kids') }], {
				extra: [[2, '<< /Type /Pages /Kids [2 0 R 10 0 R 1 0 R 2 0 R 10 0 R] /Count 5 >>']],
			}),
	},
	{
		name: 'a /Prev loop: the first table\'s /Prev names the update\'s, whose /Prev names the first',
		expect: { outcome: 'ok', texts: ['prev'] },
		build: () => {
			// The first trailer's /Prev is written with ten digits, so the file's length does not depend on it.
			const withPrev = (prev) => pagesPdf([{ content: text('prev') }], { build: { trailer: `/Prev ${String(prev).padStart(10, '0')}` } });
			const first = withPrev(0);
			const base = withPrev(first.length);
			const xrefAt = Number(/startxref\n(\d+)/.exec(base.toString('latin1'))[1]);
			const update = `xref\n0 1\n0000000000 65535 f\r\ntrailer\n<< /Size 12 /Root 1 0 R /Prev ${xrefAt} >>\nstartxref\n${base.length}\n%%EOF\n`;
			return Buffer.concat([base, Buffer.from(update, 'latin1')]);
		},
	},
	{
		name: 'a /Prev that points back to its own section, hiding the table that holds the objects',
		expect: { outcome: 'ok', texts: ['hidden'] },
		build: () => {
			const base = pagesPdf([{ content: text('hidden') }]);
			const at = base.length;
			return Buffer.concat([base, Buffer.from(`xref\n0 1\n0000000000 65535 f\r\ntrailer\n<< /Size 12 /Root 1 0 R /Prev ${at} >>\nstartxref\n${at}\n%%EOF\n`, 'latin1')]);
		},
	},
	{
		name: '100,000 nested arrays as a page attribute',
		expect: { outcome: 'PdfError', kind: 'damaged' },
		build: () => pagesPdf([{ content: text('deep'), mediaBox: ['['.repeat(100_000)] }]),
	},
	{
		name: '100,000 nested arrays as a content operand',
		expect: { outcome: 'ok', texts: ['after'] },
		build: () => pagesPdf([{ content: `BT /F1 12 Tf ${'['.repeat(100_000)}${']'.repeat(100_000)} TJ ET ${text('after')}` }]),
	},
	{
		name: 'a /Count of 10^15',
		expect: { outcome: 'ok', texts: ['count'] },
		build: () => pagesPdf([{ content: text('count') }], { extra: [[2, '<< /Type /Pages /Kids [10 0 R] /Count 1000000000000000 >>']] }),
	},
	{
		name: 'a stream /Length of 10^15',
		expect: { outcome: 'ok', texts: ['length'] },
		build: () => pagesPdf([{ raw: { dict: '/Length 1000000000000000', stream: text('length') } }]),
	},
	{
		name: '10^6 pages claimed: /Kids of a million references to one page (the page limit stops it)',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () => {
			const kids = Array.from({ length: 1_000_000 }, (_, k) => `10 ${k} R`).join(' ');
			return pagesPdf([{ content: text('many') }], { extra: [[2, `<< /Type /Pages /Kids [${kids}] /Count 1000000 >>`]] });
		},
	},
	{
		name: '10^6 pages claimed: /Kids of a million references to objects that do not exist',
		expect: { outcome: 'ok', texts: ['one'] },
		build: () => {
			const kids = ['10 0 R', ...Array.from({ length: 1_000_000 }, (_, k) => `${100 + k} 0 R`)].join(' ');
			return pagesPdf([{ content: text('one') }], { extra: [[2, `<< /Type /Pages /Kids [${kids}] /Count 1000000 >>`]] });
		},
	},
	{
		name: 'a ToUnicode bfrange spanning 0x0000–0xFFFFFFFF',
		expect: { outcome: 'ok', texts: ['ABC'] },
		build: () =>
			pagesPdf([{ content: 'BT /F2 12 Tf 72 700 Td <000000000000000100000002> Tj ET', resources: '/Font << /F2 5 0 R >>' }], {
				extra: [
					[5, '<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding 7 0 R /DescendantFonts [6 0 R] /ToUnicode 8 0 R >>'],
					[6, '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X >>'],
					[7, { stream: '1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange 1 begincidrange <00000000> <FFFFFFFF> 0 endcidrange' }],
					[8, { stream: '1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange 1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange' }],
				],
			}),
	},
	{
		name: 'an object stream that holds itself',
		expect: { outcome: 'PdfError', kind: 'damaged' },
		build: () => buildPdf([[1, '<< /Type /Catalog /Pages 2 0 R >>'], [2, '<< /Type /Pages /Kids [] >>']], { xref: 'stream', objectStream: [2], objectStreamNumber: 2 }).bytes,
	},
	{
		name: 'two object streams that hold each other',
		expect: { outcome: 'PdfError', kind: 'damaged' },
		build: () => {
			// Objects 5 and 6 are object streams listed (by the xref stream) as inside each other; the pages are in 5.
			const objects = [[1, '<< /Type /Catalog /Pages 2 0 R >>']];
			const { bytes, offsets } = buildPdf(objects, { xref: 'none' });
			const rows = [
				[0, 0, 0],
				[1, offsets[1], 0],
				[2, 5, 0],
				[0, 0, 0],
				[0, 0, 0],
				[2, 6, 0],
				[2, 5, 1],
			];
			const data = Buffer.alloc(rows.length * 7);
			rows.forEach(([type, second, third], i) => {
				data.writeUInt8(type, i * 7);
				data.writeUInt32BE(second, i * 7 + 1);
				data.writeUInt16BE(third, i * 7 + 5);
			});
			return Buffer.concat([
				bytes,
				Buffer.from(`7 0 obj\n<< /Type /XRef /Size 7 /W [1 4 2] /Root 1 0 R /Length ${data.length} >>\nstream\n`),
				data,
				Buffer.from(`\nendstream\nendobj\nstartxref\n${bytes.length}\n%%EOF\n`),
			]);
		},
	},
	{
		name: 'an object stream whose /Filter is an object inside that object stream',
		expect: { outcome: 'PdfError', kind: 'damaged' },
		build: () =>
			buildPdf(
				[
					[1, '<< /Type /Catalog /Pages 2 0 R >>'],
					[2, '<< /Type /Pages /Kids [] >>'],
					[6, '/FlateDecode'],
				],
				{ xref: 'stream', objectStream: [2, 6], objectStreamNumber: 7, objectStreamDict: '/Filter 6 0 R' },
			).bytes,
	},
	{
		name: 'an xref stream of zero-width rows (/W [0 0 0]) claiming 10^12 objects',
		expect: { outcome: 'PdfError', kind: 'damaged' },
		build: () =>
			Buffer.from(
				'%PDF-1.7\n1 0 obj\n<< /Type /XRef /Size 5 /W [0 0 0] /Index [0 1000000000000] /Root 2 0 R /Length 0 >>\nstream\n\nendstream\nendobj\nstartxref\n9\n%%EOF\n',
				'latin1',
			),
	},
	{
		name: 'an xref stream of 32 MB of one-byte rows (32 million entries)',
		expect: { outcome: 'PdfError' },
		build: () => {
			const rows = deflate(Buffer.alloc(32 * MB - 1, 1));
			const head = `%PDF-1.7\n1 0 obj\n<< /Type /XRef /Size 33554431 /W [0 1 0] /Root 2 0 R /Filter /FlateDecode /Length ${rows.length} >>\nstream\n`;
			return Buffer.concat([Buffer.from(head, 'latin1'), rows, Buffer.from('\nendstream\nendobj\nstartxref\n9\n%%EOF\n', 'latin1')]);
		},
	},
	{
		name: 'a damaged file whose recovery scan meets "1 0…0 obj" with 300,000 digits',
		expect: { outcome: 'PdfError', kind: 'damaged' },
		build: () => Buffer.from(`%PDF-1.7\n1 ${'0'.repeat(300_000)} obj\n<< >>\nendobj\n`, 'latin1'),
	},
	{
		name: 'one Tj of a 30 MB string on a page (30 million glyphs on one line)',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () => pagesPdf([{ raw: { dict: '/Filter /FlateDecode', stream: deflate(`BT /F1 12 Tf (${'{'.repeat(30 * MB)}) Tj ET`) } }]),
	},
	{
		name: 'four pages, each one line of 1,000,000 opening braces (tags are looked for per line)',
		expect: { outcome: 'ok' },
		build: () => {
			const page = { raw: { dict: '/Filter /FlateDecode', stream: deflate(`BT /F1 1 Tf (${'{'.repeat(999_000)}) Tj ET`) } };
			return pagesPdf([page, page, page, page]);
		},
	},
	{
		name: 'four pages, each a line of 120,000 tags and 120,000 occurrences of an anchor text',
		expect: { outcome: 'ok' },
		build: () => {
			const page = { raw: { dict: '/Filter /FlateDecode', stream: deflate(`BT /F1 1 Tf (${'{{x}} a '.repeat(120_000)}) Tj ET`) } };
			return pagesPdf([page, page, page, page]);
		},
	},
	{
		name: 'a 30 MB literal string full of escapes',
		expect: { outcome: 'ok', texts: ['after'] },
		build: () => pagesPdf([{ raw: { dict: '/Filter /FlateDecode', stream: deflate(`BT (${'\\n'.repeat(15 * MB)}) Tj ET ${text('after')}`) } }]),
	},
	{
		name: '20,001 real pages (the page limit)',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () => {
			const count = 20_001;
			const objects = [
				[1, '<< /Type /Catalog /Pages 2 0 R >>'],
				[2, `<< /Type /Pages /Kids [${Array.from({ length: count }, (_, k) => `${10 + k} 0 R`).join(' ')}] /Count ${count} >>`],
			];
			for (let k = 0; k < count; k++) objects.push([10 + k, '<< /Type /Page /Parent 2 0 R >>']);
			return buildPdf(objects).bytes;
		},
	},
	{
		name: 'a content stream of 10 million numbers in one array operand',
		expect: { outcome: 'ok', texts: ['after'] },
		build: () => pagesPdf([{ raw: { dict: '/Filter /FlateDecode', stream: deflate(`BT /F1 12 Tf [${'0 '.repeat(10_000_000)}] TJ ET ${text('after')}`) } }]),
	},
	{
		name: 'a million q without Q, then text',
		expect: { outcome: 'ok', texts: ['deep q'] },
		build: () => pagesPdf([{ raw: { dict: '/Filter /FlateDecode', stream: deflate(`${'q '.repeat(1_000_000)}${text('deep q')}`) } }]),
	},
	{
		name: 'a CID font whose /W array has a million entries',
		expect: { outcome: 'ok' },
		build: () =>
			pagesPdf([{ content: 'BT /F2 12 Tf 72 700 Td <0041> Tj ET', resources: '/Font << /F2 5 0 R >>' }], {
				extra: [
					[5, '<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [6 0 R] >>'],
					[6, `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X /W [${'0 4294967295 500 '.repeat(333_333)}] >>`],
				],
			}),
	},
	// Font programs (nodes/ESign/pdf/fonts/fontProgram.ts, cff.ts, trueType.ts, type1Program.ts): read when a simple font has
	// no ToUnicode and no base encoding; a program that cannot be read leaves the font as it was (the text still reads).
	{
		name: 'a CFF program whose Name INDEX claims 65,535 items at offsets of 2^32 − 1',
		expect: { outcome: 'ok', texts: ['font'] },
		build: () => fontProgramPdf('FontFile3', '/Subtype /Type1C', Uint8Array.from([1, 0, 4, 4, 0xff, 0xff, 4, ...new Array(64).fill(0xff)])),
	},
	{
		name: 'a CFF program of 65,535 glyphs whose charset ranges never end (100,000 one-glyph ranges, then the data ends)',
		expect: { outcome: 'ok', texts: ['font'] },
		build: () => {
			const ranges = [];
			for (let r = 0; r < 100_000; r++) ranges.push(0, 34, 0, 0);
			return fontProgramPdf('FontFile3', '/Subtype /Type1C', cffProgram({ glyphs: 65_535, charset: [2, ...ranges.slice(0, 65_530 * 4)], encoding: 0 }).subarray(0, -8));
		},
	},
	{
		name: 'a TrueType program with 65,535 cmap subtables, a format 4 of 32,767 segments and a post table of 65,535 glyphs past its end',
		expect: { outcome: 'ok', texts: ['font'] },
		build: () => {
			const segments = Array.from({ length: 32_766 }, (_, i) => [i * 2, 1]);
			const subtable = cmapFormat4(segments);
			const records = [];
			for (let i = 0; i < 65_535; i++) records.push(...u16(3), ...u16(0), ...int32(4 + 65_535 * 8));
			const cmap = [...u16(0), ...u16(65_535), ...records, ...subtable];
			const post = [...int32(0x20000), ...new Array(28).fill(0), ...u16(65_535), ...new Array(1000).fill(0xff)];
			return fontProgramPdf('FontFile2', '', trueTypeProgram({ cmap, post }), '/Flags 4');
		},
	},
	{
		name: 'a TrueType program whose post names point past its strings and whose tables lie about their offsets',
		expect: { outcome: 'ok', texts: ['font'] },
		build: () => {
			const post = postFormat2([0, 'x', 'y']);
			post[34 + 3] = 0xff;
			post[34 + 5] = 0xfe;
			const program = trueTypeProgram({ cmap: cmapTable([[3, 0, cmapFormat4([[0xf066, 1]])]]), post, glyf: [0, 0, 0, 0] });
			program.set(int32(0xfffffff0), 12 + 16 * 1 + 8); // glyf's offset
			return fontProgramPdf('FontFile2', '', program, '/Flags 4');
		},
	},
	{
		name: 'a Type 1 program whose cleartext holds a million dup lines (15 MB)',
		expect: { outcome: 'ok', texts: ['font'] },
		build: () => {
			const { data, length1 } = type1Program(`256 array\n${'dup 1 /one put\n'.repeat(1_000_000)}readonly def`);
			return fontProgramPdf('FontFile', `/Length1 ${length1}`, data);
		},
	},
	// Form-field trees (nodes/ESign/pdf/forms/forms.ts): read after the pages, as the node reads a fillable PDF.
	{
		name: 'form fields: a field tree 10,000 levels deep',
		expect: { outcome: 'PdfError', kind: 'damaged' },
		build: () => {
			const depth = 10_000;
			const objects = Array.from({ length: depth }, (_, i) => [20 + i, i + 1 < depth ? `<< /T (n) /Kids [${21 + i} 0 R] >>` : formWidget('/FT /Tx')]);
			return formPdf('20 0 R', `${20 + depth - 1} 0 R`, objects);
		},
	},
	{
		name: 'form fields: /Kids that loop (a field its own grandchild) and /Parent that loops',
		expect: { outcome: 'ok', fields: 1 },
		build: () =>
			formPdf('20 0 R 21 0 R', '22 0 R', [
				[20, '<< /T (a) /FT /Tx /Kids [21 0 R 20 0 R] /Parent 21 0 R >>'],
				[21, '<< /T (b) /Kids [20 0 R 22 0 R 21 0 R] /Parent 20 0 R >>'],
				[22, formWidget('/Parent 21 0 R')],
			]),
	},
	{
		name: 'form fields: a field with 1,000,000 kids',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () => formPdf('20 0 R', '21 0 R', [[20, `<< /T (a) /FT /Tx /Kids [${'21 0 R '.repeat(1_000_000)}] >>`], [21, formWidget('/Parent 20 0 R')]]),
	},
	{
		name: 'form fields: 20,000 fields, each its own widget (past the widget limit)',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () => formPdf('<< /Subtype /Widget /FT /Tx /T (x) /Rect [0 0 1 1] >> '.repeat(20_000), '', []),
	},
	{
		name: 'form fields: a 10 MB field name (/T), cut at the name limit',
		expect: { outcome: 'ok', fields: 1 },
		build: () => formPdf('20 0 R', '20 0 R', [[20, formWidget(`/T (${'n'.repeat(10 * MB)}) /FT /Tx`)]]),
	},
	{
		name: 'form fields: a choice list (/Opt) of 1,000,000 entries',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () => formPdf('20 0 R', '20 0 R', [[20, formWidget(`/T (c) /FT /Ch /Opt [${'(x) '.repeat(1_000_000)}]`)]]),
	},
	{
		name: 'form fields: /Rect of a 400-digit number (not finite: left out) and of 1e300 (kept)',
		expect: { outcome: 'ok', fields: 1 },
		build: () =>
			formPdf('20 0 R 21 0 R', '20 0 R 21 0 R', [
				[20, `<< /Subtype /Widget /FT /Tx /T (inf) /Rect [0 0 1${'0'.repeat(400)} 10] >>`],
				[21, `<< /Subtype /Widget /FT /Tx /T (huge) /Rect [-1${'0'.repeat(300)} 0 1${'0'.repeat(300)} 10] >>`],
			]),
	},
	{
		name: 'form fields: a page listing 1,000,000 annotations',
		expect: { outcome: 'PdfError', kind: 'limit' },
		build: () => formPdf('20 0 R', '20 0 R '.repeat(1_000_000), [[20, formWidget('/T (a) /FT /Tx')]]),
	},
	{
		name: 'form fields: a widget only /Annots lists, up a /Parent chain of 100,000 fields',
		expect: { outcome: 'ok', fields: 0 },
		build: () => {
			const count = 100_000;
			const objects = [[20, formWidget('/Parent 21 0 R')]];
			// The /FT is at the top, beyond the chain the reader follows: the widget's field is not known.
			for (let i = 1; i <= count; i++) objects.push([20 + i, i < count ? `<< /T (p) /Parent ${21 + i} 0 R >>` : '<< /T (top) /FT /Tx >>']);
			return formPdf('', '20 0 R', objects);
		},
	},
];

module.exports = { CASES, zeroBomb, lzwZeroBomb };
