import type { IDataObject, ILoadOptionsFunctions, ResourceMapperField, ResourceMapperFields } from 'n8n-workflow';

import { eSignApiRequest } from '../../shared/transport';
import { idFromInput } from '../../shared/values';

/** A template's variable as the API gives it; its `field_type` does not change the row (see variableField). */
interface TemplateVariable {
	key: string;
	label?: string;
}

/**
 * The editor's info notice where no rows show (`emptyFieldsNotice`). n8n's ResourceMapper.vue (`fetchFields`) keeps
 * the last notice it was given until the panel is opened again and shows it wherever the rows are not shown, in
 * Map Automatically mode too: so it is given only for a template without variables, which stays true there.
 */
const NO_VARIABLES_NOTICE = 'This template has no variables to prefill: its fields are filled in by the signers.';

/**
 * One row per template variable, as n8n's own mappers give one per column (Airtable, Google Sheets, Data Table).
 * How n8n's editor reads these flags (editor-ui ResourceMapper.vue, MappingFields.vue; read in the built editors of
 * n8n 1.123.81 and 2.41.1):
 * - `removed: false`, with the parameter's `addAllFields: true`: the row is shown from the start
 *   (`setDefaultFieldValues` hides every non-required field only when `addAllFields` is false).
 * - `required: false`: a variable may stay empty (then nothing is sent for it and the template's field keeps its
 *   value); a required row could not be removed, and n8n flags it as an issue while empty (n8n-workflow
 *   NodeHelpers `validateResourceMapperParameter`).
 * - `canBeUsedToMatch: false`, `defaultMatch: false`: mode `add` creates a document, nothing is looked up.
 * - `type: 'string'` for every field type (checkbox fields were `boolean` rows before): the value is written into
 *   the field as text. A `boolean` row starts as `false` (`getDefaultFieldValue`), so every untouched checkbox
 *   would send "false"; a text row starts empty, and an empty row is not stored (`pruneParamValues`).
 */
function variableField(variable: TemplateVariable): ResourceMapperField {
	return {
		id: variable.key,
		displayName: variable.label && variable.label !== variable.key ? `${variable.label} (${variable.key})` : variable.key,
		required: false,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		removed: false,
		type: 'string',
	};
}

export async function getTemplateVariables(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const templateId = idFromInput(this.getNodeParameter('templateId', undefined, { extractValue: true }));
	if (templateId === undefined) {
		// No template the editor can name: none chosen yet (the parameter's `hideNoDataError` keeps n8n's red "No
		// variables found in eSign. Retry" away; its notice says what to do), or an expression the editor resolves
		// without input data. The rows already stored are returned as they are: an empty list would make a refresh
		// drop them, and n8n drops the values of rows no longer in the list (ResourceMapper.vue
		// `loadAndSetFieldsToMap`, `pruneParamValues`).
		const stored = this.getCurrentNodeParameter('variables.schema');
		return { fields: Array.isArray(stored) ? (stored as ResourceMapperField[]) : [] };
	}
	const template = (await eSignApiRequest.call(this, 'GET', `/templates/${templateId}`, { expect: ['id'] })) as IDataObject;
	const variables = (Array.isArray(template.variables) ? template.variables : []) as TemplateVariable[];
	const fields = variables.filter((variable) => typeof variable?.key === 'string' && variable.key !== '').map(variableField);
	return fields.length ? { fields } : { fields, emptyFieldsNotice: NO_VARIABLES_NOTICE };
}
