import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { checkOneOf } from './validation';

/**
 * Simplify (a workflow node) and Output (the eSign Tool) for the operations whose answer has more than 10 fields,
 * as n8n's UX guidelines for community nodes ask. Both default to the raw answer: saved workflows keep their output
 * (CONTRIBUTING.md → Versioning policy), and defaults are not saved, so another default would need a node version.
 */

export type OutputMode = 'raw' | 'simplified' | 'selected';

const MODES: OutputMode[] = ['raw', 'selected', 'simplified'];

/** "completed_at" → "Completed At" (the Fields list's names). */
const label = (field: string) => field.split('_').map((word) => (word === 'id' ? 'ID' : word.charAt(0).toUpperCase() + word.slice(1))).join(' ');

/**
 * The parameters: `simplified` says what Simplify returns; `fields` are the raw answer's fields a tool may pick
 * (the ID is always kept).
 */
export function outputProperties(simplified: string, fields: string[]): INodeProperties[] {
	return [
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: false,
			// The description n8n's UX guidelines give Simplify, word for word; the hint (always shown under the switch,
			// where the description is only a tooltip) says what the simplified version holds.
			description: 'Whether to return a simplified version of the response instead of the raw data',
			hint: `On: at most 10 fields: ${simplified}`,
			displayOptions: { hide: { '@tool': [true] } },
		},
		{
			displayName: 'Output',
			name: 'toolOutput',
			type: 'options',
			default: 'raw',
			options: [
				{ name: 'Raw', value: 'raw', description: 'All the fields the site returns' },
				{ name: 'Selected Fields', value: 'selected', description: 'Only the fields chosen below, and the ID' },
				{ name: 'Simplified', value: 'simplified', description: `At most 10 fields: ${simplified}` },
			],
			description: 'What the AI agent gets back: fewer fields keep its context small',
			displayOptions: { show: { '@tool': [true] } },
		},
		{
			displayName: 'Fields',
			name: 'toolOutputFields',
			type: 'multiOptions',
			default: [],
			options: fields.filter((field) => field !== 'id').map((field) => ({ name: label(field), value: field })),
			description: 'The fields the AI agent gets; the ID is always included',
			displayOptions: { show: { '@tool': [true], toolOutput: ['selected'] } },
		},
	];
}

/** The item's output mode: Output on the eSign Tool (its type name ends in "Tool", as n8n's `@tool` reads it), else Simplify. */
export function outputMode(this: IExecuteFunctions, i: number): OutputMode {
	if (this.getNode().type.endsWith('Tool')) return checkOneOf.call(this, i, 'Output', this.getNodeParameter('toolOutput', i, 'raw'), MODES) as OutputMode;
	return this.getNodeParameter('simplify', i, false) === true ? 'simplified' : 'raw';
}

/** The records in the item's output mode (Selected Fields: the id first, then the chosen fields the record has). */
export function shapeRecords(this: IExecuteFunctions, i: number, records: IDataObject[], simplify: (record: IDataObject) => IDataObject): IDataObject[] {
	const mode = outputMode.call(this, i);
	if (mode === 'raw') return records;
	if (mode === 'simplified') return records.map(simplify);
	const chosen = this.getNodeParameter('toolOutputFields', i, []) as string[];
	const keep = ['id', ...(Array.isArray(chosen) ? chosen : []).filter((field) => field !== 'id')];
	return records.map((record) => Object.fromEntries(keep.filter((field) => field in record).map((field) => [field, record[field]])));
}
