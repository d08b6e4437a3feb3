import { PdfText } from '../pdf';
import type { Filler, FormWidget, Removal, TagRemover } from '../pdf';
import { DATA_TAG_FORM, findDataTags } from '../textTags/tags';
import type { FoundDataTag } from '../textTags/tags';

/**
 * Values of the workflow drawn into a PDF before it goes anywhere (issue 51): one JSON object keyed by a form field's
 * full name (`tenant.name`) or a data tag's key (`{{data:tenant_name}}` in the text). Every value is checked before
 * anything is written, and every problem is named with what to change; nothing is ever drawn as "?" or left blank
 * without a word. Pure: no n8n context (the operations turn problems into errors with the item's index).
 */

export interface FillProblem {
	/** the field's name or the data tag's key */
	name: string;
	message: string;
	description: string;
}

export type FillValues = Record<string, unknown>;

export interface FillPlan {
	filler: Filler;
	/** what was drawn: field names and data tag keys */
	filled: string[];
	problems: FillProblem[];
}

/** Check boxes: what reads as ticked, and as left empty. */
const TRUE = new Set(['true', 'yes', 'on', '1', 'x', 'y', 'checked']);
const FALSE = new Set(['false', 'no', 'off', '0', 'n', 'unchecked', '']);
/** Field flag (12.7.4.4): a combo box that takes typed text besides its options. */
const EDIT = 1 << 18;

/** A value as the text it draws: strings, numbers and booleans; undefined for anything else. */
function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'boolean') return String(value);
	return undefined;
}

const empty = (value: unknown) => value === undefined || value === null || value === '';

const listed = (names: string[]) => names.slice(0, 30).map((name) => `"${name}"`).join(', ') + (names.length > 30 ? `, and ${names.length - 30} more` : '');

/**
 * Reads the PDF's form fields and data tags, checks `values` against them and draws each. `tags`: the tag remover
 * the upload's other tags go through (Create and Send), so that one update holds everything.
 */
export async function planFill(pdf: PdfText, values: FillValues, tags?: TagRemover): Promise<FillPlan> {
	const problems: FillProblem[] = [];
	const blocker = await pdf.rewriteBlocker();
	const filler = pdf.filler(tags);
	if (blocker) {
		problems.push({ name: '', message: `The PDF cannot be filled: ${blocker}`, description: 'Values are drawn into the file itself, which must change: use a copy that is not encrypted or signed (print or save it to PDF again).' });
		return { filler, filled: [], problems };
	}
	const widgets = await pdf.formFields();
	const fields = new Map<string, FormWidget[]>();
	for (const widget of widgets) fields.set(widget.name, [...(fields.get(widget.name) ?? []), widget]);
	const dataTags: FoundDataTag[] = [];
	for (const { number } of pdf.pages) {
		const lines = await pdf.lines(number, (line) => line.text.includes('{'), { sources: true });
		dataTags.push(...findDataTags(lines, number));
	}
	const keys = new Set(dataTags.flatMap((tag) => (tag.key === undefined ? [] : [tag.key])));
	const names = [...new Set([...fields.keys(), ...[...keys].map((key) => `data:${key}`)])];

	for (const name of Object.keys(values)) {
		if (!fields.has(name) && !keys.has(name)) {
			problems.push({
				name,
				message: `"${name}" is neither a form field nor a data tag of the PDF`,
				description: names.length
					? `Name a form field by its full name, or a data tag by its key (${DATA_TAG_FORM} in the text). The PDF has: ${listed(names)}.`
					: `The PDF has no form fields and no data tags (${DATA_TAG_FORM} in its text), so there is nothing to fill.`,
			});
		}
	}
	const filled: string[] = [];
	for (const [name, group] of fields) {
		if (!Object.hasOwn(values, name) || empty(values[name])) continue;
		const why = await fillField(filler, group, values[name]);
		if (why) problems.push({ name, ...why });
		else filled.push(name);
	}
	for (const tag of dataTags) {
		if (tag.key === undefined) {
			problems.push({ name: tag.text, message: `The data tag ${tag.text} on page ${tag.page} cannot be read: ${tag.error}`, description: `Write it as ${DATA_TAG_FORM}.` });
			continue;
		}
		const value = values[tag.key];
		const text = textOf(value);
		if (empty(value) || text === undefined || text.trim() === '') {
			problems.push({
				name: tag.key,
				message: `The data tag ${tag.text} on page ${tag.page} has no value`,
				description: `Give "${tag.key}" a text, a number or true/false in the values, or take the tag out of the document.`,
			});
			continue;
		}
		const why = await filler.tag(tag.page, tag.line, tag.start, tag.end, text);
		if (why) problems.push({ name: tag.key, message: `The value of ${tag.text} on page ${tag.page} cannot be drawn: ${why}`, description: whatToChange(why) });
		else if (!filled.includes(tag.key)) filled.push(tag.key);
	}
	return { filler, filled, problems };
}

/** Draws one field's value in its widgets; undefined, or what is wrong. */
async function fillField(filler: Filler, group: FormWidget[], value: unknown): Promise<Omit<FillProblem, 'name'> | undefined> {
	const field = group[0];
	const name = field.name;
	const shown = group.filter((widget) => !widget.hidden);
	if (field.kind === 'signature') {
		return { message: `"${name}" is a signature field, which only its signer fills`, description: 'Take it out of the values: signers sign it when they sign the document.' };
	}
	if (field.kind === 'button') return { message: `"${name}" is a push button, which holds no value`, description: 'Take it out of the values.' };
	if (!shown.length) return { message: `"${name}" is hidden in the PDF`, description: 'A viewer does not show it, so a value drawn there would appear where nobody expects it: take it out of the values.' };
	const draw = (result: string | undefined) => (result ? { message: `The value of "${name}" cannot be drawn: ${result}`, description: whatToChange(result) } : undefined);
	if (field.kind === 'checkbox') {
		const on = typeof value === 'boolean' ? value : typeof value === 'number' ? value !== 0 : undefined;
		const word = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
		const exported = group.map((widget) => widget.look?.exportValue?.toLowerCase());
		const ticked = on ?? (word !== undefined && (TRUE.has(word) || exported.includes(word)) ? true : word !== undefined && FALSE.has(word) ? false : undefined);
		if (ticked === undefined) return { message: `"${name}" is a check box, and ${JSON.stringify(value)} is neither true nor false`, description: 'Give true or false (or "yes"/"no", "on"/"off", "1"/"0", "x").' };
		for (const widget of shown) {
			const why = filler.mark(widget, ticked);
			if (why) return draw(why);
		}
		return undefined;
	}
	const text = textOf(value);
	if (text === undefined) return { message: `The value of "${name}" is not a text, a number or true/false`, description: `Give "${name}" a plain value; lists and objects cannot be drawn.` };
	if (field.kind === 'radio') {
		const exports = group.map((widget) => widget.look?.exportValue ?? '');
		const chosen = group.filter((widget) => widget.look?.exportValue === text || widget.look?.onState === text);
		if (!chosen.length) return { message: `"${text}" is not one of the choices of the radio group "${name}"`, description: `Choose one of: ${listed([...new Set(exports.filter(Boolean))])}.` };
		for (const widget of shown) {
			const why = filler.mark(widget, chosen.includes(widget));
			if (why) return draw(why);
		}
		return undefined;
	}
	let drawn = text;
	if (field.kind === 'dropdown') {
		const choices = field.look?.choices ?? [];
		const match = choices.find(([exported, display]) => display === text || exported === text);
		if (match) drawn = match[1];
		else if (!((field.look?.flags ?? 0) & EDIT)) {
			return { message: `"${text}" is not one of the options of "${name}"`, description: `Choose one of: ${listed(choices.map(([, display]) => display))}. (Only a combo box that takes typed text accepts others.)` };
		}
	}
	const maxLen = field.look?.maxLen;
	if (maxLen !== undefined && [...drawn].length > maxLen) {
		return { message: `The value of "${name}" is ${[...drawn].length} characters long; the field takes at most ${maxLen}`, description: `Shorten "${drawn.slice(0, 40)}${drawn.length > 40 ? '…' : ''}" to ${maxLen} characters.` };
	}
	for (const widget of shown) {
		const why = await filler.text(widget, drawn);
		if (why) return draw(why);
	}
	return undefined;
}

function whatToChange(reason: string): string {
	if (/characters/.test(reason)) return 'The standard PDF fonts hold Western European letters, digits and punctuation, and the font the PDF gives the field or tag does not hold these either: write those characters another way, or set the field or tag in the document in a font that has them (embedded with a ToUnicode map, as LibreOffice and Word write it).';
	if (/fit/.test(reason)) return 'Shorten the value, or make the field larger in the PDF (or a multi-line field, which wraps).';
	return 'Check the PDF in a viewer: the field or tag may be damaged.';
}

/**
 * Writes the filled file: the original followed by one update, with `moreWidgets` (form fields that became eSign
 * fields) taken out too. Problems when the update could not be written or left a data tag in place.
 */
export async function writeFill(plan: FillPlan, moreWidgets: FormWidget[] = []): Promise<{ removal: Removal; problems: FillProblem[] }> {
	const removal = await plan.filler.write(moreWidgets);
	const problems: FillProblem[] = [];
	if (removal.reason !== undefined) problems.push({ name: '', message: `The PDF cannot be filled: ${removal.reason}`, description: 'Save or print the PDF to PDF again, then fill that copy.' });
	for (const left of removal.skipped) {
		if (plan.filled.includes(left.text)) {
			problems.push({ name: left.text, message: `The form field "${left.text}" on page ${left.page} could not be taken out of the file: ${left.reason}`, description: 'Its empty box would show over the value drawn there: save the PDF again from a PDF editor, then fill that copy.' });
		} else if (/^\{\{\s*data\s*:/i.test(left.text)) {
			problems.push({ name: left.text, message: `The data tag ${left.text} on page ${left.page} could not be taken off the page: ${left.reason}`, description: 'Its value would be drawn over it: retype the tag in the document (plain text on one line), or save the PDF again.' });
		}
	}
	return { removal, problems };
}

/** The whole fill of a file, for scripts and tests: its upload as parts, or its problems. */
export async function fillPdf(
	bytes: Uint8Array,
	values: FillValues,
): Promise<{ ok: true; original: Uint8Array; update: Uint8Array[]; length: number; filled: string[] } | { ok: false; problems: FillProblem[] }> {
	const plan = await planFill(await PdfText.open(bytes), values);
	if (plan.problems.length) return { ok: false, problems: plan.problems };
	const { removal, problems } = await writeFill(plan);
	if (problems.length) return { ok: false, problems };
	return { ok: true, original: removal.original, update: removal.update ?? [], length: removal.length, filled: plan.filled };
}
