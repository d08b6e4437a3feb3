// The update's content streams compressed by the platform (nodes/ESign/pdf/write/compress.ts): zlib data that Node's
// own zlib reads back to the very input, and never more streams in flight than the compressor's limit.
import { Compressor } from '../../../nodes/ESign/pdf/write/compress';
import { mostInFlight } from '../../support/countingCompression';
import { inflate } from '../../support/pdfRaw';

const sample = (length: number, seed: number) => {
	const out = new Uint8Array(length);
	let x = seed;
	for (let i = 0; i < length; i++) {
		x = (x * 1103515245 + 12345) & 0x7fffffff;
		// Page-like: mostly a few letters, some noise, so that both matches and literals occur.
		out[i] = x % 7 === 0 ? x & 255 : 97 + (x % 5);
	}
	return out;
};

describe('Compressor', () => {
	it('writes zlib data that inflates back to the input (empty, small, large, incompressible)', async () => {
		const compressor = new Compressor();
		const inputs = [new Uint8Array(0), new TextEncoder().encode('BT /F1 12 Tf (Hello) Tj ET'), sample(300_000, 7), Uint8Array.from(sample(70_000, 3), (b, i) => (b * 31 + i * 17) & 255)];
		for (const input of inputs) {
			const out = await compressor.deflate(input);
			expect(out[0] & 0x0f).toBe(8); // CMF: deflate, as /FlateDecode reads it (RFC 1950)
			expect(Buffer.from(inflate(out)).equals(Buffer.from(input))).toBe(true);
		}
	});

	it('gives each stream an array of its own size (not a view of a larger buffer)', async () => {
		const out = await new Compressor().deflate(sample(5_000, 1));
		expect(out.byteOffset).toBe(0);
		expect(out.buffer.byteLength).toBe(out.length);
	});

	it('runs at most its limit at once (a stand-in CompressionStream counts them), and every stream comes back, in order', async () => {
		const compressor = new Compressor(3);
		const inputs = Array.from({ length: 12 }, (_, i) => sample(100 + i, i + 1));
		let outputs: Uint8Array[] = [];
		const most = await mostInFlight(async () => {
			outputs = await Promise.all(inputs.map((input) => compressor.deflate(input)));
		});
		expect(most).toBe(3);
		expect(outputs.map((out, i) => Buffer.from(out).equals(Buffer.from(inputs[i])))).toEqual(inputs.map(() => true));
	});
});
