// The PDF reader's stream filters (nodes/ESign/pdf/read/filters.ts, ISO 32000-1 7.4): each decoder against bytes made by
// an independent encoder (Node's zlib, test/support/pdfEncoders.js) or by hand from the standard, and the cap that
// stops a decompression bomb (the LZW, RunLength and ASCII85 bombs of test/support/pdfHostile.js are read in a
// heap-limited child by hostile.slow.test.ts).
import { decodeFilters, inflate } from '../../../nodes/ESign/pdf/read/filters';
import { PdfDict, PdfName } from '../../../nodes/ESign/pdf/read/objects';
import type { PdfObject } from '../../../nodes/ESign/pdf/read/objects';
import { ascii85Encode, lzwEncode, pngPredict, runLengthEncode, tiffPredict } from '../../support/pdfEncoders';
import { deflate, deflateRaw } from '../../support/pdfRaw';
import { pdfError } from './run';

const MB = 1048576;
const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const name = (n: string) => PdfName.of(n);
const dict = (entries: Record<string, PdfObject>) => new PdfDict(Object.entries(entries));

/** Deterministic bytes that compress a little (so Flate output has several blocks). */
function sample(length: number, seed = 1): Uint8Array {
	const out = new Uint8Array(length);
	let s = seed;
	for (let i = 0; i < length; i++) {
		s = (s * 1103515245 + 12345) & 0x7fffffff;
		out[i] = (s >> 16) % 7 === 0 ? (s >> 8) & 0xff : 97 + ((s >> 16) % 5);
	}
	return out;
}

/**
 * The same bytes: lengths, then the first index where they differ (-1: none). jest's toEqual walks a large typed
 * array element by element and takes seconds.
 */
function expectBytes(actual: Uint8Array, expected: Uint8Array) {
	expect(actual.length).toBe(expected.length);
	let differs = -1;
	for (let i = 0; i < actual.length && differs < 0; i++) if (actual[i] !== expected[i]) differs = i;
	expect(differs).toBe(-1);
}

const decode = (data: Uint8Array, filter: PdfObject, parms?: PdfObject, cap = 32 * MB) => decodeFilters(data, filter, parms, cap);

describe('FlateDecode', () => {
	it('round-trips data deflated by zlib', async () => {
		const original = sample(300_000);
		expectBytes(await decode(new Uint8Array(deflate(original)), name('FlateDecode')), original);
	});

	it('reads the abbreviation /Fl', async () => {
		expect(await decode(new Uint8Array(deflate('abc')), name('Fl'))).toEqual(bytes('abc'));
	});

	it('keeps what decoded from a truncated stream (a prefix of the original)', async () => {
		const original = sample(200_000, 3);
		const packed = deflate(original);
		const out = await inflate(new Uint8Array(packed.subarray(0, packed.length >> 1)), 32 * MB);
		expect(out.length).toBeGreaterThan(0);
		expect(out.length).toBeLessThan(original.length);
		expectBytes(out, original.subarray(0, out.length));
	});

	it('keeps the data when bytes follow the end of the zlib stream', async () => {
		const packed = Buffer.concat([deflate('Hello'), Buffer.from('\r\n\r\ngarbage')]);
		expect(await inflate(new Uint8Array(packed), 32 * MB)).toEqual(bytes('Hello'));
	});

	it('reports Flate data cut short, and only that: not whole data, nor bytes after its end, nor raw deflate', async () => {
		const original = sample(200_000, 3);
		const packed = deflate(original);
		const cut = async (data: Uint8Array) => {
			const report = { cut: false };
			await inflate(data, 32 * MB, report);
			return report.cut;
		};
		expect(await cut(new Uint8Array(packed.subarray(0, packed.length >> 1)))).toBe(true);
		expect(await cut(new Uint8Array(packed))).toBe(false);
		expect(await cut(new Uint8Array(Buffer.concat([packed, Buffer.from('\r\n')])))).toBe(false);
		expect(await cut(new Uint8Array(deflateRaw(original)))).toBe(false);
		expect(await cut(bytes('this is not compressed'))).toBe(true);
		// Through the filter chain, as the document decodes a stream.
		const report = { cut: false };
		await decodeFilters(new Uint8Array(packed.subarray(0, 1000)), name('FlateDecode'), undefined, 32 * MB, report);
		expect(report.cut).toBe(true);
	});

	it('falls back to raw deflate (no zlib header), as some producers write it', async () => {
		const original = sample(10_000, 5);
		expectBytes(await inflate(new Uint8Array(deflateRaw(original)), 32 * MB), original);
	});

	it('gives no bytes, without throwing, for data that is not deflate at all', async () => {
		expect(await inflate(bytes('this is not compressed'), 32 * MB)).toEqual(new Uint8Array(0));
		expect(await inflate(new Uint8Array(0), 32 * MB)).toEqual(new Uint8Array(0));
	});

	it('stops at the cap with a PdfError "limit" (a decompression bomb)', async () => {
		const bomb = new Uint8Array(deflate(new Uint8Array(5 * MB), { level: 9 }));
		expect(bomb.length).toBeLessThan(10_000);
		const error = await pdfError(decode(bomb, name('FlateDecode'), undefined, MB));
		expect(error.kind).toBe('limit');
		// Exactly at the cap is allowed.
		expect((await decode(new Uint8Array(deflate(new Uint8Array(MB))), name('FlateDecode'), undefined, MB)).length).toBe(MB);
	});
});

describe('LZWDecode', () => {
	it('decodes the standard\'s example (7.4.4.2): 80 0B 60 50 22 0C 0C 85 01 is "-----A---B"', async () => {
		const encoded = Uint8Array.from([0x80, 0x0b, 0x60, 0x50, 0x22, 0x0c, 0x0c, 0x85, 0x01]);
		expect(await decode(encoded, name('LZWDecode'))).toEqual(bytes('-----A---B'));
	});

	it('round-trips through every code width (9 to 12 bits) and table resets', async () => {
		const original = sample(100_000, 9);
		expectBytes(await decode(lzwEncode(original), name('LZWDecode')), original);
		expectBytes(await decode(lzwEncode(original, 1, 700), name('LZWDecode')), original);
	});

	it('honours EarlyChange 0', async () => {
		const original = sample(50_000, 11);
		expectBytes(await decode(lzwEncode(original, 0), name('LZWDecode'), dict({ EarlyChange: 0 })), original);
	});

	it('stops at the cap with a PdfError "limit"', async () => {
		const error = await pdfError(decode(lzwEncode(new Uint8Array(300_000)), name('LZWDecode'), undefined, 100_000));
		expect(error.kind).toBe('limit');
	});
});

describe('ASCIIHexDecode', () => {
	it('reads hex pairs, skips white-space and stops at ">"', async () => {
		expect(await decode(bytes('48 65\n6c6C6f>4142'), name('ASCIIHexDecode'))).toEqual(bytes('Hello'));
	});

	it('reads a final odd digit as if a 0 followed', async () => {
		expect(await decode(bytes('414>'), name('AHx'))).toEqual(bytes('A@'));
	});
});

describe('ASCII85Decode', () => {
	it('decodes what Python\'s base64.a85encode writes for "Hello World" and "Hello World!"', async () => {
		// A last group of 3 bytes is 4 characters; a whole group of 4 is 5.
		expect(await decode(bytes('87cURD]i,"Ebo7~>'), name('ASCII85Decode'))).toEqual(bytes('Hello World'));
		expect(await decode(bytes('87cURD]i,"Ebo80~>'), name('ASCII85Decode'))).toEqual(bytes('Hello World!'));
	});

	it('round-trips with z groups, a partial last group, white-space and the <~ prefix', async () => {
		const original = sample(1003, 13);
		original.fill(0, 100, 120);
		const encoded = ascii85Encode(original);
		expect(encoded).toContain('z');
		const spaced = `<~${encoded.replace(/(.{50})/g, '$1\n')}`;
		expectBytes(await decode(bytes(spaced), name('A85')), original);
	});

	it('stops at the cap with a PdfError "limit"', async () => {
		const error = await pdfError(decode(bytes(`${'z'.repeat(100_000)}~>`), name('ASCII85Decode'), undefined, 1000));
		expect(error.kind).toBe('limit');
	});
});

describe('RunLengthDecode', () => {
	it('decodes literal runs and repeats, and stops at 128', async () => {
		// 2 → copy the next 3 bytes; 254 → repeat the next byte 257 − 254 = 3 times; 128 → end.
		expect(await decode(Uint8Array.from([2, 97, 98, 99, 254, 120, 128, 65]), name('RunLengthDecode'))).toEqual(bytes('abcxxx'));
	});

	it('round-trips', async () => {
		const original = sample(20_000, 17);
		original.fill(7, 500, 1500);
		expectBytes(await decode(runLengthEncode(original), name('RL')), original);
	});

	it('stops at the cap with a PdfError "limit"', async () => {
		const repeats = new Uint8Array(20_000).fill(129); // 129: repeat the next byte 128 times
		const error = await pdfError(decode(repeats, name('RunLengthDecode'), undefined, 100_000));
		expect(error.kind).toBe('limit');
	});
});

describe('predictors', () => {
	const image = (columns: number, rows: number, colors: number) => sample(columns * rows * colors, 21);

	it.each([10, 11, 12, 13, 14, 15])('PNG predictor %d: every row type (None, Sub, Up, Average, Paeth), read from each row', async (predictor) => {
		const [columns, colors] = [17, 3];
		const original = image(columns, 10, colors);
		const predicted = pngPredict(original, { columns, colors, types: [0, 1, 2, 3, 4] });
		const parms = dict({ Predictor: predictor, Columns: columns, Colors: colors, BitsPerComponent: 8 });
		expectBytes(await decode(new Uint8Array(deflate(predicted)), name('FlateDecode'), parms), original);
	});

	it('PNG predictor with one colour and the default Columns of 1', async () => {
		const original = sample(40, 23);
		const predicted = pngPredict(original, { columns: 1, types: [2] });
		expectBytes(await decode(new Uint8Array(deflate(predicted)), name('FlateDecode'), dict({ Predictor: 12 })), original);
	});

	it('the xref-stream case: /Columns 5 /Predictor 12 (Up) with 16-bit-free rows', async () => {
		const rows = Uint8Array.from([1, 0, 0, 0, 17, 0, 1, 0, 1, 4, 0, 1, 0, 2, 0, 0]); // 3 rows of 5 bytes + 1 extra
		const whole = rows.subarray(0, 15);
		const predicted = pngPredict(whole, { columns: 5, types: [2] });
		expectBytes(await decode(new Uint8Array(deflate(predicted)), name('FlateDecode'), dict({ Predictor: 12, Columns: 5 })), whole);
	});

	it('TIFF predictor 2 (8 bits per component)', async () => {
		const [columns, colors] = [9, 3];
		const original = image(columns, 6, colors);
		const predicted = tiffPredict(original, { columns, colors });
		const parms = dict({ Predictor: 2, Columns: columns, Colors: colors });
		expectBytes(await decode(new Uint8Array(deflate(predicted)), name('FlateDecode'), parms), original);
	});

	it('predictors apply to LZW data too', async () => {
		const original = image(8, 8, 1);
		const predicted = pngPredict(original, { columns: 8, types: [1, 4] });
		expectBytes(await decode(lzwEncode(predicted), name('LZWDecode'), dict({ Predictor: 15, Columns: 8 })), original);
	});

	it('predictor 1 (or none) leaves the data as it is', async () => {
		expect(await decode(new Uint8Array(deflate('abc')), name('FlateDecode'), dict({ Predictor: 1 }))).toEqual(bytes('abc'));
	});
});

describe('filter chains and names', () => {
	it('applies filters in order, each with its own DecodeParms', async () => {
		const original = sample(5000, 29);
		const predicted = pngPredict(original, { columns: 10, types: [4] });
		const hex = Buffer.from(deflate(predicted)).toString('hex').toUpperCase() + '>';
		const out = await decode(bytes(hex), [name('ASCIIHexDecode'), name('FlateDecode')], [null, dict({ Predictor: 12, Columns: 10 })]);
		expectBytes(out, original);
	});

	it('A85 over RunLength over LZW', async () => {
		const original = sample(3000, 31);
		const encoded = bytes(ascii85Encode(runLengthEncode(lzwEncode(original))));
		expectBytes(await decode(encoded, [name('A85'), name('RL'), name('LZW')]), original);
	});

	it('passes data through the Identity Crypt filter and with no filter at all', async () => {
		expect(await decode(bytes('abc'), name('Crypt'))).toEqual(bytes('abc'));
		expect(await decode(bytes('abc'), null)).toEqual(bytes('abc'));
		expect(await decode(bytes('abc'), [])).toEqual(bytes('abc'));
	});

	it('refuses image filters as "unsupported" and a filter that is not a name as "damaged"', async () => {
		expect((await pdfError(decode(bytes('x'), name('DCTDecode')))).kind).toBe('unsupported');
		expect((await pdfError(decode(bytes('x'), name('JBIG2Decode')))).kind).toBe('unsupported');
		expect((await pdfError(decode(bytes('x'), 42))).kind).toBe('damaged');
	});

	it('holds the cap at every step of a chain (a bomb under a harmless outer filter)', async () => {
		const bomb = Buffer.from(deflate(new Uint8Array(4 * MB))).toString('hex') + '>';
		const error = await pdfError(decode(bytes(bomb), [name('AHx'), name('Fl')], undefined, MB));
		expect(error.kind).toBe('limit');
	});
});
