// The one rule for ids (nodes/shared/values.ts): what the site writes, what a user may type or map, and the
// editor's By ID check, which must accept exactly what the node accepts.
import type { INodeProperties } from 'n8n-workflow';

import { ESign } from '../../../nodes/ESign/ESign.node';
import { ID_INPUT_PATTERN, idFromAnswer, idFromInput, isWholeId } from '../../../nodes/shared/values';

/** [typed or mapped, the id the request names (undefined: refused before any request)]. */
const INPUTS: Array<[unknown, string | undefined]> = [
	['7', '7'],
	['42', '42'],
	[' 42 ', '42'],
	['\t12\n', '12'],
	[12, '12'],
	['007', '7'],
	['0010', '10'],
	['9999999999999999', '9999999999999999'], // 16 digits, the most the site's ids have
	['0009999999999999999', '9999999999999999'],
	['10000000000000000', undefined], // 17 digits
	[1e16, undefined],
	['0', undefined],
	['000', undefined],
	[0, undefined],
	['-3', undefined],
	[-3, undefined],
	['1.5', undefined],
	[1.5, undefined],
	['1e3', undefined],
	['12a', undefined],
	['1 2', undefined],
	['../stats', undefined],
	['', undefined],
	['   ', undefined],
	[undefined, undefined],
	[null, undefined],
	[true, undefined],
	[{ id: 7 }, undefined],
];

describe('ids typed or mapped by a user (idFromInput)', () => {
	test.each(INPUTS)('%j → %j', (input, id) => {
		expect(idFromInput(input)).toBe(id);
	});

	test('what it gives is always an id as the site writes it', () => {
		for (const [input] of INPUTS) {
			const id = idFromInput(input);
			if (id !== undefined) expect(isWholeId(id)).toBe(true);
		}
	});
});

describe('ids from the site (isWholeId, idFromAnswer): only as the site writes them', () => {
	test.each([
		['1', true],
		['9999999999999999', true],
		['007', false],
		['0', false],
		['10000000000000000', false],
		[' 7', false],
		['7.0', false],
	])('isWholeId(%j) → %j', (text, ok) => {
		expect(isWholeId(text)).toBe(ok);
	});

	test('idFromAnswer takes a JSON integer or its text, and nothing that is not a path segment id', () => {
		expect(idFromAnswer(12)).toBe('12');
		expect(idFromAnswer(' 12 ')).toBe('12');
		expect(idFromAnswer('012')).toBeUndefined();
		expect(idFromAnswer(0)).toBeUndefined();
		expect(idFromAnswer('../stats')).toBeUndefined();
	});
});

describe("the editor's By ID check is the same rule", () => {
	const rlcs = new ESign().description.properties.filter((p) => p.type === 'resourceLocator' && ['documentId', 'templateId'].includes(p.name));
	const byIdPatterns = rlcs.map((p: INodeProperties) => {
		const mode = p.modes?.find((m) => m.name === 'id');
		const rule = mode?.validation?.find((v) => typeof v === 'object' && v.type === 'regex');
		return (rule as { properties: { regex: string } } | undefined)?.properties.regex;
	});

	test('every Document and Template locator checks By ID with ID_INPUT_PATTERN', () => {
		expect(rlcs.length).toBeGreaterThan(10);
		expect(new Set(byIdPatterns)).toEqual(new Set([ID_INPUT_PATTERN]));
	});

	test.each(INPUTS.filter(([input]) => typeof input === 'string'))('the pattern accepts %j exactly when the node does', (input, id) => {
		expect(new RegExp(ID_INPUT_PATTERN).test(input as string)).toBe(id !== undefined);
	});
});
