// The PDF reader's lexer (nodes/ESign/pdf/read/lexer.ts): tokens of PDF syntax (ISO 32000-1, 7.2–7.3). Expected values
// are written from the standard's rules, byte by byte.
import { Lexer, Tok } from '../../../nodes/ESign/pdf/read/lexer';
import { PdfError } from '../../../nodes/ESign/pdf/read/objects';

const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const text = (value: unknown) => String.fromCharCode(...(value as Uint8Array));

/** Every token of `source` as [kind, value] (value: number, latin1 text of a string, or the name/keyword). */
function tokens(source: string | Uint8Array): Array<[Tok, unknown]> {
	const lexer = new Lexer(typeof source === 'string' ? bytes(source) : source);
	const out: Array<[Tok, unknown]> = [];
	for (let tok = lexer.next(); tok !== Tok.EOF; tok = lexer.next()) {
		const value = tok === Tok.String ? text(lexer.value) : [Tok.Number, Tok.Name, Tok.Keyword].includes(tok) ? lexer.value : undefined;
		out.push([tok, value]);
	}
	return out;
}

const one = (source: string) => {
	const all = tokens(source);
	expect(all).toHaveLength(1);
	return all[0];
};

describe('numbers', () => {
	it.each([
		['123', 123],
		['-5', -5],
		['+7', 7],
		['0', 0],
		['0000123', 123],
		['5.', 5],
		['.5', 0.5],
		['-.25', -0.25],
		['+.75', 0.75],
	])('%s is %d', (source, value) => {
		const [kind, read] = one(source);
		expect(kind).toBe(Tok.Number);
		expect(read).toBe(value);
	});

	it('reads decimals to their digits', () => {
		const [kind, value] = one('3.14159');
		expect(kind).toBe(Tok.Number);
		expect(value).toBe(3.14159);
	});

	// Not "close to": the very double JavaScript (and every reader) makes of the decimal. The tag remover writes a
	// font size it read back into the file; 9.963 summed digit by digit was 9.963000000000001, and poppler then saw
	// another font size and split words.
	it.each(['9.963', '7.97', '0.1', '11.955', '-40859.45071952184', '123.456789012345', '0.000001', '1e', '12345678901234567890.5', '0.0000000000000000000000012', '4503599627370497.5'])(
		'%s is the double nearest it',
		(source) => {
			const [kind, read] = tokens(source)[0];
			expect(kind).toBe(Tok.Number);
			expect(read).toBe(Number(source.replace(/e$/, '')));
		},
	);

	it('a thousand random decimals: each the double nearest it', () => {
		let seed = 42;
		const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
		for (let i = 0; i < 1000; i++) {
			const source = `${Math.floor(random() * 10 ** Math.floor(random() * 8))}.${String(Math.floor(random() * 10 ** 9)).padStart(9, '0').slice(0, 1 + Math.floor(random() * 9))}`;
			expect([source, one(source)[1]]).toEqual([source, Number(source)]);
		}
	});

	it('takes the last of several signs, as producers that write "--5" mean', () => {
		expect(one('--5')).toEqual([Tok.Number, -5]);
		expect(one('+-5')).toEqual([Tok.Number, -5]);
		expect(one('-+5')).toEqual([Tok.Number, 5]);
		expect(one('---2.5')).toEqual([Tok.Number, -2.5]);
	});

	it('reads "5-3" and "1.2.3" as one number (the rest skipped, as readers do)', () => {
		expect(tokens('5-3 7')).toEqual([
			[Tok.Number, 5],
			[Tok.Number, 7],
		]);
		expect(tokens('1.2.3')).toEqual([[Tok.Number, 1.2]]);
	});

	it('leaves a sign or a point without digits as a keyword', () => {
		expect(one('-')).toEqual([Tok.Keyword, '-']);
		expect(one('.')).toEqual([Tok.Keyword, '.']);
		expect(one('+')).toEqual([Tok.Keyword, '+']);
	});

	it('ends a number at a delimiter', () => {
		expect(tokens('12[3]-4/N')).toEqual([
			[Tok.Number, 12],
			[Tok.ArrayStart, undefined],
			[Tok.Number, 3],
			[Tok.ArrayEnd, undefined],
			[Tok.Number, -4],
			[Tok.Name, 'N'],
		]);
	});

	it('reads a number of hundreds of digits as a number that is not finite, not as an error', () => {
		const [kind, value] = one('9'.repeat(400));
		expect(kind).toBe(Tok.Number);
		expect(Number.isFinite(value as number)).toBe(false);
	});
});

describe('literal strings', () => {
	it('keeps balanced parentheses inside the string', () => {
		expect(one('(a(b(c))d)')).toEqual([Tok.String, 'a(b(c))d']);
		expect(one('()')).toEqual([Tok.String, '']);
	});

	it.each([
		['\\n', '\n'],
		['\\r', '\r'],
		['\\t', '\t'],
		['\\b', '\b'],
		['\\f', '\f'],
		['\\(', '('],
		['\\)', ')'],
		['\\\\', '\\'],
		['\\053', '+'],
		['\\53', '+'],
		['\\0', '\0'],
		['\\7x', '\x07x'],
		['\\0053', '\x053'], // three octal digits at most
		['\\777', '\xff'], // high-order overflow is ignored
		['\\q', 'q'], // an unknown escape: the backslash is dropped
	])('escape %s', (escape, value) => {
		expect(one(`(${escape})`)).toEqual([Tok.String, value]);
	});

	it('does not count escaped parentheses', () => {
		expect(one('(a\\)b\\(c)')).toEqual([Tok.String, 'a)b(c']);
	});

	it('drops a backslash before an end of line (line continuation), for LF, CR and CRLF', () => {
		expect(one('(ab\\\ncd)')).toEqual([Tok.String, 'abcd']);
		expect(one('(ab\\\rcd)')).toEqual([Tok.String, 'abcd']);
		expect(one('(ab\\\r\ncd)')).toEqual([Tok.String, 'abcd']);
	});

	it('reads an unescaped end of line as one LF, whatever its bytes (CR, CRLF, LF)', () => {
		expect(one('(a\r\nb)')).toEqual([Tok.String, 'a\nb']);
		expect(one('(a\rb)')).toEqual([Tok.String, 'a\nb']);
		expect(one('(a\nb)')).toEqual([Tok.String, 'a\nb']);
		expect(one('(a\r\r\nb)')).toEqual([Tok.String, 'a\n\nb']);
	});

	it('does not treat % inside a string as a comment', () => {
		expect(one('(50% off)')).toEqual([Tok.String, '50% off']);
	});

	it('ends an unclosed string at the end of the data (with or without escapes)', () => {
		expect(one('(abc')).toEqual([Tok.String, 'abc']);
		expect(one('(a\\nbc')).toEqual([Tok.String, 'a\nbc']);
		expect(one('(a\\')).toEqual([Tok.String, 'a']);
	});

	it('reads nested parentheses after an escape (the end is found by depth, escapes skipped)', () => {
		expect(tokens('((a)\\)(b)c) 5')).toEqual([
			[Tok.String, '(a))(b)c'],
			[Tok.Number, 5],
		]);
		expect(tokens('(x\\(y) 5')).toEqual([
			[Tok.String, 'x(y'],
			[Tok.Number, 5],
		]);
	});

	it('keeps bytes above 127 as they are', () => {
		expect(one('(\xe9\xff)')).toEqual([Tok.String, '\xe9\xff']);
	});
});

describe('hex strings', () => {
	it('reads pairs of hex digits, upper or lower case', () => {
		expect(one('<48656C6c6F>')).toEqual([Tok.String, 'Hello']);
	});

	it('ignores white-space between the digits', () => {
		expect(one('<48 65\n6C\r\t6C 6F>')).toEqual([Tok.String, 'Hello']);
	});

	it('reads an odd number of digits as if a final 0 followed', () => {
		expect(one('<414>')).toEqual([Tok.String, 'A@']);
		expect(one('<7>')).toEqual([Tok.String, 'p']);
	});

	it('reads <> as the empty string and stops an unclosed string at the end', () => {
		expect(one('<>')).toEqual([Tok.String, '']);
		expect(one('<4142')).toEqual([Tok.String, 'AB']);
	});

	it('in scratch mode, keeps every string handed out before release() (views do not overlap, growth keeps old ones)', () => {
		const long = '41'.repeat(300); // larger than the first scratch buffer
		const lexer = new Lexer(bytes(`<4142> <${long}> <43>`));
		lexer.useScratch();
		const seen: Uint8Array[] = [];
		for (let tok = lexer.next(); tok !== Tok.EOF; tok = lexer.next()) seen.push(lexer.value as Uint8Array);
		expect(seen.map(text)).toEqual(['AB', 'A'.repeat(300), 'C']);
	});
});

describe('names', () => {
	it('reads a name up to a delimiter or white-space', () => {
		expect(tokens('/Type/Page /A;b')).toEqual([
			[Tok.Name, 'Type'],
			[Tok.Name, 'Page'],
			[Tok.Name, 'A;b'],
		]);
	});

	it('decodes #xx escapes', () => {
		expect(one('/A#20B')).toEqual([Tok.Name, 'A B']);
		expect(one('/#41#42')).toEqual([Tok.Name, 'AB']);
		expect(one('/Lime#20Green')).toEqual([Tok.Name, 'Lime Green']);
		expect(one('/paired#28#29parentheses')).toEqual([Tok.Name, 'paired()parentheses']);
	});

	it('keeps a # that is not followed by two hex digits', () => {
		expect(one('/A#4')).toEqual([Tok.Name, 'A#4']);
		expect(one('/A#G1')).toEqual([Tok.Name, 'A#G1']);
	});

	it('reads a lone slash as the empty name', () => {
		expect(tokens('/ 1')).toEqual([
			[Tok.Name, ''],
			[Tok.Number, 1],
		]);
	});

	it('refuses a name longer than 4,096 bytes as a damaged file', () => {
		expect(() => tokens(`/${'N'.repeat(5000)}`)).toThrow(PdfError);
		expect(one(`/${'N'.repeat(4000)}`)).toEqual([Tok.Name, 'N'.repeat(4000)]);
	});
});

describe('comments, delimiters and keywords', () => {
	it('skips comments to the end of the line (LF or CR)', () => {
		expect(tokens('% a comment\n12 %another\r13% last')).toEqual([
			[Tok.Number, 12],
			[Tok.Number, 13],
		]);
	});

	it('gives each delimiter its token', () => {
		expect(tokens('<< /A [1] >> { } >')).toEqual([
			[Tok.DictStart, undefined],
			[Tok.Name, 'A'],
			[Tok.ArrayStart, undefined],
			[Tok.Number, 1],
			[Tok.ArrayEnd, undefined],
			[Tok.DictEnd, undefined],
			[Tok.BraceOpen, undefined],
			[Tok.BraceClose, undefined],
			[Tok.DictEnd, undefined],
		]);
	});

	it('skips a stray closing parenthesis', () => {
		expect(tokens(') 5')).toEqual([[Tok.Number, 5]]);
	});

	it('skips a million stray closing parentheses without growing the stack', () => {
		expect(tokens(')'.repeat(1_000_000) + ' ) )5')).toEqual([[Tok.Number, 5]]);
	});

	it('reads keywords, and cuts a run of regular bytes at 64 characters', () => {
		expect(tokens("true false null R obj T* '")).toEqual(
			['true', 'false', 'null', 'R', 'obj', 'T*', "'"].map((word) => [Tok.Keyword, word]),
		);
		const [kind, value] = one('x'.repeat(100000));
		expect(kind).toBe(Tok.Keyword);
		expect(value).toBe('x'.repeat(64));
	});

	it('treats NUL, tab, form feed, CR and LF as white-space', () => {
		expect(tokens('1\x002\t3\f4\r5\n6')).toEqual([1, 2, 3, 4, 5, 6].map((n) => [Tok.Number, n]));
	});

	it('stops at `end` when given one', () => {
		const lexer = new Lexer(bytes('1 2 3'), 0, 3);
		expect([lexer.next(), lexer.value, lexer.next(), lexer.value, lexer.next()]).toEqual([Tok.Number, 1, Tok.Number, 2, Tok.EOF]);
	});
});
