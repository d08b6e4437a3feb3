import type { IHookFunctions, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ANY_EVENT, receiveDelivery } from './receive';

export class ESignTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'eSign Trigger',
		name: 'eSignTrigger',
		icon: { light: 'file:../../icons/esign.svg', dark: 'file:../../icons/esign.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ ($parameter["events"] || []).includes("*") ? "Any event" : ($parameter["events"] || []).join(", ") }}',
		// n8n's node panel lists this trigger inside the eSign node's entry and shows this text there (editor-ui's
		// generateMergedNodesAndActions): so it is the action node's description (test/unit/nodePanel.test.ts).
		description:
			'Send documents for e-signature with a self-hosted eSign site: upload, add signers and fields, send, remind, download signed files, templates and audit trails',
		// Used as given by the editor's docs link (a codex URL gets tracking parameters appended, which break an #anchor).
		documentationUrl: 'https://github.com/n8n-nodes-esign/n8n-nodes-esign#trigger-setup',
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
					"<b>While building your workflow</b>, click <b>Execute step</b> (n8n 2.x; the output panel also offers <b>Test this trigger</b>) or <b>Listen for test event</b> (n8n 1.x), then paste the <b>Test URL</b> (shown above under Webhook URLs) into the webhook settings of the eSign plugin in your WordPress admin, and make something happen on the site (for example, sign a document). The event appears here.<br /><br /><b>To run your workflow automatically</b>, publish (activate) it and paste the <b>Production URL</b> into the same settings instead. The site signs every notification; copy its webhook signing secret into the <b>Webhook Signing Secret</b> field of the eSign API credential, or the requests are rejected.",
				active:
					"<b>Your workflow runs automatically</b> whenever the eSign site sends a notification to the <b>Production URL</b> you pasted into the webhook settings of the eSign plugin in your WordPress admin. Requests whose X-ESIGN-Signature does not match the credential's Webhook Signing Secret are rejected with 401.<br /><br />To test, use the Test URL with <b>Execute step</b> (n8n 2.x) or <b>Listen for test event</b> (n8n 1.x) instead.",
			},
			activationHint:
				"Once you've finished building your workflow, publish it and paste its Production URL into the eSign site's webhook settings.",
		},
		properties: [
			{
				displayName:
					"The eSign site has no API to register webhooks. In your WordPress admin, open the eSign plugin's webhook settings and paste this node's Production URL (or its Test URL while you click Execute step in n8n 2.x, Listen for test event in 1.x). Then copy the webhook signing secret shown there into the <b>Webhook Signing Secret</b> field of the eSign API credential: notifications without a valid X-ESIGN-Signature are rejected.",
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
				displayName: 'Ignore Repeated Deliveries',
				name: 'ignoreRepeatedDeliveries',
				type: 'boolean',
				default: true,
				description:
					"Whether a delivery this trigger already accepted, sent again (the site retries, an admin resends), is answered 200 without running the workflow again. It applies to bodies that name one occurrence: Document Completed and Document Declined, or any event whose body carries a time or a delivery ID; other events always run. It holds for repeats that arrive one after another. Copies that arrive at the same moment in queue mode, on different n8n processes, can each run once. The last 200 accepted deliveries are remembered as short hashes in the workflow's static data; no bodies are stored.",
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
							'Deliveries whose signed "timestamp" is older than this are answered 200 without running the workflow (so the site does not retry them) and logged. Needs a "timestamp" member in the webhook body, which the API documentation does not promise: a delivery without one is always accepted, so on such a site this option does nothing. 0 = accept any age. The timestamp has no time zone: set Site Time Zone.',
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

	/** One signed delivery from the site; the steps are in receive.ts. */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery.call(this);
	}
}
