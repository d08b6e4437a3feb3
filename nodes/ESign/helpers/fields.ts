import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, jsonParse } from 'n8n-workflow';

import type { PageSize } from '../pdf';
import type { AnchorMatch } from '../textTags/anchors';
import { normaliseAnchor } from '../textTags/anchors';
import { DEFAULT_PAGE_HEIGHT, FIELD_DEFAULT_SIZES, PAGE_HEIGHTS } from './fieldSizes';
import { FIELD_TYPES, isFieldType, needsOptions } from './fieldTypes';
import type { AnchorPosition, Placed } from './placement';
import { ANCHOR_POSITIONS, besideAnchor, chosenMatches, fit, round } from './placement';
import { checkPositiveNumber } from './validation';

export { FIELD_TYPES };

const JSON_HELP = 'Check the text in "Fields (JSON)": a JSON array of field objects, as in the parameter’s example, or switch to the fields list.';

/** The item's field rows, from the UI list or the JSON array. */
export function readFieldRows(this: IExecuteFunctions, i: number): IDataObject[] {
	if (this.getNodeParameter('fieldsInput', i) === 'json') {
		let raw: unknown;
		try {
			raw = this.getNodeParameter('fieldsJson', i, '[]');
		} catch (cause) {
			// n8n parses a JSON parameter itself and throws a bare "Unexpected end of JSON input".
			throw new NodeOperationError(this.getNode(), `"Fields (JSON)" is not valid JSON: ${(cause as Error).message}`, {
				itemIndex: i,
				description: JSON_HELP,
			});
		}
		let parsed = raw;
		if (typeof raw === 'string') {
			try {
				parsed = jsonParse<unknown>(raw);
			} catch (cause) {
				throw new NodeOperationError(this.getNode(), `"Fields (JSON)" is not valid JSON: ${(cause as Error).message}`, {
					itemIndex: i,
					description: JSON_HELP,
				});
			}
		}
		if (!Array.isArray(parsed)) {
			throw new NodeOperationError(this.getNode(), `"Fields (JSON)" must be a JSON array of fields`, {
				itemIndex: i,
				description: JSON_HELP,
			});
		}
		return parsed as IDataObject[];
	}
	return ((this.getNodeParameter('fieldsUi', i, {}) as IDataObject).field ?? []) as IDataObject[];
}

/** Validation problems found before the call, as one error naming the item. */
export function fieldsError(this: IExecuteFunctions, i: number, errors: string[]): NodeOperationError {
	return new NodeOperationError(this.getNode(), `Invalid "Fields": ${errors[0]}`, {
		itemIndex: i,
		description: errors.join('\n'),
	});
}

export interface CoordinateSettings {
	origin: 'topLeft' | 'bottomLeft';
	/** The Page Height option: for bottom-left coordinates when the file gives no page sizes. */
	pageHeight: number;
	/** The file's pages as displayed, when it is a PDF the node could read. */
	pages?: PageSize[];
	/** Where each anchor text was found (keyed by normaliseAnchor), when rows use anchors. */
	anchors?: Map<string, AnchorMatch[]>;
}

export function coordinateSettings(this: IExecuteFunctions, i: number, options: IDataObject): CoordinateSettings {
	const origin = options.coordinateOrigin === 'bottomLeft' ? 'bottomLeft' : 'topLeft';
	const choice = (options.pageHeight as string) ?? 'letter';
	const pageHeight =
		choice === 'custom'
			? checkPositiveNumber.call(this, i, 'Custom Page Height (Points)', options.customPageHeight ?? DEFAULT_PAGE_HEIGHT)
			: ((PAGE_HEIGHTS as Record<string, number>)[choice] ?? DEFAULT_PAGE_HEIGHT);
	return { origin, pageHeight };
}

function isBlank(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

function toNumber(value: unknown): number {
	return typeof value === 'number' ? value : Number(String(value).trim());
}

/** Whether a row is placed by an anchor text (UI: Position By → Anchor Text; JSON: an "anchor_text"). */
export const isAnchorRow = (row: IDataObject) =>
	typeof row === 'object' && row !== null && (row.placement === 'anchor' || (row.placement === undefined && !isBlank(row.anchor_text)));

/** A row's place: its own coordinates, or where its anchor text is (one place per chosen occurrence). */
function places(row: IDataObject, size: { width: number; height: number }, coordinates: CoordinateSettings, problems: string[]): Placed[] {
	if (isAnchorRow(row)) {
		const text = String(row.anchor_text ?? '').trim();
		if (!text) {
			problems.push('anchor_text is required to place it by an anchor text');
			return [];
		}
		const occurrence = isBlank(row.anchor_occurrence) ? 1 : toNumber(row.anchor_occurrence);
		if (!Number.isInteger(occurrence) || occurrence < 0) problems.push(`anchor_occurrence must be a whole number from 0 (0 = every one), got "${row.anchor_occurrence}"`);
		const position = (isBlank(row.anchor_position) ? 'after' : String(row.anchor_position)) as AnchorPosition;
		if (!ANCHOR_POSITIONS.includes(position)) problems.push(`anchor_position must be one of ${ANCHOR_POSITIONS.join(', ')}, got "${row.anchor_position}"`);
		const offsets = ['anchor_offset_x', 'anchor_offset_y'].map((key) => (isBlank(row[key]) ? 0 : toNumber(row[key])));
		if (!offsets.every(Number.isFinite)) problems.push('anchor_offset_x and anchor_offset_y must be numbers (points)');
		if (problems.length) return [];
		const matches = coordinates.anchors?.get(normaliseAnchor(text)) ?? [];
		const chosen = chosenMatches(matches, occurrence);
		if (!chosen.length) {
			problems.push(
				matches.length
					? `the anchor text "${text}" appears ${matches.length} time${matches.length === 1 ? '' : 's'} in the PDF, so there is no occurrence ${occurrence}`
					: `the anchor text "${text}" is not in the PDF's text (case, spacing, curly quotes, dashes and joined letters are ignored; it must be real text, on one line)`,
			);
		}
		return chosen.map((match) => besideAnchor(match, position, size.width, size.height, offsets[0], offsets[1]));
	}
	const page = toNumber(row.page_number);
	if (isBlank(row.page_number)) problems.push('page_number is required');
	else if (!Number.isInteger(page) || page < 1) problems.push(`page_number must be a whole number from 1, got "${row.page_number}"`);
	const position: Record<string, number> = {};
	for (const key of ['position_x', 'position_y']) {
		if (isBlank(row[key])) problems.push(`${key} is required`);
		else if (!Number.isFinite(toNumber(row[key]))) problems.push(`${key} must be a number`);
		else if (toNumber(row[key]) < 0) problems.push(`${key} must be 0 or more, got ${row[key]}`);
		else position[key] = toNumber(row[key]);
	}
	if (problems.length) return [];
	let y = position.position_y;
	if (coordinates.origin === 'bottomLeft' && row._topLeft !== true) {
		// Each page's own height when the file gives it (mixed Letter and A4, turned pages); else the option.
		const pageHeight = coordinates.pages?.[page - 1]?.height ?? coordinates.pageHeight;
		y = pageHeight - y - size.height;
		if (y < 0) {
			problems.push(`y ${position.position_y} + height ${size.height} is above the top of a ${round(pageHeight)} pt page`);
			return [];
		}
	}
	return [{ page, x: position.position_x, y: round(y) }];
}

/**
 * Turns user rows (UI, JSON or text tags) into the API's field objects: fills default sizes, places them
 * (coordinates, bottom-left converted with the page's height; anchor texts), resolves signer references, and
 * checks the rules the API states and, when the PDF was read, that each field is on its page. Problems are reported
 * in the API's own "Field <n>: <reason>" form (n from 1), or under the row's `_label` (a tag). A field placed by
 * coordinates that only runs past an edge is a warning, not a refusal: saved workflows sent such fields before.
 */
export function buildFields(
	rows: IDataObject[],
	coordinates: CoordinateSettings,
	resolveSigner: (row: IDataObject) => { id?: number; error?: string },
	firstNumber = 1,
): { fields: IDataObject[]; errors: string[]; warnings: string[] } {
	const errors: string[] = [];
	const warnings: string[] = [];
	const fields: IDataObject[] = [];
	rows.forEach((entry, index) => {
		const n = index + firstNumber;
		if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
			errors.push(`Field ${n}: must be an object with field_type, page_number, position_x, …, got ${JSON.stringify(entry)}`);
			return;
		}
		const row = entry;
		const label = typeof row._label === 'string' ? row._label : `Field ${n}`;
		const problems: string[] = [];
		const type = String(row.field_type ?? '').trim();
		if (!type) problems.push('field_type is required');
		else if (!isFieldType(type)) {
			problems.push(`field_type "${type}" is not one of ${FIELD_TYPES.join(', ')}`);
		}

		const signer = resolveSigner(row);
		if (signer.error) problems.push(signer.error);

		const defaults = FIELD_DEFAULT_SIZES[type] ?? { width: 0, height: 0 };
		const size: Record<string, number> = {};
		for (const key of ['width', 'height'] as const) {
			const value = isBlank(row[key]) ? 0 : toNumber(row[key]);
			if (!Number.isFinite(value) || value < 0) problems.push(`${key} must be a positive number`);
			else size[key] = value > 0 ? value : defaults[key];
		}

		let options: string[] | undefined;
		if (!isBlank(row.options)) {
			const raw = row.options;
			if (Array.isArray(raw)) options = raw.map((option) => String(option));
			else if (typeof raw === 'string') {
				options = raw
					.split(',')
					.map((option) => option.trim())
					.filter((option) => option !== '');
			} else problems.push('options must be a list of strings');
		}
		if (needsOptions(type) && !(options && options.length)) problems.push(`a ${type} field needs options`);

		if (!isBlank(row.font_size)) {
			const fontSize = toNumber(row.font_size);
			if (!Number.isInteger(fontSize) || fontSize < 1) problems.push(`font_size must be a whole number from 1, got "${row.font_size}"`);
		}

		const placed = problems.length ? [] : places(row, { width: size.width, height: size.height }, coordinates, problems);
		if (problems.length) {
			errors.push(...problems.map((problem) => `${label}: ${problem}`));
			return;
		}

		// Tags and anchors must fit; coordinates only must not be wholly off (saved workflows sent such fields).
		const strict = row._topLeft === true || isAnchorRow(row);
		for (const place of placed) {
			if (coordinates.pages) {
				const { problem, wholly } = fit(coordinates.pages, place.page, place.x, place.y, size.width, size.height);
				if (problem && (wholly || strict)) {
					errors.push(`${label}: ${problem}`);
					continue;
				}
				if (problem) warnings.push(`${label}: ${problem}`);
			}
			const field: IDataObject = {
				signer_id: signer.id,
				field_type: type,
				page_number: place.page,
				position_x: place.x,
				position_y: place.y,
				width: size.width,
				height: size.height,
				is_required: row.is_required === undefined ? true : [true, 'true', 1, '1'].includes(row.is_required as string),
			};
			if (!isBlank(row.field_name)) field.field_name = String(row.field_name);
			if (!isBlank(row.font_size)) field.font_size = toNumber(row.font_size);
			if (!isBlank(row.font_family)) field.font_family = String(row.font_family);
			if (!isBlank(row.placeholder)) field.placeholder = String(row.placeholder);
			if (options && options.length) field.options = options;
			fields.push(field);
		}
	});
	return { fields, errors, warnings };
}

/** Accepts signer_id as a number or numeric string. */
export function signerIdFromRow(row: IDataObject): { id?: number; error?: string } {
	const raw = row.signer_id;
	if (isBlank(raw)) return { error: 'signer_id is required' };
	const id = toNumber(raw);
	if (!Number.isInteger(id) || id < 1) return { error: `signer_id must be a signer ID, got "${raw}"` };
	return { id };
}
