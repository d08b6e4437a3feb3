import type { FieldType, IDataObject, ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { eSignApiRequest } from '../../shared/transport';
import { idFromInput } from '../../shared/values';

interface TemplateVariable {
	key: string;
	label?: string;
	field_type?: string;
}

/** Variables are written into fields as text; checkbox and date hints only shape the editor input. */
const TYPE_BY_FIELD: Record<string, FieldType> = { checkbox: 'boolean' };

export async function getTemplateVariables(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const templateId = idFromInput(this.getNodeParameter('templateId', undefined, { extractValue: true }));
	if (templateId === undefined) return { fields: [], emptyFieldsNotice: 'Choose a template first' };
	const template = (await eSignApiRequest.call(this, 'GET', `/templates/${templateId}`, { expect: ['id'] })) as IDataObject;
	const variables = (template.variables ?? []) as TemplateVariable[];
	return {
		fields: variables.map((variable) => ({
			id: variable.key,
			displayName: variable.label && variable.label !== variable.key ? `${variable.label} (${variable.key})` : variable.key,
			required: false,
			defaultMatch: false,
			display: true,
			canBeUsedToMatch: false,
			type: TYPE_BY_FIELD[variable.field_type ?? ''] ?? 'string',
		})),
		emptyFieldsNotice: 'This template has no prefillable variables',
	};
}
