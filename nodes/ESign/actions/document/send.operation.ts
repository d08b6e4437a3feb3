import { documentAction } from '../../helpers/documentAction';

export const { description, execute } = documentAction({
	operation: 'send',
	notice:
		'Emails a signing invitation to every signer. The document needs at least one signer and a signature field for each signer. Never retried automatically: if the site fails mid-send, check the document before running again.',
	answerKey: 'sent',
	withDocumentId: true,
});
