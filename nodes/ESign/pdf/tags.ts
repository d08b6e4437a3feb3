import type { Box, TextLine } from './layout';
import { boxOf } from './layout';

/**
 * Text tags: `{{type:signer}}`, `{{type:signer:y|n}}`, `{{type:signer:Field name}}`, `{{dropdown:signer:A|B|C}}`.
 * After the signer, parts come in any order: `y`/`n` (required, the default, or optional), options separated by
 * `|` (dropdown), and any other text is the field's name. Spaces and underscores around a part are padding: they
 * widen the tag's box without changing what it says.
 */

export const TAG_TYPES = ['signature', 'initials', 'name', 'email', 'date', 'text', 'textarea', 'checkbox', 'dropdown', 'stamp'] as const;
export type TagType = (typeof TAG_TYPES)[number];

const ALIASES: Record<string, TagType> = { sig: 'signature', sign: 'signature', initial: 'initials', check: 'checkbox', select: 'dropdown' };

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

const typeOf = (word: string): TagType | undefined => {
	const key = word.replace(/\s+/g, '').toLowerCase();
	if ((TAG_TYPES as readonly string[]).includes(key)) return key as TagType;
	return Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined; // the text is the document's ("constructor")
};

const unpad = (part: string) => part.replace(/^[\s_]+|[\s_]+$/g, '').replace(/\s+/g, ' ');

/** Reads a tag's inside (between the braces): a spec, an error, or `undefined` when it is not a field tag at all. */
export function parseTag(inside: string): { spec?: TagSpec; error?: string } | undefined {
	const parts = inside.split(':').map(unpad);
	if (parts.length === 1) {
		// "{{client_name}}" is mail-merge text, not a field; "{{signature}}" is a tag that forgot its signer.
		return typeOf(parts[0]) ? { error: 'it names no signer (write it as {{type:signer}}, e.g. {{signature:1}})' } : undefined;
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
			if (type !== 'dropdown') return { error: `only a dropdown takes options ("${part}")` };
			if (spec.options) return { error: 'it has two lists of options' };
			spec.options = part.split('|').map(unpad).filter((option) => option !== '');
		} else {
			if (spec.name !== undefined) return { error: `it has two names, "${spec.name}" and "${part}" (a name is one part; use y or n for required)` };
			spec.name = part;
		}
	}
	if (type === 'dropdown' && !spec.options?.length) {
		return { error: 'a dropdown needs its options, separated by | (e.g. {{dropdown:1:Basic|Pro}})' };
	}
	return { spec };
}

const OPEN = /\{\s*\{/g;

/** Whether a line may hold a tag (the reader drops other lines early). */
export const mayHoldTag = (line: TextLine) => line.text.includes('{');

/** Every tag of a page's lines, readable or not; `others` collects braces text that is not a tag. */
export function findTags(lines: TextLine[], page: number, others: string[] = []): FoundTag[] {
	const found: FoundTag[] = [];
	for (const line of lines) {
		const text = line.text;
		OPEN.lastIndex = 0;
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
		let open: RegExpExecArray | null;
		while ((open = OPEN.exec(text))) {
			const start = open.index;
			const end = nextClose(OPEN.lastIndex);
			OPEN.lastIndex = start + open[0].length;
			const nextOpen = text.slice(OPEN.lastIndex).search(/\{\s*\{/);
			const closesFirst = end && (nextOpen < 0 || end.index < OPEN.lastIndex + nextOpen);
			if (!end || !closesFirst) {
				// An opening without its closing on the same line: a tag cut by a line break, or plain text.
				const rest = text.slice(OPEN.lastIndex, nextOpen < 0 ? undefined : OPEN.lastIndex + nextOpen);
				if (typeOf(rest.split(':')[0]) && rest.includes(':')) {
					const shown = text.slice(start, nextOpen < 0 ? undefined : OPEN.lastIndex + nextOpen).trim();
					found.push({ page, text: shown, box: boxOf(line, start, start + shown.length), error: 'it is not closed with }} on the same line (keep a tag on one line)' });
				}
				continue;
			}
			const stop = end.index + end[0].length;
			const inside = text.slice(OPEN.lastIndex, end.index);
			const tagText = text.slice(start, stop);
			const read = parseTag(inside);
			OPEN.lastIndex = stop;
			if (!read) {
				others.push(tagText.replace(/\s+/g, ''));
				continue;
			}
			found.push({ page, text: tagText, box: boxOf(line, start, stop), ...read });
		}
	}
	return found;
}
