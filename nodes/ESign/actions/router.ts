import type { IDataObject, IExecuteFunctions, INodeExecutionData, IPairedItemData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as document from './document/Document.resource';
import * as field from './field/Field.resource';
import type { ESignType } from './node.type';
import * as signer from './signer/Signer.resource';
import * as stats from './stats/Stats.resource';
import * as template from './template/Template.resource';
import { type NodeError, errorDetails } from './errorDetails';
import { answersAsTool, toolErrorAnswer } from './toolAnswer';

interface OperationModule {
	execute(this: IExecuteFunctions, i: number, group?: number[]): Promise<INodeExecutionData[]>;
	/** Optional: lets an operation handle several input items in one call (e.g. fields of one document). */
	groupItems?(this: IExecuteFunctions, itemCount: number): number[][];
}

type OperationMap = { [R in ESignType['resource']]: Record<Extract<ESignType, { resource: R }>['operation'], OperationModule> };

const operations: OperationMap = { document, field, signer, stats, template };

/** A failed item under Continue On Fail: n8n's `{error, description, httpCode}` and what the error says more. */
async function errorJson(this: IExecuteFunctions, error: NodeError): Promise<IDataObject> {
	const { message, description, httpCode, apiCode, details } = await errorDetails.call(this, error);
	const json: IDataObject = { error: message };
	if (description) json.description = description;
	if (httpCode) json.httpCode = httpCode;
	if (apiCode) json.apiCode = apiCode;
	return { ...json, ...details };
}

/** The error to stop on for item i: the node's own errors as they are (tied to the item), anything else wrapped. */
function itemError(this: IExecuteFunctions, error: unknown, i: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex = i;
		return error;
	}
	return new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });
}

/**
 * Loops the input items, runs the chosen operation on each (or on each group), pairs every output
 * item with the input item(s) it came from, and applies Continue On Fail per item. Run as an AI
 * agent's tool, a failure becomes the item's answer, so the model learns what went wrong.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as ESignType['resource'];
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = (operations[resource] as Record<string, OperationModule> | undefined)?.[operation];
	if (!module) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported for "${resource}"`);
	}

	const groups = module.groupItems ? module.groupItems.call(this, items.length) : items.map((_, i) => [i]);
	const returnData: INodeExecutionData[] = [];
	const asTool = answersAsTool.call(this);
	for (const group of groups) {
		const i = group[0];
		const pairedItem: IPairedItemData | IPairedItemData[] =
			group.length === 1 ? { item: i } : group.map((item) => ({ item }));
		try {
			const results = await module.execute.call(this, i, group);
			for (const result of results) returnData.push({ ...result, pairedItem });
		} catch (error) {
			if (asTool) {
				const answer = await toolErrorAnswer.call(this, itemError.call(this, error, i), i);
				returnData.push({ json: answer, pairedItem });
				continue;
			}
			if (this.continueOnFail()) {
				returnData.push({ json: await errorJson.call(this, itemError.call(this, error, i)), pairedItem });
				continue;
			}
			throw itemError.call(this, error, i);
		}
	}
	return [returnData];
}
