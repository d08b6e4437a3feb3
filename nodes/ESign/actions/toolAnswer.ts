import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { blank } from '../../shared/transport/answer';
import { siteAccess } from '../../shared/transport/credentials';

/** Fields of the node's errors that say more about a failure; copied to error items as they are. */
export const ERROR_DETAILS = ['validationErrors', 'failedStep', 'documentId', 'documentDeleted'] as const;

/** An error as the router hands it on: the node's own NodeApiError or NodeOperationError. */
export interface NodeError extends Error {
	description?: string | null;
	httpCode?: string | null;
	context: IDataObject;
}

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
function parameterOf(error: NodeError): string | undefined {
	if (!(error instanceof NodeOperationError) || error.context.failedStep !== undefined) return undefined;
	const match = /^(?:Invalid )?"([^"]+)"|^[^"]*? in "([^"]+)"/.exec(error.message);
	return match?.[1] ?? match?.[2];
}

/** Ends a text with a full stop unless it already ends a sentence. */
function sentence(text: string): string {
	return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/** What the model is told first: one sentence it can pass on, then what to change. */
function summaryOf(error: NodeError, status: number | undefined, parameter: string | undefined): string {
	const what = error.message;
	const siteMessage = typeof error.context.apiMessage === 'string' ? error.context.apiMessage : undefined;
	const code = typeof error.context.apiCode === 'string' ? error.context.apiCode : undefined;
	let start: string;
	if (parameter) start = `The input "${parameter}" is not valid: ${what}`;
	else if (status !== undefined && siteMessage) {
		const verb = status >= 500 ? 'failed' : 'refused the request';
		start = `The eSign site ${verb} (HTTP ${status}${code ? `, code ${code}` : ''}): ${siteMessage}`;
	} else if (status !== undefined) start = `The eSign site answered HTTP ${status}: ${what}`;
	else start = `The eSign request failed: ${what}`;
	const advice = error.description && !start.includes(error.description) ? ` ${sentence(error.description)}` : '';
	return sentence(start) + advice;
}

/** Blanks the credential's own values out of every text of the answer, however they got in. */
function blankAll(value: unknown, secrets: string[]): unknown {
	if (typeof value === 'string') return blank(value, secrets);
	if (Array.isArray(value)) return value.map((entry) => blankAll(entry, secrets));
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, blankAll(entry, secrets)]));
	}
	return value;
}

/**
 * A failure as the tool's answer to the model, instead of a throw (which reaches the model as an empty
 * string or the bare message). Only chosen fields of the error go in: never its request, headers,
 * cause or the credential.
 */
export async function toolErrorAnswer(this: IExecuteFunctions, error: NodeError, itemIndex: number): Promise<IDataObject> {
	// Create and Send keeps the failed step's status in its context.
	const code = error.httpCode ?? error.context.httpCode;
	const status = code !== undefined && code !== null && /^\d+$/.test(String(code)) ? Number(code) : undefined;
	const parameter = parameterOf(error);
	const details: IDataObject = { message: error.message };
	if (typeof error.context.apiCode === 'string') details.code = error.context.apiCode;
	if (typeof error.context.apiMessage === 'string') details.siteMessage = error.context.apiMessage;
	if (status !== undefined) details.httpStatus = status;
	if (error.description) details.description = error.description;
	if (parameter) details.parameter = parameter;
	for (const key of ERROR_DETAILS) {
		if (error.context[key] !== undefined) details[key] = error.context[key];
	}
	details.itemIndex = itemIndex;
	const answer: IDataObject = { summary: summaryOf(error, status, parameter), error: details };
	let secrets: string[] = [];
	try {
		secrets = (await siteAccess.call(this)).secrets;
	} catch {
		// No readable credential: then no request carried one either, so there is nothing to blank.
	}
	return blankAll(answer, secrets) as IDataObject;
}
