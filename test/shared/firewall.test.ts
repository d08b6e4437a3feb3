// PUT and DELETE through hosting firewalls (issue 26): the sandbox plays ModSecurity with the OWASP Core Rule
// Set in front of the API (fronts.crs), and the nodes run through the real engine. A write the front refused
// (its page: nothing ran) goes out again as POST with WordPress's override; one the API answered never does.
import type { Json } from '../support';
import { api, clearLog, control, credentialsFor, esign, makeDraft, requestLog, rl, sample, useSandbox } from '../support';

const sb = useSandbox();
const fronts = (body: Json) => control(sb, 'POST', '/__sandbox/fronts', body);
const counters = () => control(sb, 'GET', '/__sandbox/counters');

/** The request log as `METHOD[/sentAs] path [front rule] executed?`, the API root left out. */
async function attempts(): Promise<string[]> {
	return (await requestLog(sb)).map((r: Json) => {
		const how = r.sentAs ? `${r.method}/${r.sentAs}${r.query._method ? ' ?_method' : ' header'}` : r.method;
		const refused = r.front === 'crs' ? ` refused ${r.rule}` : '';
		return `${how} ${r.path.replace('/wp-json/esign/v1', '')}${refused}${r.executed ? ' ran' : ''}`;
	});
}

const update = (id: string, title = 'Renamed') => ({ resource: 'document', operation: 'update', documentId: rl(id), updateFields: { title } });

describe('a firewall that refuses PUT and DELETE (CRS 3.3 defaults: rule 911100)', () => {
	beforeEach(() => fronts({ crs: true }));

	test('Update: the refused PUT goes out once more as POST ?_method=PUT, and runs once', async () => {
		const doc = await makeDraft(sb, { title: 'Before' });
		await clearLog(sb);
		const res = await esign(sb, update(doc.id, "Vertrag Müller & Söhne (Zoë O'Brien)"));
		expect(res.error).toBeUndefined();
		expect(res.items[0].json.title).toBe("Vertrag Müller & Söhne (Zoë O'Brien)");
		expect(await attempts()).toEqual([`PUT /documents/${doc.id} refused 911100`, `PUT/POST ?_method /documents/${doc.id} ran`]);
		expect((await counters()).updateExecuted).toBe(1);
	});

	test('Delete: the same way, and the document is gone', async () => {
		const doc = await makeDraft(sb);
		await clearLog(sb);
		const res = await esign(sb, { resource: 'document', operation: 'delete', documentId: rl(doc.id) });
		expect(res.items[0].json).toEqual({ id: doc.id, deleted: true });
		expect(await attempts()).toEqual([`DELETE /documents/${doc.id} refused 911100`, `DELETE/POST ?_method /documents/${doc.id} ran`]);
		expect((await api(sb, 'GET', `/documents/${doc.id}`)).status).toBe(404);
	});

	test('Plain permalinks: _method joins rest_route in the query (index.php?rest_route=…&_method=PUT)', async () => {
		const doc = await makeDraft(sb);
		await control(sb, 'POST', '/__sandbox/permalinks', { structure: 'plain' });
		await clearLog(sb);
		const res = await esign(sb, update(doc.id), { credentials: { ...credentialsFor(sb), restUrlStyle: 'plain' } });
		expect(res.error).toBeUndefined();
		expect((await requestLog(sb)).map((r: Json) => r.url)).toEqual([`/index.php?rest_route=/esign/v1/documents/${doc.id}`, `/index.php?rest_route=/esign/v1/documents/${doc.id}&_method=PUT`]);
		expect((await counters()).updateExecuted).toBe(1);
	});

	test('the rest of the node execution goes straight to the override; the next execution tries the real method again', async () => {
		const docs = [await makeDraft(sb), await makeDraft(sb), await makeDraft(sb)];
		await clearLog(sb);
		const parameters = { resource: 'document', operation: 'update', documentId: rl('={{ $json.id }}'), updateFields: { title: '={{ "Item " + $json.id }}' } };
		const res = await esign(sb, parameters, { input: docs.slice(0, 2).map((d) => ({ json: { id: d.id } })) });
		expect(res.items.map((item: Json) => item.json.title)).toEqual(docs.slice(0, 2).map((d) => `Item ${d.id}`));
		expect(await esign(sb, update(docs[2].id))).toMatchObject({ error: undefined });
		expect(await attempts()).toEqual([
			`PUT /documents/${docs[0].id} refused 911100`,
			`PUT/POST ?_method /documents/${docs[0].id} ran`,
			`PUT/POST ?_method /documents/${docs[1].id} ran`,
			`PUT /documents/${docs[2].id} refused 911100`,
			`PUT/POST ?_method /documents/${docs[2].id} ran`,
		]);
	});

	test('Create and Send\'s rollback deletes its draft through the override', async () => {
		const parameters = {
			resource: 'document',
			operation: 'createAndSend',
			title: 'Rolled back',
			signers: { signer: [{ name: 'Ann', email: 'ann@example.org', role: 'signer', signingOrder: 0 }] },
			fieldsInput: 'ui',
			// An image is one page, which the node cannot measure: the site refuses page 9 (a 4xx after the upload), so the
			// draft is deleted. (A PDF's pages are checked by the node before the upload.)
			fieldsUi: { field: [{ signer: '1', field_type: 'signature', page_number: 9, position_x: 72, position_y: 600, width: 0, height: 0 }] },
		};
		const input = [{ json: {}, binary: { data: { data: await sample(sb, 'photo.png'), fileName: 'Vertrag Müller & Söhne.png', mimeType: 'image/png' } } }];
		const res = await esign(sb, parameters, { input });
		const id = res.error.context.documentId;
		expect(res.error.message).toMatch(new RegExp(`failed at step "fields".*Draft ${id} was deleted`));
		expect(res.error.context.documentDeleted).toBe(true);
		expect((await attempts()).slice(-2)).toEqual([`DELETE /documents/${id} refused 911100`, `DELETE/POST ?_method /documents/${id} ran`]);
		expect((await api(sb, 'GET', `/documents/${id}`)).status).toBe(404);
	});
});

describe('a write the API answered, or that may have run, never goes out again', () => {
	beforeEach(() => fronts({ crs: true }));

	test.each([
		['the API\'s own 403 (a Read Only key)', { who: 'adminReadOnly' }, undefined, '403'],
		['the API\'s own 404 (no such document)', {}, 'missing', '404'],
		['a 500 after the handler ran', {}, { status: 500, mode: 'after' }, '500'],
		['the API\'s JSON 405', {}, { status: 405, mode: 'before', code: 'rest_no_route' }, '405'],
	])('after %s: one override attempt, no more', async (_, options, fault, httpCode) => {
		const doc = await makeDraft(sb);
		const id = fault === 'missing' ? '99999' : doc.id;
		if (fault && fault !== 'missing') await control(sb, 'POST', '/__sandbox/faults', { method: 'PUT', path: `/documents/${id}`, ...(fault as Json) });
		await clearLog(sb);
		const res = await esign(sb, update(id), options as Json);
		expect(res.error.httpCode).toBe(httpCode);
		// The refused PUT, then the override that reached the API: nothing after it.
		expect((await attempts()).map((line) => line.replace(/ ran$/, ''))).toEqual([`PUT /documents/${id} refused 911100`, `PUT/POST ?_method /documents/${id}`]);
	});

	test('a site that does not take the method from ?_method= (not WordPress): said so, and nothing changed', async () => {
		const doc = await makeDraft(sb);
		await control(sb, 'POST', '/__sandbox/faults', { method: 'PUT', path: `/documents/${doc.id}`, status: 404, code: 'rest_no_route', message: 'No route was found matching the URL and request method.' });
		const res = await esign(sb, update(doc.id));
		expect(res.error.description).toMatch(/^A firewall in front of the site refused PUT, so n8n sent it as POST with \?_method=PUT, as WordPress's own editor does; the site did not take the method from it/);
		expect(res.error.description).toMatch(/Ask the host to allow PUT for \/wp-json\/esign\/v1\. Nothing was changed\.$/);
	});

	test('a dropped connection on the override: not sent again', async () => {
		const doc = await makeDraft(sb);
		await control(sb, 'POST', '/__sandbox/faults', { method: 'PUT', path: `/documents/${doc.id}`, mode: 'drop-after' });
		await clearLog(sb);
		const res = await esign(sb, update(doc.id));
		expect(res.error.description).toMatch(/not repeated automatically/);
		expect(await attempts()).toEqual([`PUT /documents/${doc.id} refused 911100`, `PUT/POST ?_method /documents/${doc.id} ran`]);
		expect((await counters()).updateExecuted).toBe(1);
	});

	test('a POST the front refused is not sent again (only PUT and DELETE have another form)', async () => {
		await clearLog(sb);
		const res = await esign(sb, { resource: 'document', operation: 'create', title: "Robert'); DROP TABLE documents;--" });
		expect(res.error.httpCode).toBe('403');
		expect(await attempts()).toEqual(['POST /documents refused 942100']);
		expect((await counters()).createExecuted).toBe(0);
	});
});

describe('other firewalls: the header form, and refusals of every form', () => {
	test('CRS 4 at its default paranoia level (override headers refused, 920450): ?_method= passes, the header is never needed', async () => {
		await fronts({ crs: { version: '4' } });
		const doc = await makeDraft(sb);
		await clearLog(sb);
		expect((await esign(sb, update(doc.id))).error).toBeUndefined();
		expect(await attempts()).toEqual([`PUT /documents/${doc.id} refused 911100`, `PUT/POST ?_method /documents/${doc.id} ran`]);
	});

	test('a firewall that refuses ?_method= but not the header: the third form gets through, and is remembered', async () => {
		const docs = [await makeDraft(sb), await makeDraft(sb)];
		// The real PUT and the ?_method= form (both PUT as routed) get a bare HTML 403 before the handler.
		const page = { status: 403, headers: { 'Content-Type': 'text/html' }, body: '<html><body><h1>Forbidden</h1></body></html>' };
		await control(sb, 'POST', '/__sandbox/faults', { method: 'PUT', path: `/documents/${docs[0].id}`, count: 2, mode: 'before', raw: page });
		await clearLog(sb);
		const res = await esign(sb, update('={{ $json.id }}'), { input: docs.map((d) => ({ json: { id: d.id } })) });
		expect(res.error).toBeUndefined();
		expect(await attempts()).toEqual([
			`PUT /documents/${docs[0].id}`,
			`PUT/POST ?_method /documents/${docs[0].id}`,
			`PUT/POST header /documents/${docs[0].id} ran`,
			`PUT/POST header /documents/${docs[1].id} ran`,
		]);
	});

	test('CRS 4 at paranoia level 2 refuses all three forms: the error names the method, both overrides and rule 911100', async () => {
		await fronts({ crs: { version: '4', paranoiaLevel: 2 } });
		const doc = await makeDraft(sb, { title: 'Unchanged' });
		await clearLog(sb);
		const res = await esign(sb, update(doc.id));
		expect(await attempts()).toEqual([
			`PUT /documents/${doc.id} refused 911100`,
			`PUT/POST ?_method /documents/${doc.id} refused 920650`,
			`PUT/POST header /documents/${doc.id} refused 920450`,
		]);
		expect(res.error.httpCode).toBe('403');
		expect(res.error.message).toBe(`A firewall in front of the site refused PUT /documents/${doc.id} (HTTP 403): not WordPress, and not the API key`);
		expect(res.error.description).toMatch(/^It refused PUT, and the same request sent as POST with \?_method=PUT and with the X-HTTP-Method-Override header \(the ways WordPress accepts it\)/);
		expect(res.error.description).toMatch(/Ask the host to allow PUT for \/wp-json\/esign\/v1 \(Core Rule Set: add it to tx\.allowed_methods, rule 911100\)/);
		expect(res.error.description).toMatch(/did not reach WordPress, so nothing was changed/);
		expect(res.error.context).toMatchObject({ apiCode: 'blocked_firewall', triedOverride: ['method', 'query', 'header'] });
		expect((await api(sb, 'GET', `/documents/${doc.id}`)).body.title).toBe('Unchanged');
	});
});

describe('firewall refusals in plain words', () => {
	beforeEach(() => fronts({ crs: true }));

	test('a title that looks like SQL: the title is named as the likely trigger, with what to ask the host', async () => {
		const doc = await makeDraft(sb, { title: 'Unchanged' });
		await clearLog(sb);
		const res = await esign(sb, update(doc.id, "1' OR '1'='1"));
		expect(res.error.message).toBe(`A firewall in front of the site refused PUT /documents/${doc.id} (HTTP 403): not WordPress, and not the API key`);
		expect(res.error.description).toMatch(/^The likely trigger is the text of title \(«1' OR '1'='1»\), which looks like SQL to its attack rules\. Ask the host to allow \/wp-json\/esign\/v1 for the rule its log names for this request, or change that text\./);
		expect(res.error.context.likelyTrigger).toBe('title');
		expect((await requestLog(sb)).map((r: Json) => r.rule)).toEqual(['911100', '942100', '942100']);
	});

	test('a signer name with a script tag on a POST: the field is named; the key and secret never show', async () => {
		const doc = await makeDraft(sb);
		const res = await esign(sb, { resource: 'signer', operation: 'add', documentId: rl(doc.id), name: '<script>alert(1)</script>', email: 'x@example.org' });
		expect(res.error.description).toMatch(/^The likely trigger is the text of name \(«<script>alert\(1\)<\/script>»\), which looks like HTML or a script/);
		expect(res.error.description).toMatch(/Start of the answer: «<!DOCTYPE HTML PUBLIC .*<title>403 Forbidden<\/title>/);
		const shown = JSON.stringify(res.error);
		expect(shown).not.toContain(sb.keys.admin.key);
		expect(shown).not.toContain(sb.keys.admin.secret);
	});

	test.each(['filesystem', 'default'])('an upload whose title looks like a script (%s binary mode, streamed or whole): the title is named', async (binaryMode) => {
		const input = [{ json: {}, binary: { data: { data: await sample(sb, 'one-page.pdf'), fileName: 'Vertrag Müller & Söhne.pdf', mimeType: 'application/pdf' } } }];
		const res = await esign(sb, { resource: 'document', operation: 'upload', title: 'Report <script>x</script>' }, { input, binaryMode });
		expect(res.error.description).toMatch(/^The likely trigger is the text of title \(«Report <script>x<\/script>»\), which looks like HTML or a script/);
		expect((await counters()).uploadExecuted).toBe(0);
	});

	test.each(['filesystem', 'default'])('a file name with an apostrophe (%s binary mode): the file name is named (CRS rule 920120); & and accents pass', async (binaryMode) => {
		const file = async (fileName: string) => [{ json: {}, binary: { data: { data: await sample(sb, 'one-page.pdf'), fileName, mimeType: 'application/pdf' } } }];
		const refused = await esign(sb, { resource: 'document', operation: 'upload', title: 'Lease' }, { input: await file("Zoë's Vertrag.pdf"), binaryMode });
		expect(refused.error.description).toMatch(/^The likely trigger is the text of file \(file name\) \(«Zoë's Vertrag\.pdf»\), which looks like a multipart trick/);
		expect((await requestLog(sb)).at(-1)).toMatchObject({ front: 'crs', rule: '920120' });
		const passed = await esign(sb, { resource: 'document', operation: 'upload', title: 'Lease' }, { input: await file('Vertrag Müller & Söhne.pdf'), binaryMode });
		expect(passed.items[0].json.original_filename).toBe('Vertrag Müller & Söhne.pdf');
	});

	test('nothing the node can name: the firewall, not WordPress or the key, and the rule its log names', async () => {
		await fronts({ crs: false, block: { kind: 'modsecurity', status: 403 } });
		const res = await esign(sb, { resource: 'stats', operation: 'get' });
		expect(res.error.message).toBe('The server\'s firewall (mod_security) refused GET /stats (HTTP 403): not WordPress, and not the API key');
		expect(res.error.description).toMatch(/^Something in the request matched one of its rules\. Ask the host to allow \/wp-json\/esign\/v1 for the rule its log names for this request\./);
		expect(res.error.description).not.toMatch(/security plugin/);
	});
});
