// The sandbox's fronts (what real eSign sites sit behind) and its HTTPS variants, over real HTTP(S), no n8n.
// The TLS checks use node:https and node:tls through ./nodeTools (the lint keeps node: imports out of .ts files).
import type { Json, KeyName, Sandbox } from '../support';
import { api, control, createSandbox, makeDraft, requestLog, trustCertificate } from '../support';
import { httpsGet, loadCertificate, nodeCrypto } from './nodeTools';
import { selfSignedCertificate } from './tls';

let sb: Sandbox;
beforeAll(async () => {
	sb = await createSandbox({ port: 0 });
});
afterAll(() => sb.close());
beforeEach(() => control(sb, 'POST', '/__sandbox/reset'));

const keyHeaders = (who: KeyName = 'admin'): Record<string, string> => ({ 'X-ESIGN-API-Key': sb.keys[who].key, 'X-ESIGN-API-Secret': sb.keys[who].secret });
const basic = (user: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

/** One request to the sandbox: status, headers and the body as text (JSON parsed when it is JSON). */
async function call(
	path: string,
	{ method = 'GET', headers = keyHeaders(), body, base = sb.apiUrl }: { method?: string; headers?: Record<string, string>; body?: unknown; base?: string } = {},
): Promise<{ status: number; headers: Headers; text: string; json: Json }> {
	const res = await fetch(base + path, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
	const text = await res.text();
	let json: Json;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: res.status, headers: res.headers, text, json };
}

const setFronts = (fronts: Json) => control(sb, 'POST', '/__sandbox/fronts', fronts);
const lastLog = async () => (await requestLog(sb)).at(-1);

test('every API GET route accepts and ignores an unknown _ parameter, and the request log records it', async () => {
	const doc = await makeDraft(sb, { signers: [{ name: 'Ann', email: 'ann@example.org' }] });
	const paths = ['/documents', `/documents/${doc.id}`, `/documents/${doc.id}/signers`, `/documents/${doc.id}/fields`,
		`/documents/${doc.id}/file`, `/documents/${doc.id}/audit`, '/templates', '/templates/1', '/stats'];
	for (const path of paths) {
		const plain = await call(path);
		const busted = await call(`${path}?_=1700000000123`);
		expect([path, busted.status]).toEqual([path, 200]);
		// Nothing changed between the two calls, so the answers are equal.
		expect(busted.json).toEqual(plain.json);
		expect((await lastLog()).query).toEqual({ _: '1700000000123' });
	}
	const viaRestRoute = await call('/?rest_route=/esign/v1/documents&per_page=5&_=42', { base: sb.url });
	expect(viaRestRoute.status).toBe(200);
	expect(await lastLog()).toMatchObject({ path: '/wp-json/esign/v1/documents', query: { per_page: '5', _: '42' }, url: '/?rest_route=/esign/v1/documents&per_page=5&_=42' });
});

describe('control', () => {
	test('fronts are off by default; POST sets some, DELETE turns all off, reset returns to the start settings', async () => {
		expect(await control(sb, 'GET', '/__sandbox/fronts')).toEqual({ fronts: {}, cached: [] });
		await setFronts({ challenge: true, cache: { ttlSeconds: 60 } });
		await setFronts({ challenge: false, block: 'sucuri' });
		expect((await control(sb, 'GET', '/__sandbox/fronts')).fronts).toEqual({
			cache: { ttlSeconds: 60, ignoreQuery: false, headers: ['x-cache'] },
			block: { kind: 'sucuri', status: 403, writesOnly: false },
		});
		expect(await control(sb, 'DELETE', '/__sandbox/fronts')).toEqual({ fronts: {} });
		expect((await call('/stats')).status).toBe(200);
		await setFronts({ challenge: true });
		await control(sb, 'POST', '/__sandbox/reset');
		expect((await call('/stats')).status).toBe(200);

		const started = await createSandbox({ port: 0, fronts: { block: { kind: 'modsecurity' } } });
		try {
			await control(started, 'DELETE', '/__sandbox/fronts');
			await control(started, 'POST', '/__sandbox/reset');
			expect((await control(started, 'GET', '/__sandbox/fronts')).fronts).toEqual({ block: { kind: 'modsecurity', status: 406, writesOnly: false } });
		} finally {
			await started.close();
		}
	});

	test('a wrong front setting is refused with what to send', async () => {
		const refused = async (body: Json) => (await call('/__sandbox/fronts', { method: 'POST', body, base: sb.url, headers: {} })).json.message;
		expect(await refused({ firewall: true })).toMatch(/Unknown front firewall; fronts are basicAuth, cache, challenge, block, stripHeaders/);
		expect(await refused({ block: 'cloudflare' })).toMatch(/kind must be one of wordfence, modsecurity, sucuri, solid/);
		expect(await refused({ basicAuth: { user: 'staging' } })).toMatch(/needs user .* and password/);
		expect(await refused({ cache: { headers: ['x-served-by'] } })).toMatch(/x-cache, age, cf-cache-status/);
		expect(await refused({ challenge: { status: 429 } })).toMatch(/403 or 503/);
	});
});

describe('HTTP Basic auth', () => {
	beforeEach(() => setFronts({ basicAuth: { user: 'staging', password: 'let-me-in', realm: 'Staging site' } }));

	test('without the right Basic credentials: 401 with WWW-Authenticate and an HTML page, before the API looks at the key', async () => {
		for (const headers of [keyHeaders(), { ...keyHeaders(), ...basic('staging', 'wrong') }, { ...keyHeaders(), Authorization: 'Bearer x' }]) {
			const res = await call('/documents', { headers });
			expect(res.status).toBe(401);
			expect(res.headers.get('www-authenticate')).toBe('Basic realm="Staging site"');
			expect(res.headers.get('content-type')).toMatch(/^text\/html/);
			expect(res.text).toContain('<title>401 Authorization Required</title>');
			expect(await lastLog()).toMatchObject({ status: 401, front: 'basicAuth', executed: false, route: null });
		}
		expect((await call('/?rest_route=/esign/v1/stats', { base: sb.url })).status).toBe(401);
	});

	test('with them the API answers, and still checks its own key', async () => {
		const ok = await call('/documents?_=5', { headers: { ...keyHeaders(), ...basic('staging', 'let-me-in') } });
		expect(ok.status).toBe(200);
		expect(ok.json).toEqual([]);
		expect(await lastLog()).toMatchObject({ executed: true, keyName: 'admin', query: { _: '5' } });
		const noKey = await call('/documents', { headers: basic('staging', 'let-me-in') });
		expect([noKey.status, noKey.json.code]).toEqual([401, 'rest_forbidden']);
	});

	test('controls and sample files stay reachable without them', async () => {
		expect(await control(sb, 'GET', '/__sandbox/health')).toEqual({ ok: true });
		expect((await fetch(`${sb.url}/__sandbox/samples/one-page.pdf`)).status).toBe(200);
	});

	test('WordPress with application passwords in use reads the Basic credentials as one and refuses them', async () => {
		await setFronts({ basicAuth: { user: 'staging', password: 'let-me-in', applicationPasswords: true } });
		const res = await call('/documents', { headers: { ...keyHeaders(), ...basic('staging', 'let-me-in') } });
		expect([res.status, res.json.code]).toEqual([401, 'invalid_username']);
		expect(res.headers.get('www-authenticate')).toBeNull();
	});
});

describe('GET cache', () => {
	const titles = (res: { json: Json }) => res.json.map((d: Json) => d.title);

	test('serves the kept answer for the same URL after a change, whatever Cache-Control says; another _ gets a fresh one', async () => {
		await setFronts({ cache: { headers: ['x-cache', 'age'] } });
		await makeDraft(sb, { title: 'First' });
		const first = await call('/documents?_=1');
		expect([first.status, first.headers.get('x-cache'), first.headers.get('age'), titles(first)]).toEqual([200, 'MISS', null, ['First']]);
		await makeDraft(sb, { title: 'Second' });
		await control(sb, 'POST', '/__sandbox/clock', { advanceSeconds: 30 });

		const stale = await call('/documents?_=1', { headers: { ...keyHeaders(), 'Cache-Control': 'no-cache, no-store', Pragma: 'no-cache' } });
		expect([stale.status, stale.headers.get('x-cache'), stale.headers.get('age'), titles(stale)]).toEqual([200, 'HIT', '30', ['First']]);
		expect(stale.headers.get('x-esign-total')).toBe('1');
		expect(await lastLog()).toMatchObject({ front: 'cache', cache: 'HIT', executed: false, query: { _: '1' } });

		const fresh = await call('/documents?_=2');
		expect([fresh.headers.get('x-cache'), titles(fresh)]).toEqual(['MISS', ['Second', 'First']]);
	});

	test('keys by URL alone (another API key gets the kept answer), keeps only successes, and forgets after ttlSeconds', async () => {
		await setFronts({ cache: { ttlSeconds: 60 } });
		await makeDraft(sb, { title: 'Admin only' });
		await call('/documents');
		expect(titles(await call('/documents', { headers: keyHeaders('user') }))).toEqual(['Admin only']);
		expect((await call('/documents/999')).status).toBe(404);
		expect((await call('/documents/999')).headers.get('x-cache')).toBe('MISS');
		await control(sb, 'POST', '/__sandbox/clock', { advanceSeconds: 61 });
		const expired = await call('/documents', { headers: keyHeaders('user') });
		expect([expired.headers.get('x-cache'), titles(expired)]).toEqual(['MISS', []]);
		expect((await control(sb, 'GET', '/__sandbox/fronts')).cached).toEqual(['/wp-json/esign/v1/documents']);
		await control(sb, 'DELETE', '/__sandbox/fronts/cache');
		expect((await control(sb, 'GET', '/__sandbox/fronts')).cached).toEqual([]);
	});

	test('a silent cache says nothing and is still stale; writes pass through', async () => {
		await setFronts({ cache: { headers: [] } });
		const doc = await makeDraft(sb, { title: 'Before' });
		await call(`/documents/${doc.id}`);
		const put = await call(`/documents/${doc.id}`, { method: 'PUT', body: { title: 'After' } });
		expect([put.status, put.json.title]).toEqual([200, 'After']);
		const stale = await call(`/documents/${doc.id}`);
		expect(stale.json.title).toBe('Before');
		for (const name of ['x-cache', 'age', 'cf-cache-status']) expect(stale.headers.get(name)).toBeNull();
		expect((await api(sb, 'GET', `/documents/${doc.id}?_=9`)).body.title).toBe('After');
	});

	test("Cloudflare's cf-cache-status, and caches that ignore the query string or only some parameters", async () => {
		await setFronts({ cache: { headers: ['cf-cache-status'], ignoreQuery: true } });
		await makeDraft(sb, { title: 'One' });
		expect((await call('/documents?_=1')).headers.get('cf-cache-status')).toBe('MISS');
		await makeDraft(sb, { title: 'Two' });
		const hit = await call('/documents?_=2');
		expect([hit.headers.get('cf-cache-status'), hit.headers.get('x-cache'), titles(hit)]).toEqual(['HIT', null, ['One']]);

		await setFronts({ cache: { ignoreQuery: ['_'] } });
		await call('/documents?per_page=1&_=1');
		await makeDraft(sb, { title: 'Three' });
		expect(titles(await call('/documents?per_page=1&_=2'))).toEqual(['Two']);
		expect(titles(await call('/documents?per_page=2&_=3'))).toEqual(['Three', 'Two']);
	});
});

describe('bot challenge', () => {
	test("answers every API request with Cloudflare's managed challenge; 503 when set", async () => {
		await setFronts({ challenge: true });
		for (const [path, method] of [['/stats', 'GET'], ['/documents', 'POST']]) {
			const res = await call(path, { method, body: method === 'POST' ? { title: 'x' } : undefined });
			expect(res.status).toBe(403);
			expect(res.headers.get('cf-mitigated')).toBe('challenge');
			expect(res.headers.get('server')).toBe('cloudflare');
			expect(res.headers.get('cf-ray')).toMatch(/^[0-9a-f]{16}-[A-Z]{3}$/);
			expect(res.text).toContain('<title>Just a moment...</title>');
			expect(await lastLog()).toMatchObject({ front: 'challenge', executed: false });
		}
		expect(sb.state.documents.size).toBe(0);
		await setFronts({ challenge: { status: 503 } });
		expect((await call('/stats')).status).toBe(503);
		expect(await control(sb, 'GET', '/__sandbox/health')).toEqual({ ok: true });
	});
});

describe('block pages', () => {
	test.each([
		['wordfence', undefined, 403, 'Your access to this site has been limited by the site owner'],
		['wordfence', 503, 503, '(HTTP response code 503)'],
		['modsecurity', undefined, 406, 'An appropriate representation of the requested resource could not be found on this server. This error was generated by Mod_Security.'],
		['sucuri', undefined, 403, 'Access Denied - Sucuri Website Firewall'],
		['solid', undefined, 403, 'You have been locked out.'],
	])('%s (status %s) answers %i with its HTML page', async (kind, status, expected, text) => {
		await setFronts({ block: { kind, status } });
		const res = await call('/documents');
		expect(res.status).toBe(expected);
		expect(res.headers.get('content-type')).toMatch(/^text\/html/);
		expect(res.text).toContain(text);
		expect(res.headers.get('x-sucuri-id') !== null).toBe(kind === 'sucuri');
		expect(await lastLog()).toMatchObject({ front: 'block', executed: false });
	});

	test('a rule on writes only lets reads through', async () => {
		await setFronts({ block: { kind: 'wordfence', writesOnly: true } });
		expect((await call('/documents')).status).toBe(200);
		const post = await call('/documents', { method: 'POST', body: { title: 'Blocked' } });
		expect(post.status).toBe(403);
		expect(sb.state.counters.createExecuted).toBe(0);
	});
});

describe('stripped headers', () => {
	test("a proxy drops the X-ESIGN-* headers: the API answers its own 401 rest_forbidden, the log shows what was sent", async () => {
		await setFronts({ stripHeaders: true });
		const res = await call('/documents');
		expect([res.status, res.json.code]).toEqual([401, 'rest_forbidden']);
		expect(await lastLog()).toMatchObject({ key: sb.keys.admin.key, front: 'stripHeaders', executed: false, route: 'listDocuments' });
	});

	test('another list of headers can be dropped', async () => {
		await setFronts({ stripHeaders: { headers: ['X-ESIGN-API-Secret'] } });
		expect((await call('/stats')).json.code).toBe('rest_forbidden');
		await setFronts({ stripHeaders: { headers: ['user-agent'] } });
		expect((await call('/stats')).status).toBe(200);
	});
});

describe('HTTPS', () => {
	test('a certificate loads whatever its random serial number starts with (DER integers in their shortest form)', () => {
		const randomBytes = nodeCrypto.randomBytes;
		for (const start of [[0, 0x10], [0, 0x90], [0, 0], [0x80, 0]]) {
			const spy = jest.spyOn(nodeCrypto, 'randomBytes').mockImplementation(((n: number) => Buffer.concat([Buffer.from(start), randomBytes(n - 2)])) as never);
			try {
				const made = selfSignedCertificate({ hosts: ['127.0.0.1'], notBefore: Date.now(), notAfter: Date.now() + 60_000 });
				expect(() => loadCertificate({ key: made.key, cert: made.cert })).not.toThrow();
			} finally {
				spy.mockRestore();
			}
		}
	});

	test.each([
		[true, 'DEPTH_ZERO_SELF_SIGNED_CERT', 'status 200'],
		['expired', 'CERT_HAS_EXPIRED', 'CERT_HAS_EXPIRED'],
		['wrong-host', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS_CERT_ALTNAME_INVALID'],
	])('tls %s: untrusted → %s, trusted (trustCertificate) → %s; the API is the same over the plain twin', async (variant, untrusted, trusted) => {
		const site = await createSandbox({ port: 0, tls: variant });
		try {
			expect(site.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
			expect(site.tls?.cert).toMatch(/^-----BEGIN CERTIFICATE-----/);
			const headers = { 'X-ESIGN-API-Key': site.keys.admin.key, 'X-ESIGN-API-Secret': site.keys.admin.secret };
			expect(await httpsGet(`${site.apiUrl}/stats`, { headers })).toMatchObject({ code: untrusted });
			const untrust = trustCertificate(String(site.tls?.cert));
			let asTrusted;
			try {
				asTrusted = await httpsGet(`${site.apiUrl}/stats`, { headers });
			} finally {
				untrust();
			}
			if (trusted !== 'status 200') expect(asTrusted.code).toBe(trusted);
			else expect(asTrusted).toMatchObject({ status: 200, body: expect.stringContaining('"total":0') });
			expect(await httpsGet(`${site.apiUrl}/stats`, { headers })).toMatchObject({ code: untrusted });
			const insecure = await httpsGet(`${site.apiUrl}/documents`, { headers, rejectUnauthorized: false });
			expect(insecure.status).toBe(200);
			await makeDraft(site, { title: 'Over plain HTTP' });
			expect(JSON.parse(String((await httpsGet(`${site.apiUrl}/documents`, { headers, rejectUnauthorized: false })).body))[0].title).toBe('Over plain HTTP');
		} finally {
			await site.close();
		}
	});
});
