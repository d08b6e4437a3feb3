// What real hosting puts between n8n and the site, played by the sandbox's fronts over real HTTP(S), with the
// nodes run through the real engine: Basic auth, caches, bot challenges, block pages, stripped headers,
// certificates and unreachable addresses. Each error must name the front and what to change.
import type { Json, Sandbox } from '../support';
import { api, control, createSandbox, credentialsFor, esign, harness, makeDraft, requestLog, rl, trustCertificate, useSandbox } from '../support';

const sb = useSandbox();
const STAGING = { user: 'staging', password: 'pw-Hf83-staging' };
const withBasicAuth = (extra: Json = {}) => ({ ...credentialsFor(sb), basicAuth: true, basicAuthUser: STAGING.user, basicAuthPassword: STAGING.password, ...extra });
const fronts = (body: Json) => control(sb, 'POST', '/__sandbox/fronts', body);

afterEach(async () => {
	await control(sb, 'DELETE', '/__sandbox/fronts');
});

describe('HTTP Basic auth in front of the site', () => {
	let doc: Json;
	beforeEach(async () => {
		doc = await makeDraft(sb, { title: 'Behind a password' }); // arranged before the front goes up
		await fronts({ basicAuth: STAGING });
	});

	test('without it, the error names the password prompt and the credential fields to fill in', async () => {
		const res = await esign(sb, { resource: 'stats', operation: 'get' });
		expect(res.error.httpCode).toBe('401');
		expect(res.error.message).toBe('The site asks for a username and password before WordPress (HTTP Basic auth) (HTTP 401 to GET /stats)');
		expect(res.error.description).toMatch(/turn on Password-Protected Site \(HTTP Basic Auth\) and fill in/);
		expect(res.error.context.apiCode).toBe('basic_auth_required');
	});

	test('with it, every request carries Basic auth and the X-ESIGN-* key: actions, pickers and the credential test', async () => {
		const before = (await requestLog(sb)).length;
		const get = await harness.runNode({ type: 'n8n-nodes-esign.eSign', parameters: { resource: 'document', operation: 'get', documentId: rl(doc.id) }, credentials: withBasicAuth() });
		expect(get.error).toBeUndefined();
		expect(get.items[0].json.title).toBe('Behind a password');
		const picker = await harness.runMethod({ kind: 'listSearch', method: 'searchDocuments', credentials: withBasicAuth(), parameters: { resource: 'document', operation: 'get' } });
		expect(JSON.stringify(picker)).toContain('Behind a password');
		expect((await harness.testCredential(withBasicAuth())).status).toBe('OK');
		const log = (await requestLog(sb)).slice(before);
		expect(log.length).toBeGreaterThanOrEqual(3);
		for (const entry of log) {
			expect(entry.front).toBeUndefined(); // none stopped at the front
			expect(entry.keyName).toBe('admin');
		}
	});

	test('a wrong password says the prompt refused it, and the password never shows', async () => {
		const res = await esign(sb, { resource: 'stats', operation: 'get' }, { credentials: withBasicAuth({ basicAuthPassword: 'wrong-pass-Z9' }) } as Json);
		const shown = JSON.stringify(res.error);
		expect(res.error.message).toMatch(/^The site's password prompt \(HTTP Basic auth\) refused the Basic Auth User and Password/);
		expect(shown).not.toContain('wrong-pass-Z9');
		expect(shown).not.toContain(Buffer.from(`${STAGING.user}:wrong-pass-Z9`).toString('base64'));
	});

	test('the credential test speaks of the sign-in box on the front\'s 401', async () => {
		const result = await harness.testCredential(credentialsFor(sb));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/sign-in box .* Password-Protected Site/);
	});

	test('WordPress reading the same Basic credentials as an application-password login is named', async () => {
		await fronts({ basicAuth: { ...STAGING, applicationPasswords: true } });
		const res = await esign(sb, { resource: 'stats', operation: 'get' }, { credentials: withBasicAuth() } as Json);
		expect(res.error.httpCode).toBe('401');
		expect(res.error.description).toMatch(/application password/);
		expect(res.error.description).toMatch(/HTTP_AUTHORIZATION/);
	});
});

describe('a cache that keeps GET answers by URL and ignores Cache-Control', () => {
	test('Document → Get sees the change made after the first read (it would not without the unique _)', async () => {
		await fronts({ cache: { headers: [] } }); // silent: nothing in the answer says it is cached
		const doc = await makeDraft(sb, { title: 'Cached draft' });
		const first = await esign(sb, { resource: 'document', operation: 'get', documentId: rl(doc.id) });
		expect(first.items[0].json.title).toBe('Cached draft');
		expect((await api(sb, 'PUT', `/documents/${doc.id}`, { title: 'Renamed after the read' })).status).toBe(200);
		const second = await esign(sb, { resource: 'document', operation: 'get', documentId: rl(doc.id) });
		expect(second.items[0].json.title).toBe('Renamed after the read');
		const gets = (await requestLog(sb)).filter((r: Json) => r.method === 'GET' && r.path.endsWith(`/documents/${doc.id}`));
		expect(new Set(gets.map((r: Json) => r.query._)).size).toBe(gets.length);
	});

	test('the Status Trigger reports a signature although /stats is cached', async () => {
		await fronts({ cache: { headers: [] } });
		const [id] = (await control<{ ids: string[] }>(sb, 'POST', '/__sandbox/seed/documents', { status: 'sent', count: 1 })).ids;
		let staticData: unknown;
		const poll = async () => {
			const run = await harness.runPoll({ parameters: { events: ['document.completed'] }, credentials: credentialsFor(sb), staticData });
			if (!run.error) staticData = run.staticData;
			return run;
		};
		expect((await poll()).items).toHaveLength(0);
		const [signer] = await control<Json[]>(sb, 'GET', `/__sandbox/signers?document_id=${id}`);
		await control(sb, 'POST', `/__sandbox/sign/${signer.token}/sign`);
		const run = await poll();
		expect(run.error).toBeUndefined();
		expect(run.items.map((item: Json) => [item.json.event, item.json.document.id])).toEqual([['document.completed', id]]);
	});

	test('an answer still marked as cached (a cache that ignores the query string) gives a warning', async () => {
		await fronts({ cache: { ignoreQuery: ['_'], headers: ['x-cache'] } });
		const doc = await makeDraft(sb);
		await esign(sb, { resource: 'document', operation: 'get', documentId: rl(doc.id) });
		const res = await esign(sb, { resource: 'document', operation: 'get', documentId: rl(doc.id) });
		const hints = Object.values(res.runData).flatMap((runs: Json) => runs.flatMap((task: Json) => task.hints ?? []));
		expect(hints).toEqual([expect.objectContaining({ type: 'warning', message: expect.stringMatching(/came from a cache \(x-cache: HIT\).*Exclude \/wp-json\/esign\//) })]);
	});
});

describe('bot challenges, block pages and stripped headers', () => {
	test.each([403, 503])('a Cloudflare challenge (%i) is named, with the WAF skip rule', async (status) => {
		await fronts({ challenge: { status } });
		const res = await esign(sb, { resource: 'stats', operation: 'get' });
		expect(res.error.message).toMatch(/^A bot check \(Cloudflare challenge\) answered instead of the site/);
		expect(res.error.description).toMatch(/skips bot protection for URI paths starting with \/wp-json\/esign\//);
		const test = await harness.testCredential(credentialsFor(sb));
		expect(test.message).toMatch(/a bot check \(e\.g\. Cloudflare/);
		expect(res.error.description).not.toMatch(/retried|tried \d/); // a challenge does not go away by retrying
		expect(test.message).not.toMatch(/check the key permissions/i);
	});

	test.each([
		['wordfence', /^Wordfence blocked the request/],
		['modsecurity', /^The server's firewall \(mod_security\) refused GET \/stats \(HTTP 406\): not WordPress, and not the API key$/],
		['sucuri', /^The Sucuri Website Firewall blocked the request/],
		['solid', /^Solid Security \(iThemes Security\) has locked this address out/],
	])('a %s block page is named', async (kind, message) => {
		await fronts({ block: kind });
		const res = await esign(sb, { resource: 'stats', operation: 'get' });
		expect(res.error.message).toMatch(message);
		expect(res.error.description).toMatch(/IP|rule/);
	});

	test('a block on writes only: named, and nothing was changed', async () => {
		const doc = await makeDraft(sb, { signers: [{ name: 'Ann', email: 'ann@example.org' }] });
		await fronts({ block: { kind: 'wordfence', writesOnly: true } });
		const res = await esign(sb, { resource: 'document', operation: 'send', documentId: rl(doc.id) });
		expect(res.error.message).toMatch(/^Wordfence blocked the request/);
		expect(res.error.description).toMatch(/did not reach WordPress, so nothing was changed/);
	});

	test('the credential test never blames key permissions for a 403 that is not the API\'s', async () => {
		await fronts({ block: 'wordfence' });
		const result = await harness.testCredential(credentialsFor(sb));
		expect(result.message).toMatch(/^Something in front of the eSign API blocked the request \(403\)/);
		expect(result.message).toMatch(/not about key permissions/);
	});

	test('headers stripped on the way: the API\'s 401 adds how to check it, without the secret', async () => {
		await fronts({ stripHeaders: true });
		const res = await esign(sb, { resource: 'stats', operation: 'get' });
		expect(res.error.httpCode).toBe('401');
		expect(res.error.description).toMatch(/may be removing the X-ESIGN-API-Key and X-ESIGN-API-Secret headers/);
		expect(res.error.description).toContain(`curl -i -H "X-ESIGN-API-Key: <key>" -H "X-ESIGN-API-Secret: <secret>" "${sb.apiUrl}/stats"`);
		expect(JSON.stringify(res.error)).not.toContain(sb.keys.admin.secret);
	});
});

describe('certificates and unreachable addresses', () => {
	const sites: Record<string, Sandbox> = {};
	beforeAll(async () => {
		for (const variant of ['self-signed', 'expired', 'wrong-host']) sites[variant] = await createSandbox({ port: 0, rateLimits: false, tls: variant });
	});
	afterAll(async () => {
		for (const site of Object.values(sites)) await site.close();
	});
	const over = (site: Sandbox, extra: Json = {}) => ({ ...credentialsFor(site), ...extra });

	test.each([
		['self-signed', 'is self-signed', false],
		['expired', 'has expired', true],
		['wrong-host', 'is for another host name', true],
	])('a %s certificate is named with Ignore SSL Issues, for staging only, and not retried', async (variant, words, trusted) => {
		const site = sites[variant];
		// Trusting the made-up CA leaves expiry or the host name as the only problem.
		const untrust = trusted ? trustCertificate(site.tls!.cert) : () => undefined;
		try {
			const before = (await requestLog(site)).length;
			const res = await esign(site, { resource: 'stats', operation: 'get' });
			expect(res.error.message).toBe(`GET /stats failed: the HTTPS certificate of ${site.url} ${words}, so n8n cannot verify it is the real site`);
			expect(res.error.description).toMatch(/staging site only, turn on Ignore SSL Issues/);
			expect(res.error.description).not.toMatch(/tried/);
			expect((await requestLog(site)).length).toBe(before); // the handshake failed: nothing reached the site
			const insecure = await harness.runNode({ type: 'n8n-nodes-esign.eSign', parameters: { resource: 'stats', operation: 'get' }, credentials: over(site, { ignoreSslIssues: true }) });
			expect(insecure.error).toBeUndefined();
		} finally {
			untrust();
		}
	});

	test('a Site URL without a scheme is read as https://', async () => {
		const site = sites['self-signed'];
		const res = await harness.runNode({ type: 'n8n-nodes-esign.eSign', parameters: { resource: 'stats', operation: 'get' }, credentials: over(site, { siteUrl: site.url.replace('https://', ''), ignoreSslIssues: true }) });
		expect(res.error).toBeUndefined();
		expect((await harness.testCredential(over(site, { siteUrl: site.url.replace('https://', ''), ignoreSslIssues: true }))).status).toBe('OK');
		// The same address typed without a scheme for a plain-http site: https is spoken to it, and said so.
		const plain = await esign(sb, { resource: 'stats', operation: 'get' }, { credentials: { ...credentialsFor(sb), siteUrl: sb.url.replace('http://', '') } } as Json);
		expect(plain.error.message).toMatch(/does not speak HTTPS/);
		expect(plain.error.description).toMatch(/write http:\/\/ in the Site URL/);
	});

	test('nothing listening: the address and what to check', async () => {
		const closed = await createSandbox({ port: 0, rateLimits: false });
		const url = closed.url;
		await closed.close();
		const res = await harness.runNode({ type: 'n8n-nodes-esign.eSign', parameters: { resource: 'stats', operation: 'get' }, credentials: { ...credentialsFor(sb), siteUrl: url } });
		expect(res.error.message).toBe(`GET /stats failed: nothing answers at ${url}`);
		expect(res.error.description).toMatch(/Is the site running, and is the port right\?/);
		expect(res.error.description).toMatch(/\[ECONNREFUSED\] \(tried 4 times\)$/);
	});
});
