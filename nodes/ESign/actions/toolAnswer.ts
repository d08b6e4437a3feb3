import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { type ErrorDetails, type NodeError, errorDetails } from './errorDetails';

/**
 * Whether this run answers an AI agent, which then hears failures as the tool's answer. n8n runs a
 * tool as the variant it generates from `usableAsTool`, whose type name ends in "Tool" (the test n8n's
 * own `@tool` display option makes). isToolExecution() alone is not enough: n8n-core 2.41's
 * ExecuteContext, which runs the tools of AI Agent 3.x (n8n 2.x's default), always answers false; only
 * the older agents' SupplyDataContext answers true; n8n 1.x has no such method. A tool set to
 * On Error → Stop Workflow stops the agent instead, as n8n itself does for such a tool.
 */
export function answersAsTool(this: IExecuteFunctions): boolean {
	const node = this.getNode();
	if (node.onError === 'stopWorkflow') return false;
	if (typeof this.isToolExecution === 'function' && this.isToolExecution()) return true;
	return node.type.endsWith('Tool');
}

/**
 * The parameter (as the editor labels it) an input error names: `"Document" must be …`,
 * `Invalid "Fields": …`, `Signer 2 in "Signers" needs …`.
 */
function parameterOf(error: NodeError, message: string): string | undefined {
	if (!(error instanceof NodeOperationError) || error.context.failedStep !== undefined) return undefined;
	const match = /^(?:Invalid )?"([^"]+)"|^[^"]*? in "([^"]+)"/.exec(message);
	return match?.[1] ?? match?.[2];
}

/** Ends a text with a full stop unless it already ends a sentence. */
function sentence(text: string): string {
	return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/** What the model is told first: one sentence it can pass on, then what to change. */
function summaryOf(found: ErrorDetails, status: number | undefined, parameter: string | undefined): string {
	const { message: what, apiMessage: siteMessage, apiCode: code, description } = found;
	let start: string;
	if (parameter) start = `The input "${parameter}" is not valid: ${what}`;
	else if (status !== undefined && siteMessage) {
		const verb = status >= 500 ? 'failed' : 'refused the request';
		start = `The eSign site ${verb} (HTTP ${status}${code ? `, code ${code}` : ''}): ${siteMessage}`;
	} else if (status !== undefined) start = `The eSign site answered HTTP ${status}: ${what}`;
	else start = `The eSign request failed: ${what}`;
	const advice = description && !start.includes(description) ? ` ${sentence(description)}` : '';
	return sentence(start) + advice;
}

/**
 * A failure as the tool's answer to the model, instead of a throw (which reaches the model as an empty
 * string or the bare message): what errorDetails lets out of the error, and a summary built from it.
 */
export async function toolErrorAnswer(this: IExecuteFunctions, error: NodeError, itemIndex: number): Promise<IDataObject> {
	const found = await errorDetails.call(this, error);
	const status = found.httpCode !== undefined && /^\d+$/.test(found.httpCode) ? Number(found.httpCode) : undefined;
	const parameter = parameterOf(error, found.message);
	const details: IDataObject = { message: found.message };
	if (found.apiCode !== undefined) details.code = found.apiCode;
	if (found.apiMessage !== undefined) details.siteMessage = found.apiMessage;
	if (status !== undefined) details.httpStatus = status;
	if (found.description) details.description = found.description;
	if (parameter) details.parameter = parameter;
	Object.assign(details, found.details);
	details.itemIndex = itemIndex;
	return { summary: summaryOf(found, status, parameter), error: details };
}
