import type {
	IDataObject,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { downloadDocument } from '../shared/documentFile';
import { idFromAnswer } from '../shared/values';
import { deliveryHash, isRepeat, isValidTimeZone, remember, siteTimeToEpoch } from './deliveries';
import { SIGNATURE_FAILURE_MESSAGES, SIGNATURE_HEADER, verifySignature } from './verifySignature';

/** Seconds for the Download Document request: short, so a slow site never holds up the event. */
const DOWNLOAD_TIMEOUT_SECONDS = 10;
const DOWNLOAD_MAX_RATE_LIMIT_WAIT_SECONDS = 5;

const ANY_EVENT = '*';

interface WebhookResponse {
	status(code: number): WebhookResponse;
	json(body: unknown): WebhookResponse;
	end(): unknown;
	headersSent?: boolean;
}

/** Answers the caller directly (n8n then sends nothing more) and starts no execution. */
function answer(res: WebhookResponse, status: number, code: string, message: string): IWebhookResponseData {
	res.status(status).json({ code, message });
	res.end();
	return { noWebhookResponse: true };
}

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errorText(error: unknown): string {
	if (isPlainObject(error) || error instanceof Error) {
		const { message, description } = error as { message?: unknown; description?: unknown };
		const text = typeof message === 'string' && message ? message : 'Download failed';
		return typeof description === 'string' && description ? `${text}: ${description}` : text;
	}
	return String(error);
}

export class ESignTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'eSign Trigger',
		name: 'eSignTrigger',
		icon: { light: 'file:../../icons/esign.svg', dark: 'file:../../icons/esign.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ ($parameter["events"] || []).includes("*") ? "Any event" : ($parameter["events"] || []).join(", ") }}',
		description:
			'Starts the workflow when the eSign site sends a signed webhook notification (document completed, declined, …)',
		defaults: {
			name: 'eSign Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'eSignApi',
				required: true,
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'esign',
			},
		],
		triggerPanel: {
			header: '',
			executionsHelp: {
				inactive:
					"<b>While building your workflow</b>, click 'Listen for test event', then paste the <b>Test URL</b> (shown above under Webhook URLs) into the webhook settings of the eSign plugin in your WordPress admin, and make something happen on the site (for example, sign a document). The event appears here.<br /><br /><b>To run your workflow automatically</b>, publish (activate) it and paste the <b>Production URL</b> into the same settings instead. The site signs every notification; copy its webhook signing secret into the <b>Webhook Signing Secret</b> field of the eSign API credential, or the requests are rejected.",
				active:
					"<b>Your workflow runs automatically</b> whenever the eSign site sends a notification to the <b>Production URL</b> you pasted into the webhook settings of the eSign plugin in your WordPress admin. Requests whose X-ESIGN-Signature does not match the credential's Webhook Signing Secret are rejected with 401.<br /><br />To test, use the Test URL and 'Listen for test event' instead.",
			},
			activationHint:
				"Once you've finished building your workflow, publish it and paste its Production URL into the eSign site's webhook settings.",
		},
		properties: [
			{
				displayName:
					"The eSign site has no API to register webhooks. In your WordPress admin, open the eSign plugin's webhook settings and paste this node's Production URL (or its Test URL while you click 'Listen for test event'). Then copy the webhook signing secret shown there into the <b>Webhook Signing Secret</b> field of the eSign API credential: notifications without a valid X-ESIGN-Signature are rejected.",
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['document.completed'],
				description:
					'Which notifications start the workflow. Others are acknowledged (200) without starting it.',
				options: [
					{
						name: 'Any Event',
						value: ANY_EVENT,
						description:
							'Every correctly signed notification, whatever its event name (the site’s full list of events is not documented)',
					},
					{
						name: 'Document Completed',
						value: 'document.completed',
						description: 'Every signer has signed',
					},
					{
						name: 'Document Declined',
						value: 'document.declined',
						description: 'A signer declined (the reason is in data.decline_reason)',
					},
					{
						name: 'Document Expired',
						value: 'document.expired',
						description: 'The document expired before everyone signed',
					},
					{
						name: 'Document Sent',
						value: 'document.sent',
						description: 'The document was sent to its signers',
					},
					{
						name: 'Document Signed',
						value: 'document.signed',
						description: 'One signer signed (others may still be pending)',
					},
					{
						name: 'Document Viewed',
						value: 'document.viewed',
						description: 'A signer opened the document',
					},
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Binary Property',
						name: 'binaryPropertyName',
						type: 'string',
						default: 'data',
						displayOptions: {
							show: {
								downloadDocument: [true],
							},
						},
						description: 'Name of the binary property to put the downloaded document in',
					},
					{
						displayName: 'Download Document',
						name: 'downloadDocument',
						type: 'boolean',
						default: false,
						description:
							'Whether to fetch the document file through the API and attach it as binary data, for events that carry data.document_id. After completion this is the signed PDF. If the download fails, the event is still emitted, with the error in "downloadError".',
					},
					{
						displayName: 'Ignore Repeated Deliveries',
						name: 'ignoreRepeatedDeliveries',
						type: 'boolean',
						default: true,
						description:
							'Whether a delivery whose body is byte-for-byte one this trigger already accepted is answered 200 without running the workflow again (sites retry, admins resend). The last 1,000 accepted deliveries are remembered as hashes in the workflow\'s static data; no bodies are stored. On by default, also when this option is not added.',
					},
					{
						displayName: 'Include Headers',
						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						description: 'Whether to add the request headers to the output item, under "headers"',
					},
					{
						displayName: 'Reject Deliveries Older Than (Minutes)',
						name: 'maxDeliveryAgeMinutes',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 0,
						description:
							'Deliveries whose signed "timestamp" is older than this are answered 200 without running the workflow (so the site does not retry them) and logged. 0 = accept any age. The timestamp has no time zone: set Site Time Zone.',
					},
					{
						displayName: 'Site Time Zone',
						name: 'siteTimeZone',
						type: 'string',
						default: 'UTC',
						placeholder: 'e.g. Europe/Berlin',
						description:
							'The time zone of the site\'s clock (WordPress → Settings → General), used to read the "timestamp" of deliveries for Reject Deliveries Older Than. An IANA name such as UTC or America/New_York.',
					},
					{
						displayName: 'Skip Signature Verification (Insecure)',
						name: 'skipSignatureVerification',
						type: 'boolean',
						default: false,
						description:
							'Whether to accept notifications without checking X-ESIGN-Signature. Insecure: anyone who knows the URL can then start the workflow with made-up events. Only for sites where no signing secret can be set.',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			// The site's API offers no endpoint to register or list webhooks: the URL is pasted into
			// the site's admin by hand (see the notice), so there is nothing to check, create or delete.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject();
		const res = this.getResponseObject() as unknown as WebhookResponse;
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const events = this.getNodeParameter('events', []) as string[];
		const rawBody: unknown = req.rawBody;

		// 1. Authenticity, over the exact bytes received.
		if (options.skipSignatureVerification !== true) {
			let secret = '';
			try {
				const credentials = await this.getCredentials('eSignApi');
				secret = typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
			} catch {
				secret = ''; // no credential: nothing to verify with, so fail closed below
			}
			// A secret of only spaces is a paste gone wrong, not a secret: treat it as not configured.
			if (secret.trim() === '') secret = '';
			const check = verifySignature(rawBody, req.headers?.[SIGNATURE_HEADER], secret);
			if (!check.valid) {
				return answer(
					res,
					401,
					check.reason === 'missing_secret' ? 'missing_webhook_secret' : 'invalid_signature',
					SIGNATURE_FAILURE_MESSAGES[check.reason],
				);
			}
		}

		// 2. Shape: a JSON object with an event name, parsed from the same (verified) bytes only.
		// n8n's own parsed body is never used: it is not what the signature covers.
		if (!(rawBody instanceof Uint8Array) || rawBody.length === 0) {
			return answer(res, 400, 'missing_body', 'The request has no body to read the event from.');
		}
		let payload: unknown;
		try {
			payload = JSON.parse(Buffer.from(rawBody).toString('utf8'));
		} catch {
			return answer(res, 400, 'invalid_json', 'The request body is not valid JSON.');
		}
		if (!isPlainObject(payload) || typeof payload.event !== 'string' || payload.event === '') {
			return answer(
				res,
				400,
				'missing_event',
				'The request body is not a JSON object with an "event" name.',
			);
		}

		// 3. Selection: other events are acknowledged (n8n answers 200) without an execution.
		const { event, data, ...rest } = payload;
		if (!events.includes(ANY_EVENT) && !events.includes(event as string)) {
			return {};
		}

		// 4. Stale and repeated deliveries: answered 200 (so the site stops retrying), never run.
		const maxAgeMinutes = Number(options.maxDeliveryAgeMinutes ?? 0);
		if (Number.isFinite(maxAgeMinutes) && maxAgeMinutes > 0) {
			const timeZone = typeof options.siteTimeZone === 'string' && options.siteTimeZone.trim() ? options.siteTimeZone.trim() : 'UTC';
			const sentAt = siteTimeToEpoch(rest.timestamp, timeZone);
			if (!isValidTimeZone(timeZone)) {
				this.logger.warn(`eSign Trigger: Site Time Zone "${timeZone}" is not a known time zone; delivery ages are not checked`);
			} else if (sentAt !== undefined && Date.now() - sentAt > maxAgeMinutes * 60000) {
				this.logger.warn(
					`eSign Trigger: ignored a stale ${String(event)} delivery sent ${String(rest.timestamp)} (${timeZone}), older than ${maxAgeMinutes} minutes`,
				);
				return answer(res, 200, 'stale_delivery', 'The delivery is older than the trigger accepts; it was not processed.');
			}
		}
		if (options.ignoreRepeatedDeliveries !== false) {
			const staticData = this.getWorkflowStaticData('node');
			const hash = deliveryHash(rawBody);
			if (isRepeat(staticData, hash)) {
				return answer(res, 200, 'repeated_delivery', 'This delivery was already processed; it was not processed again.');
			}
			remember(staticData, hash);
		}

		const json: IDataObject = {
			event,
			data: (data ?? {}) as IDataObject,
			receivedAt: new Date().toISOString(),
		};
		for (const [key, value] of Object.entries(rest)) {
			if (!(key in json)) json[key] = value;
		}
		if (options.includeHeaders === true) {
			json.headers = { ...(req.headers as IDataObject) };
		}
		const item: INodeExecutionData = { json };

		// Acknowledge now, with what n8n would answer for an accepted event, and let n8n send nothing
		// more: the site does not wait for the download, and n8n saves the static data (the accepted
		// hash) before it queues the run. In queue mode a worker writes back the static data it loaded
		// when the run started, so a hash saved after queueing would be lost.
		res.status(200).json({ message: 'Workflow was started' });
		res.end();

		// 5. Optional document download. Never turns a genuine event into a failure.
		const rawDocumentId = isPlainObject(data) ? data.document_id : undefined;
		if (options.downloadDocument !== true || rawDocumentId === undefined || rawDocumentId === null) {
			return { workflowData: [[item]], noWebhookResponse: true };
		}
		// Only a positive whole number goes into the request path.
		const documentId = idFromAnswer(rawDocumentId);
		if (!documentId) {
			item.json.downloadError = `data.document_id (${JSON.stringify(rawDocumentId)}) is not a positive whole number, so nothing was downloaded.`;
			return { workflowData: [[item]], noWebhookResponse: true };
		}

		const propertyName =
			typeof options.binaryPropertyName === 'string' && options.binaryPropertyName.trim() !== ''
				? options.binaryPropertyName.trim()
				: 'data';
		try {
			const file = await downloadDocument.call(this, documentId, {
				timeout: DOWNLOAD_TIMEOUT_SECONDS,
				maxRateLimitWait: DOWNLOAD_MAX_RATE_LIMIT_WAIT_SECONDS,
			});
			item.binary = { [propertyName]: file.binary };
		} catch (error) {
			item.json.downloadError = errorText(error);
		}
		return { workflowData: [[item]], noWebhookResponse: true };
	}
}
