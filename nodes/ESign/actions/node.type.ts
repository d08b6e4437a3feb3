import type { AllEntities } from 'n8n-workflow';

/** Every resource with its operations: the values saved in workflows, kept stable. */
type NodeMap = {
	document:
		| 'upload'
		| 'create'
		| 'get'
		| 'getMany'
		| 'update'
		| 'delete'
		| 'send'
		| 'remind'
		| 'expire'
		| 'download'
		| 'getAuditTrail'
		| 'createAndSend'
		| 'fillPdf';
	signer: 'add' | 'getMany';
	field: 'getMany' | 'getValues' | 'replaceAll';
	template: 'get' | 'getMany' | 'createDocument';
	stats: 'get';
};

export type ESignType = AllEntities<NodeMap>;
