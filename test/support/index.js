// Shared plumbing for the node tests: a sandbox per test file, credentials for its keys,
// direct API/control calls for arranging and checking state, and one-line node runs.
const http = require('node:http');
const tls = require('node:tls');
const { createSandbox, DEFAULT_WEBHOOK_SECRET } = require('../sandbox');
const harness = require('../harness');

const ESIGN = 'n8n-nodes-esign.eSign';

/** The eSign credential's data for a site ({ url, keys, webhookSecret }: the sandbox or a contract site) and one of its keys. */
function credentialsFor(site, who = 'admin') {
	return {
		siteUrl: site.url,
		apiKey: site.keys[who].key,
		apiSecret: site.keys[who].secret,
		webhookSecret: site.webhookSecret,
	};
}

/** The discard port: nothing listens there, so a request the test did not expect fails instead of reaching a site. */
const OFFLINE_SITE = 'http://127.0.0.1:9';

/** A credential for tests that must never reach a site (the trigger's signature checks). */
const offlineCredentials = (webhookSecret) => ({ siteUrl: OFFLINE_SITE, apiKey: 'esign_unused', apiSecret: 'unused', webhookSecret });

const keyHeaders = (pair) => ({ 'X-ESIGN-API-Key': pair.key, 'X-ESIGN-API-Secret': pair.secret });

/**
 * One request with a key pair's headers (none when `pair` is null): a FormData body goes as multipart, a string
 * as JSON text, anything else JSON-encoded. The answer's body is its JSON, else its text (undefined when empty).
 */
async function keyedRequest(url, pair, method = 'GET', body) {
	const headers = pair ? keyHeaders(pair) : {};
	let payload;
	if (body instanceof FormData) payload = body;
	else if (body !== undefined) {
		headers['content-type'] = 'application/json';
		payload = typeof body === 'string' ? body : JSON.stringify(body);
	}
	const res = await fetch(url, { method, headers, body: payload });
	const text = await res.text();
	let parsed = text === '' ? undefined : text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// not JSON: an HTML page, a PDF
	}
	return { status: res.status, headers: res.headers, body: parsed };
}

/** An HTTPS sandbox (createSandbox({tls})) is arranged and checked over its plain-HTTP twin. */
const reach = (sb) => sb.plain ?? sb;

/** A sandbox control call (no key); throws unless it succeeds. */
async function control(sb, method, path, body) {
	const res = await keyedRequest(reach(sb).url + path, null, method, body);
	if (res.status >= 300) throw new Error(`control ${method} ${path} → ${res.status}: ${JSON.stringify(res.body)}`);
	return res.body;
}

/** Direct API call with a key, for arranging fixtures and checking results independently of the node. */
async function api(sb, method, path, body, who = 'admin') {
	return await keyedRequest(reach(sb).apiUrl + path, sb.keys[who], method, body);
}

async function upload(sb, buffer, fileName, title, who = 'admin') {
	const form = new FormData();
	form.append('file', new Blob([buffer]), fileName);
	if (title) form.append('title', title);
	const res = await api(sb, 'POST', '/documents/upload', form, who);
	if (res.status !== 201) throw new Error(`upload → ${res.status}: ${JSON.stringify(res.body)}`);
	return res.body;
}

async function sample(sb, name) {
	const res = await fetch(`${reach(sb).url}/__sandbox/samples/${name}`);
	if (!res.ok) throw new Error(`sample ${name} → ${res.status}`);
	return Buffer.from(await res.arrayBuffer());
}

/**
 * A draft with signers (each with a signature field unless fields: false), made through the API. The signers are
 * read back from GET /signers (Add Signer's answer is not shown by the spec: the strict profile answers {id} or less).
 */
async function makeDraft(sb, { title = 'Draft', signers = [], fields = true, who = 'admin', file } = {}) {
	const doc = file ? await upload(sb, file.data, file.name, title, who) : await upload(sb, await sample(sb, 'contract.pdf'), 'contract.pdf', title, who);
	for (const s of signers) {
		const r = await api(sb, 'POST', `/documents/${doc.id}/signers`, s, who);
		if (r.status >= 300) throw new Error(`add signer → ${r.status} ${JSON.stringify(r.body)}`);
	}
	const listed = signers.length ? (await api(sb, 'GET', `/documents/${doc.id}/signers`, undefined, who)).body : [];
	const added = signers.map((s) => listed.find((l) => l.email === s.email));
	if (fields && added.length) {
		const r = await api(
			sb,
			'POST',
			`/documents/${doc.id}/fields`,
			{
				fields: added.map((s, n) => ({
					signer_id: Number(s.id),
					field_type: 'signature',
					page_number: 1,
					position_x: 72,
					position_y: 100 + n * 80,
				})),
			},
			who,
		);
		if (r.status >= 300) throw new Error(`fields → ${r.status} ${JSON.stringify(r.body)}`);
	}
	return { ...doc, signers: added };
}

async function sentDocument(sb, opts = {}) {
	const doc = await makeDraft(sb, {
		signers: [
			{ name: 'Ann Signer', email: 'ann@example.org' },
			{ name: 'Bob Signer', email: 'bob@example.org' },
		],
		...opts,
	});
	const r = await api(sb, 'POST', `/documents/${doc.id}/send`, undefined, opts.who);
	if (r.status !== 200) throw new Error(`send → ${r.status} ${JSON.stringify(r.body)}`);
	return doc;
}

/**
 * The sandbox profile the engine suites run against: 'default', or 'strict' in the jest project `strict`
 * (jest.config.js sets the global ESIGN_SANDBOX_PROFILE; the environment variable of that name does the same for
 * any run), which runs the same suites against a site playing the spec alone.
 */
const SANDBOX_PROFILE = globalThis.ESIGN_SANDBOX_PROFILE || process.env.ESIGN_SANDBOX_PROFILE || 'default';
const strictProfile = SANDBOX_PROFILE === 'strict';

/**
 * One sandbox per test file (rate limits off, the profile of this run unless options.profile), reset before each
 * test. Returns a stand-in that forwards to the sandbox once beforeAll has started it.
 */
function useSandbox(options = {}) {
	let instance;
	beforeAll(async () => {
		// Deliveries wait for the answer however long a busy machine takes: the site's 5 s is not what a test proves.
		instance = await createSandbox({ port: 0, rateLimits: false, profile: SANDBOX_PROFILE, deliveryTimeoutMs: null, ...options });
	});
	afterAll(async () => {
		await instance?.close();
	});
	beforeEach(async () => {
		await control(instance, 'POST', '/__sandbox/reset');
	});
	return new Proxy({}, { get: (_, property) => instance[property] });
}

const rl = (value) => ({ __rl: true, mode: 'id', value: String(value) });

/** Runs the eSign action node once through the real engine. */
function esign(sb, parameters, { who = 'admin', ...rest } = {}) {
	return harness.runNode({ type: ESIGN, parameters, credentials: credentialsFor(sb, who), ...rest });
}

async function requestLog(sb) {
	return await control(sb, 'GET', '/__sandbox/requests');
}

async function clearLog(sb) {
	await control(sb, 'DELETE', '/__sandbox/requests');
}

/** Requests that reached the API, as "METHOD /path" (query left out). */
async function requestLines(sb) {
	return (await requestLog(sb)).map((r) => `${r.method} ${r.path.replace('/wp-json/esign/v1', '')}`);
}

/**
 * Runs fn() and resolves { result, delays }: the delays (sorted) of the timers of at least minMs set meanwhile in
 * this process (engine, node, sandbox). How a test sees that something waited, or did not, without timing it.
 */
async function timersSet(fn, minMs = 1000) {
	const spy = jest.spyOn(global, 'setTimeout');
	try {
		const result = await fn();
		return { result, delays: spy.mock.calls.map(([, ms]) => Number(ms ?? 0)).filter((ms) => ms >= minMs).sort((a, b) => a - b) };
	} finally {
		spy.mockRestore();
	}
}

const WILLING_API = () => ({ status: 200, body: { id: '1', title: 'Captured', status: 'draft', sent: true, total: 0, content: '', reminded: [], deleted: true } });

/**
 * Another origin that records every request it receives (method, url, headers, raw body) and answers with
 * `answer(entry)` → {status, body, extra fields to record}; by default like a willing eSign API would, so a
 * client that followed a redirect there would "succeed".
 */
async function startRecorder(answer = WILLING_API) {
	const requests = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const raw = Buffer.concat(chunks);
			const entry = { method: req.method, url: req.url, headers: { ...req.headers }, body: raw.toString('utf8'), raw };
			const { status, body: answerBody, record = {} } = answer(entry);
			requests.push({ ...entry, ...record });
			const body = JSON.stringify(answerBody);
			res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
			res.end(body);
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		requests,
		close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
	};
}

/**
 * A site whose GET /documents answers `total` documents (newest first) page by page WITHOUT the
 * X-ESIGN-Total/TotalPages headers, as some caches and proxies strip them. `site` can stand in for the
 * sandbox in esign(); `pages` records the page numbers asked for.
 */
async function startSiteWithoutPageHeaders(total, keysFrom) {
	const pages = [];
	const server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://site.local');
		const page = Number(url.searchParams.get('page') ?? 1);
		const perPage = Number(url.searchParams.get('per_page') ?? 10);
		pages.push(page);
		const first = total - (page - 1) * perPage;
		const items = Array.from({ length: Math.max(0, Math.min(perPage, first)) }, (_, k) => ({ id: first - k, title: `Doc ${first - k}`, status: 'draft' }));
		res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
		res.end(JSON.stringify(items));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${server.address().port}`;
	return {
		site: { url, apiUrl: `${url}/wp-json/esign/v1`, keys: keysFrom.keys, webhookSecret: keysFrom.webhookSecret },
		pages,
		close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
	};
}

/** Makes the sandbox answer the next `count` matching requests with a hostile preset or raw answer. */
async function hostile(sb, fault) {
	return await control(sb, 'POST', '/__sandbox/faults', { count: 1, ...fault });
}

/**
 * The site the contract suite runs against when it is not the sandbox: JSON in ESIGN_CONTRACT_SITE
 * ({kind, url, apiBase, controlBase, keys, webhookSecret}), set by `npm run test:wordpress`; null otherwise.
 */
function describedContractSite() {
	const text = process.env.ESIGN_CONTRACT_SITE;
	return text ? JSON.parse(text) : null;
}

/**
 * Makes this process trust a certificate (an HTTPS sandbox's sb.tls.cert) as if a CA had issued it, so the
 * 'expired' and 'wrong-host' variants fail for that reason alone. Returns the function that undoes it.
 */
function trustCertificate(cert) {
	const before = tls.getCACertificates('default');
	tls.setDefaultCACertificates([...before, cert]);
	return () => tls.setDefaultCACertificates(before);
}

module.exports = {
	SANDBOX_PROFILE,
	strictProfile,
	trustCertificate,
	DEFAULT_WEBHOOK_SECRET,
	OFFLINE_SITE,
	keyedRequest,
	offlineCredentials,
	describedContractSite,
	ESIGN,
	hostile,
	startRecorder,
	startSiteWithoutPageHeaders,
	api,
	clearLog,
	control,
	createSandbox,
	credentialsFor,
	esign,
	harness,
	makeDraft,
	requestLines,
	requestLog,
	rl,
	sample,
	sentDocument,
	timersSet,
	upload,
	useSandbox,
};
