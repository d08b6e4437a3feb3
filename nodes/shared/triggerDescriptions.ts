import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** The document events both triggers offer, once: name and meaning (a trigger may add how its item carries it). */
const DOCUMENT_EVENTS: Record<string, { name: string; description: string }> = {
	'document.completed': { name: 'Document Completed', description: 'Every signer has signed' },
	'document.declined': { name: 'Document Declined', description: 'A signer declined' },
	'document.expired': { name: 'Document Expired', description: 'The document expired before everyone signed' },
	'document.sent': { name: 'Document Sent', description: 'The document was sent to its signers' },
	'document.viewed': { name: 'Document Viewed', description: 'A signer opened the document' },
};

/** One document event as an option of a trigger's Events; `more` is appended to its description. */
export function documentEvent(value: keyof typeof DOCUMENT_EVENTS, more = ''): INodePropertyOptions {
	const { name, description } = DOCUMENT_EVENTS[value];
	return { name, value, description: `${description}${more}` };
}

/** Both triggers' Download Document and Binary Property options: `what` file, and `more` on which events get it. */
export function downloadOptions(what: string, more: string): INodeProperties[] {
	return [
		{
			displayName: 'Binary Property',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			displayOptions: { show: { downloadDocument: [true] } },
			description: 'Name of the binary property to put the downloaded document in',
		},
		{
			displayName: 'Download Document',
			name: 'downloadDocument',
			type: 'boolean',
			default: false,
			description: `Whether to attach ${what} as binary data ${more}. If the download fails, the event is still emitted, with the error in "downloadError".`,
		},
	];
}
