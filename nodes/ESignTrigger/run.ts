import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { attachDocumentFile } from '../shared/documentFile';
import { isPlainObject } from '../shared/values';
import { identifiesOneOccurrence, occurrenceId, remember } from './deliveries';
import { recentRuns, runExists, triggerKey } from './inProcess';

/**
 * The trigger's step inside the run n8n created for an accepted delivery: n8n runs it with the item webhook()
 * returned (n8n-core WorkflowExecute.runNode calls a start node's `execute`, in a queue-mode worker too). Here the
 * run exists, so here the delivery is recorded for Ignore Repeated Deliveries (n8n saves the static data when the
 * run ends: execution-lifecycle-hooks, workflowExecuteAfter), and Download Document fetches the file, after the
 * site already has its answer.
 */
export async function runDelivery(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		const item: INodeExecutionData = { json: { ...items[i].json }, pairedItem: { item: i } };
		if (items[i].binary) item.binary = { ...items[i].binary };
		recordRun.call(this, item.json, i);
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		if (options.downloadDocument === true) {
			const data = item.json.data;
			await attachDocumentFile.call(this, item, isPlainObject(data) ? data.document_id : undefined, options, 'data.document_id');
		}
		out.push(item);
	}
	return [out];
}

/** Records a delivery whose run exists: in the static data (saved when the run ends) and in this process. */
function recordRun(this: IExecuteFunctions, json: IDataObject, itemIndex: number): void {
	// A test run (Execute step) records nothing: n8n does not save static data in manual runs either.
	if (this.getMode() === 'manual') return;
	if (this.getNodeParameter('ignoreRepeatedDeliveries', itemIndex, true) === false || !identifiesOneOccurrence(json)) return;
	const id = occurrenceId(json);
	const key = triggerKey(this);
	remember(this.getWorkflowStaticData('node'), [...recentRuns(key), id]);
	runExists(key, id);
}
