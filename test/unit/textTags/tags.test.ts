// Text tags (nodes/ESign/textTags/tags.ts): every rule and error of the grammar ({{type:signer[:part]…}}), and findTags on
// lines made by hand (test/unit/pdf/lines.ts), whose glyph boxes are known without the layout code.
import { braceSpans, findTags, mayHoldTag, parseTag } from '../../../nodes/ESign/textTags/tags';
import { glyphBox, line } from '../pdf/lines';

describe('parseTag: types and signers', () => {
	it('reads type and signer; required by default', () => {
		expect(parseTag('signature:1')).toEqual({ spec: { type: 'signature', signer: 1, required: true } });
		expect(parseTag('stamp:12')).toEqual({ spec: { type: 'stamp', signer: 12, required: true } });
	});

	it.each(['signature', 'initials', 'name', 'email', 'date', 'text', 'textarea', 'checkbox', 'dropdown:1:a|b', 'stamp'].map((t) => [t]))('knows the type %s', (type) => {
		const inside = type.includes(':') ? type : `${type}:1`;
		expect(parseTag(inside)?.spec?.type).toBe(type.split(':')[0]);
	});

	it.each([
		['sig', 'signature'],
		['sign', 'signature'],
		['initial', 'initials'],
		['check', 'checkbox'],
		['select', 'dropdown'],
	])('reads the alias %s as %s', (alias, type) => {
		const extra = type === 'dropdown' ? ':A|B' : '';
		expect(parseTag(`${alias}:1${extra}`)?.spec?.type).toBe(type);
	});

	it('ignores case and white-space in the type, and padding around parts', () => {
		expect(parseTag('  SIGN ature : 2 ')?.spec).toEqual({ type: 'signature', signer: 2, required: true });
		expect(parseTag('__Date__:__3__')?.spec).toEqual({ type: 'date', signer: 3, required: true });
	});

	it.each([
		['signer1', 1],
		['Signer 2', 2],
		['SIGNER  07', 7],
		['9999', 9999],
	])('reads the signer "%s" as %d', (signer, number) => {
		expect(parseTag(`text:${signer}`)?.spec?.signer).toBe(number);
	});

	it.each(['0', '10000', 'x', '-1', '1.5', '', 'signer', 'first'])('refuses the signer "%s"', (signer) => {
		const read = parseTag(`text:${signer}`);
		expect(read?.spec).toBeUndefined();
		expect(read?.error).toMatch(/signer/);
	});

	it('refuses an unknown type, naming it', () => {
		expect(parseTag('signatur:1')).toEqual({ error: expect.stringContaining('"signatur" is not a field type') });
	});

	it('refuses a type without a signer; other single words are not tags at all (mail-merge braces)', () => {
		expect(parseTag('signature')?.error).toMatch(/names no signer/);
		expect(parseTag('client_name')).toBeUndefined();
		expect(parseTag('')).toBeUndefined();
	});

	it('names from object properties are not types: {{constructor}} is a brace, {{constructor:1}} an unknown type', () => {
		expect(parseTag('constructor')).toBeUndefined();
		expect(parseTag('constructor:1')).toEqual({ error: expect.stringContaining('"constructor" is not a field type') });
		expect(parseTag('__proto__:1')?.spec).toBeUndefined();
	});
});

describe('parseTag: parts after the signer', () => {
	it('y or n: required or optional, in any case and padding', () => {
		expect(parseTag('text:1:n')?.spec?.required).toBe(false);
		expect(parseTag('text:1: Y ')?.spec?.required).toBe(true);
		expect(parseTag('text:1:y:n')).toEqual({ error: 'it says y or n twice' });
	});

	it('a name: one part, padding trimmed and white-space runs made one space', () => {
		expect(parseTag('text:1:__Company   name__')?.spec).toEqual({ type: 'text', signer: 1, required: true, name: 'Company name' });
		expect(parseTag('text:1:Company:Other')?.error).toMatch(/two names, "Company" and "Other"/);
	});

	it('dropdown options, separated by |, padded and without empty ones', () => {
		expect(parseTag('dropdown:2: Basic | Pro |Enterprise|')?.spec).toEqual({ type: 'dropdown', signer: 2, required: true, options: ['Basic', 'Pro', 'Enterprise'] });
		expect(parseTag('dropdown:1')?.error).toMatch(/needs its options/);
		expect(parseTag('dropdown:1:|')?.error).toMatch(/needs its options/);
		expect(parseTag('dropdown:1:A|B:C|D')?.error).toBe('it has two lists of options');
		expect(parseTag('text:1:A|B')?.error).toMatch(/only a dropdown takes options/);
	});

	it('parts in any order, empty parts skipped', () => {
		expect(parseTag('dropdown:1:n::Plan:Basic|Pro')?.spec).toEqual({ type: 'dropdown', signer: 1, required: false, name: 'Plan', options: ['Basic', 'Pro'] });
		expect(parseTag('dropdown:1:Basic|Pro:Plan:n')?.spec).toEqual({ type: 'dropdown', signer: 1, required: false, name: 'Plan', options: ['Basic', 'Pro'] });
	});
});

describe('findTags', () => {
	it('finds a tag in a line of text with its box (the union of its glyphs\' em boxes)', () => {
		const found = findTags([line('Sign here {{signature:1}} please')], 3);
		expect(found).toEqual([{ page: 3, text: '{{signature:1}}', box: glyphBox(10, 24), spec: { type: 'signature', signer: 1, required: true } }]);
	});

	it('finds several tags on a line, in order', () => {
		const found = findTags([line('{{initials:1}} and {{date:2:n}}')], 1);
		expect(found.map((tag) => [tag.text, tag.box])).toEqual([
			['{{initials:1}}', glyphBox(0, 13)],
			['{{date:2:n}}', glyphBox(19, 30)],
		]);
	});

	it('allows white-space between the braces and inside the tag', () => {
		const found = findTags([line('x { {signature : 1} } y')], 1);
		expect(found.map((tag) => [tag.text, tag.spec?.type, tag.box])).toEqual([['{ {signature : 1} }', 'signature', glyphBox(2, 20)]]);
	});

	it('a box skips the spaces the layout implied (they have no glyph)', () => {
		const found = findTags([line('{{text:1:Full·name}}')], 1);
		// 20 characters, 19 glyphs: the tag spans glyphs 0 to 18.
		expect(found.map((tag) => [tag.spec?.name, tag.box])).toEqual([['Full name', glyphBox(0, 18)]]);
	});

	it('reports tags that do not read, with their box', () => {
		const found = findTags([line('{{signature:x}}')], 1);
		expect(found).toEqual([{ page: 1, text: '{{signature:x}}', box: glyphBox(0, 14), error: expect.stringMatching(/signer "x"/) }]);
	});

	it('collects braces that are not tags in `others`, without a tag', () => {
		const others: string[] = [];
		expect(findTags([line('Dear {{ client_name }}, {{signature:1}}')], 1, others).map((tag) => tag.text)).toEqual(['{{signature:1}}']);
		expect(others).toEqual(['{{client_name}}']);
	});

	it('reports a tag cut by a line break as not closed on its line; the rest on the next line is nothing', () => {
		const found = findTags([line('Sign {{signature:1'), line('}} here')], 1);
		expect(found).toEqual([{ page: 1, text: '{{signature:1', box: glyphBox(5, 17), error: expect.stringMatching(/not closed/) }]);
	});

	it('an opening whose text is no tag type is plain text, closed or not', () => {
		expect(findTags([line('{{ not a tag'), line('a {{b}} c'), line('}}{{')], 1)).toEqual([]);
	});

	it('an opening followed by another opening before any closing: only the second is read', () => {
		const found = findTags([line('{{ {{signature:1}}')], 1);
		expect(found.map((tag) => [tag.text, tag.box])).toEqual([['{{signature:1}}', glyphBox(3, 17)]]);
	});

	it('an unclosed opening of a tag type, followed by a real tag, is reported up to the next opening', () => {
		const found = findTags([line('{{signature:1 {{date:1}}')], 1);
		expect(found.map((tag) => [tag.text, tag.error === undefined])).toEqual([
			['{{signature:1', false],
			['{{date:1}}', true],
		]);
	});

	it('single braces are not tags', () => {
		expect(findTags([line('{signature:1} and {x}')], 1)).toEqual([]);
	});

	it('mayHoldTag keeps lines with an opening brace only', () => {
		expect([line('a {b'), line('none'), line('}}')].map(mayHoldTag)).toEqual([true, false, false]);
	});
});

describe('findTags on very long lines', () => {
	it('a line of 200,000 opening braces holds no tag', () => {
		expect(findTags([line('{'.repeat(200_000))], 1)).toEqual([]);
	});

	it('a closing far after many openings closes only the last one', () => {
		const found = findTags([line(`${'{'.repeat(50_000)}signature:1}}`)], 1);
		expect(found.map((tag) => [tag.text, tag.spec?.type])).toEqual([['{{signature:1}}', 'signature']]);
	});

	it('reads a line of 20,000 unclosed tags and one closed one: each reported, up to the next opening', () => {
		const found = findTags([line(`${'{{date:1 '.repeat(20_000)}{{date:2}}`)], 1);
		expect(found).toHaveLength(20_001);
		expect(found[19_999]).toMatchObject({ text: '{{date:1', error: expect.stringMatching(/not closed/) });
		expect(found[20_000]).toMatchObject({ text: '{{date:2}}', spec: { signer: 2 } });
	});
});

describe('braceSpans: what a tag looks like, one rule for tags and anchors', () => {
	it('gives every closed {{…}} of a line, tag or not, and no cut one; exactly the texts findTags reads', () => {
		const text = 'Sign {{signature:1}} for {{ client_name }} {{date:2 then {{ text : 1 }} end {{x';
		const spans = braceSpans(text);
		expect(spans.map(([start, stop]) => text.slice(start, stop))).toEqual(['{{signature:1}}', '{{ client_name }}', '{{ text : 1 }}']);
		const others: string[] = [];
		const tags = findTags([line(text)], 1, others).filter((tag) => !tag.error?.includes('not closed'));
		expect(tags.map((tag) => tag.text)).toEqual(['{{signature:1}}', '{{ text : 1 }}']);
		expect(others).toEqual(['{{client_name}}']);
	});

	it('a line without a brace has none', () => {
		expect(braceSpans('Signature: ____')).toEqual([]);
	});
});
