import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { documentEvent, downloadOptions } from '../shared/triggerDescriptions';
import { forgetSiteAccess } from '../shared/transport';
import { ANY_CHANGE, DEFAULT_RESCAN_EVERY, NEW_DOCUMENT } from './common';
import { pollOnce } from './poll';
import { ALL_STATUSES } from './state';

export class ESignStatusTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'eSign Status Trigger',
		name: 'eSignStatusTrigger',
		icon: { light: 'file:../../icons/esign.svg', dark: 'file:../../icons/esign.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ ($parameter["events"] || []).join(", ") }}',
		description:
			'Starts the workflow when a document changes status on the eSign site, by polling (for n8n instances the site cannot reach)',
		// Used as given by the editor's docs link (a codex URL gets tracking parameters appended, which break an #anchor).
		documentationUrl: 'https://github.com/n8n-nodes-esign/n8n-nodes-esign#esign-status-trigger',
		defaults: {
			name: 'eSign Status Trigger',
		},
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'eSignApi',
				required: true,
			},
		],
		properties: [
			{
				displayName:
					'Polls the site for status changes; no webhook needed. A poll where nothing changed costs one request (GET /stats); each Signer event adds one request per document being signed (viewed) on every poll. Prefer the webhook-based eSign Trigger when the site can reach this n8n.',
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
					'Which changes start the workflow. Each change is reported once. Signer events cost one more request per poll for each document being signed.',
				options: [
					{
						name: 'Any Status Change',
						value: ANY_CHANGE,
						description: 'Every status change of a document, including a move back to draft',
					},
					documentEvent('document.completed'),
					documentEvent('document.declined'),
					documentEvent('document.expired'),
					documentEvent('document.sent'),
					documentEvent('document.viewed'),
					{
						name: 'New Document',
						value: NEW_DOCUMENT,
						description: 'A document was created (upload, create or from a template)',
					},
					{
						name: 'Signer Declined',
						value: 'signer.declined',
						description: 'One signer declined, as the site records it in declined_at, whatever the signer’s status (the item holds the signer, with decline_reason)',
					},
					{
						name: 'Signer Signed',
						value: 'signer.signed',
						description: 'One signer signed, while others may still be pending. Costs a request per document being signed, every poll.',
					},
					{
						name: 'Signer Viewed',
						value: 'signer.viewed',
						description: 'One signer opened the document. Costs a request per document being signed, every poll.',
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
					...downloadOptions('the signed PDF', 'to completed documents'),
					{
						displayName: 'Emit Existing',
						name: 'emitExisting',
						type: 'boolean',
						default: false,
						description:
							'Whether the first poll after activation emits the documents that exist already (as if each were new), and for signer events the signers of documents being signed who already viewed or signed. Off: the first poll only records the current state.',
					},
					{
						displayName: 'Full Rescan Every N Polls',
						name: 'rescanEvery',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: DEFAULT_RESCAN_EVERY,
						description:
							'Reads the lists of open documents every N polls even when /stats shows no change, to catch changes that cancel out in the counts (e.g. two documents swapping draft and sent). 0 = never.',
					},
					{
						displayName: 'Search',
						name: 'search',
						type: 'string',
						default: '',
						description: 'Only documents whose title contains this text (the API\'s search)',
					},
					{
						displayName: 'Status Scope',
						name: 'statusScope',
						type: 'multiOptions',
						default: [],
						description: 'Only report documents whose new status is one of these (document events; signer events are not filtered). Empty = any status.',
						options: ALL_STATUSES.map((status) => ({
							name: status.charAt(0).toUpperCase() + status.slice(1),
							value: status,
						})),
					},
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		try {
			return await pollOnce.call(this);
		} finally {
			forgetSiteAccess.call(this);
		}
	}
}
