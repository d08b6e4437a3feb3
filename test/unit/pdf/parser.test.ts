// The PDF reader's parser (nodes/ESign/pdf/read/parser.ts): objects from tokens (ISO 32000-1, 7.3), streams with a
// wrong or indirect /Length, and the nesting bound that keeps its recursion finite.
import { Lexer } from '../../../nodes/ESign/pdf/read/lexer';
import { PdfDict, PdfError, PdfName, PdfRef, PdfStream } from '../../../nodes/ESign/pdf/read/objects';
import type { PdfObject } from '../../../nodes/ESign/pdf/read/objects';
import { MAX_NESTING } from '../../../nodes/ESign/pdf/limits';
import { Parser, findEndstream } from '../../../nodes/ESign/pdf/read/parser';

const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const latin = (value: Uint8Array) => String.fromCharCode(...value);

const parse = (source: string, lengthOf?: (ref: PdfRef) => number | undefined, allowRefs = true) =>
	new Parser(new Lexer(bytes(source)), lengthOf, allowRefs);

/** A plain JS picture of an object (names as "/N", refs as "N G R", strings as text, streams as their dict + raw). */
function plain(object: PdfObject | undefined): unknown {
	if (object instanceof PdfName) return `/${object.name}`;
	if (object instanceof PdfRef) return `${object.num} ${object.gen} R`;
	if (object instanceof Uint8Array) return `(${latin(object)})`;
	if (Array.isArray(object)) return object.map(plain);
	if (object instanceof PdfStream) return { dict: plain(object.dict), raw: latin(object.raw) };
	if (object instanceof PdfDict) return Object.fromEntries([...object.entries()].map(([key, value]) => [key, plain(value)]));
	return object;
}

const all = (parser: Parser) => {
	const out: unknown[] = [];
	for (let object = parser.getObject(); object !== undefined; object = parser.getObject()) out.push(plain(object));
	return out;
};

describe('references and numbers', () => {
	it('reads "N G R" as a reference and other numbers as numbers', () => {
		expect(all(parse('1 0 R 2 5 R 7 8'))).toEqual(['1 0 R', '2 5 R', 7, 8]);
	});

	it('does not make a reference of decimals, negatives, or two numbers without R', () => {
		expect(all(parse('1.5 0 R'))).toEqual([1.5, 0]);
		expect(all(parse('-1 0 R'))).toEqual([-1, 0]);
		expect(all(parse('[1 0 2 0]'))).toEqual([[1, 0, 2, 0]]);
		expect(all(parse('[1 0 R 2 0 R]'))).toEqual([['1 0 R', '2 0 R']]);
	});

	it('reads no references where they are not allowed (object streams of content)', () => {
		expect(all(parse('[1 0 R]', undefined, false))).toEqual([[1, 0]]);
	});

	it('reads true, false, null, names and strings', () => {
		expect(all(parse('true false null /Name (text) <4142>'))).toEqual([true, false, null, '/Name', '(text)', '(AB)']);
	});
});

describe('arrays and dictionaries', () => {
	it('nests them', () => {
		expect(plain(parse('[1 [2 [3]] << /A << /B [true false null] >> /C 4 0 R >>]').getObject())).toEqual([
			1,
			[2, [3]],
			{ A: { B: [true, false, null] }, C: '4 0 R' },
		]);
	});

	it('skips a stray value where a key belongs', () => {
		expect(plain(parse('<< /A 1 2 /B 3 >>').getObject())).toEqual({ A: 1, B: 3 });
	});

	it('ends a truncated dictionary at a keyword and gives the keyword back', () => {
		const parser = parse('<< /A 1 endobj');
		expect(plain(parser.getObject())).toEqual({ A: 1 });
		expect(parser.getObject()).toBeUndefined();
		expect(parser.lastKeyword).toBe('endobj');
	});

	it('ends a truncated array at a keyword', () => {
		const parser = parse('[1 2 endobj');
		expect(plain(parser.getObject())).toEqual([1, 2]);
		expect(parser.getObject()).toBeUndefined();
		expect(parser.lastKeyword).toBe('endobj');
	});

	it('reads an unclosed array or dictionary to the end of the data', () => {
		expect(plain(parse('[1 [2').getObject())).toEqual([1, [2]]);
		expect(plain(parse('<< /A [1').getObject())).toEqual({ A: [1] });
	});

	it(`accepts nesting ${MAX_NESTING + 1} deep and refuses deeper nesting as a damaged file`, () => {
		const deepest = MAX_NESTING + 1; // the outermost array is depth 0
		expect(() => parse('['.repeat(deepest) + ']'.repeat(deepest)).getObject()).not.toThrow();
		const tooDeep = () => parse('['.repeat(deepest + 1) + ']'.repeat(deepest + 1)).getObject();
		expect(tooDeep).toThrow(PdfError);
		expect(tooDeep).toThrow(/nested more than/);
		expect(() => parse('<< /A '.repeat(deepest + 1)).getObject()).toThrow(PdfError);
	});

	it('refuses 100,000 nested arrays with a PdfError, not a stack overflow', () => {
		let error: unknown;
		try {
			parse('['.repeat(100_000)).getObject();
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(PdfError);
		expect((error as PdfError).kind).toBe('damaged');
	});
});

describe('streams', () => {
	it('takes the bytes /Length names, after "stream" and its end of line (LF or CRLF)', () => {
		expect(plain(parse('<< /Length 5 >> stream\nHello\nendstream').getObject())).toEqual({ dict: { Length: 5 }, raw: 'Hello' });
		expect(plain(parse('<< /Length 5 >>stream\r\nHello\r\nendstream').getObject())).toEqual({ dict: { Length: 5 }, raw: 'Hello' });
	});

	it('keeps stream bytes that look like syntax ("endstream" inside is only found when /Length is wrong)', () => {
		const data = 'a ) ( << [ endstreamX';
		const object = parse(`<< /Length ${data.length} >> stream\n${data}\nendstream`).getObject();
		expect(plain(object)).toEqual({ dict: { Length: data.length }, raw: data });
	});

	it.each([
		['too long', 50],
		['too short', 2],
		['negative', -3],
		['not whole', 2.5],
		['10^15', 1e15],
	])('finds the end by "endstream" when /Length is %s', (_case, length) => {
		const object = parse(`<< /Length ${length} >> stream\nHello world\nendstream`).getObject();
		expect((object as PdfStream).raw).toEqual(bytes('Hello world'));
	});

	it('drops the CRLF before "endstream" when it searches for the end', () => {
		const object = parse('<< >> stream\r\nabc\r\nendstream').getObject();
		expect(latin((object as PdfStream).raw)).toBe('abc');
	});

	it('asks for an indirect /Length, and searches when the answer is wrong or missing', () => {
		const asked: string[] = [];
		const lengthOf = (ref: PdfRef) => {
			asked.push(ref.key);
			return ref.num === 9 ? 5 : ref.num === 8 ? 99 : undefined;
		};
		const source = (ref: string) => `<< /Length ${ref} >> stream\nHello\nendstream`;
		expect(latin((parse(source('9 0 R'), lengthOf).getObject() as PdfStream).raw)).toBe('Hello');
		expect(latin((parse(source('8 0 R'), lengthOf).getObject() as PdfStream).raw)).toBe('Hello');
		expect(latin((parse(source('7 0 R'), lengthOf).getObject() as PdfStream).raw)).toBe('Hello');
		expect(latin((parse(source('7 0 R')).getObject() as PdfStream).raw)).toBe('Hello');
		expect(asked).toEqual(['9 0', '8 0', '7 0']);
	});

	it('refuses a stream with no "endstream" and a wrong length as a damaged file', () => {
		expect(() => parse('<< /Length 99 >> stream\nabc').getObject()).toThrow(PdfError);
	});

	it('reads the object after a stream', () => {
		const parser = parse('<< /Length 3 >> stream\nabc\nendstream 42');
		parser.getObject();
		expect(parser.getObject()).toBe(42);
	});

	it('does not read streams where references are not allowed (a dictionary stays a dictionary)', () => {
		const object = parse('<< /Length 3 >> stream\nabc\nendstream', undefined, false).getObject();
		expect(object).toBeInstanceOf(PdfDict);
		expect(object).not.toBeInstanceOf(PdfStream);
	});
});

describe('findEndstream', () => {
	it('finds the first "endstream" from a position, and -1 without one', () => {
		const data = bytes('xx endstream yy endstream');
		expect(findEndstream(data, 0)).toBe(3);
		expect(findEndstream(data, 4)).toBe(16);
		expect(findEndstream(data, 17)).toBe(-1);
		expect(findEndstream(data, 0, 11)).toBe(-1);
	});
});

describe('a dictionary, once read, does not change (issue 43)', () => {
	const read = () => parse('<< /Type /Page /Contents 4 0 R /Rotate 90 >>').getObject() as PdfDict;

	it('offers no way to change it: no public map, no set', () => {
		const dict = read();
		// @ts-expect-error the entries are private: read them through get/has/entries
		expect(dict.map).toBeInstanceOf(Map);
		// @ts-expect-error no set: the writer derives a new dictionary with `with`
		expect(dict.set).toBeUndefined();
	});

	it('with and without give new dictionaries in the file order and leave the original as it was', () => {
		const dict = read();
		const before = plain(dict);
		const changed = dict.with('Contents', new PdfRef(9, 0)).with('Annots', []);
		const dropped = dict.without('Contents');
		expect(plain(dict)).toEqual(before);
		expect([...changed.entries()].map(([key]) => key)).toEqual(['Type', 'Contents', 'Rotate', 'Annots']);
		expect(plain(changed.get('Contents'))).toBe('9 0 R');
		expect([...dropped.entries()].map(([key]) => key)).toEqual(['Type', 'Rotate']);
		expect(changed).not.toBe(dict);
	});

	it('keeps a repeated key in its first place with its last value, as before', () => {
		const dict = parse('<< /A 1 /B 2 /A 3 >>').getObject() as PdfDict;
		expect([...dict.entries()]).toEqual([
			['A', 3],
			['B', 2],
		]);
	});
});
