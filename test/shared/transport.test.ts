// The transport as users meet it through the node: error mapping, rate limits, retries that are
// safe and writes that are never repeated, Continue On Fail, Read Only keys, binary round trips.
import {
	api,
	clearLog,
	control,
	createSandbox,
	credentialsFor,
	esign,
	harness,
	ESIGN,
	makeDraft,
	requestLines,
	requestLog,
	rl,
	sample,
	timersSet,
	useSandbox,
} from '../support';

const sb = useSandbox();

const stats = { resource: 'stats', operation: 'get' };

describe('error mapping', () => {
	test('401: wrong secret → the API code and message, advice to check key and secret, no secret leaked', async () => {
		const credentials = { ...credentialsFor(sb), apiSecret: 'definitely-wrong-secret-value' };
		const res = await harness.runNode({ type: ESIGN, parameters: stats, credentials });
		expect(res.error.httpCode).toBe('401');
		expect(res.error.message).toMatch(/\[rest_forbidden\]/);
		expect(res.error.description).toMatch(/key or secret/);
		const dump = JSON.stringify({ m: res.error.message, d: res.error.description, c: res.error.context, items: res.items });
		expect(dump).not.toContain('definitely-wrong-secret-value');
		expect(dump).not.toContain(sb.keys.admin.secret);
	});

	test('403 rest_forbidden: a Read Only key can read but every write says a Full Access key is needed', async () => {
		const doc = await makeDraft(sb, { title: 'Readable' });
		const read = await esign(sb, { resource: 'document', operation: 'get', documentId: rl(doc.id) }, { who: 'adminReadOnly' });
		expect(read.items[0].json.title).toBe('Readable');
		const list = await esign(sb, { resource: 'document', operation: 'getMany', returnAll: true }, { who: 'adminReadOnly' });
		expect(list.items).toHaveLength(1);
		expect((await esign(sb, stats, { who: 'adminReadOnly' })).items[0].json.total).toBe(1);

		const writes = [
			{ resource: 'document', operation: 'update', documentId: rl(doc.id), updateFields: { title: 'x' } },
			{ resource: 'document', operation: 'delete', documentId: rl(doc.id) },
			{ resource: 'signer', operation: 'add', documentId: rl(doc.id), name: 'A', email: 'a@example.org' },
			{ resource: 'document', operation: 'create', title: 'T' },
		];
		for (const parameters of writes) {
			const res = await esign(sb, parameters, { who: 'adminReadOnly' });
			expect(res.error.httpCode).toBe('403');
			expect(res.error.message).toMatch(/read-only/i);
			expect(res.error.description).toMatch(/Read Only.*Full Access/);
		}
		expect((await api(sb, 'GET', `/documents/${doc.id}`)).body.title).toBe('Readable');
	});

	test('403 forbidden: another user’s document', async () => {
		const doc = await makeDraft(sb, { who: 'user2' });
		const res = await esign(sb, { resource: 'document', operation: 'get', documentId: rl(doc.id) }, { who: 'user' });
		expect(res.error.httpCode).toBe('403');
		expect(res.error.message).toBe('Permission denied. [forbidden]');
		expect(res.error.description).toMatch(/belongs to another user/);
	});

	test('404 for a wrong site path: advice to check the Site URL', async () => {
		const credentials = { ...credentialsFor(sb), siteUrl: `${sb.url}/not-wordpress` };
		const res = await harness.runNode({ type: ESIGN, parameters: stats, credentials });
		expect(res.error.httpCode).toBe('404');
		expect(res.error.description).toMatch(/Site URL/);
	});

	test('the site URL works with a trailing slash or the full API suffix', async () => {
		for (const siteUrl of [`${sb.url}/`, `${sb.url}/wp-json/esign/v1`, `${sb.url}/wp-json/esign/v1/`]) {
			const res = await harness.runNode({ type: ESIGN, parameters: stats, credentials: { ...credentialsFor(sb), siteUrl } });
			expect(res.error).toBeUndefined();
			expect(typeof res.items[0].json.total).toBe('number');
		}
	});
});

describe('rate limits (429)', () => {
	test('waits for Retry-After and tries again; the sandbox saw each attempt', async () => {
		await control(sb, 'POST', '/__sandbox/faults', { method: 'GET', path: '/stats', count: 2, status: 429, retryAfter: 1, mode: 'before' });
		await clearLog(sb);
		const started = Date.now();
		const res = await esign(sb, stats);
		const elapsed = Date.now() - started;
		expect(res.error).toBeUndefined();
		expect(await requestLines(sb)).toEqual(['GET /stats', 'GET /stats', 'GET /stats']);
		expect(elapsed).toBeGreaterThanOrEqual(2000);
	});

	test('a 429 on a write is retried too (the site did not process it) and the send runs once', async () => {
		const doc = await makeDraft(sb, { signers: [{ name: 'Ann', email: 'ann@example.org' }] });
		await control(sb, 'POST', '/__sandbox/faults', { method: 'POST', path: '/send', count: 1, status: 429, retryAfter: 1, mode: 'before' });
		const res = await esign(sb, { resource: 'document', operation: 'send', documentId: rl(doc.id) });
		expect(res.error).toBeUndefined();
		expect((await control(sb, 'GET', '/__sandbox/counters')).sendExecuted).toBe(1);
		expect(await control(sb, 'GET', `/__sandbox/outbox?document_id=${doc.id}`)).toHaveLength(1);
	});

	test('a wait longer than Max Rate Limit Wait fails at once with the wait the site asked for', async () => {
		// "At once" is counted, not timed (a busy machine is slow): one request, and no timer of a second or more
		// beyond those the same request sets when the site answers at once (its request timeout).
		const run = () => timersSet(() => esign(sb, { ...stats, requestOptions: { maxRateLimitWait: 5 } }));
		const answered = await run();
		expect(answered.result.error).toBeUndefined();
		await control(sb, 'POST', '/__sandbox/faults', { method: 'GET', path: '/stats', count: 1, status: 429, retryAfter: 120, mode: 'before' });
		await clearLog(sb);
		const { result: res, delays } = await run();
		expect(delays).toEqual(answered.delays);
		expect(await requestLines(sb)).toEqual(['GET /stats']);
		expect(res.error.httpCode).toBe('429');
		expect(res.error.message).toMatch(/rate_limit_exceeded/);
		expect(res.error.description).toMatch(/wait 120 seconds/);
	});

	test('the real per-key limit of the sandbox answers 429 and the node reports it', async () => {
		const limited = await createSandbox({ port: 0, rateLimits: { perKeyPerHour: 3, perIpPerMinute: 1000 } });
		try {
			const credentials = credentialsFor(limited);
			for (let n = 0; n < 3; n++) {
				const ok = await harness.runNode({ type: ESIGN, parameters: stats, credentials });
				expect(ok.error).toBeUndefined();
			}
			const res = await harness.runNode({ type: ESIGN, parameters: { ...stats, requestOptions: { maxRateLimitWait: 0 } }, credentials });
			expect(res.error.httpCode).toBe('429');
			expect(res.error.description).toMatch(/it asks to wait \d+ seconds/);
		} finally {
			await limited.close();
		}
	});
});

describe('retries: reads are repeated, writes never', () => {
	test('a GET that fails with 500 is retried and succeeds', async () => {
		const doc = await makeDraft(sb);
		await control(sb, 'POST', '/__sandbox/faults', { method: 'GET', path: `/documents/${doc.id}`, count: 2, status: 500, mode: 'before' });
		await clearLog(sb);
		const res = await esign(sb, { resource: 'document', operation: 'get', documentId: rl(doc.id) });
		expect(res.error).toBeUndefined();
		expect(await requestLines(sb)).toHaveLength(3);
	});

	test('a send that ran and then answered 500 is not repeated: one send, one email per signer', async () => {
		const doc = await makeDraft(sb, {
			signers: [
				{ name: 'Ann', email: 'ann@example.org' },
				{ name: 'Bob', email: 'bob@example.org' },
			],
		});
		await control(sb, 'POST', '/__sandbox/faults', { method: 'POST', path: '/send', count: 1, status: 500, mode: 'after' });
		await clearLog(sb);
		const res = await esign(sb, { resource: 'document', operation: 'send', documentId: rl(doc.id) });
		expect(res.error.httpCode).toBe('500');
		expect(res.error.description).toMatch(/not repeated automatically/);
		expect(await requestLines(sb)).toEqual([`POST /documents/${doc.id}/send`]);
		expect((await control(sb, 'GET', '/__sandbox/counters')).sendExecuted).toBe(1);
		const outbox = await control(sb, 'GET', `/__sandbox/outbox?document_id=${doc.id}`);
		expect(outbox.map((m) => m.to).sort()).toEqual(['ann@example.org', 'bob@example.org']);
	});

	test('a dropped connection after a remind ran is not repeated either', async () => {
		const doc = await makeDraft(sb, { signers: [{ name: 'Ann', email: 'ann@example.org' }] });
		await api(sb, 'POST', `/documents/${doc.id}/send`);
		await control(sb, 'POST', '/__sandbox/faults', { method: 'POST', path: '/remind', count: 1, mode: 'drop-after' });
		const res = await esign(sb, { resource: 'document', operation: 'remind', documentId: rl(doc.id), remindTo: 'all' });
		expect(res.error).toBeDefined();
		expect(res.error.description).toMatch(/not repeated automatically/);
		expect((await control(sb, 'GET', '/__sandbox/counters')).remindExecuted).toBe(1);
		const reminders = (await control(sb, 'GET', `/__sandbox/outbox?document_id=${doc.id}`)).filter((m) => m.kind === 'reminder');
		expect(reminders).toHaveLength(1);
	});
});

describe('Continue On Fail and pairing', () => {
	test('a mix of good and bad items: every result in order, each paired, errors as items', async () => {
		const a = await makeDraft(sb, { title: 'A' });
		const b = await makeDraft(sb, { title: 'B' });
		const input = [a.id, 99999, b.id, 'abc'].map((id) => ({ json: { id } }));
		const res = await esign(
			sb,
			{ resource: 'document', operation: 'get', documentId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			{ input, continueOnFail: true },
		);
		expect(res.error).toBeUndefined();
		expect(res.items).toHaveLength(4);
		expect(res.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(res.items[0].json.title).toBe('A');
		expect(res.items[1].json).toMatchObject({ httpCode: '404', apiCode: 'not_found' });
		expect(res.items[1].json.error).toMatch(/not_found/);
		expect(res.items[2].json.title).toBe('B');
		expect(res.items[3].json.error).toMatch(/^"Document" must be a document ID/);
	});

	test('without Continue On Fail the run stops at the failing item and names it', async () => {
		const a = await makeDraft(sb, { title: 'A' });
		const input = [a.id, 99999].map((id) => ({ json: { id } }));
		const res = await esign(sb, { resource: 'document', operation: 'get', documentId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } }, { input });
		expect(res.error).toBeDefined();
		expect(res.error.context.itemIndex).toBe(1);
	});
});

describe('binary round trip', () => {
	for (const binaryMode of ['filesystem', 'default']) {
		for (const [name, mimeType] of [
			['contract.pdf', 'application/pdf'],
			['photo.png', 'image/png'],
			['photo.jpg', 'image/jpeg'],
		]) {
			test(`${name} uploaded and downloaded byte for byte (${binaryMode} mode)`, async () => {
				const bytes = await sample(sb, name);
				const input = [{ json: {}, binary: { data: { data: bytes, fileName: name, mimeType } } }];
				const up = await esign(sb, { resource: 'document', operation: 'upload' }, { input, binaryMode });
				expect(up.error).toBeUndefined();
				const id = up.items[0].json.id;
				const down = await esign(sb, { resource: 'document', operation: 'download', documentId: rl(id) }, { binaryMode });
				expect(down.error).toBeUndefined();
				expect(down.items[0].binary.data.mimeType).toBe(mimeType);
				const got = await down.binary(0, 'data');
				expect(got.length).toBe(bytes.length);
				expect(got.equals(bytes)).toBe(true);
			});
		}
	}

	test('a stored file (filesystem mode) is uploaded as a stream with its Content-Length, title and name as a form would send them', async () => {
		const bytes = await sample(sb, 'contract.pdf');
		await clearLog(sb);
		const input = [{ json: {}, binary: { data: { data: bytes, fileName: 'Q3 "final".pdf', mimeType: 'application/pdf' } } }];
		const up = await esign(sb, { resource: 'document', operation: 'upload', title: 'Lease für Café' }, { input, binaryMode: 'filesystem' });
		expect(up.error).toBeUndefined();
		expect(up.items[0].json).toMatchObject({ title: 'Lease für Café', original_filename: 'Q3 %22final%22.pdf', total_pages: '2' });
		const [entry] = await requestLog(sb);
		// Multipart overhead on top of the file: the length was known up front, never chunked.
		expect(entry.contentLength).toBeGreaterThan(bytes.length);
		expect(entry.contentLength).toBeLessThan(bytes.length + 600);
		const stored = sb.state.documents.get(Number(up.items[0].json.id));
		expect(stored.file.data.equals(bytes)).toBe(true);
	});
});
