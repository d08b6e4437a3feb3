// One copy of a failure for both readers (actions/errorDetails.ts): the failed item under Continue On Fail and
// the eSign Tool's answer to a model get the same fields, with the credential's values blanked in both.
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorDetails } from '../../../nodes/ESign/actions/errorDetails';
import { toolErrorAnswer } from '../../../nodes/ESign/actions/toolAnswer';
import { SECRETS, node } from '../fakes';

/** `this` of a node run: its node (with a stored credential) and the credential's values. */
function context(credential: Record<string, string> | Error = { siteUrl: 'https://sign.example.com', ...SECRETS }): IExecuteFunctions {
	return {
		getNode: () => ({ ...node, credentials: { eSignApi: { id: 'c1', name: 'eSign account' } } }),
		getCredentials: async () => {
			if (credential instanceof Error) throw credential;
			return credential;
		},
	} as unknown as IExecuteFunctions;
}

const echoed = `key ${SECRETS.apiKey} secret ${SECRETS.apiSecret}`;

/** Create and Send's failure: a NodeOperationError that keeps the failed step's status in its context. */
function createAndSendFailure() {
	const failure = new NodeOperationError(node, `Create and Send failed at step "send": ${echoed}`, { itemIndex: 0, description: `Draft 12 was kept. ${echoed}` });
	Object.assign(failure.context, { failedStep: 'send', documentId: '12', documentDeleted: false, httpCode: 502, apiCode: 'bad_gateway', validationErrors: [echoed] });
	return failure;
}

describe('errorDetails', () => {
	test('copies the chosen fields, the status from the error or from its context, as text', async () => {
		const api = new NodeApiError(node, { message: 'Document not found.' }, { message: 'Document not found. [not_found]', description: 'Check the ID.', httpCode: '404' });
		Object.assign(api.context, { apiCode: 'not_found', apiMessage: 'Document not found.', request: { headers: { 'X-ESIGN-API-Key': SECRETS.apiKey } } });
		expect(await errorDetails.call(context(), api)).toEqual({
			message: 'Document not found. [not_found]',
			description: 'Check the ID.',
			httpCode: '404',
			apiCode: 'not_found',
			apiMessage: 'Document not found.',
			details: {},
		});
		const found = await errorDetails.call(context(), createAndSendFailure());
		expect(found.httpCode).toBe('502');
		expect(found.details).toEqual({ failedStep: 'send', documentId: '12', documentDeleted: false, validationErrors: ['key *** secret ***'] });
	});

	test('blanks the key and secret out of every text, however they got into the error', async () => {
		const shown = JSON.stringify(await errorDetails.call(context(), createAndSendFailure()));
		expect(shown).not.toContain(SECRETS.apiKey);
		expect(shown).not.toContain(SECRETS.apiSecret);
		expect(shown).toContain('key *** secret ***');
	});

	test('without a readable credential nothing is blanked and nothing fails', async () => {
		const found = await errorDetails.call(context(new Error('no credential')), new NodeOperationError(node, '"Document" must be a document ID (a whole number), got "x"'));
		expect(found).toEqual({ message: '"Document" must be a document ID (a whole number), got "x"', details: {} });
	});
});

test('the tool answer is built from the same copy: status, code, details and no secret', async () => {
	const answer = await toolErrorAnswer.call(context(), createAndSendFailure(), 3);
	expect(answer.error).toEqual({
		message: 'Create and Send failed at step "send": key *** secret ***',
		code: 'bad_gateway',
		httpStatus: 502,
		description: 'Draft 12 was kept. key *** secret ***',
		failedStep: 'send',
		documentId: '12',
		documentDeleted: false,
		validationErrors: ['key *** secret ***'],
		itemIndex: 3,
	});
	expect(JSON.stringify(answer)).not.toContain(SECRETS.apiSecret);
	expect(answer.summary).toMatch(/^The eSign site answered HTTP 502: Create and Send failed at step "send": key \*\*\* secret \*\*\*\. Draft 12 was kept\./);
});
