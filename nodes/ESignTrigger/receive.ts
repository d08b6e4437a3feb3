import type { IBinaryKeyData, IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { downloadDocument, downloadErrorText } from '../shared/documentFile';
import { idFromAnswer, isPlainObject } from '../shared/values';
import { deliveryHash, isRepeat, isValidTimeZone, remember, siteTimeToEpoch } from './deliveries';
import { SIGNATURE_FAILURE_MESSAGES, SIGNATURE_HEADER, verifySignature } from './verifySignature';

/** Seconds for the Download Document request: short, so a slow site never holds up the event. */
const DOWNLOAD_TIMEOUT_SECONDS = 10;
const DOWNLOAD_MAX_RATE_LIMIT_WAIT_SECONDS = 5;

export const ANY_EVENT = '*';

interface WebhookResponse {
	status(code: number): WebhookResponse;
	json(body: unknown): WebhookResponse;
	end(): unknown;
	headersSent?: boolean;
}

/** A delivery answered without an execution: HTTP status, code and message for the caller. */
type Refusal = [status: number, code: string, message: string];

/** A verified delivery's event, its data and the other members of its body. */
interface Delivery {
	event: string;
	data: unknown;
	rest: IDataObject;
}

/**
 * One delivery, step by step: verify → parse → select → age/repeat → answer → download. A step that
 * refuses answers the caller itself; none of them starts an execution.
 */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const req = this.getRequestObject();
	const res = this.getResponseObject() as unknown as WebhookResponse;
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const events = this.getNodeParameter('events', []) as string[];
	const rawBody: unknown = req.rawBody;

	const forged = options.skipSignatureVerification === true ? undefined : await verify.call(this, rawBody, req.headers?.[SIGNATURE_HEADER]);
	if (forged) return refuse(res, forged);
	const delivery = parse(rawBody);
	if (Array.isArray(delivery)) return refuse(res, delivery);
	// Other events are acknowledged (n8n answers 200) without an execution.
	if (!events.includes(ANY_EVENT) && !events.includes(delivery.event)) return {};
	const skipped = staleOrRepeated.call(this, delivery, rawBody as Uint8Array, options);
	if (skipped) return refuse(res, skipped);

	const json: IDataObject = { event: delivery.event, data: (delivery.data ?? {}) as IDataObject, receivedAt: new Date().toISOString() };
	for (const [key, value] of Object.entries(delivery.rest)) {
		if (!(key in json)) json[key] = value;
	}
	if (options.includeHeaders === true) json.headers = { ...(req.headers as IDataObject) };

	// Acknowledge now, with what n8n would answer for an accepted event, and let n8n send nothing
	// more: the site does not wait for the download, and n8n saves the static data (the accepted
	// hash) before it queues the run. In queue mode a worker writes back the static data it loaded
	// when the run started, so a hash saved after queueing would be lost.
	res.status(200).json({ message: 'Workflow was started' });
	res.end();

	const binary = options.downloadDocument === true ? await download.call(this, delivery.data, json, options) : undefined;
	return { workflowData: [[binary ? { json, binary } : { json }]], noWebhookResponse: true };
}

/** Answers the caller directly (n8n then sends nothing more) and starts no execution. */
function refuse(res: WebhookResponse, [status, code, message]: Refusal): IWebhookResponseData {
	res.status(status).json({ code, message });
	res.end();
	return { noWebhookResponse: true };
}

/** Authenticity, over the exact bytes received: a refusal when the signature does not match. */
async function verify(this: IWebhookFunctions, rawBody: unknown, signature: string | string[] | undefined): Promise<Refusal | undefined> {
	let secret = '';
	try {
		const credentials = await this.getCredentials('eSignApi');
		secret = typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
	} catch {
		secret = ''; // no credential: nothing to verify with, so fail closed below
	}
	// A secret of only spaces is a paste gone wrong, not a secret: treat it as not configured.
	if (secret.trim() === '') secret = '';
	const check = verifySignature(rawBody, signature, secret);
	if (check.valid) return undefined;
	return [401, check.reason === 'missing_secret' ? 'missing_webhook_secret' : 'invalid_signature', SIGNATURE_FAILURE_MESSAGES[check.reason]];
}

/**
 * Shape: a JSON object with an event name, parsed from the same (verified) bytes only. n8n's own parsed
 * body is never used: it is not what the signature covers.
 */
function parse(rawBody: unknown): Delivery | Refusal {
	if (!(rawBody instanceof Uint8Array) || rawBody.length === 0) {
		return [400, 'missing_body', 'The request has no body to read the event from.'];
	}
	let payload: unknown;
	try {
		payload = JSON.parse(Buffer.from(rawBody).toString('utf8'));
	} catch {
		return [400, 'invalid_json', 'The request body is not valid JSON.'];
	}
	if (!isPlainObject(payload) || typeof payload.event !== 'string' || payload.event === '') {
		return [400, 'missing_event', 'The request body is not a JSON object with an "event" name.'];
	}
	const { event, data, ...rest } = payload;
	return { event, data, rest };
}

/** Stale and repeated deliveries: answered 200 (so the site stops retrying), never run. */
function staleOrRepeated(this: IWebhookFunctions, delivery: Delivery, rawBody: Uint8Array, options: IDataObject): Refusal | undefined {
	const maxAgeMinutes = Number(options.maxDeliveryAgeMinutes ?? 0);
	if (Number.isFinite(maxAgeMinutes) && maxAgeMinutes > 0) {
		const timeZone = typeof options.siteTimeZone === 'string' && options.siteTimeZone.trim() ? options.siteTimeZone.trim() : 'UTC';
		const { timestamp } = delivery.rest;
		const sentAt = siteTimeToEpoch(timestamp, timeZone);
		if (!isValidTimeZone(timeZone)) {
			this.logger.warn(`eSign Trigger: Site Time Zone "${timeZone}" is not a known time zone; delivery ages are not checked`);
		} else if (sentAt !== undefined && Date.now() - sentAt > maxAgeMinutes * 60000) {
			this.logger.warn(
				`eSign Trigger: ignored a stale ${delivery.event} delivery sent ${String(timestamp)} (${timeZone}), older than ${maxAgeMinutes} minutes`,
			);
			return [200, 'stale_delivery', 'The delivery is older than the trigger accepts; it was not processed.'];
		}
	}
	if (options.ignoreRepeatedDeliveries !== false) {
		const staticData = this.getWorkflowStaticData('node');
		const hash = deliveryHash(rawBody);
		if (isRepeat(staticData, hash)) {
			return [200, 'repeated_delivery', 'This delivery was already processed; it was not processed again.'];
		}
		remember(staticData, hash);
	}
	return undefined;
}

/**
 * Download Document, after the delivery was answered: the file as binary data, or undefined with the
 * reason in json.downloadError. Never turns a genuine event into a failure.
 */
async function download(this: IWebhookFunctions, data: unknown, json: IDataObject, options: IDataObject): Promise<IBinaryKeyData | undefined> {
	const rawDocumentId = isPlainObject(data) ? data.document_id : undefined;
	if (rawDocumentId === undefined || rawDocumentId === null) return undefined;
	// Only a positive whole number goes into the request path.
	const documentId = idFromAnswer(rawDocumentId);
	if (!documentId) {
		json.downloadError = `data.document_id (${JSON.stringify(rawDocumentId)}) is not a positive whole number, so nothing was downloaded.`;
		return undefined;
	}
	const property = typeof options.binaryPropertyName === 'string' && options.binaryPropertyName.trim() !== '' ? options.binaryPropertyName.trim() : 'data';
	try {
		const file = await downloadDocument.call(this, documentId, {
			timeout: DOWNLOAD_TIMEOUT_SECONDS,
			maxRateLimitWait: DOWNLOAD_MAX_RATE_LIMIT_WAIT_SECONDS,
		});
		return { [property]: file.binary };
	} catch (error) {
		json.downloadError = downloadErrorText(error);
		return undefined;
	}
}
