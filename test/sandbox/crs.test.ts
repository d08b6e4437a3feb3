// The sandbox's ModSecurity + OWASP CRS front (fronts.crs) over real HTTP, no n8n: which rule refuses what
// in CRS 3.3 and CRS 4 at paranoia levels 1 and 2, with Apache's bare 403 page, before WordPress's method
// override (serve_request: ?_method=, then X-HTTP-Method-Override) routes what passes.
import type { Json, Sandbox } from '../support';
import { control, createSandbox, makeDraft, requestLog } from '../support';

let sb: Sandbox;
beforeAll(async () => {
	sb = await createSandbox({ port: 0 });
});
afterAll(() => sb.close());
beforeEach(() => control(sb, 'POST', '/__sandbox/reset'));

const setCrs = (crs: Json) => control(sb, 'POST', '/__sandbox/fronts', { crs });

/** A request with the admin key: the status, the body as text, and the log entry it left. */
async function send(method: string, path: string, { headers = {}, body }: { headers?: Record<string, string>; body?: unknown } = {}) {
	const res = await fetch(sb.apiUrl + path, {
		method,
		headers: { 'X-ESIGN-API-Key': sb.keys.admin.key, 'X-ESIGN-API-Secret': sb.keys.admin.secret, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text(), log: (await requestLog(sb)).at(-1) };
}

/** What each form of a PUT gets: 'ran', or the rule that refused it. */
async function putForms(id: string): Promise<Record<string, string>> {
	const outcome = ({ status, log }: { status: number; log: Json }) => (log.front === 'crs' ? `${status} ${log.rule}` : log.executed ? `ran (${log.method} as ${log.sentAs ?? log.method})` : String(status));
	return {
		put: outcome(await send('PUT', `/documents/${id}`, { body: { title: 'a' } })),
		query: outcome(await send('POST', `/documents/${id}?_method=PUT`, { body: { title: 'b' } })),
		header: outcome(await send('POST', `/documents/${id}`, { headers: { 'X-HTTP-Method-Override': 'PUT' }, body: { title: 'c' } })),
	};
}

test('CRS 3.3 (Debian 12, true): PUT and DELETE refused by 911100 with Apache\'s bare 403 page; both override forms pass', async () => {
	const doc = await makeDraft(sb);
	await setCrs(true);
	const refused = await send('DELETE', `/documents/${doc.id}`);
	expect(refused).toMatchObject({ status: 403, contentType: 'text/html; charset=iso-8859-1', log: { front: 'crs', rule: '911100', executed: false } });
	expect(refused.text).toContain("<title>403 Forbidden</title>\n</head><body>\n<h1>Forbidden</h1>\n<p>You don't have permission to access this resource.</p>");
	expect(refused.text).not.toMatch(/mod_?security|911100/i);
	expect(await putForms(doc.id)).toEqual({ put: '403 911100', query: 'ran (PUT as POST)', header: 'ran (PUT as POST)' });
	expect((await send('GET', `/documents/${doc.id}`)).status).toBe(200);
});

test('CRS 4 at paranoia level 1 also refuses the override headers (920450); at level 2 also ?_method= (920650)', async () => {
	const doc = await makeDraft(sb);
	await setCrs({ version: '4' });
	expect(await putForms(doc.id)).toEqual({ put: '403 911100', query: 'ran (PUT as POST)', header: '403 920450' });
	for (const name of ['X-HTTP-Method', 'X-Method-Override']) {
		expect((await send('POST', `/documents/${doc.id}`, { headers: { [name]: 'PUT' } })).log.rule).toBe('920450');
	}
	await setCrs({ version: '4', paranoiaLevel: 2 });
	expect(await putForms(doc.id)).toEqual({ put: '403 911100', query: '403 920650', header: '403 920450' });
});

test('attack-like text in the body or the query is refused (941100, 942100) unless attacks: false; ordinary names pass', async () => {
	await setCrs(true);
	expect((await send('POST', '/documents', { body: { title: '<script>alert(1)</script>' } })).log.rule).toBe('941100');
	expect((await send('GET', `/documents?search=${encodeURIComponent("x' OR '1'='1")}`)).log.rule).toBe('942100');
	expect((await send('POST', '/documents', { body: { title: "Vertrag Müller & Söhne — Zoë O'Brien" } })).status).toBe(201);
	await setCrs({ attacks: false });
	expect((await send('POST', '/documents', { body: { title: '<script>alert(1)</script>' } })).status).toBe(201);
});

test('a wrong setting is refused with what to send', async () => {
	const refused = async (crs: Json) => (await fetch(`${sb.url}/__sandbox/fronts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ crs }) })).json();
	expect((await refused({ version: '3.2' })).message).toMatch(/fronts\.crs\.version must be '3\.3' \(Debian 12\) or '4'/);
	expect((await refused({ paranoiaLevel: 3 })).message).toMatch(/paranoiaLevel must be 1 or 2/);
	expect((await control(sb, 'GET', '/__sandbox/fronts')).fronts).toEqual({});
	await setCrs(true);
	expect((await control(sb, 'GET', '/__sandbox/fronts')).fronts).toEqual({ crs: { version: '3.3', paranoiaLevel: 1, attacks: true } });
});
