'use strict';
/** Field types, default sizes and the per-field validation of POST /documents/{id}/fields. */

const { isPlainObject, toBoolean, toInteger, toNumber } = require('./util');

/** Default [width, height] in points, from the spec's table (the same file the node reads). */
const FIELD_DEFAULTS = Object.fromEntries(
	Object.entries(require('../../nodes/shared/fieldDefaults.json')).map(([type, size]) => [type, [size.width, size.height]]),
);
const FIELD_TYPES = Object.keys(FIELD_DEFAULTS);

/** Never prefilled from template variables (spec, template rule 2). */
const SIGNATURE_TYPES = new Set(['signature', 'initials']);

const REQUIRED = ['signer_id', 'field_type', 'page_number', 'position_x', 'position_y'];
const STRING_PROPS = ['placeholder', 'font_family', 'field_name', 'mapping_name'];

const present = (v) => v !== undefined && v !== null && v !== '';

/**
 * Validates one submitted field; returns [normalised field, reasons[]].
 * `field_name` and `mapping_name` are accepted too (sandbox extension, used by templates).
 */
function checkField(raw, { signerIds, totalPages }) {
	if (!isPlainObject(raw)) return [null, ['must be an object']];
	const reasons = [];
	for (const prop of REQUIRED) if (!present(raw[prop])) reasons.push(`${prop} is required`);

	const type = raw.field_type;
	if (present(type) && !FIELD_TYPES.includes(type)) {
		reasons.push(`field_type "${type}" is not one of ${FIELD_TYPES.join(', ')}`);
	}
	const signerId = toInteger(raw.signer_id);
	if (present(raw.signer_id)) {
		if (Number.isNaN(signerId)) reasons.push('signer_id must be an integer');
		else if (!signerIds.has(signerId)) reasons.push(`signer_id ${raw.signer_id} is not a signer of this document`);
	}
	const page = toInteger(raw.page_number);
	if (present(raw.page_number) && !(page >= 1 && page <= totalPages)) {
		reasons.push(
			totalPages > 0
				? `page_number must be an integer from 1 to ${totalPages}`
				: 'page_number is invalid: the document has no pages',
		);
	}
	for (const prop of ['position_x', 'position_y']) {
		if (!present(raw[prop])) continue;
		const n = toNumber(raw[prop]);
		if (Number.isNaN(n)) reasons.push(`${prop} must be a number`);
		else if (n < 0) reasons.push(`${prop} must not be negative`);
	}
	for (const prop of ['width', 'height']) {
		if (raw[prop] === undefined || raw[prop] === null) continue;
		if (!(toNumber(raw[prop]) > 0)) reasons.push(`${prop} must be greater than 0`);
	}
	const isRequired = raw.is_required === undefined ? true : toBoolean(raw.is_required);
	if (isRequired === undefined) reasons.push('is_required must be a boolean');
	const fontSize = raw.font_size === undefined ? 14 : toInteger(raw.font_size);
	if (!(fontSize > 0)) reasons.push('font_size must be a positive integer');
	for (const prop of STRING_PROPS) {
		if (raw[prop] !== undefined && raw[prop] !== null && typeof raw[prop] !== 'string') reasons.push(`${prop} must be a string`);
	}
	const options = raw.options;
	const optionsValid = options === undefined || options === null || (Array.isArray(options) && options.every((o) => typeof o === 'string'));
	if (!optionsValid) reasons.push('options must be an array of strings');
	else if (type === 'dropdown' && !(Array.isArray(options) && options.length)) reasons.push('dropdown fields need at least one entry in options');

	if (reasons.length) return [null, reasons];
	const [defaultWidth, defaultHeight] = FIELD_DEFAULTS[type];
	return [
		{
			signer_id: signerId,
			field_type: type,
			field_name: raw.field_name || '',
			mapping_name: raw.mapping_name || '',
			page_number: page,
			position_x: toNumber(raw.position_x),
			position_y: toNumber(raw.position_y),
			width: raw.width === undefined || raw.width === null ? defaultWidth : toNumber(raw.width),
			height: raw.height === undefined || raw.height === null ? defaultHeight : toNumber(raw.height),
			is_required: isRequired,
			font_size: fontSize,
			font_family: raw.font_family || 'DM Sans',
			placeholder: raw.placeholder || '',
			options: Array.isArray(options) ? options : [],
		},
		[],
	];
}

/** All fields or all errors, numbered from 1: `Field <n>: <reason>`. */
function validateFields(list, context) {
	const fields = [];
	const errors = [];
	list.forEach((raw, i) => {
		const [field, reasons] = checkField(raw, context);
		if (field) fields.push(field);
		for (const reason of reasons) errors.push(`Field ${i + 1}: ${reason}`);
	});
	return { fields, errors };
}

module.exports = { FIELD_DEFAULTS, FIELD_TYPES, SIGNATURE_TYPES, validateFields };
