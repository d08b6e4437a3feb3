import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

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

/** What a workflow (Continue On Fail) or a model (the eSign Tool) may see of a failure. */
export interface ErrorDetails {
	message: string;
	description?: string;
	/** The HTTP status as text: the error's own, or the failed step's (Create and Send keeps it in its context). */
	httpCode?: string;
	/** The API's code (or the node's own, e.g. `redirect`, `timeout`). */
	apiCode?: string;
	/** The site's own message. */
	apiMessage?: string;
	/** The ERROR_DETAILS the error has. */
	details: IDataObject;
}

/** Blanks the credential's own values out of every text of a value, however they got in. */
function blankAll(value: unknown, secrets: string[]): unknown {
	if (typeof value === 'string') return blank(value, secrets);
	if (Array.isArray(value)) return value.map((entry) => blankAll(entry, secrets));
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, blankAll(entry, secrets)]));
	}
	return value;
}

/**
 * The one copy of an error for the workflow or the model: chosen fields only (never the request, headers, cause
 * or the credential), with the credential's own values blanked out of every text. The transport already blanks
 * what it builds; this is the second layer, for any error. The credential is read once per node execution
 * (siteAccess), so after a request this reads nothing again.
 */
export async function errorDetails(this: IExecuteFunctions, error: NodeError): Promise<ErrorDetails> {
	const status = error.httpCode ?? error.context.httpCode;
	const found: ErrorDetails = { message: error.message, details: {} };
	if (error.description) found.description = error.description;
	if (status !== undefined && status !== null && status !== '') found.httpCode = String(status);
	if (typeof error.context.apiCode === 'string') found.apiCode = error.context.apiCode;
	if (typeof error.context.apiMessage === 'string') found.apiMessage = error.context.apiMessage;
	for (const key of ERROR_DETAILS) {
		if (error.context[key] !== undefined) found.details[key] = error.context[key];
	}
	let secrets: string[] = [];
	try {
		secrets = (await siteAccess.call(this)).secrets;
	} catch {
		// No readable credential: then no request carried one either, so there is nothing to blank.
	}
	return blankAll(found, secrets) as ErrorDetails;
}
