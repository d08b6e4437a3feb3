import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, jsonParse } from 'n8n-workflow';

import { DATA_TAG_FORM } from '../textTags/tags';
import type { FillProblem, FillValues } from './pdfFill';

/**
 * The values a PDF is filled with (Document → Fill PDF, Create and Send's PDF Values): one JSON object keyed by a
 * form field's full name or a data tag's key, so that `{{ $json }}` maps a whole sheet row whose columns are named
 * like the fields.
 */
export function fillValuesParameter(options: { required?: boolean; name?: string } = {}): INodeProperties {
	return {
		displayName: 'PDF Values',
		name: options.name ?? 'pdfValues',
		type: 'json',
		default: '{}',
		required: options.required ?? false,
		hint: 'A whole row whose columns are named like the fields: {{ $json }}',
		description: `Values drawn into the PDF, as one JSON object: each key a form field's full name (e.g. "tenant.name") or the key of a data tag written in the document's text as ${DATA_TAG_FORM}. Text fields and data tags take text or numbers, check boxes true or false, radio groups and dropdowns one of their choices; an empty value leaves a form field as it is.`,
	};
}

/** The values parameter as an object of names to values, or a clear error naming the parameter. */
export function readFillValues(this: IExecuteFunctions, i: number, parameter: string, fallback: unknown = '{}'): FillValues {
	const raw = this.getNodeParameter(parameter, i, fallback) as unknown;
	let value: unknown = raw;
	if (typeof raw === 'string') {
		const text = raw.trim() === '' ? '{}' : raw;
		try {
			value = jsonParse(text);
		} catch {
			throw new NodeOperationError(this.getNode(), '"PDF Values" is not valid JSON', {
				itemIndex: i,
				description: 'Write one JSON object, e.g. {"tenant.name": "Ada Lovelace", "city": "Lyon"}, or map a row with {{ $json }}.',
			});
		}
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw new NodeOperationError(this.getNode(), '"PDF Values" must be one JSON object of names and values', {
			itemIndex: i,
			description: 'Write it as {"field name": "value", "data_tag_key": "value"}: a list or a single value names no field.',
		});
	}
	return value as FillValues;
}

/** The problems of a fill as one error with the item's index: the first in the message, each with what to change. */
export function throwFillProblems(this: IExecuteFunctions, i: number, where: string, problems: FillProblem[]): void {
	if (!problems.length) return;
	const first = problems[0];
	const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length === 2 ? '' : 's'} below)` : '';
	throw new NodeOperationError(this.getNode(), `${first.message}${more}`, {
		itemIndex: i,
		description: [`In ${where}, nothing was filled or uploaded:`, ...problems.map((problem) => `• ${problem.message}. ${problem.description}`)].join('\n'),
	});
}
