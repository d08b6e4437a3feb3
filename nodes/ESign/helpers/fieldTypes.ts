import fieldDefaults from '../../shared/fieldDefaults.json';

/**
 * The one list of field types. Which types exist is the keys of nodes/shared/fieldDefaults.json (their default
 * sizes, shared with the sandbox site); everything else a type has (its name in the editor, whether it takes
 * options, the words a text tag may use for it) is in FIELD_TYPE_INFO, typed by those keys: a type added to the
 * JSON does not compile until it is described here, and one described here but not in the JSON does not either.
 * Read by the field checks (fields.ts), the editor's list (fieldDescriptions.ts) and the tag grammar (textTags/tags.ts).
 */

export type FieldType = keyof typeof fieldDefaults;

interface FieldTypeInfo {
	/** the editor's name for it */
	name: string;
	/** the editor's description */
	description: string;
	/** a signer picks one of a list: the field needs options (and only such a field takes them) */
	options?: true;
	/** other words a text tag may use for the type ({{sig:1}}) */
	aliases?: string[];
	/** its value is text, so a font means something (the editor shows Font Size and Font Family) */
	textValue?: true;
}

export const FIELD_TYPE_INFO: Record<FieldType, FieldTypeInfo> = {
	signature: { name: 'Signature', description: 'Drawn, typed or uploaded by the signer', aliases: ['sig', 'sign'] },
	initials: { name: 'Initials', description: 'Filled by the signer', aliases: ['initial'] },
	name: { name: 'Name', description: 'Signer name, filled automatically', textValue: true },
	email: { name: 'Email', description: 'Signer email, filled automatically', textValue: true },
	date: { name: 'Date', description: 'Signing date, filled automatically', textValue: true },
	text: { name: 'Text', description: 'Single-line text filled by the signer', textValue: true },
	textarea: { name: 'Textarea', description: 'Multi-line text filled by the signer', textValue: true },
	checkbox: { name: 'Checkbox', description: 'Filled by the signer', aliases: ['check'] },
	dropdown: { name: 'Dropdown', description: 'Signer picks one of the options', options: true, aliases: ['select'], textValue: true },
	stamp: { name: 'Stamp', description: 'Company stamp or seal' },
};

/** Every field type, in the JSON's order (the order error messages list them in). */
export const FIELD_TYPES = Object.keys(fieldDefaults) as FieldType[];

export const isFieldType = (value: string): value is FieldType => Object.hasOwn(FIELD_TYPE_INFO, value);

/** Whether a type needs options (and is the only kind that takes them): a dropdown. */
export const needsOptions = (type: string): boolean => isFieldType(type) && FIELD_TYPE_INFO[type].options === true;

/** The types whose value is text, sorted. */
export const TEXT_VALUED_TYPES = FIELD_TYPES.filter((type) => FIELD_TYPE_INFO[type].textValue === true).sort();

/** The types that take options, as a message names them ("dropdown"). */
export const OPTION_TYPES = FIELD_TYPES.filter(needsOptions);
