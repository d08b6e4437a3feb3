import { documentAction } from '../../helpers/documentAction';

export const { description, execute } = documentAction({
	operation: 'expire',
	notice:
		'Applies an expiration that is already due: works only when the document’s expiry date (set in the site’s admin) has passed, and the document is not completed, declined or expired',
	answerKey: 'expired',
	withDocumentId: false,
});
