import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { isPlainObject } from '../shared/values';
import { bytesId, identifiesOneOccurrence, occurrenceId, storedIds } from './deliveries';
import type { AnsweredResponse } from './inProcess';
import { claimDelivery, triggerKey } from './inProcess';
import { deliveryTime, isValidTimeZone } from './timestamps';
import { SIGNATURE_FAILURE_MESSAGES, SIGNATURE_HEADER, verifySignature } from './verifySignature';

export const ANY_EVENT = '*';

/**
 * Waits between reads of the credential when one fails (n8n 2.x under a burst: each read takes an expression
 * isolate from a small pool). About 2 s in all, well within what a site waits for an answer.
 */
const CREDENTIAL_RETRY_MS = [100, 250, 500, 1000];
/** Seconds a site is asked to wait before it tries again when the credential could not be read. */
const RETRY_AFTER_SECONDS = 10;

interface WebhookResponse extends AnsweredResponse {
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
 * One delivery, step by step: verify → parse → select → age → repeat → hand over. A step that refuses answers the
 * caller itself and starts no execution. An accepted delivery is handed to n8n, which answers it: n8n 2.x answers
 * 200 only once it has created the run (queued it, in queue mode) and 500 when it cannot, so a 200 is a promise
 * (webhook-helpers.ts executeWebhook, n8n 2.41.1; docs/triggers.md). The id is recorded by the run itself
 * (run.ts), and the file of Download Document is fetched there too, so nothing delays the answer.
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
	const stale = staleDelivery.call(this, delivery, options);
	if (stale) return refuse(res, stale);

	const json: IDataObject = { event: delivery.event, data: (delivery.data ?? {}) as IDataObject, receivedAt: new Date().toISOString() };
	for (const [key, value] of Object.entries(delivery.rest)) {
		if (!(key in json)) json[key] = value;
	}
	const repeat = await repeatedDelivery.call(this, json, rawBody as Uint8Array, res);
	if (repeat) return refuse(res, repeat);
	if (options.includeHeaders === true) json.headers = { ...(req.headers as IDataObject) };
	return { workflowData: [[{ json }]] };
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

/** Trigger nodes whose deliveries carried no timestamp while Reject Deliveries Older Than is on (logged once). */
const warnedNoTimestamp = new Set<string>();

/**
 * Reject Deliveries Older Than: a delivery older than the limit is answered 200 (so the site stops retrying) and
 * not run. One whose age cannot be told (no timestamp, one it cannot read, an unknown Site Time Zone) runs, and the
 * log says its age was not checked: dropping a genuine event on a guess would be worse.
 */
function staleDelivery(this: IWebhookFunctions, delivery: Delivery, options: IDataObject): Refusal | undefined {
	const maxAgeMinutes = Number(options.maxDeliveryAgeMinutes ?? 0);
	if (!Number.isFinite(maxAgeMinutes) || maxAgeMinutes <= 0) return undefined;
	const timeZone = typeof options.siteTimeZone === 'string' && options.siteTimeZone.trim() ? options.siteTimeZone.trim() : 'UTC';
	const { timestamp } = delivery.rest;
	const unchecked = `eSign Trigger: the ${delivery.event} delivery was run without checking its age (Reject Deliveries Older Than)`;
	if (timestamp === undefined) {
		const node = triggerKey(this);
		if (!warnedNoTimestamp.has(node)) {
			warnedNoTimestamp.add(node);
			this.logger.warn(`${unchecked}: the body has no "timestamp" member, so no delivery's age can be checked on this site. Logged once.`);
		}
		return undefined;
	}
	if (!isValidTimeZone(timeZone)) {
		this.logger.warn(`${unchecked}: Site Time Zone "${timeZone}" is not a known time zone. Use an IANA name such as UTC or Europe/Berlin.`);
		return undefined;
	}
	const sentAt = deliveryTime(timestamp, timeZone);
	if (sentAt === undefined) {
		this.logger.warn(`${unchecked}: its timestamp ${JSON.stringify(timestamp)} is not a time the trigger can read (ISO 8601, YYYY-MM-DD HH:MM:SS or Unix time).`);
		return undefined;
	}
	if (Date.now() - sentAt <= maxAgeMinutes * 60000) return undefined;
	this.logger.warn(`eSign Trigger: ignored a stale ${delivery.event} delivery sent ${String(timestamp)} (${timeZone}), older than ${maxAgeMinutes} minutes`);
	return [200, 'stale_delivery', 'The delivery is older than the trigger accepts; it was not processed.'];
}

/**
 * Ignore Repeated Deliveries: a delivery whose run exists already (recorded in the static data by an earlier run,
 * or known to this process) is answered 200 and not run again. A copy that arrives while the same delivery is being
 * handed to n8n by another call waits briefly for n8n's answer to it: a run → a repeat; a refusal → this copy goes
 * ahead; no answer yet → 503, send again later. An accepted delivery is noted as handed over, nothing else: its id
 * is recorded only once its run exists.
 */
async function repeatedDelivery(this: IWebhookFunctions, json: IDataObject, rawBody: Uint8Array, res: WebhookResponse): Promise<Refusal | undefined> {
	if (this.getNodeParameter('ignoreRepeatedDeliveries', true) === false || !identifiesOneOccurrence(json)) return undefined;
	const id = occurrenceId(json);
	const repeat: Refusal = [200, 'repeated_delivery', 'This delivery was already processed; it was not processed again.'];
	const staticData = this.getWorkflowStaticData('node');
	const recorded = storedIds(staticData);
	if (recorded.includes(id) || recorded.includes(bytesId(rawBody))) return repeat;
	// Test deliveries (Execute step) are checked against the record only: they are not kept in the process.
	if (this.getMode() === 'manual') return undefined;
	const key = triggerKey(this);
	const claimed = await claimDelivery(key, id, res);
	if (claimed === 'run') return repeat;
	if (claimed === 'busy') {
		return [503, 'delivery_in_progress', 'The same delivery is being processed right now. Please send it again later.', { 'Retry-After': String(RETRY_AFTER_SECONDS) }];
	}
	// Nothing is written here: n8n starts the run with the static data read again from the database
	// (webhook-helpers.ts executeWebhook → WorkflowRunner.run with loadStaticData), so only the run can record.
	return undefined;
}
