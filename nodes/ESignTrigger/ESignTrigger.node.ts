import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { documentEvent, downloadOptions } from '../shared/triggerDescriptions';
import { ANY_EVENT, receiveDelivery } from './receive';
import { runDelivery } from './run';

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
				// n8n answers an accepted delivery itself, once the run exists (n8n 2.x): {"message":"Workflow was
				// started"}. An empty responseData selects that body (n8n's default, 'firstEntryJson', is sent as text).
				responseMode: 'onReceived',
				responseData: '',
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
					documentEvent('document.completed'),
					documentEvent('document.declined', ' (the reason is in data.decline_reason)'),
					documentEvent('document.expired'),
					documentEvent('document.sent'),
					{
						name: 'Document Signed',
						value: 'document.signed',
						description: 'One signer signed (others may still be pending)',
					},
					documentEvent('document.viewed'),
				],
			},
			{
				displayName: 'Ignore Repeated Deliveries',
				name: 'ignoreRepeatedDeliveries',
				type: 'boolean',
				default: true,
				description:
					"Whether a delivery whose run already exists, sent again (the site retries, an admin resends), is answered 200 without running the workflow again. A delivery n8n could not start a run for (it answered 5xx) is never taken for a repeat: sent again, it runs once. It applies to bodies that name one occurrence: Document Completed and Document Declined, or any event whose body carries a time or a delivery ID; other events always run. It holds for repeats that arrive one after another, and for copies that arrive at the same moment at one n8n process; copies that arrive at the same moment at different n8n processes (queue mode) can each run once. Each run remembers its delivery as a short hash in the workflow's static data (the last 200; no bodies are stored).",
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					...downloadOptions(
						'the document file (after completion: the signed PDF)',
						'to events that carry data.document_id. It is fetched in the run, after n8n has answered the site, so it never delays the answer',
					),
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
							'Deliveries whose signed "timestamp" is older than this many minutes are answered 200 without running the workflow (so the site does not retry them), and logged. Reads ISO 8601 times (with Z or an offset), Unix times, and the API\'s "YYYY-MM-DD HH:MM:SS" in the Site Time Zone. A delivery without a timestamp, or with one it cannot read, runs and is logged as unchecked: the API documentation does not promise a timestamp, so on such a site this option does nothing. 0 = accept any age.',
					},
					{
						displayName: 'Site Time Zone',
						name: 'siteTimeZone',
						type: 'string',
						default: 'UTC',
						placeholder: 'e.g. Europe/Berlin',
						description:
							'The time zone of the site\'s clock (WordPress → Settings → General), used to read a delivery "timestamp" that carries no zone (the API\'s "YYYY-MM-DD HH:MM:SS") for Reject Deliveries Older Than. An IANA name such as UTC or America/New_York.',
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

	/** The trigger's step in the run of an accepted delivery (run.ts): records it, attaches the file. */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runDelivery.call(this);
	}
}
