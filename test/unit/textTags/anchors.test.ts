// Anchor texts (nodes/ESign/textTags/anchors.ts): matching ignores case and treats white-space runs as one space; a
// match must not be part of a longer word (where the anchor ends in a letter or digit) nor inside a text tag; every
// occurrence counts. Both sides are folded (fold.ts) first: typographic quotes and dashes, ligatures, full-width forms
// and Unicode spaces match what a person types, and a match's box is the union of the glyphs its characters came
// from. Lines are made by hand (test/unit/pdf/lines.ts), so boxes are known without the layout code.
import { findAnchor, findAnchors, normaliseAnchor } from '../../../nodes/ESign/textTags/anchors';
import { glyphBox, line } from '../pdf/lines';

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
		expect(normaliseAnchor('\u00AD\u200B\u00A0')).toBe('');
		expect(boxes([line('anything')], '\u00AD\u200B')).toEqual([]);
	});

	it('normaliseAnchor folds as the page is folded, and folding its own result changes nothing', () => {
		const anchor = normaliseAnchor('  Tenant\u2019s  \uFB01le \u2014 \uFF26ULL ');
		expect(anchor).toBe("tenant's file - full");
		expect(normaliseAnchor(anchor)).toBe(anchor);
	});
});

describe('anchors as people type them (folded on both sides)', () => {
	it('a straight quote finds a typographic one, and the other way round', () => {
		expect(boxes([line('Tenant\u2019s signature')], "Tenant's signature")).toEqual([glyphBox(0, 17)]);
		expect(boxes([line("Tenant's signature")], 'Tenant\u2019s')).toEqual([glyphBox(0, 7)]);
		expect(boxes([line('\u201CBuyer\u201D')], '"buyer"')).toEqual([glyphBox(0, 6)]);
	});

	it('a hyphen finds a dash or a minus sign', () => {
		expect(boxes([line('Date \u2013 Place'), line('Date \u2212 Place', { y: 200 })], 'date - place')).toEqual([glyphBox(0, 11), glyphBox(0, 11, { y: 200 })]);
	});

	it('a word typed with separate letters finds it drawn with a ligature glyph: the box spans the glyphs', () => {
		// "e", "ﬃ", "c", "i", "e", "n", "c", "y": eight glyphs.
		expect(boxes([line('e\uFB03ciency')], 'efficiency')).toEqual([glyphBox(0, 7)]);
		expect(boxes([line('The Bene\uFB01ciary signs')], 'beneficiary')).toEqual([glyphBox(4, 13)]);
		// A line whose glyph already reads "fi" (the font layer expanded the ligature) is found the same way.
		const expanded = { ...line('Bene#ciary'), text: 'Beneficiary', glyphOf: [0, 1, 2, 3, 4, 4, 5, 6, 7, 8, 9] };
		expect(findAnchor([expanded], 2, 'beneficiary').map((m) => m.box)).toEqual([glyphBox(0, 9)]);
	});

	it('a typed ligature finds separate letters', () => {
		expect(boxes([line('office')], 'o\uFB03ce')).toEqual([glyphBox(0, 5)]);
	});

	it('a compatibility form matched in part still gives its whole glyph', () => {
		// "⑴" reads "(1)": the anchor "(1" ends inside it, and the box is the glyph's.
		expect(boxes([line('\u2474 Name')], '(1')).toEqual([glyphBox(0, 0)]);
	});

	it('full-width letters, no-break and other Unicode spaces', () => {
		expect(boxes([line('\uFF26\uFF55\uFF4C\uFF4C Name')], 'Full Name')).toEqual([glyphBox(0, 8)]);
		expect(boxes([line('Full\u00A0Name'), line('Full\u202FName', { y: 200 })], 'full name')).toEqual([glyphBox(0, 8), glyphBox(0, 8, { y: 200 })]);
		expect(boxes([line('Full Name')], 'Full\u3000Name')).toEqual([glyphBox(0, 8)]);
	});

	it('soft hyphens and zero-width characters inside the page\'s word do not stop a match', () => {
		expect(boxes([line('Signa\u00ADture:')], 'Signature:')).toEqual([glyphBox(0, 10)]);
		expect(boxes([line('Sig\u200Bnature')], 'signature')).toEqual([glyphBox(0, 9)]);
	});

	it('a precomposed accent and a combining one match each other', () => {
		expect(boxes([line('Re\u0301sume\u0301:')], 'R\u00E9sum\u00E9:')).toEqual([glyphBox(0, 8)]);
		expect(boxes([line('R\u00E9sum\u00E9:')], 'Re\u0301sume\u0301:')).toEqual([glyphBox(0, 6)]);
	});

	it('whole words still count after folding', () => {
		expect(boxes([line('\uFB01nal')], 'nal')).toEqual([]);
		expect(boxes([line('\uFF35\uFF50\uFF44\uFF41\uFF54\uFF45')], 'date')).toEqual([]);
		// An accent continues its letter's word: "resume" is not found in "resumé" written with a combining accent.
		expect(boxes([line('resume\u0301')], 'resume')).toEqual([]);
		expect(boxes([line('resum\u00E9')], 'resume')).toEqual([]);
	});

	it('not inside a tag, where folding changed the lengths before the tag', () => {
		expect(boxes([line('\uFB03 {{date:1}} date \uFB03')], 'date')).toEqual([glyphBox(13, 16)]);
		expect(boxes([line('\uFB03 {{text:1:\uFB03}} \uFB03')], 'ffi')).toEqual([glyphBox(0, 0), glyphBox(15, 15)]);
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
