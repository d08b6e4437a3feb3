// The defaults saved workflows rely on (they store only what the user changed), each defined once
// (transport/options.ts, ESignStatusTrigger/common.ts) and read by the editor and the code alike. The numbers
// here are the contract, written out: changing one is a breaking change (CONTRIBUTING → Versioning policy).
import type { INodeProperties } from 'n8n-workflow';

import { ESign } from '../../../nodes/ESign/ESign.node';
import { ESignStatusTrigger } from '../../../nodes/ESignStatusTrigger/ESignStatusTrigger.node';
import { DEFAULT_RESCAN_EVERY, POLL_REQUEST } from '../../../nodes/ESignStatusTrigger/common';
import { DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS, DEFAULT_TIMEOUT_SECONDS } from '../../../nodes/shared/transport';

const option = (collection: INodeProperties, name: string) => (collection.options as INodeProperties[]).find((o) => o.name === name);

test('a request waits 30 s for an answer and up to 60 s for rate limits unless told otherwise', () => {
	expect(DEFAULT_TIMEOUT_SECONDS).toBe(30);
	expect(DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS).toBe(60);
});

test('every operation\'s Request Options show those defaults', () => {
	const collections = new ESign().description.properties.filter((p) => p.name === 'requestOptions');
	expect(collections).toHaveLength(1);
	for (const collection of collections) {
		expect(option(collection, 'timeout')?.default).toBe(30);
		expect(option(collection, 'maxRateLimitWait')?.default).toBe(60);
	}
});

test('the Status Trigger polls with the same time-out, and rescans every 60 polls by default', () => {
	expect(POLL_REQUEST.timeout).toBe(30);
	expect(DEFAULT_RESCAN_EVERY).toBe(60);
	const options = new ESignStatusTrigger().description.properties.find((p) => p.name === 'options') as INodeProperties;
	expect(option(options, 'rescanEvery')?.default).toBe(60);
});

describe('the transport applies them', () => {
	/** A fake node context whose HTTP helper records each request and answers from `answers` in turn. */
	function fakeContext(answers: Array<{ statusCode: number; headers?: Record<string, string>; body: string }>) {
		const sent: Array<{ timeout?: number }> = [];
		const context = {
			getNode: () => ({ id: 'n', name: 'eSign', type: 'n8n-nodes-esign.eSign', typeVersion: 1, position: [0, 0], parameters: {} }),
			getCredentials: async () => ({ siteUrl: 'https://sign.example.com', apiKey: 'k', apiSecret: 's' }),
			getWorkflowStaticData: () => ({}),
			logger: { warn: () => undefined, debug: () => undefined },
			addExecutionHints: () => undefined,
			helpers: {
				httpRequestWithAuthentication: async (_type: string, request: { timeout?: number }) => {
					sent.push(request);
					const answer = answers.shift() ?? { statusCode: 200, body: '{}' };
					return { statusCode: answer.statusCode, headers: { 'content-type': 'application/json', ...answer.headers }, body: answer.body };
				},
			},
		};
		return { context, sent };
	}

	test('each request waits DEFAULT_TIMEOUT_SECONDS unless Timeout is set', async () => {
		const { eSignApiRequest } = await import('../../../nodes/shared/transport');
		const { context, sent } = fakeContext([{ statusCode: 200, body: '{"total":1}' }, { statusCode: 200, body: '{"total":1}' }]);
		await eSignApiRequest.call(context as never, 'GET', '/stats');
		await eSignApiRequest.call(context as never, 'GET', '/stats', { timeout: 5 });
		expect(sent.map((r) => r.timeout)).toEqual([30_000, 5_000]);
	});

	test('a 429 asking for more than DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS fails at once; one within it is waited out', async () => {
		const { eSignApiRequest } = await import('../../../nodes/shared/transport');
		const tooLong = fakeContext([{ statusCode: 429, headers: { 'retry-after': '61' }, body: '{"code":"rate_limited","message":"Slow down."}' }]);
		await expect(eSignApiRequest.call(tooLong.context as never, 'POST', '/documents/7/send')).rejects.toThrow(/Slow down/);
		expect(tooLong.sent).toHaveLength(1);
		// 60 s exactly is waited out (on jest's clock, moved instead of waited).
		const longest = fakeContext([{ statusCode: 429, headers: { 'retry-after': '60' }, body: '{"code":"rate_limited","message":"Slow down."}' }]);
		jest.useFakeTimers();
		try {
			const done = eSignApiRequest.call(longest.context as never, 'POST', '/documents/7/send');
			await jest.advanceTimersByTimeAsync(60_000);
			await done;
		} finally {
			jest.useRealTimers();
		}
		expect(longest.sent).toHaveLength(2);
	});
});
