import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as createAndSend from './createAndSend.operation';
import * as del from './delete.operation';
import * as download from './download.operation';
import * as expire from './expire.operation';
import * as fillPdf from './fillPdf.operation';
import * as get from './get.operation';
import * as getAuditTrail from './getAuditTrail.operation';
import * as getMany from './getMany.operation';
import * as remind from './remind.operation';
import * as send from './send.operation';
import * as update from './update.operation';
import * as upload from './upload.operation';

export {
	create,
	createAndSend,
	del as delete,
	download,
	expire,
	fillPdf,
	get,
	getAuditTrail,
	getMany,
	remind,
	send,
	update,
	upload,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a draft document from a file already in the site’s secure storage',
				action: 'Create document',
			},
			{
				name: 'Create and Send',
				value: 'createAndSend',
				description:
					'Upload a file, add signers, place fields and send for signing in one step; the draft is removed if a step is refused',
				action: 'Create and send document',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Permanently delete a document with its signers, fields and audit trail',
				action: 'Delete document',
			},
			{
				name: 'Download',
				value: 'download',
				description:
					'Download the document file as binary data (the signed PDF once the document is completed)',
				action: 'Download document',
			},
			{
				name: 'Expire',
				value: 'expire',
				description: 'Mark a document expired once its expiry date has passed',
				action: 'Expire document',
			},
			{
				name: 'Fill PDF',
				value: 'fillPdf',
				description:
					'Draw values into a PDF (its form fields and {{data:KEY}} tags) and output the filled PDF; nothing is sent to the site',
				action: 'Fill PDF document',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a document with its signers, fields and file hash',
				action: 'Get document',
			},
			{
				name: 'Get Audit Trail',
				value: 'getAuditTrail',
				description: 'Get the audit events of a document (created, sent, viewed, signed…)',
				action: 'Get audit trail of document',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List documents, newest first, optionally filtered by status or title',
				action: 'Get many documents',
			},
			{
				name: 'Remind',
				value: 'remind',
				description: 'Email a reminder to signers who have not signed yet',
				action: 'Remind signers of document',
			},
			{
				name: 'Send',
				value: 'send',
				description: 'Email signing invitations to all signers of a draft document',
				action: 'Send document',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change the title of a document, or move it between draft and sent',
				action: 'Update document',
			},
			{
				name: 'Upload',
				value: 'upload',
				description: 'Create a draft document from a PDF, PNG or JPG file in the input binary data',
				action: 'Upload document',
			},
		],
		default: 'upload',
	},
	...create.description,
	...createAndSend.description,
	...del.description,
	...download.description,
	...expire.description,
	...fillPdf.description,
	...get.description,
	...getAuditTrail.description,
	...getMany.description,
	...remind.description,
	...send.description,
	...update.description,
	...upload.description,
];
