// The writer's numbers (serialize.ts formatNumber): PDF has no exponent form, and a redefined page's boxes and
// matrices must mean what the original said. Each value is written as a decimal that a correct parser reads back as
// the same double; the reader's own lexer (which sums digits, as viewers do) reads it within a part in 10^12.
import { Lexer, Tok } from '../../../nodes/ESign/pdf/read/lexer';
import { PdfError } from '../../../nodes/ESign/pdf/read/objects';
import { formatNumber } from '../../../nodes/ESign/pdf/write/serialize';

const readBack = (text: string) => {
	const lexer = new Lexer(new TextEncoder().encode(text), 0);
	expect(lexer.next()).toBe(Tok.Number);
	return lexer.value as number;
};

describe('formatNumber', () => {
	test.each([0, 1, -1, 612, 0.5, -0.25, 1e-7, -1e-7, 1.234567891234568e-7, 5e-324, 123.456789123, 1 / 3, -2 / 3, 1e21, -1.5e22, 2 ** 60 + 2 ** 8])(
		'%p is written without an exponent and reads back as itself',
		(value) => {
			const text = formatNumber(value);
			expect(text).toMatch(/^-?\d+(\.\d+)?$/);
			expect(Number(text)).toBe(value);
			const lexed = readBack(text);
			if (Math.abs(value) >= 1e-300) expect(Math.abs(lexed - value)).toBeLessThanOrEqual(Math.abs(value) * 1e-12);
		},
	);

	test('a fuzzed MediaBox height of -1e-7 stays a number that is not 0 (seed 5983 wrote it as 0)', () => {
		expect(formatNumber(-0.0000001)).toBe('-0.0000001');
		expect(formatNumber(1e-7)).toBe('0.0000001');
	});

	test('minus zero is 0, and a number that is not finite is refused', () => {
		expect(formatNumber(-0)).toBe('0');
		expect(() => formatNumber(Number.NaN)).toThrow(PdfError);
		expect(() => formatNumber(Number.POSITIVE_INFINITY)).toThrow(PdfError);
	});
});
