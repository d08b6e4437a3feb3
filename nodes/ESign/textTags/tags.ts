import type { Box, TextLine } from '../pdf';
import { boxOf } from '../pdf';
import type { FieldType } from '../helpers/fieldTypes';
import { FIELD_TYPE_INFO, FIELD_TYPES, OPTION_TYPES, needsOptions } from '../helpers/fieldTypes';

/**
 * Text tags: `{{type:signer}}`, `{{type:signer:y|n}}`, `{{type:signer:Field name}}`, `{{dropdown:signer:A|B|C}}`.
 * After the signer, parts come in any order: `y`/`n` (required, the default, or optional), options separated by
 * `|` (dropdown), and any other text is the field's name. Spaces and underscores around a part are padding: they
 * widen the tag's box without changing what it says. The types and their aliases are the one list's
 * (helpers/fieldTypes.ts); what a tag looks like in a line is braceSpans, read by findTags and by anchors.ts.
 */

/** The grammar as the node's texts show it (the no-tags error, the editor's notice, a tag without its signer). */
export const TAG_FORM = '{{type:signer}}';
export const TAG_EXAMPLES = '{{signature:1}}, {{date:2}}, {{text:1:Company name}}, {{checkbox:2:n}} (n = optional), {{dropdown:1:Basic|Pro}}';

export const TAG_TYPES: readonly FieldType[] = FIELD_TYPES;
export type TagType = FieldType;

/** Each type's own word and its aliases, as a tag writes them (lower case, no spaces). */
const WORDS = new Map<string, TagType>();
for (const type of FIELD_TYPES) {
	WORDS.set(type, type);
	for (const alias of FIELD_TYPE_INFO[type].aliases ?? []) WORDS.set(alias, type);
}

export interface TagSpec {
	type: TagType;
	signer: number;
	required: boolean;
	name?: string;
	options?: string[];
}

export interface FoundTag {
	page: number;
	/** the tag as written, white-space trimmed */
	text: string;
	box: Box;
	spec?: TagSpec;
	/** why the tag cannot be read (then `spec` is absent) */
	error?: string;
}

// A Map, not an object: the text is the document's ("constructor" is no type).
const typeOf = (word: string): TagType | undefined => WORDS.get(word.replace(/\s+/g, '').toLowerCase());

const unpad = (part: string) => part.replace(/^[\s_]+|[\s_]+$/g, '').replace(/\s+/g, ' ');

/** Reads a tag's inside (between the braces): a spec, an error, or `undefined` when it is not a field tag at all. */
export function parseTag(inside: string): { spec?: TagSpec; error?: string } | undefined {
	if (isDataTag(inside)) return undefined; // a value drawn into the PDF (Fill PDF), not a field
	const parts = inside.split(':').map(unpad);
	if (parts.length === 1) {
		// "{{client_name}}" is mail-merge text, not a field; "{{signature}}" is a tag that forgot its signer.
		return typeOf(parts[0]) ? { error: `it names no signer (write it as ${TAG_FORM}, e.g. {{signature:1}})` } : undefined;
	}
	const type = typeOf(parts[0]);
	if (!type) {
		return { error: `"${parts[0]}" is not a field type (use one of ${TAG_TYPES.join(', ')})` };
	}
	const signerMatch = /^(?:signer\s*)?(\d{1,4})$/i.exec(parts[1].replace(/\s+/g, ''));
	if (!signerMatch || Number(signerMatch[1]) < 1) {
		return { error: `its signer "${parts[1]}" is not a number from 1 (the signer's position: 1 = first)` };
	}
	const spec: TagSpec = { type, signer: Number(signerMatch[1]), required: true };
	let flagSeen = false;
	for (const part of parts.slice(2)) {
		if (!part) continue;
		const flag = part.replace(/\s+/g, '').toLowerCase();
		if (flag === 'y' || flag === 'n') {
			if (flagSeen) return { error: 'it says y or n twice' };
			flagSeen = true;
			spec.required = flag === 'y';
		} else if (part.includes('|')) {
			if (!needsOptions(type)) return { error: `only a ${OPTION_TYPES.join(' or ')} takes options ("${part}")` };
			if (spec.options) return { error: 'it has two lists of options' };
			spec.options = part.split('|').map(unpad).filter((option) => option !== '');
		} else {
			if (spec.name !== undefined) return { error: `it has two names, "${spec.name}" and "${part}" (a name is one part; use y or n for required)` };
			spec.name = part;
		}
	}
	if (needsOptions(type) && !spec.options?.length) {
		return { error: `a ${type} needs its options, separated by | (e.g. {{${type}:1:Basic|Pro}})` };
	}
	return { spec };
}

/**
 * Data tags: `{{data:KEY}}` stands where a value of the workflow is drawn (Document → Fill PDF, Create and Send's PDF
 * Values). KEY holds letters, digits, `_`, `-` and `.`; spaces around the parts are padding. They are no fields:
 * findTags passes them over.
 */
export const DATA_TAG_FORM = '{{data:KEY}}';

const DATA_WORD = /^\s*data\s*:/i;
const DATA_KEY = /^[A-Za-z0-9_.-]+$/;

const isDataTag = (inside: string) => DATA_WORD.test(inside);

export interface FoundDataTag {
	page: number;
	/** the tag as written */
	text: string;
	/** its key, or undefined when it is not a valid one (then `error` says why) */
	key?: string;
	error?: string;
	line: TextLine;
	/** the tag's span in `line.text` */
	start: number;
	end: number;
}

/** Every data tag of a page's lines, readable or not. */
export function findDataTags(lines: TextLine[], page: number): FoundDataTag[] {
	const found: FoundDataTag[] = [];
	for (const line of lines) {
		for (const brace of braces(line.text)) {
			if (!brace.closed || !isDataTag(brace.inside)) continue;
			const key = brace.inside.replace(DATA_WORD, '').trim();
			const text = line.text.slice(brace.start, brace.stop);
			const base = { page, text, line, start: brace.start, end: brace.stop };
			found.push(DATA_KEY.test(key) ? { ...base, key } : { ...base, error: `its key "${key}" is not one: a key holds letters, digits, _, - and . (e.g. {{data:tenant_name}})` });
		}
	}
	return found;
}

/** A `{{` of a line and what follows it: closed by `}}` before the next `{{` ([start, stop), `inside` between), or cut. */
type Braces = { start: number; closed: true; stop: number; inside: string } | { start: number; closed: false; end: number | undefined; rest: string };

/** What a tag looks like in a line: every `{{`, in order, with its `}}` on the same line or none before the next `{{`. */
function* braces(text: string): Generator<Braces> {
	const open = /\{\s*\{/g;
	// The first closing at or after `closeFrom`: still the first after any later position before it, so each
	// opening does not search the rest of the line again (a line of a million braces would take minutes).
	const close = /\}\s*\}/g;
	let closeFrom = -1;
	let closing: RegExpExecArray | null = null;
	const nextClose = (from: number) => {
		if (closeFrom < 0 || from < closeFrom || (closing && closing.index < from)) {
			close.lastIndex = from;
			closing = close.exec(text);
			closeFrom = from;
		}
		return closing;
	};
	let opening: RegExpExecArray | null;
	while ((opening = open.exec(text))) {
		const start = opening.index;
		const after = open.lastIndex;
		const end = nextClose(after);
		const nextOpen = text.slice(after).search(/\{\s*\{/);
		const until = nextOpen < 0 ? undefined : after + nextOpen;
		if (!end || (until !== undefined && end.index >= until)) {
			// An opening without its closing on the same line: a tag cut by a line break, or plain text.
			yield { start, closed: false, end: until, rest: text.slice(after, until) };
			continue;
		}
		const stop = end.index + end[0].length;
		open.lastIndex = stop;
		yield { start, closed: true, stop, inside: text.slice(after, end.index) };
	}
}

/** The closed `{{…}}` of a line's text as [start, stop) spans: tags and other braces text alike (anchors skip them). */
export function braceSpans(text: string): number[][] {
	if (!text.includes('{')) return [];
	const spans: number[][] = [];
	for (const found of braces(text)) if (found.closed) spans.push([found.start, found.stop]);
	return spans;
}

/** Whether a line may hold a tag (the reader drops other lines early). */
export const mayHoldTag = (line: TextLine) => line.text.includes('{');

/** Every tag of a page's lines, readable or not; `others` collects braces text that is not a tag. */
export function findTags(lines: TextLine[], page: number, others: string[] = []): FoundTag[] {
	const found: FoundTag[] = [];
	for (const line of lines) {
		const text = line.text;
		for (const brace of braces(text)) {
			const { start } = brace;
			if (!brace.closed) {
				if (typeOf(brace.rest.split(':')[0]) && brace.rest.includes(':')) {
					const shown = text.slice(start, brace.end).trim();
					found.push({ page, text: shown, box: boxOf(line, start, start + shown.length), error: 'it is not closed with }} on the same line (keep a tag on one line)' });
				}
				continue;
			}
			const tagText = text.slice(start, brace.stop);
			if (isDataTag(brace.inside)) continue;
			const read = parseTag(brace.inside);
			if (!read) {
				others.push(tagText.replace(/\s+/g, ''));
				continue;
			}
			found.push({ page, text: tagText, box: boxOf(line, start, brace.stop), ...read });
		}
	}
	return found;
}
