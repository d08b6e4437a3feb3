// The PDF reader's cross-reference (nodes/ESign/pdf/read/xref.ts and document.ts): classic tables with subsections,
// xref streams with /W and /Index, hybrid files, /Prev chains (and loops), and the recovery scan when the table lies.
// Offsets are counted by test/support/pdfRaw.js as it writes the file, never by the reader.
import { PdfDocument } from '../../../nodes/ESign/pdf/read/document';
import { decodeFilters } from '../../../nodes/ESign/pdf/read/filters';
import { PdfDict, PdfError, PdfRef, PdfStream } from '../../../nodes/ESign/pdf/read/objects';
import type { PdfObject } from '../../../nodes/ESign/pdf/read/objects';
import { readXref, scanXref } from '../../../nodes/ESign/pdf/read/xref';
import { PdfText } from '../../../nodes/ESign/pdf';
import { buildPdf, deflate, pagesPdf } from '../../support/pdfRaw';
import { pdfError } from './run';

const latin = (bytes: Uint8Array) => String.fromCharCode(...bytes);
const concat = (...parts: Array<Uint8Array | string>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const row = (offset: number, gen: number, kind: 'n' | 'f') => `${String(offset).padStart(10, '0')} ${String(gen).padStart(5, '0')} ${kind}\r\n`;
const decodeStream = (stream: PdfStream) => decodeFilters(stream.raw, stream.dict.get('Filter'), stream.dict.get('DecodeParms'), 1 << 25);

const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>';
const PAGES = '<< /Type /Pages /Kids [] /Count 0 >>';

/** Objects 1, 2 and 5 (a string) with no table; the table is written by each test. */
function body() {
	return buildPdf(
		[
			[1, CATALOG],
			[2, PAGES],
			[5, '(five)'],
		],
		{ xref: 'none' },
	);
}

async function open(bytes: Uint8Array) {
	return PdfDocument.open(bytes);
}

async function value(doc: PdfDocument, num: number): Promise<PdfObject | string> {
	const object = await doc.fetch(new PdfRef(num, 0));
	return object instanceof Uint8Array ? latin(object) : object;
}

describe('classic tables', () => {
	it('reads subsections ("0 3" and "5 1"), and nothing else', async () => {
		const { bytes, offsets } = body();
		const table = `xref\n0 3\n${row(0, 65535, 'f')}${row(offsets[1], 0, 'n')}${row(offsets[2], 0, 'n')}5 1\n${row(offsets[5], 0, 'n')}`;
		const file = concat(bytes, table, `trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${bytes.length}\n%%EOF\n`);
		const xref = await readXref(file, decodeStream);
		expect([...xref.entries.keys()].sort((a, b) => a - b)).toEqual([1, 2, 5]);
		expect(xref.entries.get(5)).toMatchObject({ type: 1, offset: offsets[5], gen: 0 });
		expect(xref.recovered).toBe(false);
		const doc = await open(file);
		expect(doc.xref.recovered).toBe(false);
		expect(await value(doc, 5)).toBe('five');
		expect(await value(doc, 3)).toBeNull();
	});

	it('numbers a table that starts at 1 with the free head of the list from 0 (a classic producer bug)', async () => {
		const { bytes, offsets } = body();
		const table = `xref\n1 3\n${row(0, 65535, 'f')}${row(offsets[1], 0, 'n')}${row(offsets[2], 0, 'n')}`;
		const file = concat(bytes, table, `trailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n${bytes.length}\n%%EOF\n`);
		const xref = await readXref(file, decodeStream);
		expect(xref.entries.get(1)).toMatchObject({ type: 1, offset: offsets[1] });
		expect(xref.entries.get(2)).toMatchObject({ type: 1, offset: offsets[2] });
		const doc = await open(file);
		expect(doc.xref.recovered).toBe(false);
	});

	it('refuses a subsection of more than ten million entries', async () => {
		const file = concat(body().bytes, 'xref\n0 10000001\n');
		await expect(readXref(concat(file, `trailer << >>\nstartxref\n${body().bytes.length}\n%%EOF`), decodeStream)).rejects.toThrow(PdfError);
	});
});

/** The body of `body()` plus a classic table, then an update that replaces 5, frees 2… as a test needs. */
function withUpdate(update: (base: { bytes: Buffer; offsets: Record<number, number>; xref: number }) => string | Buffer) {
	const { bytes, offsets } = body();
	const table = `xref\n0 3\n${row(0, 65535, 'f')}${row(offsets[1], 0, 'n')}${row(offsets[2], 0, 'n')}5 1\n${row(offsets[5], 0, 'n')}`;
	const base = concat(bytes, table, `trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${bytes.length}\n%%EOF\n`);
	return concat(base, update({ bytes: base, offsets, xref: bytes.length }));
}

describe('/Prev chains', () => {
	it('takes the newest definition of an object and honours an object freed by an update', async () => {
		const file = withUpdate(({ bytes, xref }) => {
			const newFive = bytes.length;
			const object = '5 0 obj\n(new five)\nendobj\n';
			const table = `xref\n0 1\n${row(0, 65535, 'f')}5 2\n${row(newFive, 0, 'n')}${row(0, 1, 'f')}`;
			return `${object}${table}trailer\n<< /Size 7 /Root 1 0 R /Prev ${xref} >>\nstartxref\n${newFive + object.length}\n%%EOF\n`;
		});
		const doc = await open(file);
		expect(doc.xref.recovered).toBe(false);
		expect(await value(doc, 5)).toBe('new five');
		expect(doc.xref.entries.has(6)).toBe(false);
		expect(doc.xref.trailer.get('Prev')).toBeDefined();
	});

	it('an object freed in the newest section stays free though an older section has it', async () => {
		const file = withUpdate(({ bytes, xref }) => `xref\n5 1\n${row(0, 1, 'f')}trailer\n<< /Size 6 /Root 1 0 R /Prev ${xref} >>\nstartxref\n${bytes.length}\n%%EOF\n`);
		const xref = await readXref(file, decodeStream);
		expect(xref.entries.has(5)).toBe(false);
		expect(xref.entries.has(1)).toBe(true);
	});

	it('stops at a /Prev that points back to its own section, with every entry read', async () => {
		const file = withUpdate(({ bytes }) => `xref\n5 1\n${row(0, 1, 'f')}trailer\n<< /Size 6 /Root 1 0 R /Prev ${bytes.length} >>\nstartxref\n${bytes.length}\n%%EOF\n`);
		const xref = await readXref(file, decodeStream);
		expect(xref.entries.has(5)).toBe(false);
		expect(xref.entries.has(1)).toBe(false); // the older section is not in the chain any more
		expect(xref.trailer.get('Root')).toBeInstanceOf(PdfRef);
	});

	it('stops at a loop of two sections (A → B → A)', async () => {
		const { bytes, offsets } = body();
		const a = bytes.length;
		const sectionA = `xref\n0 2\n${row(0, 65535, 'f')}${row(offsets[1], 0, 'n')}trailer\n<< /Size 6 /Root 1 0 R /Prev `;
		// B's offset is known once A is written: A's /Prev is padded to a fixed width.
		const b = a + sectionA.length + 10 + ' >>\n'.length;
		const file = concat(
			bytes,
			`${sectionA}${String(b).padEnd(10)} >>\n`,
			`xref\n2 1\n${row(offsets[2], 0, 'n')}5 1\n${row(offsets[5], 0, 'n')}trailer\n<< /Size 6 /Prev ${a} >>\n`,
			`startxref\n${a}\n%%EOF\n`,
		);
		const xref = await readXref(file, decodeStream);
		expect([...xref.entries.keys()].sort()).toEqual([1, 2, 5]);
		const doc = await open(file);
		expect(doc.xref.recovered).toBe(false);
		expect(await value(doc, 5)).toBe('five');
	});

	it('refuses a /Prev outside the file in readXref, and the document recovers by scanning', async () => {
		const file = withUpdate(({ bytes }) => `xref\n5 1\n${row(0, 1, 'f')}trailer\n<< /Size 6 /Root 1 0 R /Prev 99999999 >>\nstartxref\n${bytes.length}\n%%EOF\n`);
		await expect(readXref(file, decodeStream)).rejects.toThrow(PdfError);
		const doc = await open(file);
		expect(doc.xref.recovered).toBe(true);
		expect(await value(doc, 5)).toBe('five');
	});
});

describe('xref streams', () => {
	it('reads /W [1 2 1] rows in the /Index subsections, type 1 and type 2 (object stream) entries', async () => {
		// Objects 7 and 8 inside object stream 9; 1, 2 direct. The xref stream (10) is written here.
		const { bytes, offsets } = buildPdf(
			[
				[1, CATALOG],
				[2, PAGES],
				[7, '(seven)'],
				[8, '[1 2 3]'],
			],
			{ xref: 'none', objectStream: [7, 8], objectStreamNumber: 9 },
		);
		const rows: number[][] = [
			[0, 0, 255], // 0: free
			[1, offsets[1], 0],
			[1, offsets[2], 0],
			[2, 9, 0], // 7: object stream 9, index 0
			[2, 9, 1],
			[1, offsets[9], 0],
		];
		const data = Buffer.alloc(rows.length * 4);
		rows.forEach(([type, second, third], i) => {
			data.writeUInt8(type, i * 4);
			data.writeUInt16BE(second, i * 4 + 1);
			data.writeUInt8(third, i * 4 + 3);
		});
		const xrefAt = bytes.length;
		const file = concat(
			bytes,
			`10 0 obj\n<< /Type /XRef /Size 11 /W [1 2 1] /Index [0 3 7 3] /Root 1 0 R /Length ${data.length} >>\nstream\n`,
			data,
			`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`,
		);
		const xref = await readXref(file, decodeStream);
		expect([...xref.entries.keys()].sort((a, b) => a - b)).toEqual([1, 2, 7, 8, 9]);
		expect(xref.entries.get(8)).toMatchObject({ type: 2, stream: 9, index: 1 });
		const doc = await open(file);
		expect(doc.xref.recovered).toBe(false);
		expect(await value(doc, 7)).toBe('seven');
		expect(await value(doc, 8)).toEqual([1, 2, 3]);
	});

	it('reads every row as type 1 when the type field is 0 bytes wide (/W [0 4 1])', async () => {
		const { bytes, offsets } = body();
		const data = Buffer.alloc(3 * 5);
		[
			[offsets[1], 0],
			[offsets[2], 0],
		].forEach(([offset, gen], i) => {
			data.writeUInt32BE(offset, (i + 1) * 5);
			data.writeUInt8(gen, (i + 1) * 5 + 4);
		});
		const file = concat(
			bytes,
			`9 0 obj\n<< /Type /XRef /Size 3 /W [0 4 1] /Root 1 0 R /Length ${data.length} >>\nstream\n`,
			data,
			`\nendstream\nendobj\nstartxref\n${bytes.length}\n%%EOF\n`,
		);
		const xref = await readXref(file, decodeStream);
		expect(xref.entries.get(1)).toMatchObject({ type: 1, offset: offsets[1] });
		expect(xref.entries.get(2)).toMatchObject({ type: 1, offset: offsets[2] });
	});

	it('reads a deflated xref stream written by the helper (with an object stream)', async () => {
		const { bytes } = buildPdf(
			[
				[1, CATALOG],
				[2, PAGES],
				[5, '(packed five)'],
			],
			{ xref: 'stream', objectStream: [2, 5] },
		);
		const doc = await open(bytes);
		expect(doc.xref.recovered).toBe(false);
		expect(doc.xref.entries.get(5)?.type).toBe(2);
		expect(await value(doc, 5)).toBe('packed five');
	});

	it('hybrid files: objects only in the /XRefStm stream are found', async () => {
		const { bytes } = buildPdf(
			[
				[1, CATALOG],
				[2, PAGES],
				[5, '(only in the stream)'],
			],
			{ xref: 'hybrid', objectStream: [5] },
		);
		expect(latin(bytes)).toMatch(/\/XRefStm \d+/);
		const xref = await readXref(bytes, decodeStream);
		expect(xref.entries.get(5)?.type).toBe(2);
		const doc = await open(bytes);
		expect(await value(doc, 5)).toBe('only in the stream');
	});
});

describe('recovery when the table lies', () => {
	const text = async (bytes: Uint8Array) => {
		const pdf = await PdfText.open(bytes);
		return { repaired: pdf.repaired, lines: (await pdf.lines(1)).map((line) => line.text) };
	};
	const page = [{ content: 'BT /F1 12 Tf 72 700 Td (Recovered text) Tj ET' }];

	it('reads a sound file without scanning', async () => {
		expect(await text(pagesPdf(page))).toEqual({ repaired: false, lines: ['Recovered text'] });
	});

	it.each([
		['every offset 7 bytes short', { offsetShift: -7 }],
		['every offset 30 bytes long', { offsetShift: 30 }],
		['startxref into the middle of an object', { startxref: 20 }],
		['startxref past the end', { startxref: 99999999 }],
		['startxref not a number', { startxref: 'abc' }],
		['no table at all', { xref: 'none' as const }],
		['an xref stream whose offsets are wrong', { xref: 'stream' as const, offsetShift: -3 }],
	])('rebuilds the table by scanning: %s', async (_case, build) => {
		expect(await text(pagesPdf(page, { build }))).toEqual({ repaired: true, lines: ['Recovered text'] });
	});

	it('rebuilds a table that does not name the catalog (a /Prev back to its own section hid the one that did)', async () => {
		const base = pagesPdf(page);
		const at = base.length;
		const update = `xref\n0 1\n0000000000 65535 f\r\ntrailer\n<< /Size 12 /Root 1 0 R /Prev ${at} >>\nstartxref\n${at}\n%%EOF\n`;
		expect(await text(concat(base, update))).toEqual({ repaired: true, lines: ['Recovered text'] });
	});

	it('finds objects inside object streams after a scan', async () => {
		const { bytes } = buildPdf(
			[
				[1, CATALOG],
				[2, PAGES],
				[5, '(packed)'],
			],
			{ xref: 'stream', objectStream: [2, 5], startxref: 10 },
		);
		const doc = await open(bytes);
		expect(doc.xref.recovered).toBe(true);
		expect(await value(doc, 5)).toBe('packed');
	});

	it('finds the catalog by /Type when no trailer survived', async () => {
		const { bytes } = buildPdf(
			[
				[3, '(not the catalog)'],
				[4, CATALOG],
				[2, PAGES],
			],
			{ xref: 'none' },
		);
		const doc = await open(bytes);
		expect(doc.rootRef).toEqual(new PdfRef(4, 0));
	});

	it('scanning keeps the later of two definitions (an incremental update) and the last trailer with /Root', () => {
		const file = concat(
			'%PDF-1.4\n5 0 obj (old) endobj\ntrailer << /Root 1 0 R >>\n',
			'5 0 obj (new) endobj\ntrailer << /Root 9 0 R >>\ntrailer << /Size 3 >>\n',
		);
		const xref = scanXref(file);
		expect(xref.entries.get(5)).toMatchObject({ type: 1, offset: latin(file).lastIndexOf('5 0 obj') });
		expect(xref.trailer.get('Root')).toEqual(new PdfRef(9, 0));
		expect(xref.recovered).toBe(true);
	});

	it('scanning skips headers whose numbers run on for too many digits (300,000 of them, or an 11-digit object number)', () => {
		const file = concat('%PDF-1.4\n', `1 ${'0'.repeat(300_000)} obj (long generation) endobj\n`, '12345678901 0 obj (long number) endobj\n', '7 0 obj (fine) endobj\n');
		const xref = scanXref(file);
		expect([...xref.entries.keys()]).toEqual([7]);
	});

	it('rebuilds lazily when an entry past the first eight is wrong', async () => {
		const objects: Array<[number, string]> = [
			[1, CATALOG],
			[2, PAGES],
		];
		for (let num = 3; num <= 12; num++) objects.push([num, `(object ${num})`]);
		const { bytes, offsets } = buildPdf(objects, { xref: 'none' });
		let table = `xref\n0 13\n${row(0, 65535, 'f')}`;
		for (let num = 1; num <= 12; num++) table += row(num === 12 ? offsets[3] : offsets[num], 0, 'n');
		const file = concat(bytes, table, `trailer\n<< /Size 13 /Root 1 0 R >>\nstartxref\n${bytes.length}\n%%EOF\n`);
		const doc = await open(file);
		expect(doc.xref.recovered).toBe(false);
		expect(await value(doc, 12)).toBe('object 12');
		expect(doc.xref.recovered).toBe(true);
	});
});

describe('object streams that would be read through themselves', () => {
	const damaged = async (bytes: Uint8Array, num: number) => {
		const doc = await open(bytes);
		expect((await pdfError(doc.fetch(new PdfRef(num, 0)))).kind).toBe('damaged');
	};

	it('an object stream listed inside itself', async () => {
		const { bytes } = buildPdf(
			[
				[1, CATALOG],
				[2, PAGES],
			],
			{ xref: 'stream', objectStream: [2], objectStreamNumber: 2 },
		);
		await damaged(bytes, 2);
	});

	it('an object stream whose /Filter is an object inside it (no wait without end)', async () => {
		const { bytes } = buildPdf(
			[
				[1, CATALOG],
				[2, PAGES],
				[6, '/FlateDecode'],
			],
			{ xref: 'stream', objectStream: [2, 6], objectStreamNumber: 7, objectStreamDict: '/Filter 6 0 R' },
		);
		await damaged(bytes, 2);
	});
});

describe('xref streams that claim more than the file holds', () => {
	const xrefStream = (dict: string, rows: Uint8Array) =>
		concat(`%PDF-1.7\n1 0 obj\n<< /Type /XRef ${dict} /Root 2 0 R /Length ${rows.length} >>\nstream\n`, rows, '\nendstream\nendobj\nstartxref\n9\n%%EOF\n');

	it('refuses rows of no bytes (/W [0 0 0]) as damaged, whatever /Index claims', async () => {
		await expect(readXref(xrefStream('/Size 5 /W [0 0 0] /Index [0 1000000000000]', new Uint8Array(0)), decodeStream)).rejects.toThrow(PdfError);
	});

	it('refuses a million one-byte rows in a file of a few kilobytes as damaged', async () => {
		const rows = deflate(Buffer.alloc(1_000_000, 1));
		const file = xrefStream('/Size 1000000 /W [0 1 0] /Filter /FlateDecode', rows);
		expect(file.length).toBeLessThan(10_000);
		await expect(readXref(file, decodeStream)).rejects.toThrow(/more objects than the file can hold/);
	});
});

describe('a rebuild set off while an object stream is read', () => {
	it('reads the object stream again instead of waiting for the read that set the rebuild off', async () => {
		// Catalog 1 is in object stream 20, whose entry is 3 bytes off; objects 2-10 come first with right entries,
		// so the table passes the first check and the rebuild starts from inside the object stream's read.
		const objects: Array<[number, string]> = [[1, CATALOG]];
		for (let num = 2; num <= 10; num++) objects.push([num, num === 2 ? PAGES : `(object ${num})`]);
		const { bytes } = buildPdf(objects, {
			xref: 'stream',
			objectStream: [1],
			objectStreamNumber: 20,
			mutateXrefStream: (rows) => {
				const out = Buffer.from(rows);
				out.writeUInt32BE(out.readUInt32BE(20 * 7 + 1) + 3, 20 * 7 + 1);
				return out;
			},
		});
		const doc = await open(bytes);
		expect(doc.xref.recovered).toBe(false);
		const catalog = await doc.resolve(doc.rootRef);
		expect(doc.xref.recovered).toBe(true);
		expect(catalog).toBeInstanceOf(PdfDict);
	});
});
