// Sites that misbehave the way real WordPress hosts do: redirects (the key and secret must never reach
// another origin), HTML pages, broken JSON. Everything runs through n8n-core's engine against the sandbox,
// with a second server standing in for the redirect target.
import * as crypto from 'crypto';
import {
	control,
	credentialsFor,
	esign,
	harness,
	hostile,
	makeDraft,
	requestLog,
	rl,
	sample,
	sentDocument,
	startRecorder,
	useSandbox,
} from '../support';

/** A delivery signed with the site's webhook secret, as the site sends it. */
const signedRequest = (site: { webhookSecret: string }, rawBody: string) => ({
	headers: { 'content-type': 'application/json', 'x-esign-signature': `sha256=${crypto.createHmac('sha256', site.webhookSecret).update(rawBody).digest('hex')}` },
	rawBody,
});

const sb = useSandbox();

let other: Awaited<ReturnType<typeof startRecorder>>;
beforeAll(async () => {
	other = await startRecorder();
});
afterAll(async () => {
	await other.close();
});
beforeEach(() => {
	other.requests.length = 0;
});

const API = '/wp-json/esign/v1';

/** Every credential value the other origin must never see, in any header, URL or body. */
function expectNothingLeaked(who: 'admin' = 'admin') {
	expect(other.requests).toEqual([]);
	const seen = JSON.stringify(other.requests);
	expect(seen).not.toContain(sb.keys[who].key);
	expect(seen).not.toContain(sb.keys[who].secret);
}

async function counters(): Promise<Record<string, number>> {
	return await control<Record<string, number>>(sb, 'GET', '/__sandbox/counters');
}

describe('redirects are never followed', () => {
	test.each([301, 302, 303, 307, 308])(
		'GET answered %i → fails naming the Location and the Site URL to use; the other origin gets nothing',
		async (status) => {
			const doc = await makeDraft(sb);
			await hostile(sb, {
				path: `${API}/documents/${doc.id}`,
				answer: 'redirect',
				status,
				location: `${other.url}${API}/documents/${doc.id}`,
			});
			const res = await esign(sb, { resource: 'document', operation: 'get', documentId: rl(doc.id) });
			expect(res.items).toEqual([]);
			expect(res.error.message).toBe(`The site redirects ${sb.url}${API}/documents/${doc.id} to ${other.url}${API}/documents/${doc.id}`);
			expect(res.error.description?.startsWith(`Use ${other.url} as the Site URL in the credential. `)).toBe(true);
			expect(res.error.description).toMatch(/does not follow redirects/);
			expect(res.error.httpCode).toBe(String(status));
			expectNothingLeaked();
		},
	);

	test('a write answered 302 says nothing was sent there, and is not turned into a GET elsewhere', async () => {
		const doc = await makeDraft(sb, { signers: [{ name: 'Ann', email: 'ann@example.org' }] });
		await hostile(sb, { method: 'POST', path: `${API}/documents/${doc.id}/send`, answer: 'redirect', status: 302, location: `${other.url}/elsewhere` });
		const res = await esign(sb, { resource: 'document', operation: 'send', documentId: rl(doc.id) });
		expect(res.error.message).toMatch(new RegExp(`redirects .* to ${other.url}/elsewhere`));
		expect(res.error.description).toMatch(new RegExp(`Nothing was sent to ${other.url}/elsewhere`));
		expectNothingLeaked();
		expect((await counters()).sendExecuted).toBe(0);
	});

	test('the credential test reports a redirect and sends nothing to the target', async () => {
		await hostile(sb, { path: `${API}/stats`, answer: 'redirect', status: 301, location: `${other.url}${API}/stats` });
		const result = await harness.testCredential(credentialsFor(sb));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/redirects this address elsewhere \(HTTP 301\)/);
		expectNothingLeaked();
	});

	test('the document picker does not follow a redirect either', async () => {
		await hostile(sb, { path: `${API}/documents`, answer: 'redirect', status: 307, location: `${other.url}${API}/documents` });
		await expect(
			harness.runMethod({ kind: 'listSearch', method: 'searchDocuments', credentials: credentialsFor(sb) }),
		).rejects.toThrow(/redirects/);
		expectNothingLeaked();
	});

	test('the trigger’s Download Document does not follow it: the event is emitted with downloadError', async () => {
		const doc = await makeDraft(sb);
		await hostile(sb, { path: `${API}/documents/${doc.id}/file`, answer: 'redirect', status: 302, location: `${other.url}/file` });
		const result = await harness.runWebhook({
			parameters: { events: ['*'], options: { downloadDocument: true } },
			credentials: credentialsFor(sb),
			request: signedRequest(sb, `{"event":"document.completed","data":{"document_id":${doc.id}}}`),
		});
		expect(result.items).toHaveLength(1);
		expect(result.items[0].binary).toBeUndefined();
		expect(result.items[0].json.downloadError).toMatch(/redirects/);
		expectNothingLeaked();
	});
});

describe('answers that are not the API’s JSON never become output', () => {
	const broken = [
		['an HTML page', 'html-200', /text\/html/],
		['truncated JSON', 'truncated-json', /Start of the answer: «\{"id":"1","title":"Contr»/],
		['an empty body', 'empty', /The answer was empty/],
		['null', 'null', /expected a JSON object, got null/],
		['a bare string', 'string', /expected a JSON object, got a string/],
	] as const;

	test.each(broken)('Document Get answered with %s → a NodeApiError, no item', async (_name, answer, detail) => {
		const doc = await makeDraft(sb);
		await hostile(sb, { path: `${API}/documents/${doc.id}`, answer });
		const res = await esign(sb, { resource: 'document', operation: 'get', documentId: rl(doc.id) });
		expect(res.items).toEqual([]);
		expect(res.error.httpCode).toBe('200');
		expect(res.error.message).toMatch(/^The site answered GET \/documents\/\d+ with .*\(HTTP 200, /);
		expect(`${res.error.message} ${res.error.description}`).toMatch(detail);
	});

	test.each(broken)('Stats, Signer Get Many and Get Many answered with %s fail too', async (_name, answer) => {
		const doc = await makeDraft(sb);
		const runs = [
			[{ resource: 'stats', operation: 'get' }, `${API}/stats`],
			[{ resource: 'signer', operation: 'getMany', documentId: rl(doc.id) }, `${API}/documents/${doc.id}/signers`],
			[{ resource: 'document', operation: 'getMany', returnAll: true }, `/${API.replace(/\//g, '\\/')}\\/documents$/`],
		] as const;
		for (const [parameters, path] of runs) {
			await hostile(sb, { method: 'GET', path, answer, count: 1 });
			const res = await esign(sb, parameters);
			expect(res.items).toEqual([]);
			expect(res.error).toBeDefined();
			expect(res.error.message).toMatch(/^The site answered GET /);
		}
	});

	test('with Continue On Fail every output item is an object with the error, none is a string', async () => {
		const doc = await makeDraft(sb);
		await hostile(sb, { path: `${API}/documents/${doc.id}`, answer: 'string', count: 2 });
		const res = await esign(
			sb,
			{ resource: 'document', operation: 'get', documentId: rl(doc.id) },
			{ continueOnFail: true, input: [{ json: {} }, { json: {} }, { json: {} }] },
		);
		expect(res.items).toHaveLength(3);
		for (const item of res.items) expect(typeof item.json).toBe('object');
		expect(res.items[0].json.error).toMatch(/answered GET/);
		expect(res.items[1].json.error).toMatch(/answered GET/);
		expect(res.items[2].json.id).toBe(String(doc.id));
	});

	test('Send answered with HTML after the site ran it: not repeated, says the site may have sent it', async () => {
		const doc = await makeDraft(sb, { signers: [{ name: 'Ann', email: 'ann@example.org' }] });
		await hostile(sb, { method: 'POST', path: `${API}/documents/${doc.id}/send`, answer: 'html-200', mode: 'after' });
		const res = await esign(sb, { resource: 'document', operation: 'send', documentId: rl(doc.id) });
		expect(res.items).toEqual([]);
		expect(res.error.description).toMatch(/may still have carried out the request, so it was not repeated/);
		expect((await counters()).sendExecuted).toBe(1);
		const outbox = await control<unknown[]>(sb, 'GET', '/__sandbox/outbox');
		expect(outbox).toHaveLength(1);
	});

	test('Remind answered with a bare string does not "succeed" as {"0":"<",…}', async () => {
		const doc = await sentDocument(sb);
		await hostile(sb, { method: 'POST', path: `${API}/documents/${doc.id}/remind`, answer: 'string', mode: 'after' });
		const res = await esign(sb, { resource: 'document', operation: 'remind', documentId: rl(doc.id), remindTo: 'all' });
		expect(res.items).toEqual([]);
		expect(res.error.message).toMatch(/expected a JSON object, got a string/);
	});

	test('a body that echoes the credential shows it blanked out', async () => {
		await hostile(sb, { path: `${API}/stats`, raw: { status: 200, headers: { 'Content-Type': 'text/plain' }, body: `debug: key=${sb.keys.admin.key} secret=${sb.keys.admin.secret}` } });
		const res = await esign(sb, { resource: 'stats', operation: 'get' });
		const shown = `${res.error.message} ${res.error.description}`;
		expect(shown).toMatch(/debug: key=\*\*\* secret=\*\*\*/);
		expect(shown).not.toContain(sb.keys.admin.secret);
	});
});

describe('WordPress’s own pages say what they mean', () => {
	test('critical error (PHP fatal) on a read: retried, then explained', async () => {
		await hostile(sb, { path: `${API}/stats`, answer: 'wp-critical-error', count: 10 });
		const res = await esign(sb, { resource: 'stats', operation: 'get' });
		expect(res.error.httpCode).toBe('500');
		expect(res.error.description).toMatch(/PHP stopped on a fatal error.*PHP error log/);
		const stats = (await requestLog(sb)).filter((r) => r.path === `${API}/stats`);
		expect(stats).toHaveLength(4);
	});

	test('maintenance page on a read is waited out like a 503', async () => {
		await hostile(sb, { path: `${API}/stats`, answer: 'wp-maintenance', count: 1 });
		const res = await esign(sb, { resource: 'stats', operation: 'get' });
		expect(res.error).toBeUndefined();
		expect(typeof res.items[0].json.total).toBe('number');
	});

	test('maintenance page on a write is not repeated', async () => {
		const doc = await makeDraft(sb, { signers: [{ name: 'Ann', email: 'ann@example.org' }] });
		await hostile(sb, { method: 'POST', path: `${API}/documents/${doc.id}/send`, answer: 'wp-maintenance', count: 5 });
		const res = await esign(sb, { resource: 'document', operation: 'send', documentId: rl(doc.id) });
		expect(res.error.description).toMatch(/maintenance mode/);
		const sends = (await requestLog(sb)).filter((r) => r.path.endsWith('/send'));
		expect(sends).toHaveLength(1);
	});

	test('an HTML 403 from Wordfence names Wordfence and where to allow n8n', async () => {
		await hostile(sb, { path: `${API}/stats`, answer: 'firewall-403' });
		const res = await esign(sb, { resource: 'stats', operation: 'get' });
		expect(res.error.httpCode).toBe('403');
		expect(res.error.message).toMatch(/^Wordfence blocked the request/);
		expect(res.error.description).toMatch(/Allowlisted IP addresses/);
	});

	test('an HTML 404 means no eSign API at this address', async () => {
		await hostile(sb, { path: `${API}/stats`, answer: 'theme-404' });
		const res = await esign(sb, { resource: 'stats', operation: 'get' });
		expect(res.error.httpCode).toBe('404');
		expect(res.error.description).toMatch(/no eSign API at this address/);
	});

	test('a 400 whose body has no message still gets a useful description', async () => {
		await hostile(sb, { path: `${API}/stats`, raw: { status: 400, headers: { 'Content-Type': 'application/json' }, body: '{"code":"bad_request"}' } });
		const res = await esign(sb, { resource: 'stats', operation: 'get' });
		expect(res.error.httpCode).toBe('400');
		expect(res.error.description).toMatch(/refused the request .* as invalid \(HTTP 400\) without saying why \(code bad_request\)/);
	});
});

describe('connection failures on writes', () => {
	test('a dropped connection never invites an immediate retry', async () => {
		const doc = await makeDraft(sb, { signers: [{ name: 'Ann', email: 'ann@example.org' }] });
		await control(sb, 'POST', '/__sandbox/faults', { method: 'POST', path: `${API}/documents/${doc.id}/send`, mode: 'drop-after' });
		const res = await esign(sb, { resource: 'document', operation: 'send', documentId: rl(doc.id) });
		const shown = `${res.error.message} ${res.error.description}`;
		expect(shown).not.toMatch(/retry the request immediately/i);
		expect(res.error.description).toMatch(/not repeated automatically/);
		expect((await counters()).sendExecuted).toBe(1);
	});

	test('a timeout says it timed out after N seconds', async () => {
		const doc = await makeDraft(sb, { signers: [{ name: 'Ann', email: 'ann@example.org' }] });
		await control(sb, 'POST', '/__sandbox/faults', { method: 'POST', path: `${API}/documents/${doc.id}/send`, mode: 'delay', delayMs: 2500 });
		const res = await esign(sb, {
			resource: 'document',
			operation: 'send',
			documentId: rl(doc.id),
			requestOptions: { timeout: 1 },
		});
		expect(res.error.message).toBe(`POST /documents/${doc.id}/send failed: ${sb.url} did not answer within 1 second`);
		expect(res.error.description).not.toMatch(/retry the request immediately/i);
	});

	test('Create and Send refuses an upload id that is not a positive whole number, sending nothing more', async () => {
		await hostile(sb, {
			method: 'POST',
			path: `${API}/documents/upload`,
			raw: { status: 201, headers: { 'Content-Type': 'application/json' }, body: '{"id":"../stats","status":"draft"}' },
		});
		const res = await esign(
			sb,
			{
				resource: 'document',
				operation: 'createAndSend',
				signers: { signer: [{ name: 'Ann', email: 'ann@example.org', role: 'signer', signingOrder: 0 }] },
				fieldsInput: 'ui',
				fieldsUi: { field: [{ signer: '1', field_type: 'signature', page_number: 1, position_x: 50, position_y: 50, width: 0, height: 0 }] },
			},
			{ input: [{ json: {}, binary: { data: { data: await sample(sb, 'one-page.pdf'), fileName: 'a.pdf', mimeType: 'application/pdf' } } }] },
		);
		expect(res.error.message).toMatch(/document id "\.\.\/stats", which is not a positive whole number; nothing more was sent/);
		const lines = (await requestLog(sb)).map((r) => `${r.method} ${r.path}`);
		expect(lines).toEqual([`POST ${API}/documents/upload`]);
	});
});

describe('nested lists are checked too', () => {
	test('an audit trail whose events are not objects fails instead of spreading strings into items', async () => {
		const doc = await makeDraft(sb);
		await hostile(sb, {
			path: `${API}/documents/${doc.id}/audit`,
			raw: { status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"document":{"id":"1"},"events":["<html>"]}' },
		});
		const res = await esign(sb, { resource: 'document', operation: 'getAuditTrail', documentId: rl(doc.id), output: 'events' });
		expect(res.items).toEqual([]);
		expect(res.error.message).toMatch(/"events": expected a JSON array of objects, but entry 0 is a string/);
	});
});
