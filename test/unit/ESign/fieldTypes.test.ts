// The one list of field types (nodes/ESign/helpers/fieldTypes.ts, from nodes/shared/fieldDefaults.json): every
// place that knows field types reads it, so a type in the list is everywhere (the editor's Field Type, the field
// checks and their default sizes, the tag grammar and its aliases) and "needs options" is one rule for rows and tags.
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import fieldDefaults from '../../../nodes/shared/fieldDefaults.json';
import { ESign } from '../../../nodes/ESign/ESign.node';
import { buildFields, signerIdFromRow } from '../../../nodes/ESign/helpers/fields';
import { FIELD_TYPE_INFO, FIELD_TYPES, OPTION_TYPES, needsOptions } from '../../../nodes/ESign/helpers/fieldTypes';
import { parseTag } from '../../../nodes/ESign/textTags/tags';
import { SPEC_FIELD_SIZES } from '../../support/fieldSizes';

/** Every `field_type` parameter of the node's description, wherever it is nested. */
function fieldTypeParameters(properties: INodeProperties[]): INodeProperties[] {
	const found: INodeProperties[] = [];
	const walk = (list: unknown[]) => {
		for (const item of list as Array<INodeProperties & { values?: unknown[] }>) {
			if (item.name === 'field_type' && item.type === 'options') found.push(item);
			if (Array.isArray(item.options)) walk(item.options);
			if (Array.isArray(item.values)) walk(item.values);
		}
	};
	walk(properties);
	return found;
}

const build = (type: string, extra: Record<string, unknown> = {}) =>
	buildFields([{ signer_id: 3, field_type: type, page_number: 1, position_x: 72, position_y: 100, ...extra }], { origin: 'topLeft', pageHeight: 792 }, signerIdFromRow);

describe('one list of field types', () => {
	it('is the API reference’s list, and every type in it is described (name, description)', () => {
		expect(FIELD_TYPES).toEqual(Object.keys(SPEC_FIELD_SIZES));
		expect(Object.keys(FIELD_TYPE_INFO).sort()).toEqual(Object.keys(fieldDefaults).sort());
		for (const type of FIELD_TYPES) expect(FIELD_TYPE_INFO[type].name).toMatch(/^[A-Z]/);
	});

	it('the editor’s Field Type offers exactly the list, with its names, sorted by name', () => {
		const parameters = fieldTypeParameters(new ESign().description.properties);
		expect(parameters.length).toBeGreaterThan(0);
		for (const parameter of parameters) {
			const options = parameter.options as INodePropertyOptions[];
			expect(options.map((o) => o.value).sort()).toEqual([...FIELD_TYPES].sort());
			expect(options.map((o) => o.name)).toEqual(FIELD_TYPES.map((t) => FIELD_TYPE_INFO[t].name).sort((a, b) => a.localeCompare(b)));
		}
	});

	it.each(FIELD_TYPES.map((t) => [t]))('%s: a row of it is accepted with its default size, a tag of it is read, and so are its aliases', (type) => {
		const options = needsOptions(type) ? { options: 'a,b' } : {};
		const { fields, errors } = build(type, options);
		expect(errors).toEqual([]);
		expect(fields[0]).toMatchObject({ field_type: type, width: SPEC_FIELD_SIZES[type][0], height: SPEC_FIELD_SIZES[type][1] });
		const part = needsOptions(type) ? ':a|b' : '';
		for (const word of [type, ...(FIELD_TYPE_INFO[type].aliases ?? [])]) {
			expect(parseTag(`${word}:1${part}`)).toEqual({ spec: expect.objectContaining({ type, signer: 1 }) });
		}
	});

	it('a word that is no type is refused by rows and tags alike, both naming the whole list', () => {
		expect(build('seal').errors[0]).toContain(`is not one of ${FIELD_TYPES.join(', ')}`);
		expect(parseTag('seal:1')?.error).toContain(`use one of ${FIELD_TYPES.join(', ')}`);
	});

	it('a type that needs options is refused without them by rows and tags; only such a type takes options in a tag', () => {
		expect(OPTION_TYPES).toEqual(['dropdown']);
		for (const type of FIELD_TYPES) {
			expect(build(type).errors.some((e) => e.includes('needs options'))).toBe(needsOptions(type));
			expect(parseTag(`${type}:1`)?.error?.includes('needs its options') ?? false).toBe(needsOptions(type));
			expect(parseTag(`${type}:1:a|b`)?.error?.includes('takes options') ?? false).toBe(!needsOptions(type));
		}
	});
});
