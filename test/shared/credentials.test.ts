// The credential is read (and decrypted) once per node execution, not once per request: in real n8n each
// read costs a database query and a decryption, and the old generic header expressions an isolated-VM run.
import { ESIGN, credentialsFor, harness, makeDraft, requestLog, rl, useSandbox } from '../support';

const sb = useSandbox();

interface CountingHelper {
	decryptCalls: number;
	authenticateCalls: number;
}

test('five items of Document Get: one credential read, five authenticated requests with the right headers', async () => {
	const doc = await makeDraft(sb, { title: 'Counted' });
	const before = (await requestLog(sb)).length;
	const res = await harness.runNode({
		type: ESIGN,
		parameters: { resource: 'document', operation: 'get', documentId: rl(doc.id) },
		credentials: credentialsFor(sb),
		input: [1, 2, 3, 4, 5].map((n) => ({ json: { n } })),
	});
	expect(res.error).toBeUndefined();
	expect(res.items).toHaveLength(5);
	const helper = res.credentialsHelper as CountingHelper;
	expect(helper.decryptCalls).toBe(1);
	expect(helper.authenticateCalls).toBe(5);
	// The site saw the admin key on every request (the sandbox authenticates key + secret).
	const gets = (await requestLog(sb)).slice(before).filter((r) => r.method === 'GET');
	expect(gets).toHaveLength(5);
	for (const entry of gets) expect(entry.keyName).toBe('admin');
});

test('Return All over several pages reads the credential once', async () => {
	for (let n = 0; n < 3; n++) await makeDraft(sb, { title: `Doc ${n}` });
	const res = await harness.runNode({
		type: ESIGN,
		parameters: { resource: 'document', operation: 'getMany', returnAll: false, limit: 3 },
		credentials: credentialsFor(sb),
		input: [{ json: {} }, { json: {} }],
	});
	expect(res.items).toHaveLength(6);
	expect((res.credentialsHelper as CountingHelper).decryptCalls).toBe(1);
});

test('the cached key and secret never appear in output items', async () => {
	const doc = await makeDraft(sb);
	const res = await harness.runNode({
		type: ESIGN,
		parameters: { resource: 'document', operation: 'get', documentId: rl(doc.id) },
		credentials: credentialsFor(sb),
		input: [{ json: {} }, { json: {} }],
	});
	const dump = JSON.stringify(res.items);
	expect(dump).not.toContain(sb.keys.admin.key);
	expect(dump).not.toContain(sb.keys.admin.secret);
});

test('a wrong secret fails every item with the site’s 401 and never shows the secret', async () => {
	const doc = await makeDraft(sb);
	const res = await harness.runNode({
		type: ESIGN,
		parameters: { resource: 'document', operation: 'get', documentId: rl(doc.id) },
		credentials: { ...credentialsFor(sb), apiSecret: 'cached-but-wrong-secret' },
		input: [{ json: {} }, { json: {} }],
		continueOnFail: true,
	});
	expect(res.items.map((item) => item.json.httpCode)).toEqual(['401', '401']);
	expect(JSON.stringify(res.items)).not.toContain('cached-but-wrong-secret');
});
