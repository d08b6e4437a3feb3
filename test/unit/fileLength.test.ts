// CONTRIBUTING → the ceiling against god-files: no file under nodes/ or credentials/ exceeds 500 lines. Files are cut
// by concept, never by count; the ceiling only catches a file that has grown to hold several. The scan is
// test/support/fileLength.js.
import { MAX_LINES, lineCount, tooLong } from '../support/fileLength';

describe('no file under nodes/ or credentials/ exceeds 500 lines', () => {
	it('every file is within the ceiling', () => {
		expect(MAX_LINES).toBe(500);
		expect(tooLong()).toEqual([]);
	});

	it('counts lines as an editor numbers them', () => {
		expect(lineCount('')).toBe(0);
		expect(lineCount('a')).toBe(1);
		expect(lineCount('a\n')).toBe(1);
		expect(lineCount('a\nb')).toBe(2);
		expect(lineCount('a\n\n')).toBe(2);
		expect(lineCount('x\n'.repeat(501))).toBe(501);
	});
});
