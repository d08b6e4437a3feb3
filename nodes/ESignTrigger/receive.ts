import type { IBinaryKeyData, IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { downloadDocument, downloadErrorText } from '../shared/documentFile';
import { idFromAnswer, isPlainObject } from '../shared/values';
import { deliveryId, identifiesOneOccurrence, isRepeat, isValidTimeZone, remember, siteTimeToEpoch } from './deliveries';
import { SIGNATURE_FAILURE_MESSAGES, SIGNATURE_HEADER, verifySignature } from './verifySignature';

/** Seconds for the Download Document request: short, so a slow site never holds up the event. */
const DOWNLOAD_TIMEOUT_SECONDS = 10;
const DOWNLOAD_MAX_RATE_LIMIT_WAIT_SECONDS = 5;

export const ANY_EVENT = '*';

/**
 * Waits between reads of the credential when one fails (n8n 2.x under a burst: each read takes an expression
 * isolate from a small pool). About 2 s in all, well within what a site waits for an answer.
 */
const CREDENTIAL_RETRY_MS = [100, 250, 500, 1000];
/** Seconds a site is asked to wait before it tries again when the credential could not be read. */
const RETRY_AFTER_SECONDS = 10;

interface WebhookResponse {
	status(code: number): WebhookResponse;
	setHeader(name: string, value: string): unknown;
	json(body: unknown): WebhookResponse;
	end(): unknown;
	headersSent?: boolean;
}

/** A delivery answered without an execution: HTTP status, code and message for the caller (and headers). */
type Refusal = [status: number, code: string, message: string, headers?: Record<string, string>];

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

	const unverified = await verify.call(this, rawBody, req.headers?.[SIGNATURE_HEADER]);
	if (unverified) return refuse(res, unverified);
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
function refuse(res: WebhookResponse, [status, code, message, headers = {}]: Refusal): IWebhookResponseData {
	for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
	res.status(status).json({ code, message });
	res.end();
	return { noWebhookResponse: true };
}

/**
 * Authenticity, over the exact bytes received: 401 when the signature does not match or the secret is really
 * empty; 503 (try again) when the credential could not be read, which says nothing about the delivery.
 */
async function verify(this: IWebhookFunctions, rawBody: unknown, signature: string | string[] | undefined): Promise<Refusal | undefined> {
	const read = await readWebhookSecret.call(this);
	if ('failure' in read) {
		this.logger.error(
			`eSign Trigger: could not read the eSign API credential (${read.failure}); the delivery was answered 503 with Retry-After: ${RETRY_AFTER_SECONDS}, so the site can send it again. Nothing was checked or run.`,
		);
		return [
			503,
			'credential_unavailable',
			'n8n could not read this trigger\'s credential just now, so the delivery was not checked. Please send it again later.',
			{ 'Retry-After': String(RETRY_AFTER_SECONDS) },
		];
	}
	// A secret of only spaces is a paste gone wrong, not a secret: treat it as not configured.
	const secret = read.secret.trim() === '' ? '' : read.secret;
	const check = verifySignature(rawBody, signature, secret);
	if (check.valid) return undefined;
	return [401, check.reason === 'missing_secret' ? 'missing_webhook_secret' : 'invalid_signature', SIGNATURE_FAILURE_MESSAGES[check.reason]];
}

/**
 * The Webhook Signing Secret, or why it could not be read. A read that fails for a passing reason (n8n busy) is
 * tried again a few times; a configuration error (no credential selected) is not, as waiting cannot fix it.
 */
async function readWebhookSecret(this: IWebhookFunctions): Promise<{ secret: string } | { failure: string }> {
	for (let attempt = 0; ; attempt++) {
		try {
			const credentials = await this.getCredentials('eSignApi');
			return { secret: typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '' };
		} catch (error) {
			if (error instanceof NodeOperationError || attempt >= CREDENTIAL_RETRY_MS.length) {
				const cause = error instanceof Error ? error.message : String(error);
				return { failure: `${cause}${attempt > 0 ? `; ${attempt + 1} attempts` : ''}` };
			}
		}
		await sleep(CREDENTIAL_RETRY_MS[attempt]);
	}
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
	const ignoreRepeats = this.getNodeParameter('ignoreRepeatedDeliveries', true) !== false;
	if (ignoreRepeats && identifiesOneOccurrence(delivery.event, delivery.data, delivery.rest)) {
		const staticData = this.getWorkflowStaticData('node');
		const id = deliveryId(rawBody);
		// Test deliveries (Execute step) are not remembered in the process, so a production one is not taken for a repeat.
		const processKey = this.getMode() === 'manual' ? undefined : `${this.getWorkflow().id ?? ''}/${this.getNode().id}`;
		if (isRepeat(staticData, id, processKey)) {
			return [200, 'repeated_delivery', 'This delivery was already processed; it was not processed again.'];
		}
		remember(staticData, id, processKey);
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
