/**
 * Self-test of the engine harness (test/harness) and the credential test:
 * - the credential's `test` request run the way n8n's CredentialsTester runs it (good key → OK,
 *   bad key/secret → Error with the rule's message, wrong address → 404 rule, unreachable site);
 * - a node run inside n8n-core's WorkflowExecute gets the credential's headers applied by the
 *   engine (a bad key yields the site's 401, mapped by the transport);
 * - binary data through n8n-core's binary data service, filesystem mode and in memory;
 * - continueOnFail and the webhook server plumbing.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { ESignApi } from '../../credentials/ESignApi.credentials';
import { eSignApiRequest } from '../../nodes/shared/transport';
import type { Json, KeyName } from '../support';
import { createSandbox, credentialsFor, offlineCredentials } from '../support';
import * as h from './index';

const CREDENTIAL_RULES = (() => {
	const rules: Record<number, string> = {};
	for (const rule of new ESignApi().test.rules ?? []) {
		if (rule.type === 'responseCode') rules[rule.properties.value] = rule.properties.message;
	}
	return rules;
})();

/** A tiny node that calls the package's transport: GET /stats, and echoes/creates binaries. */
class ProbeNode implements INodeType {
	description: INodeTypeDescription;

	constructor() {
		this.description = {
			displayName: 'Probe',
			name: 'test.probe',
			group: ['transform'],
			version: 1,
			description: 'Harness self-test node',
			defaults: { name: 'Probe' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'eSignApi', required: true }],
			properties: [
				{ displayName: 'Mode', name: 'mode', type: 'string', default: 'stats' },
				{
					displayName: 'Needed',
					name: 'needed',
					type: 'string',
					required: true,
					default: '',
					displayOptions: { show: { mode: ['needs'] } },
				},
			],
		};
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			const mode = this.getNodeParameter('mode', i);
			if (mode === 'stats') {
				const stats = (await eSignApiRequest.call(this, 'GET', '/stats', { itemIndex: i })) as Json;
				out.push({ json: { stats }, pairedItem: { item: i } });
			} else if (mode === 'binary') {
				this.helpers.assertBinaryData(i, 'data');
				const input = await this.helpers.getBinaryDataBuffer(i, 'data');
				const reversed = Buffer.from(input).reverse();
				out.push({
					json: { inputLength: input.length, inputText: input.toString('utf8') },
					binary: { data: await this.helpers.prepareBinaryData(reversed, 'reversed.bin', 'application/octet-stream') },
					pairedItem: { item: i },
				});
			}
		}
		return [out];
	}
}
h.registerNodeType('test.probe', new ProbeNode());

describe('with the sandbox', () => {
	let sandbox;

	beforeAll(async () => {
		sandbox = await createSandbox({ port: 0, rateLimits: false });
	});

	afterAll(async () => {
		await sandbox?.close();
	});

	const creds = (key: KeyName = 'admin', extra = {}) => ({ ...credentialsFor(sandbox, key), ...extra });

	async function requestLog() {
		return await (await fetch(`${sandbox.url}/__sandbox/requests`)).json();
	}

	async function clearRequestLog() {
		await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
	}

	describe('credential test (as n8n’s CredentialsTester runs it)', () => {
		test('a good admin key passes', async () => {
			await expect(h.testCredential(creds('admin'))).resolves.toEqual({
				status: 'OK',
				message: 'Connection successful!',
			});
		});

		test('a good read-only key passes too (GET /stats is allowed)', async () => {
			await expect(h.testCredential(creds('adminReadOnly'))).resolves.toMatchObject({ status: 'OK' });
		});

		test('the site address may carry a trailing slash or the /wp-json/esign/v1 suffix', async () => {
			for (const siteUrl of [`${sandbox.url}/`, `${sandbox.url}/wp-json/esign/v1`, `${sandbox.url}/wp-json/esign/v1/`, `  ${sandbox.url}  `]) {
				await expect(h.testCredential(creds('admin', { siteUrl }))).resolves.toMatchObject({ status: 'OK' });
			}
		});

		test('a bad key fails with the 401 rule’s message', async () => {
			const result = await h.testCredential(creds('admin', { apiKey: 'esign_not_a_real_key' }));
			expect(result).toMatchObject({ status: 'Error', message: CREDENTIAL_RULES[401] });
			expect(result.message).toMatch(/key or secret/);
		});

		test('a bad secret fails with the same message', async () => {
			const result = await h.testCredential(creds('admin', { apiSecret: 'wrong-secret' }));
			expect(result).toMatchObject({ status: 'Error', message: CREDENTIAL_RULES[401] });
		});

		test('the headers really reach the site: it logged the key of each test request', async () => {
			await clearRequestLog();
			await h.testCredential(creds('user'));
			const log = await requestLog();
			const stats = log.filter((r) => r.path.endsWith('/stats'));
			expect(stats.length).toBeGreaterThanOrEqual(1);
			expect(stats[0].status).toBe(200);
			expect(JSON.stringify(stats[0].key)).toContain(sandbox.keys.user.key.slice(0, 10));
		});

		test('a wrong site path fails with the 404 rule’s message', async () => {
			const result = await h.testCredential(creds('admin', { siteUrl: `${sandbox.url}/blog` }));
			expect(result).toMatchObject({ status: 'Error', message: CREDENTIAL_RULES[404] });
		});

		test('an unreachable site fails with the connection error code', async () => {
			const result = await h.testCredential(creds('admin', { siteUrl: 'http://127.0.0.1:9' }));
			expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
		});
	});

	describe('runNode inside WorkflowExecute', () => {
		test('the engine applies the credential headers: a good key reads stats', async () => {
			const res = await h.runNode({ type: 'test.probe', parameters: { mode: 'stats' }, credentials: creds('admin') });
			expect(res.error).toBeUndefined();
			expect(res.items).toHaveLength(1);
			expect(res.items[0].json.stats).toEqual(expect.any(Object));
			expect(res.items[0].pairedItem).toEqual({ item: 0 });
			expect(res.run.status).toBe('success');
			expect(res.credentialsHelper.authenticateCalls).toBeGreaterThanOrEqual(1);
		});

		test('a bad key yields the site’s 401 as the node error', async () => {
			const res = await h.runNode({
				type: 'test.probe',
				parameters: { mode: 'stats' },
				credentials: creds('admin', { apiKey: 'esign_wrong' }),
			});
			expect(res.items).toEqual([]);
			expect(res.error).toBeDefined();
			expect(res.error.httpCode).toBe('401');
			expect(res.error.message).toMatch(/rest_forbidden/);
			expect(res.error.description).toMatch(/key or secret/);
			expect(res.run.status).toBe('error');
		});

		test('continueOnFail on a node that throws: the engine records the error and passes the input through', async () => {
			// n8n's own behaviour (WorkflowExecute.handleNodeExecutionError): a node must catch per item
			// and emit { json: { error } } itself if it wants error items.
			const res = await h.runNode({
				type: 'test.probe',
				parameters: { mode: 'stats' },
				credentials: creds('admin', { apiSecret: 'nope' }),
				input: [{ json: { keep: 'me' } }],
				continueOnFail: true,
			});
			expect(res.error).toBeDefined();
			expect(res.error.httpCode).toBe('401');
			expect(res.items).toHaveLength(1);
			expect(res.items[0].json).toEqual({ keep: 'me' });
		});
	});
});

describe('binary data through n8n-core’s BinaryDataService', () => {
	test.each(['filesystem', 'default'])('round trip in %s mode', async (binaryMode) => {
		const input = [
			{ json: { n: 1 }, binary: { data: { data: Buffer.from('first file'), fileName: 'a.txt', mimeType: 'text/plain' } } },
			{ json: { n: 2 }, binary: { data: { data: Buffer.from('second'), fileName: 'b.pdf', mimeType: 'application/pdf' } } },
		];
		const res = await h.runNode({ type: 'test.probe', parameters: { mode: 'binary' }, input, binaryMode });
		expect(res.error).toBeUndefined();
		expect(res.items.map((i) => i.json.inputText)).toEqual(['first file', 'second']);
		expect(res.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const meta = res.items[0].binary.data;
		expect(meta).toMatchObject({ fileName: 'reversed.bin', mimeType: 'application/octet-stream' });
		if (binaryMode === 'filesystem') {
			expect(meta.id).toMatch(/^filesystem(-v2)?:/);
			expect(meta.data).not.toBe(Buffer.from('elif tsrif').toString('base64'));
		} else {
			expect(meta.id).toBeUndefined();
			expect(meta.data).toBe(Buffer.from('elif tsrif').toString('base64'));
		}
		expect((await res.binary(0)).toString()).toBe('elif tsrif');
		expect((await res.binary(1, 'data')).toString()).toBe('dnoces');
		await expect(res.binary(0, 'missing')).rejects.toThrow(/no binary "missing"/);
	});

	test('a run the engine refuses (parameter issues) comes back as res.error, not a throw', async () => {
		const res = await h.runNode({ type: 'test.probe', parameters: { mode: 'needs', needed: '' } });
		expect(res.error).toBeDefined();
		expect(res.error.name).toBe('WorkflowHasIssuesError');
		expect(res.items).toEqual([]);
		expect(res.run).toBeUndefined();
	});

	test('the default input is one empty item', async () => {
		const res = await h.runNode({ type: 'n8n-nodes-base.manualTrigger' });
		expect(res.items).toEqual([expect.objectContaining({ json: {} })]);
	});
});

describe('webhook server plumbing', () => {
	test('unknown paths get 404, invalid JSON gets n8n’s 422 before the node runs', async () => {
		const server = await h.startWebhookServer({
			parameters: { events: ['*'] },
			credentials: offlineCredentials('x'),
		});
		try {
			expect(server.url).toMatch(/\/webhook\/harness-webhook-id\/esign$/);
			const notFound = await fetch(`${server.base}/webhook/other/esign`, { method: 'POST', body: '{}' });
			expect(notFound.status).toBe(404);
			const invalid = await fetch(server.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{"event":',
			});
			expect(invalid.status).toBe(422);
			const unsigned = await fetch(server.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{"event":"document.completed","data":{}}',
			});
			expect(unsigned.status).toBe(401);
			const calls = await server.waitForCalls(2);
			expect(calls.map((c) => c.statusCode)).toEqual([422, 401]);
		} finally {
			await server.close();
		}
	});
});
