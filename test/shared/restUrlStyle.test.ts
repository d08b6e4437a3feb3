// Sites with plain permalinks serve the REST API only as /index.php?rest_route=/esign/v1/… (the form WordPress's own
// rest_url() writes; nginx's usual setup answers PUT/DELETE to /?rest_route= itself with 405): the credential's REST
// API URL Style makes every request (query strings included), the pickers and the credential test use that form.
import { control, credentialsFor, esign, harness, hostile, makeDraft, requestLog, rl, useSandbox } from '../support';

const sb = useSandbox();

const plain = () => ({ ...credentialsFor(sb), restUrlStyle: 'plain' });

test('every operation works with ?rest_route=, query parameters included', async () => {
	const doc = await makeDraft(sb, { title: 'Plain permalinks' });
	for (let n = 0; n < 3; n++) await makeDraft(sb, { title: `Other ${n}` });
	const before = (await requestLog(sb)).length;
	const get = await harness.runNode({
		type: 'n8n-nodes-esign.eSign',
		parameters: { resource: 'document', operation: 'get', documentId: rl(doc.id) },
		credentials: plain(),
	});
	expect(get.error).toBeUndefined();
	expect(get.items[0].json.title).toBe('Plain permalinks');
	const list = await harness.runNode({
		type: 'n8n-nodes-esign.eSign',
		parameters: { resource: 'document', operation: 'getMany', returnAll: false, limit: 2, filters: { search: 'other' } },
		credentials: plain(),
	});
	expect(list.items.map((item) => item.json.title)).toEqual(['Other 2', 'Other 1']);
	const log = (await requestLog(sb)).slice(before);
	expect(log.map((e) => `${e.method} ${e.path}`)).toEqual([`GET /wp-json/esign/v1/documents/${doc.id}`, 'GET /wp-json/esign/v1/documents']);
	// Every read carries a unique `_` (caches keyed by URL never answer it).
	const { _: buster, ...query } = log[1].query;
	expect(query).toEqual({ page: '1', per_page: '2', search: 'other' });
	expect(buster).toMatch(/^\d+$/);
	// As sent: the plain-permalink form, with the other parameters after &.
	expect(log[0].url).toMatch(new RegExp(`^/index\\.php\\?rest_route=/esign/v1/documents/${doc.id}&_=\\d+$`));
	expect(log[1].url).toMatch(/^\/index\.php\?rest_route=\/esign\/v1\/documents&/);
	expect(new URLSearchParams(String(log[1].url).split('?')[1]).get('per_page')).toBe('2');
});

test('the pretty style keeps /wp-json/ URLs', async () => {
	const before = (await requestLog(sb)).length;
	await esign(sb, { resource: 'stats', operation: 'get' });
	const urls = (await requestLog(sb)).slice(before).map((e) => e.url);
	expect(urls).toHaveLength(1);
	expect(urls[0]).toMatch(/^\/wp-json\/esign\/v1\/stats\?_=\d+$/);
});

test('the credential test works in both styles, each at its own URL', async () => {
	const before = (await requestLog(sb)).length;
	expect((await harness.testCredential(plain())).status).toBe('OK');
	expect((await harness.testCredential(credentialsFor(sb))).status).toBe('OK');
	const urls = (await requestLog(sb)).slice(before).map((e) => String(e.url).replace(/[?&]_=\d+$/, ''));
	expect(urls).toEqual(['/index.php?rest_route=/esign/v1/stats', '/wp-json/esign/v1/stats']);
});

test('a pasted ?rest_route= address is accepted as the Site URL', async () => {
	const res = await harness.runNode({
		type: 'n8n-nodes-esign.eSign',
		parameters: { resource: 'stats', operation: 'get' },
		credentials: { ...plain(), siteUrl: `${sb.url}/?rest_route=/esign/v1` },
	});
	expect(typeof res.items[0].json.total).toBe('number');
});

test('an HTML 404 at /wp-json/ suggests the ?rest_route= style, and the other way round', async () => {
	await hostile(sb, { path: '/wp-json/esign/v1/stats', answer: 'theme-404', count: 2 });
	const pretty = await esign(sb, { resource: 'stats', operation: 'get' });
	expect(pretty.error.description).toMatch(/Set the credential's REST API URL Style to \?rest_route=/);
	const viaPlain = await harness.runNode({ type: 'n8n-nodes-esign.eSign', parameters: { resource: 'stats', operation: 'get' }, credentials: plain() });
	expect(viaPlain.error.description).toMatch(/Set the credential's REST API URL Style to \/wp-json\//);
});

describe('a site whose permalinks are set to Plain (as WordPress answers /wp-json/ there)', () => {
	beforeEach(() => control(sb, 'POST', '/__sandbox/permalinks', { structure: 'plain' }));
	afterEach(() => control(sb, 'POST', '/__sandbox/permalinks', { structure: 'pretty' }));

	test('the /wp-json/ style names the cause: WordPress redirects to the same address with a slash', async () => {
		const before = (await requestLog(sb)).length;
		const res = await esign(sb, { resource: 'document', operation: 'create', title: 'Not sent anywhere' });
		expect(res.error.message).toBe(`The site does not serve its REST API under /wp-json/ (it redirects ${sb.apiUrl}/documents to the same address with a slash)`);
		expect(res.error.description).toMatch(/Set the credential's REST API URL Style to \?rest_route= \(Plain Permalinks\)/);
		expect(res.error.description).toMatch(/the POST was not carried out/);
		// Nothing reached the API (the redirect came from WordPress's routing, not from the plugin).
		expect((await requestLog(sb)).length).toBe(before);
		expect(sb.state.documents.size).toBe(0);
	});

	test('the credential test says so too, and the ?rest_route= style works', async () => {
		const pretty = await harness.testCredential(credentialsFor(sb));
		expect(pretty.status).toBe('Error');
		expect(pretty.message).toMatch(/HTTP 301.*Set the credential's REST API URL Style to \?rest_route=/);
		expect((await harness.testCredential(plain())).status).toBe('OK');
		const viaPlain = await harness.runNode({ type: 'n8n-nodes-esign.eSign', parameters: { resource: 'stats', operation: 'get' }, credentials: plain() });
		expect(viaPlain.items[0].json).toMatchObject({ total: 0 });
	});
});
