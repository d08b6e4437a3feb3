import type { INodeProperties } from 'n8n-workflow';

import type { ESignType } from './node.type';

const FIND_DOCUMENT = 'If you only know its title, get the ID first with a document search (eSign Document → Get Many, searching by title).';

/**
 * What an AI agent is told each operation does, which IDs it needs and where to get them. Every
 * operation must have one (the type lists them all).
 */
const TEXTS: { [R in ESignType['resource']]: Record<Extract<ESignType, { resource: R }>['operation'], string> } = {
	document: {
		upload:
			'Uploads the file in the input binary data (PDF, PNG or JPG) as a new draft eSign document and returns it with its document ID (id). Needs no ID. Next: add signers, place fields, then send.',
		create:
			'Creates a draft eSign document from a file already in the site’s secure storage (its file path) with a title, and returns it with its document ID (id). Needs no ID.',
		createAndSend:
			'Uploads the file in the input binary data, adds the signers (name and email each), places their signature fields and emails the signing invitations in one step; returns the sent document. Needs no ID. If a step is refused, the draft is deleted again.',
		get: `Gets one eSign document with its status, signers (name, email, status, signer ID) and fields. Needs a document ID (a whole number). ${FIND_DOCUMENT}`,
		getMany:
			'Searches eSign documents, newest first: by text in the title (search) and/or by status (draft, sent, viewed, completed, declined, expired). Each result has the document ID (id), title and status; the other eSign tools take that id.',
		update: `Changes a document’s title, or moves it between draft and sent without emailing anyone (to email the signers, use Send). Needs a document ID. ${FIND_DOCUMENT}`,
		delete: `Permanently deletes an eSign document with its signers, fields and audit trail; this cannot be undone, so confirm with the user first. Needs a document ID. ${FIND_DOCUMENT}`,
		send: `Emails signing invitations to every signer of a draft document. Needs the document ID of a draft with at least one signer. ${FIND_DOCUMENT} The site refuses a document without signers (no_signers).`,
		remind: `Emails a reminder to the signers of a sent document who have not signed yet (or to one signer, by signer ID). Needs the document ID of a sent or viewed document. ${FIND_DOCUMENT} The site refuses it when nobody is left to remind (no_recipients).`,
		expire: `Marks a document expired once its expiry date has passed. Needs a document ID. ${FIND_DOCUMENT} The site refuses it (not_due) when there is no expiry date or it is still in the future.`,
		download: `Downloads a document’s file (the signed PDF once everyone has signed) as binary data; the answer gives its file name, type and size. Needs a document ID. ${FIND_DOCUMENT}`,
		fillPdf:
			'Draws values into the PDF in the input binary data (its form fields by full name, and {{data:KEY}} tags in its text by key) and returns the filled PDF as binary data, with the names it filled; nothing is sent to the site. Needs no ID.',
		getAuditTrail: `Gets the audit trail of a document: when it was created, sent, viewed, signed or declined, and by whom. Needs a document ID. ${FIND_DOCUMENT}`,
	},
	signer: {
		add: `Adds a signer (name and email) to a draft document and returns the signer with its signer ID. Needs the document ID of a draft. ${FIND_DOCUMENT}`,
		getMany: `Lists the signers of a document with name, email, status (pending, viewed, signed), signer ID, and for a signer who declined the time and reason (declined_at, decline_reason). Needs a document ID. ${FIND_DOCUMENT}`,
	},
	field: {
		getMany: `Lists the fields placed on a document (type, page, position, signer ID). Needs a document ID. ${FIND_DOCUMENT}`,
		getValues: `Gets what the signers filled in on a document, keyed by field name (a field without a name by its type and number, e.g. "date 1"): one object for the document, or one per signer with their name and email. Needs a document ID. ${FIND_DOCUMENT}`,
		replaceAll: `Replaces all fields of a draft document with the given ones (signature, initials, date, text…), each for a signer of that document (signer IDs come from eSign Signer → Get Many). Needs the document ID of a draft. ${FIND_DOCUMENT}`,
	},
	template: {
		createDocument:
			'Creates a document from a saved template, fills in its variables, adds the signers (name and email each) and, if set to, sends it; returns the document and each signer’s signing URL. Needs a template ID: get it with a template search (eSign Template → Get Many, searching by name).',
		get: 'Gets a saved template with the variables it can fill in. Needs a template ID: get it with a template search (eSign Template → Get Many, searching by name).',
		getMany:
			'Searches the saved templates by name or description. Each result has the template ID (id), name and description; eSign Template → Create Document takes that id.',
	},
	stats: {
		get: 'Counts eSign documents by status (draft, sent, viewed, completed, declined, expired). Needs no ID.',
	},
};

/**
 * The tool variant's "Description" (n8n shows it only there, through the `@tool` display option), one
 * per operation so its default follows the chosen operation. n8n gives the agent this text; with a node
 * property of this name n8n adds none of its own (its automatic one would only say e.g. "Remind
 * signers of a document in eSign").
 */
export const toolDescriptions: INodeProperties[] = Object.entries(TEXTS).flatMap(([resource, texts]) =>
	Object.entries(texts).map(
		([operation, text]): INodeProperties => ({
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: text,
			required: true,
			typeOptions: { rows: 3 },
			description:
				'What the AI agent is told this tool does. The default says which IDs the operation needs and where to get them.',
			displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
		}),
	),
);

