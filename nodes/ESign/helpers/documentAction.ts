import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { eSignApiRequest } from '../../shared/transport';
import { documentRLC } from '../actions/common.descriptions';
import { getDocumentId, getRequestOptions, toExecutionData } from './utils';

/**
 * A bodiless POST /documents/{id}/<action> (Send, Expire): a notice saying what it does, the document
 * picker, and the answer as one item. `answerKey` is what the answer must carry; `withDocumentId` adds the
 * id when the answer does not name the document.
 */
export function documentAction({
	operation,
	notice,
	answerKey,
	withDocumentId,
}: {
	operation: string;
	notice: string;
	answerKey: string;
	withDocumentId: boolean;
}): {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]>;
} {
	const properties: INodeProperties[] = [
		{ displayName: notice, name: `${operation}Notice`, type: 'notice', default: '' },
		documentRLC,
	];
	return {
		description: updateDisplayOptions({ show: { resource: ['document'], operation: [operation] } }, properties),
		async execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
			const id = getDocumentId.call(this, i);
			const response = (await eSignApiRequest.call(this, 'POST', `/documents/${id}/${operation}`, {
				...getRequestOptions.call(this, i),
				expect: [answerKey],
			})) as IDataObject;
			return toExecutionData(withDocumentId ? { document_id: id, ...response } : response);
		},
	};
}
