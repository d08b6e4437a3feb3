// CONTRIBUTING → the 300-line rule: no file under nodes/ or credentials/ exceeds 300 lines (one concern a file). The
// scan is test/support/fileLength.js.
import { MAX_LINES, lineCount, tooLong } from '../support/fileLength';

describe('no file under nodes/ or credentials/ exceeds 300 lines', () => {
	it('every file is within the limit', () => {
		expect(MAX_LINES).toBe(300);
		expect(tooLong()).toEqual([]);
	});

	it('counts lines as an editor numbers them', () => {
		expect(lineCount('')).toBe(0);
		expect(lineCount('a')).toBe(1);
		expect(lineCount('a\n')).toBe(1);
		expect(lineCount('a\nb')).toBe(2);
		expect(lineCount('a\n\n')).toBe(2);
		expect(lineCount('x\n'.repeat(301))).toBe(301);
	});
});
