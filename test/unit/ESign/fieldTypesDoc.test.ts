// docs/text-tags.md lists the field types a tag may name, and the words it also accepts; that list is written by
// hand, so this holds it to the one list (helpers/fieldTypes.ts): a type or alias added there and not in the doc,
// or the other way round, fails here.
import { FIELD_TYPE_INFO, FIELD_TYPES } from '../../../nodes/ESign/helpers/fieldTypes';
import { readDoc } from '../../support/docs';

const doc = readDoc('text-tags.md');

/** The grammar table's `type` row, split into the types it lists and the aliases after "also". */
function typeRow(): { types: string[]; aliases: Map<string, string> } {
	const row = doc.split('\n').find((line) => line.startsWith('| type |'));
	expect(row).toBeDefined();
	const [listed, also = ''] = (row ?? '').split('also');
	const types = [...listed.matchAll(/`([a-z]+)`/g)].map((match) => match[1]);
	const aliases = new Map<string, string>();
	// "`sig`/`sign` (signature)": every word before the parenthesis names the type inside it
	for (const group of also.matchAll(/((?:`[a-z]+`\/?)+) \(([a-z]+)\)/g)) {
		for (const word of group[1].matchAll(/`([a-z]+)`/g)) aliases.set(word[1], group[2]);
	}
	return { types, aliases };
}

describe('docs/text-tags.md field types', () => {
	it('lists every field type, in the list order, and no other', () => {
		expect(typeRow().types).toEqual(FIELD_TYPES);
	});

	it('lists every alias with the type it stands for, and no other', () => {
		const expected = new Map<string, string>();
		for (const type of FIELD_TYPES) {
			for (const alias of FIELD_TYPE_INFO[type].aliases ?? []) expected.set(alias, type);
		}
		expect(expected.size).toBeGreaterThan(0);
		expect(typeRow().aliases).toEqual(expected);
	});
});
