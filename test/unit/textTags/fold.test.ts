// Folding for anchor texts (nodes/ESign/textTags/fold.ts): the user's anchor and the page's text read alike when a
// person would read them alike (typographic quotes and dashes, Unicode spaces, invisible characters, ligatures,
// full-width forms, case), and every folded character knows which character of the source it came from.
import { fold, foldText } from '../../../nodes/ESign/textTags/fold';

describe('what folds to what', () => {
	it.each([
		['typographic single quotes and primes', 'Tenant\u2018s Tenant\u2019s Tenant\u201As Tenant\u201Bs 5\u2032', "tenant's tenant's tenant's tenant's 5'"],
		['typographic double quotes', '\u201Cx\u201D \u201Ex\u201F 5\u2033', '"x" "x" 5"'],
		['hyphens, dashes and the minus sign', 'a\u2010b\u2011c\u2012d\u2013e\u2014f\u2015g\u2212h', 'a-b-c-d-e-f-g-h'],
		['no-break and other Unicode spaces', 'a\u00A0b\u2000c\u2005d\u200Ae\u202Ff\u205Fg\u3000h\u1680i', 'a b c d e f g h i'],
		['soft hyphens and zero-width characters are dropped', 'Sig\u00ADna\u200Bt\u200Cu\u200Dr\u2060e\uFEFF', 'signature'],
		['ligatures', '\uFB00 \uFB01 \uFB02 \uFB03 \uFB04 \uFB05 \uFB06', 'ff fi fl ffi ffl st st'],
		['full-width letters, digits and punctuation', '\uFF26\uFF55\uFF4C\uFF4C \uFF10\uFF19\uFF1A', 'full 09:'],
		['case, including letters whose lower case is longer', 'DATE Straße ΣΟΦΟΣ σοφος', 'date strasse σοφοσ σοφοσ'],
		['a precomposed accent and a combining one', '\u00E9 e\u0301 \u00C9', 'e\u0301 e\u0301 e\u0301'],
		['letters outside the Basic Multilingual Plane (mathematical bold)', '\u{1D400}\u{1D401}', 'ab'],
		['white-space runs are one space, none at the ends', ' \t a \n\u00A0 b \u3000', 'a b'],
		['spacing accents stay themselves', '\u00B4 \u00A8', '\u00B4 \u00A8'],
	])('%s', (_name, source, expected) => {
		expect(foldText(source)).toBe(expected);
	});

	it('folding folded text changes nothing, for every character of the Basic Multilingual Plane', () => {
		const changed: string[] = [];
		for (let code = 0; code < 0x10000; code++) {
			if (code >= 0xd800 && code < 0xe000) continue; // surrogates: halves of other characters
			const once = foldText(String.fromCharCode(code));
			if (foldText(once) !== once) changed.push(code.toString(16));
		}
		expect(changed).toEqual([]);
	});
});

describe('where each folded character came from', () => {
	it('every character of a ligature points at the ligature', () => {
		expect(fold('e\uFB03ciency')).toEqual({ text: 'efficiency', from: [0, 1, 1, 1, 2, 3, 4, 5, 6, 7] });
	});

	it('dropped characters leave no trace; a space comes from the first character of its run', () => {
		expect(fold('a\u00AD\u200Bb \u00A0 c')).toEqual({ text: 'ab c', from: [0, 3, 4, 7] });
	});

	it('a letter outside the Basic Multilingual Plane points at its first UTF-16 unit', () => {
		expect(fold('x\u{1D400}y')).toEqual({ text: 'xay', from: [0, 1, 3] });
	});

	it('a lone surrogate is kept as it is', () => {
		expect(fold('a\uD800b')).toEqual({ text: 'a\uD800b', from: [0, 1, 2] });
	});
});
