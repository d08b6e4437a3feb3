// Content operators take their operands from the end (nodes/ESign/pdf/text/operators.ts): a stray operand before an
// operator's own is dropped instead of shifting them, and an operator with too few operands is skipped whole. Each
// case reads the same content twice, once clean and once with a stray operand (a number, a name, a string) slipped in
// before one operator's operands, and expects the same glyphs: before the table, Td, Tf, Tj, TJ, Tm and the rest
// read their first operands, so the stray one moved, resized or blanked the text.
import type { RawObject, RawPage } from '../../support/pdfRaw';
import { pagesPdf } from '../../support/pdfRaw';
import { placed, tidy } from './run';

const run = async (content: string, extra: Array<[number, RawObject]> = [], more: Partial<RawPage> = {}) =>
	tidy(await placed(pagesPdf([{ content, ...more }], { extra })));

// [operator, clean content, the same with a stray operand before that operator's own]
const CASES: Array<[string, string, string]> = [
	['Td', 'BT /F1 10 Tf 100 200 Td (AB) Tj ET', 'BT /F1 10 Tf 7 100 200 Td (AB) Tj ET'],
	['TD', 'BT /F1 10 Tf 100 200 TD (A) Tj T* (B) Tj ET', 'BT /F1 10 Tf 7 100 200 TD (A) Tj T* (B) Tj ET'],
	['Tf', 'BT /F1 10 Tf 100 200 Td (AB) Tj ET', 'BT 3 /F1 10 Tf 100 200 Td (AB) Tj ET'],
	['Tj', 'BT /F1 10 Tf 100 200 Td (AB) Tj ET', 'BT /F1 10 Tf 100 200 Td (XY) (AB) Tj ET'],
	['TJ', 'BT /F1 10 Tf 100 200 Td [(A) -500 (B)] TJ ET', 'BT /F1 10 Tf 100 200 Td (XY) [(A) -500 (B)] TJ ET'],
	['Tm', 'BT /F1 10 Tf 2 0 0 2 50 60 Tm (AB) Tj ET', 'BT /F1 10 Tf 9 2 0 0 2 50 60 Tm (AB) Tj ET'],
	['cm', '2 0 0 2 10 20 cm BT /F1 10 Tf 5 5 Td (AB) Tj ET', '/X 2 0 0 2 10 20 cm BT /F1 10 Tf 5 5 Td (AB) Tj ET'],
	['Tc', 'BT /F1 10 Tf 2 Tc (AB) Tj ET', 'BT /F1 10 Tf 9 2 Tc (AB) Tj ET'],
	['Tw', 'BT /F1 10 Tf 4 Tw (A B) Tj ET', 'BT /F1 10 Tf 9 4 Tw (A B) Tj ET'],
	['Tz', 'BT /F1 10 Tf 50 Tz (AB) Tj ET', 'BT /F1 10 Tf 9 50 Tz (AB) Tj ET'],
	['TL', 'BT /F1 10 Tf 14 TL 0 100 Td (A) Tj T* (B) Tj ET', 'BT /F1 10 Tf 9 14 TL 0 100 Td (A) Tj T* (B) Tj ET'],
	['Ts', 'BT /F1 10 Tf 3 Ts (AB) Tj ET', 'BT /F1 10 Tf 9 3 Ts (AB) Tj ET'],
	["'", "BT /F1 10 Tf 14 TL 0 100 Td (A) Tj (B) ' ET", "BT /F1 10 Tf 14 TL 0 100 Td (A) Tj (XY) (B) ' ET"],
	['"', 'BT /F1 10 Tf 14 TL 0 100 Td (A) Tj 3 1 (B C) " ET', 'BT /F1 10 Tf 14 TL 0 100 Td (A) Tj 9 3 1 (B C) " ET'],
];

describe('operands by arity', () => {
	it.each(CASES)('a stray operand before %s does not shift its operands', async (_op, clean, stray) => {
		const expected = await run(clean);
		expect(expected.length).toBeGreaterThan(0);
		expect(await run(stray)).toEqual(expected);
	});

	it('an operator with too few operands is skipped whole, not read with zeros', async () => {
		// "100 Td" would have moved the line to x = 100 (and y = 0) if read; skipped, the text stays where Tm put it.
		const skipped = await run('BT /F1 10 Tf 1 0 0 1 30 40 Tm 100 Td (A) Tj ET');
		expect(skipped).toEqual(await run('BT /F1 10 Tf 1 0 0 1 30 40 Tm (A) Tj ET'));
		expect(skipped).not.toEqual(await run('BT /F1 10 Tf 1 0 0 1 30 40 Tm 100 0 Td (A) Tj ET'));
	});

	it('too few operands for cm or Tm leaves the matrix as it was', async () => {
		expect(await run('2 0 0 2 cm BT /F1 10 Tf 5 5 Td (A) Tj ET')).toEqual(await run('BT /F1 10 Tf 5 5 Td (A) Tj ET'));
		expect(await run('BT /F1 10 Tf 5 5 Td 2 0 0 2 Tm (A) Tj ET')).toEqual(await run('BT /F1 10 Tf 5 5 Td (A) Tj ET'));
	});
});
