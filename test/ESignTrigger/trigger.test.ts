/**
 * eSign Trigger: signature verification over the raw body, every rejection path, event selection,
 * options, and a real signed delivery from the sandbox received over HTTP — all through n8n-core's
 * WebhookContext (test/harness runWebhook / startWebhookServer); activation through its HookContext
 * (runWebhookLifecycle). The signature check alone is in test/unit/ESignTrigger/.
 */
import * as crypto from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import * as h from '../harness';
import { clearLog, control, credentialsFor, hostile, offlineCredentials, requestLog, sample, sentDocument, useSandbox } from '../support';
import { ESignTrigger } from '../../nodes/ESignTrigger/ESignTrigger.node';

const SECRET = ['whsec', 'trigger', 'test', crypto.randomBytes(6).toString('hex')].join('_');

/** The signature, computed here independently of the node's helper. */
const sign = (body, secret = SECRET) =>
	`sha256=${crypto.createHmac('sha256', secret).update(Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8')).digest('hex')}`;

const credentials = (extra = {}) => ({ ...offlineCredentials(SECRET), ...extra });

function deliver(
	rawBody: string | Buffer,
	{
		headers = {},
		signature,
		parameters,
		creds,
	}: { headers?: Record<string, string>; signature?: string | null; parameters?: IDataObject; creds?: IDataObject } = {},
) {
	const allHeaders = { 'content-type': 'application/json', ...headers };
	if (signature !== null) allHeaders['x-esign-signature'] = signature ?? sign(rawBody);
	return h.runWebhook({
		parameters: parameters ?? { events: ['*'] },
		credentials: creds ?? credentials(),
		request: { headers: allHeaders, rawBody },
	});
}

function expectRejected(result, statusCode) {
	expect(result.error).toBeUndefined();
	expect(result.statusCode).toBe(statusCode);
	expect(result.answered).toBe(true);
	expect(result.result).toEqual({ noWebhookResponse: true });
	expect(result.workflowData).toBeUndefined();
	expect(result.items).toHaveLength(0);
}

function expectAccepted(result) {
	expect(result.error).toBeUndefined();
	expect(result.statusCode).toBe(200);
	expect(result.workflowData).toHaveLength(1);
	expect(result.items).toHaveLength(1);
	return result.items[0];
}

/**
 * Bodies whose bytes JSON.stringify(JSON.parse(body)) would change: a receiver that verifies
 * over re-serialised JSON fails on every one of them.
 */
const VECTORS = {
	'unicode, raw and \\u-escaped':
		'{"event":"document.completed","data":{"document_id":"42","document_title":"Contrat sign\\u00e9 — 日本語 ✓ 😀 \\ud83d\\ude00"}}',
	'escaped slashes (PHP json_encode)':
		'{"event":"document.completed","data":{"document_id":"7","document_title":"Lease 2024\\/25","url":"https:\\/\\/sign.example.com\\/doc\\/7"}}',
	'extra whitespace and newlines':
		'{\n  "event" : "document.declined",\r\n\t"data": {\n    "document_id": "9",\n    "decline_reason": "Wrong address"\n  }\n}\n',
	'key order changed by parsing (integer-like keys move first)':
		'{"event":"document.completed","data":{"document_title":"Order","10":"ten","2":"two","document_id":"5"}}',
	'number formatting and a duplicate key':
		'{"event":"document.signed","data":{"document_id":"11","amount":1.50,"big":1e2,"signer_id":"3"},"event":"document.completed"}',
	'sandbox style (1-space indent, escaped slashes, timestamp)':
		'{\n "event": "document.completed",\n "data": {\n  "document_id": "12",\n  "document_title": "NDA \\/ Acme",\n  "status": "completed"\n },\n "timestamp": "2025-01-02 03:04:05"\n}',
};

describe('node description', () => {
	const { description } = new ESignTrigger();

	test('is a trigger with a stable, non-full webhook path and the eSign credential', () => {
		expect(description.name).toBe('eSignTrigger');
		expect(description.displayName).toBe('eSign Trigger');
		expect(description.inputs).toEqual([]);
		expect(description.group).toEqual(['trigger']);
		expect(description.credentials).toEqual([{ name: 'eSignApi', required: true }]);
		// onReceived with an empty responseData: n8n answers {"message":"Workflow was started"} once the run exists.
		expect(description.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'esign' },
		]);
		expect(description.webhooks?.[0].isFullPath).toBeUndefined();
		const events = description.properties.find((p) => p.name === 'events');
		expect(events?.options?.map((o) => (o as { value: string }).value)).toEqual(
			expect.arrayContaining(['*', 'document.completed', 'document.declined', 'document.sent', 'document.viewed', 'document.signed', 'document.expired']),
		);
		expect(description.properties.find((p) => p.type === 'notice')).toBeDefined();
		expect(description.triggerPanel).toBeTruthy();
	});
});

describe('signature over the raw bytes', () => {
	test.each(Object.entries(VECTORS))('accepts %s', async (_name, body) => {
		expect(JSON.stringify(JSON.parse(body))).not.toBe(body); // the vector is meaningful
		const result = await deliver(body);
		const item = expectAccepted(result);
		const parsed = JSON.parse(body);
		expect(item.json.event).toBe(parsed.event);
		expect(item.json.data).toEqual(parsed.data);
		expect(result.json).toEqual({ message: 'Workflow was started' });
	});

	test.each(Object.entries(VECTORS))('rejects %s signed over re-serialised JSON', async (_name, body) => {
		const reserialised = JSON.stringify(JSON.parse(body));
		const result = await deliver(body, { signature: sign(reserialised) });
		expectRejected(result, 401);
		expect(result.json.code).toBe('invalid_signature');
	});

	test('a body sent with a signature for other bytes is rejected', async () => {
		const body = VECTORS['escaped slashes (PHP json_encode)'];
		const result = await deliver(body.replace('"7"', '"8"'), { signature: sign(body) });
		expectRejected(result, 401);
	});
});

describe('rejections (401, nothing executed)', () => {
	const body = '{"event":"document.completed","data":{"document_id":"1","document_title":"Lease"}}';
	const good = sign(body);
	const hex = good.slice('sha256='.length);

	test.each([
		['missing header', null, /no X-ESIGN-Signature header/],
		['empty header', '', /no X-ESIGN-Signature header/],
		['wrong prefix (sha1=)', `sha1=${hex}`, /does not start with "sha256="/],
		['wrong prefix (upper-case SHA256=)', `SHA256=${hex}`, /does not start with "sha256="/],
		['bare hex without prefix', hex, /does not start with "sha256="/],
		['wrong length (one short)', `sha256=${hex.slice(0, -1)}`, /wrong length/],
		['wrong length (one extra)', `sha256=${hex}0`, /wrong length/],
		['wrong length (empty digest)', 'sha256=', /wrong length/],
		['non-hex characters', `sha256=${'z'.repeat(64)}`, /not "sha256=" followed by hex/],
		['one non-hex character', `sha256=${hex.slice(0, -1)}g`, /not "sha256=" followed by hex/],
		['wrong signature (other secret)', sign(body, 'another-secret'), /Invalid signature/],
		['wrong signature (one digit flipped)', `sha256=${hex.slice(0, -1)}${hex.endsWith('0') ? '1' : '0'}`, /Invalid signature/],
	])('%s', async (_name, signature, message) => {
		const result = await deliver(body, { signature });
		expectRejected(result, 401);
		expect(result.json.code).toBe('invalid_signature');
		expect(result.json.message).toMatch(message);
		expect(result.text).not.toContain(SECRET);
		expect(result.text).not.toContain(hex);
	});

	test('no secret configured: 401 saying the secret is missing (fail closed)', async () => {
		const result = await deliver(body, { creds: credentials({ webhookSecret: '' }) });
		expectRejected(result, 401);
		expect(result.json.code).toBe('missing_webhook_secret');
		expect(result.json.message).toMatch(/Webhook Signing Secret/);
		expect(result.json.message).toMatch(/empty/);
	});

	test('no secret field at all in the credential: same 401', async () => {
		const withoutSecret: IDataObject = credentials();
		delete withoutSecret.webhookSecret;
		const result = await deliver(body, { creds: withoutSecret });
		expectRejected(result, 401);
		expect(result.json.code).toBe('missing_webhook_secret');
	});

	test('a correct signature with leading/trailing blanks in the header is still accepted', async () => {
		expectAccepted(await deliver(body, { signature: ` ${good} ` }));
	});
});

/**
 * Issue 25: under a burst, n8n 2.x's credential read can fail (no expression isolate free in time). That says
 * nothing about the delivery: the site is asked to send it again (503 + Retry-After), never told it was forged.
 */
describe('the credential cannot be read (never "forged" for a failure of our own)', () => {
	const body = '{"event":"document.completed","data":{"document_id":"31","document_title":"Burst"}}';
	const readFails = (failCredentialReads: number, more: Record<string, unknown> = {}) =>
		h.runWebhook({
			parameters: { events: ['*'] },
			credentials: credentials(),
			request: { headers: { 'content-type': 'application/json', 'x-esign-signature': sign(body) }, rawBody: body },
			failCredentialReads,
			...more,
		});

	test('every read fails: 503 with Retry-After, an error in the log naming the cause, no execution; the delivery sent again later runs once', async () => {
		const workflowId = `wf-credential-${crypto.randomBytes(4).toString('hex')}`;
		const failed = await readFails(100, { workflowId });
		expectRejected(failed, 503);
		expect(failed.json.code).toBe('credential_unavailable');
		expect(failed.json.message).toMatch(/send it again/);
		expect(failed.headers['retry-after']).toBe('10');
		expect(failed.staticDataChanged).toBe(false); // nothing remembered: the retry must not be taken for a repeat
		expect(failed.logs.error).toHaveLength(1);
		expect(failed.logs.error[0]).toMatch(/could not read the eSign API credential \(Harness: the credential could not be read/);
		expect(failed.logs.error[0]).toMatch(/5 attempts/);
		expect(failed.text).not.toContain(SECRET);
		expect(failed.logs.error[0]).not.toContain(SECRET);

		const again = await readFails(0, { workflowId, staticData: failed.staticData });
		expectAccepted(again);
		const repeat = await readFails(0, { workflowId, staticData: again.staticData });
		expect(repeat.statusCode).toBe(200);
		expect(repeat.json.code).toBe('repeated_delivery');
		expect(repeat.items).toHaveLength(0);
	});

	test('a read that fails twice, then works, within the same call: accepted, no error logged', async () => {
		const result = await readFails(2);
		expectAccepted(result);
		expect(result.credentialsHelper.decryptCalls).toBe(3);
		expect(result.logs.error).toEqual([]);
	});

	test('no credential selected on the node: 503 naming it, without retries (waiting cannot fix it)', async () => {
		const result = await deliver(body, { creds: {} });
		expectRejected(result, 503);
		expect(result.json.code).toBe('credential_unavailable');
		expect(result.logs.error[0]).toMatch(/credentials/i);
		expect(result.logs.error[0]).not.toMatch(/attempts/);
	});

	test('a secret that is really empty is still 401 (fail closed), and so is a mismatch', async () => {
		const empty = await deliver(body, { creds: credentials({ webhookSecret: '   ' }) });
		expectRejected(empty, 401);
		expect(empty.json.code).toBe('missing_webhook_secret');
		const mismatch = await deliver(body, { signature: sign(body, 'another-secret') });
		expectRejected(mismatch, 401);
		expect(mismatch.json.code).toBe('invalid_signature');
		expect(mismatch.logs.error).toEqual([]);
	});
});

describe('payload checks (after a valid signature)', () => {
	test.each([
		['not JSON', 'event=document.completed', 'invalid_json'],
		['truncated JSON', '{"event":"document.completed","data":{', 'invalid_json'],
		['JSON with a byte-order mark', '\ufeff{"event":"document.completed","data":{}}', 'invalid_json'],
		['empty body', '', 'missing_body'],
		['a JSON array', '[{"event":"document.completed"}]', 'missing_event'],
		['a JSON string', '"document.completed"', 'missing_event'],
		['no event', '{"data":{"document_id":"1"}}', 'missing_event'],
		['empty event', '{"event":"","data":{}}', 'missing_event'],
		['event not a string', '{"event":7,"data":{}}', 'missing_event'],
	])('%s → 400, nothing executed', async (_name, body, code) => {
		const result = await deliver(body);
		expectRejected(result, 400);
		expect(result.json.code).toBe(code);
	});

	test('an unselected event → 200 from n8n, no execution', async () => {
		const body = '{"event":"document.viewed","data":{"document_id":"3"}}';
		const result = await deliver(body, { parameters: { events: ['document.completed', 'document.declined'] } });
		expect(result.error).toBeUndefined();
		expect(result.result).toEqual({});
		expect(result.statusCode).toBe(200);
		expect(result.json).toEqual({ message: 'Webhook call received' });
		expect(result.workflowData).toBeUndefined();
	});

	test('with no event selected nothing starts', async () => {
		const result = await deliver('{"event":"document.completed","data":{}}', { parameters: { events: [] } });
		expect(result.statusCode).toBe(200);
		expect(result.workflowData).toBeUndefined();
	});

	test('a bad signature is rejected even for an unselected event (401, not 200)', async () => {
		const body = '{"event":"document.viewed","data":{}}';
		const result = await deliver(body, { signature: sign(body, 'wrong'), parameters: { events: ['document.completed'] } });
		expectRejected(result, 401);
	});
});

describe('accepted events', () => {
	const body =
		'{"event":"document.completed","data":{"document_id":"21","document_title":"Rental Agreement","status":"completed"},"timestamp":"2025-03-04 05:06:07"}';

	test('a selected event → one item with event, data, receipt time and the rest of the payload', async () => {
		const before = Date.now();
		const result = await deliver(body, { parameters: { events: ['document.completed'] } });
		const item = expectAccepted(result);
		expect(item.json).toEqual({
			event: 'document.completed',
			data: { document_id: '21', document_title: 'Rental Agreement', status: 'completed' },
			receivedAt: expect.any(String),
			timestamp: '2025-03-04 05:06:07',
		});
		const received = Date.parse(item.json.receivedAt);
		expect(received).toBeGreaterThanOrEqual(before - 1000);
		expect(received).toBeLessThanOrEqual(Date.now() + 1000);
		expect(item.binary).toBeUndefined();
		expect(item.json.headers).toBeUndefined();
	});

	test('Any Event accepts an event name the node does not list', async () => {
		const custom = '{"event":"document.archived_by_admin","data":{"document_id":"2"}}';
		const item = expectAccepted(await deliver(custom, { parameters: { events: ['*'] } }));
		expect(item.json.event).toBe('document.archived_by_admin');
	});

	test('declined events carry the reason', async () => {
		const declined = '{"event":"document.declined","data":{"document_id":"4","decline_reason":"Wrong rent"}}';
		const item = expectAccepted(await deliver(declined, { parameters: { events: ['document.declined'] } }));
		expect(item.json.data.decline_reason).toBe('Wrong rent');
	});

	test('Include Headers adds the request headers', async () => {
		const result = await deliver(body, {
			headers: { 'X-ESIGN-Event': 'document.completed', 'User-Agent': 'eSign/1.0' },
			parameters: { events: ['*'], options: { includeHeaders: true } },
		});
		const item = expectAccepted(result);
		expect(item.json.headers).toEqual(
			expect.objectContaining({
				'x-esign-event': 'document.completed',
				'user-agent': 'eSign/1.0',
				'content-type': 'application/json',
				'x-esign-signature': sign(body),
			}),
		);
	});

	test('Download Document on an event without document_id: no download, no error', async () => {
		const noDoc = '{"event":"document.completed","data":{"document_title":"x"}}';
		const item = expectAccepted(
			await deliver(noDoc, { parameters: { events: ['*'], options: { downloadDocument: true } } }),
		);
		expect(item.binary).toBeUndefined();
		expect(item.json.downloadError).toBeUndefined();
	});

	test('Download Document failure (site unreachable) still emits the event, with the error', async () => {
		const result = await deliver(body, { parameters: { events: ['document.completed'], options: { downloadDocument: true } } });
		const item = expectAccepted(result);
		expect(result.json).toEqual({ message: 'Workflow was started' });
		expect(item.json.event).toBe('document.completed');
		expect(item.json.data.document_id).toBe('21');
		expect(item.binary).toBeUndefined();
		expect(item.json.downloadError).toMatch(/GET \/documents\/21\/file/);
	});

	test('the accepted item runs through WorkflowExecute as the trigger output', async () => {
		const result = await h.runWebhook({
			parameters: { events: ['*'] },
			credentials: credentials(),
			request: { headers: { 'x-esign-signature': sign(body) }, rawBody: body },
			execute: true,
		});
		expect(result.run.status).toBe('success');
		const out = result.runData['eSign Trigger'][0].data.main[0];
		expect(out).toHaveLength(1);
		expect(out[0].json.event).toBe('document.completed');
	});
});

describe('delivery from the sandbox site', () => {
	const sandbox = useSandbox();

	/** Upload → signer → signature field → send, as a workflow would; returns the id and the original bytes. */
	async function createAndSendDocument(title: string) {
		const document = await sentDocument(sandbox, { title, signers: [{ name: 'Sam Signer', email: 'sam@example.com' }] });
		return { documentId: String(document.id), original: await sample(sandbox, 'contract.pdf') };
	}

	describe('activation (the site has no webhook API: the user pastes the URL into it)', () => {
		const notice = () => String(new ESignTrigger().description.properties.find((p) => p.type === 'notice')?.displayName);

		test.each([
			['publishing the workflow', 'trigger', 'activate', '/webhook/'],
			['n8n starting with the workflow active', 'trigger', 'init', '/webhook/'],
			['Listen for test event', 'manual', 'manual', '/webhook-test/'],
		])('%s and its deactivation send nothing to the site and cannot fail on it', async (_name, mode, activation, urlPrefix) => {
			await clearLog(sandbox);
			const lifecycle = await h.runWebhookLifecycle({ mode, activation, parameters: { events: ['*'] }, credentials: credentialsFor(sandbox) });
			expect(lifecycle.error).toBeUndefined();
			// The node's own webhookMethods ran, through n8n-core's HookContext.
			expect(lifecycle.calls.map((c) => c.method)).toEqual(expect.arrayContaining(['checkExists', 'delete']));
			expect(await requestLog(sandbox)).toEqual([]);
			// The URL the editor shows is the stable one the notice tells the user to paste into the site.
			expect(lifecycle.webhookUrl).toMatch(new RegExp(`${urlPrefix}harness-webhook-id/esign$`));
			expect(notice()).toMatch(urlPrefix === '/webhook/' ? /Production URL/ : /Test URL/);
		});

		test('activation works while the site is down or refuses the key (nothing depends on it)', async () => {
			await hostile(sandbox, { path: '/wp-json/', count: 50, status: 500, mode: 'before' });
			const broken = { ...credentialsFor(sandbox), apiSecret: 'wrong' };
			const lifecycle = await h.runWebhookLifecycle({ parameters: { events: ['*'] }, credentials: broken });
			expect(lifecycle.error).toBeUndefined();
			const offline = await h.runWebhookLifecycle({ parameters: { events: ['*'] }, credentials: credentials() });
			expect(offline.error).toBeUndefined();
		});

		test('the notice says where to paste the URL and which secret to copy back', () => {
			expect(notice()).toMatch(/webhook settings/i);
			expect(notice()).toMatch(/Production URL/);
			expect(notice()).toMatch(/Webhook Signing Secret/);
		});
	});

	const isCompletedFor = (documentId) => (call) =>
		call.items?.length === 1 &&
		call.items[0].json.event === 'document.completed' &&
		String(call.items[0].json.data.document_id) === documentId;

	test('a signer signs → the site delivers a signed document.completed → one item with the signed PDF attached', async () => {
		const server = await h.startWebhookServer({
			parameters: { events: ['document.completed'], options: { downloadDocument: true, binaryPropertyName: 'signed' } },
			credentials: credentialsFor(sandbox),
		});
		try {
			await control(sandbox, 'POST', '/__sandbox/webhooks', { url: server.url, replace: true });
			const { documentId, original } = await createAndSendDocument('Trigger delivery test');
			const [signerRecord] = await control(sandbox, 'GET', `/__sandbox/signers?document_id=${documentId}`);
			await control(sandbox, 'POST', `/__sandbox/sign/${signerRecord.token}/sign`, {});
			// Every delivery the signing caused has been answered, and handled to its end (the download included):
			// nothing more can arrive, so a missing call fails here at once instead of waiting.
			await sandbox.idle();
			await server.idle();

			const call = server.calls.find(isCompletedFor(documentId));
			if (!call) throw new Error(`no document.completed call for ${documentId}; calls: ${JSON.stringify(server.calls.map((c) => [c.statusCode, c.items?.[0]?.json?.event]))}`);
			expect(call.statusCode).toBe(200);
			const item = call.items[0];
			expect(String(item.json.data.document_id)).toBe(documentId);
			expect(item.json.downloadError).toBeUndefined();
			expect(item.binary.signed.mimeType).toBe('application/pdf');
			expect(item.binary.signed.fileName).toMatch(/-signed\.pdf$/);
			const signed = await call.binary(0, 'signed');
			expect(signed.subarray(0, 4).toString('latin1')).toBe('%PDF');
			expect(signed.equals(original)).toBe(false);

			// The other events of the flow (sent, viewed, signed) were acknowledged without starting anything.
			const others = server.calls.filter((c) => !isCompletedFor(documentId)(c));
			expect(others.length).toBeGreaterThan(0);
			for (const other of others) {
				expect(other.statusCode).toBe(200);
				expect(other.workflowData).toBeUndefined();
			}

			// And the site saw a 200 for its completed delivery.
			const { deliveries } = await control(sandbox, 'GET', '/__sandbox/webhooks');
			const completed = deliveries.filter((d) => d.event === 'document.completed' && d.url === server.url);
			expect(completed).toHaveLength(1);
			expect(completed[0].status).toBe(200);
			expect(completed[0].signature).toBe(sign(completed[0].body, sandbox.webhookSecret));
		} finally {
			await server.close();
		}
	});

	test('Download Document does not hold the answer: n8n answers first, the file is fetched in the run', async () => {
		const { documentId } = await createAndSendDocument('Answer before download');
		const body = JSON.stringify({ event: 'document.completed', data: { document_id: documentId } });
		await clearLog(sandbox);
		const fileRequests = async () => (await requestLog(sandbox)).filter((r) => String(r.path).endsWith(`/documents/${documentId}/file`)).length;
		const queued = await h.runWebhook({
			parameters: { events: ['*'], options: { downloadDocument: true } },
			credentials: credentialsFor(sandbox),
			request: { headers: { 'x-esign-signature': sign(body, sandbox.webhookSecret) }, rawBody: body },
			execute: false, // answered, the run created and not yet executed: what the site has waited for
		});
		expect(queued.statusCode).toBe(200);
		expect(queued.webhookItems[0].binary).toBeUndefined();
		expect(await fileRequests()).toBe(0); // nothing fetched before the answer
		const result = await h.runWebhook({
			parameters: { events: ['*'], options: { downloadDocument: true }, ignoreRepeatedDeliveries: false },
			credentials: credentialsFor(sandbox),
			request: { headers: { 'x-esign-signature': sign(body, sandbox.webhookSecret) }, rawBody: body },
		});
		expect(await fileRequests()).toBe(1); // fetched once, by the run
		expect(result.items[0].binary.data.mimeType).toBe('application/pdf'); // the run's output carries the file
	});

	test('the real sandbox delivery is rejected with 401 when the credential holds another secret', async () => {
		const server = await h.startWebhookServer({
			parameters: { events: ['*'] },
			credentials: { ...credentialsFor(sandbox), webhookSecret: 'not-the-site-secret' },
		});
		try {
			await control(sandbox, 'POST', '/__sandbox/webhooks', { url: server.url, replace: true });
			await control(sandbox, 'POST', '/__sandbox/webhooks/test', {
				event: 'document.completed',
				data: { document_id: '999', document_title: 'Spoof' },
			});
			// The test delivery resolved with its answer; the call is complete once the server is idle.
			await server.idle();
			expect(server.calls).toHaveLength(1);
			const [call] = server.calls;
			expect(call.statusCode).toBe(401);
			expect(call.workflowData).toBeUndefined();
		} finally {
			await server.close();
		}
	});

	test('Download Document failing at the site (unknown document, 500s) still emits the event with the error', async () => {
		const parameters = { events: ['*'], options: { downloadDocument: true } };
		const body = '{"event":"document.completed","data":{"document_id":"987654","document_title":"Gone"}}';
		const missing = await h.runWebhook({
			parameters,
			credentials: credentialsFor(sandbox),
			request: { headers: { 'x-esign-signature': sign(body, sandbox.webhookSecret) }, rawBody: body },
		});
		const item = expectAccepted(missing);
		expect(item.json.event).toBe('document.completed');
		expect(item.json.downloadError).toMatch(/not_found/);
		expect(item.binary).toBeUndefined();

		const { documentId } = await createAndSendDocument('Download fault test');
		const body2 = JSON.stringify({ event: 'document.completed', data: { document_id: documentId } });
		await control(sandbox, 'POST', '/__sandbox/faults', { method: 'GET', path: `documents/${documentId}/file`, count: 10, status: 500, mode: 'before' });
		try {
			const failing = await h.runWebhook({
				parameters,
				credentials: credentialsFor(sandbox),
				request: { headers: { 'x-esign-signature': sign(body2, sandbox.webhookSecret) }, rawBody: body2 },
			});
			const item2 = expectAccepted(failing);
			expect(String(item2.json.data.document_id)).toBe(documentId);
			expect(item2.json.downloadError).toBeTruthy();
			expect(item2.binary).toBeUndefined();
		} finally {
			await control(sandbox, 'DELETE', '/__sandbox/faults');
		}
	});
});
