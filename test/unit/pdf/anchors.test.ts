// Anchor texts (nodes/ESign/pdf/anchors.ts): matching ignores case and treats white-space runs as one space; a
// match must not be part of a longer word (where the anchor ends in a letter or digit) nor inside a text tag; every
// occurrence counts. Lines are made by hand (test/unit/pdf/lines.ts), so boxes are known without the layout code.
import { findAnchor, findAnchors, normaliseAnchor } from '../../../nodes/ESign/pdf/anchors';
import { glyphBox, line } from './lines';

const boxes = (lines: ReturnType<typeof line>[], anchor: string) => findAnchor(lines, 2, anchor).map((match) => match.box);

describe('findAnchor', () => {
	it('finds the anchor with its box and page', () => {
		expect(findAnchor([line('Client signature: ____')], 2, 'Client signature')).toEqual([{ page: 2, box: glyphBox(0, 15) }]);
	});

	it('ignores case', () => {
		expect(boxes([line('DATE: x')], 'date:')).toEqual([glyphBox(0, 4)]);
		expect(boxes([line('date: x')], 'DATE:')).toEqual([glyphBox(0, 4)]);
	});

	it('treats any run of white-space as one space, in the text and in the anchor', () => {
		// "Client", three spaces (glyphs 6-8), "signature" (glyphs 9-17).
		expect(boxes([line('Client   signature')], 'client signature')).toEqual([glyphBox(0, 17)]);
		expect(boxes([line('Client signature')], '  Client \n\t signature ')).toEqual([glyphBox(0, 15)]);
	});

	it('matches across a space the layout implied (no glyph of its own)', () => {
		expect(boxes([line('Client·signature')], 'client signature')).toEqual([glyphBox(0, 14)]);
	});

	it('does not match inside a longer word when the anchor ends in a letter or digit', () => {
		expect(boxes([line('Update the dates')], 'date')).toEqual([]);
		expect(boxes([line('Date2')], 'date')).toEqual([]);
		expect(boxes([line('Date. date, (date)')], 'date')).toEqual([glyphBox(0, 3), glyphBox(6, 9), glyphBox(13, 16)]);
	});

	it('an anchor ending (or starting) in punctuation may touch a word on that side', () => {
		expect(boxes([line('Date:12')], 'Date:')).toEqual([glyphBox(0, 4)]);
		expect(boxes([line('a#ref')], '#ref')).toEqual([glyphBox(1, 4)]);
		expect(boxes([line('xDate:')], 'Date:')).toEqual([]);
	});

	it('letters of any script count as word characters', () => {
		expect(boxes([line('Datéd')], 'dat')).toEqual([]);
		expect(boxes([line('Подпись: x')], 'подпись')).toEqual([glyphBox(0, 6)]);
	});

	it('is not found inside a text tag', () => {
		expect(boxes([line('{{date:1}} Date')], 'date')).toEqual([glyphBox(11, 14)]);
		expect(boxes([line('{ {signature:1} } Signature:')], 'Signature:')).toEqual([glyphBox(18, 27)]);
	});

	it('finds every occurrence, line by line, in order', () => {
		const lines = [line('Date Date'), line('none'), line('date', { y: 200 })];
		expect(boxes(lines, 'date')).toEqual([glyphBox(0, 3), glyphBox(5, 8), glyphBox(0, 3, { y: 200 })]);
	});

	it('overlapping occurrences each count', () => {
		expect(boxes([line('a-a-a')], 'a-a')).toEqual([glyphBox(0, 2), glyphBox(2, 4)]);
	});

	it('does not join lines', () => {
		expect(boxes([line('Client'), line('signature')], 'client signature')).toEqual([]);
	});

	it('an empty anchor finds nothing', () => {
		expect(boxes([line('anything')], '   ')).toEqual([]);
		expect(normaliseAnchor('  A  b ')).toBe('a b');
	});
});

describe('findAnchor on very long lines', () => {
	it('a line of 20,000 tags and 20,000 occurrences: every occurrence outside the tags', () => {
		const found = findAnchor([line('{{a}} a '.repeat(20_000))], 1, 'a');
		expect(found).toHaveLength(20_000);
		expect(found[19_999].box).toEqual(glyphBox(19_999 * 8 + 6, 19_999 * 8 + 6));
	});
});

describe('findAnchors (several anchors, each line read once)', () => {
	it('finds what findAnchor finds for each anchor, keyed by the normalised anchor; blank anchors are left out', () => {
		const lines = [line('Client signature: ____ Date: ____'), line('{{date:1}} Provider signature: ____ date'), line('Update the DATE')];
		const anchors = ['Date:', '  client   SIGNATURE ', 'signature', 'date', ' '];
		const found = findAnchors(lines, 3, anchors);
		expect([...found.keys()]).toEqual(['date:', 'client signature', 'signature', 'date']);
		for (const anchor of anchors.filter((a) => a.trim())) expect(found.get(normaliseAnchor(anchor))).toEqual(findAnchor(lines, 3, anchor));
		expect(found.get('signature')).toHaveLength(2);
		expect(found.get('date')).toHaveLength(3);
	});
});
