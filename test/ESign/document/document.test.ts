// Document operations of the eSign node, run in n8n-core's WorkflowExecute against the sandbox over HTTP.
import {
	api,
	clearLog,
	control,
	esign,
	hostile,
	makeDraft,
	requestLines,
	rl,
	sample,
	sentDocument,
	startSiteWithoutPageHeaders,
	strictProfile,
	upload,
	useSandbox,
} from '../../support';

const sb = useSandbox();

const pdfInput = async (name = 'contract.pdf', fileName = name, mimeType = 'application/pdf') => [
	{ json: {}, binary: { data: { data: await sample(sb, name), fileName, mimeType } } },
];

describe('Document → Upload', () => {
	test('uploads the binary and returns the draft, titled after the file stem by default', async () => {
		const res = await esign(sb, { resource: 'document', operation: 'upload' }, { input: await pdfInput() });
		expect(res.error).toBeUndefined();
		expect(res.items).toHaveLength(1);
		const doc = res.items[0].json;
		expect(doc).toMatchObject({ title: 'contract', status: 'draft', original_filename: 'contract.pdf', total_pages: '2' });
		expect(res.items[0].pairedItem).toEqual({ item: 0 });
		const stored = await api(sb, 'GET', `/documents/${doc.id}`);
		expect(stored.status).toBe(200);
	});

	test('uses the given title and a custom binary field', async () => {
		const input = [{ json: {}, binary: { contract: { data: await sample(sb, 'one-page.pdf'), fileName: 'x.pdf', mimeType: 'application/pdf' } } }];
		const res = await esign(
			sb,
			{ resource: 'document', operation: 'upload', binaryPropertyName: 'contract', title: 'Lease 12 Oak St' },
			{ input },
		);
		expect(res.error).toBeUndefined();
		expect(res.items[0].json.title).toBe('Lease 12 Oak St');
	});

	test('refuses a text file before any request, naming the item and field', async () => {
		await clearLog(sb);
		const input = [{ json: {}, binary: { data: { data: await sample(sb, 'notes.txt'), fileName: 'notes.pdf', mimeType: 'application/pdf' } } }];
		const res = await esign(sb, { resource: 'document', operation: 'upload' }, { input });
		expect(res.error).toBeDefined();
		expect(res.error.context.itemIndex).toBe(0);
		expect(res.error.message).toMatch(/"data"/);
		expect(res.error.message).toMatch(/not a PDF, PNG or JPG/);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('a missing binary field is a clear error', async () => {
		const res = await esign(sb, { resource: 'document', operation: 'upload', binaryPropertyName: 'file' }, { input: await pdfInput() });
		expect(res.error).toBeDefined();
		expect(res.error.message).toMatch(/file/);
	});
});

describe('Document → Create, Get, Get Many, Update, Delete', () => {
	test('create from a stored file path, and without one', async () => {
		const form = new FormData();
		form.append('file', new Blob([new Uint8Array(await sample(sb, 'contract.pdf'))]), 'stored.pdf');
		const stored = await (await fetch(`${sb.url}/__sandbox/storage`, { method: 'POST', body: form })).json();
		const res = await esign(sb, {
			resource: 'document',
			operation: 'create',
			title: 'From storage',
			additionalFields: { file_path: stored.file_path, original_filename: 'stored.pdf' },
		});
		expect(res.error).toBeUndefined();
		expect(res.items[0].json).toMatchObject({ title: 'From storage', status: 'draft', total_pages: '2' });

		const bare = await esign(sb, { resource: 'document', operation: 'create', title: 'No file yet' });
		expect(bare.items[0].json).toMatchObject({ title: 'No file yet', status: 'draft' });
	});

	test('create with a file path older than 15 minutes is refused by the site', async () => {
		const form = new FormData();
		form.append('file', new Blob([new Uint8Array(await sample(sb, 'contract.pdf'))]), 'old.pdf');
		const stored = await (await fetch(`${sb.url}/__sandbox/storage`, { method: 'POST', body: form })).json();
		await control(sb, 'POST', '/__sandbox/storage/age', { file_path: stored.file_path, minutes: 16 });
		const res = await esign(sb, {
			resource: 'document',
			operation: 'create',
			title: 'Too old',
			additionalFields: { file_path: stored.file_path },
		});
		expect(res.error).toBeDefined();
		expect(res.error.httpCode).toBe('400');
		expect(res.error.message).toMatch(/file_expired/);
	});

	test('get returns signers, fields and file hash; an unknown id is a 404 with guidance', async () => {
		const doc = await makeDraft(sb, { signers: [{ name: 'Ann', email: 'ann@example.org' }] });
		const res = await esign(sb, { resource: 'document', operation: 'get', documentId: rl(doc.id) });
		expect(res.error).toBeUndefined();
		const got = res.items[0].json;
		expect(got.id).toBe(String(doc.id));
		expect(got.file_hash).toMatch(/^[0-9a-f]{64}$/);
		expect(got.signers).toHaveLength(1);
		expect(got.fields).toHaveLength(1);

		const missing = await esign(sb, { resource: 'document', operation: 'get', documentId: rl(99999) });
		expect(missing.error.httpCode).toBe('404');
		expect(missing.error.message).toMatch(/not_found/);
		expect(missing.error.description).toMatch(/check the id/i);
	});

	test('a non-numeric id is refused before any request', async () => {
		await clearLog(sb);
		// Typed in "By ID" mode, n8n checks the field's pattern before the node runs.
		const typed = await esign(sb, { resource: 'document', operation: 'get', documentId: rl('abc') });
		expect(typed.error.message).toMatch(/A document ID is a whole number/);
		// From an expression, the node's own check names the item and the parameter.
		const fromExpression = await esign(
			sb,
			{ resource: 'document', operation: 'get', documentId: rl('={{ $json.ref }}') },
			{ input: [{ json: { ref: 'DOC-7' } }] },
		);
		expect(fromExpression.error.message).toBe('"Document" must be a document ID (a whole number), got "DOC-7"');
		expect(fromExpression.error.context.itemIndex).toBe(0);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('update changes the title; a status change the site refuses fails the item (the refusal is the default profile’s guess)', async () => {
		const doc = await makeDraft(sb, { title: 'Old' });
		const res = await esign(sb, {
			resource: 'document',
			operation: 'update',
			documentId: rl(doc.id),
			updateFields: { title: 'New title' },
		});
		expect(res.items[0].json.title).toBe('New title');
		expect((await api(sb, 'GET', `/documents/${doc.id}`)).body.title).toBe('New title');

		const bad = await esign(sb, {
			resource: 'document',
			operation: 'update',
			documentId: rl(doc.id),
			updateFields: { status: 'sent' },
		});
		// The spec does not show which status changes a site allows. The default profile guesses that a draft with no
		// signer cannot be marked sent; the strict profile accepts it, and the node outputs the document as answered.
		if (strictProfile) {
			expect(bad.error).toBeUndefined();
			expect(bad.items[0].json).toMatchObject({ id: String(doc.id), status: 'sent' });
		} else {
			expect(bad.error).toBeDefined();
			expect(bad.error.httpCode).toBe('400');
		}
	});

	test('update status: a sent document nobody opened goes back to draft, and (the default profile’s guess) not once it was viewed', async () => {
		const doc = await sentDocument(sb);
		const back = await esign(sb, { resource: 'document', operation: 'update', documentId: rl(doc.id), updateFields: { status: 'draft' } });
		expect(back.error).toBeUndefined();
		expect(back.items[0].json.status).toBe('draft');
		expect((await api(sb, 'GET', `/documents/${doc.id}`)).body.status).toBe('draft');

		const viewed = await sentDocument(sb);
		const [first] = await control(sb, 'GET', `/__sandbox/signers?document_id=${viewed.id}`);
		await control(sb, 'POST', `/__sandbox/sign/${first.token}/view`);
		const refused = await esign(sb, { resource: 'document', operation: 'update', documentId: rl(viewed.id), updateFields: { status: 'draft' } });
		// The strict profile plays the spec alone, which shows no such refusal: the change is made.
		expect(refused.error?.httpCode).toBe(strictProfile ? undefined : '400');
		expect((await api(sb, 'GET', `/documents/${viewed.id}`)).body.status).toBe(strictProfile ? 'draft' : 'viewed');
	});

	test('update with nothing to change fails before any request', async () => {
		const doc = await makeDraft(sb);
		await clearLog(sb);
		const res = await esign(sb, { resource: 'document', operation: 'update', documentId: rl(doc.id), updateFields: {} });
		expect(res.error.message).toMatch(/^Nothing to update/);
		expect(await requestLines(sb)).toEqual([]);
	});

	test('delete removes the document for good', async () => {
		const doc = await makeDraft(sb);
		const res = await esign(sb, { resource: 'document', operation: 'delete', documentId: rl(doc.id) });
		expect(res.items[0].json).toEqual({ id: String(doc.id), deleted: true });
		expect((await api(sb, 'GET', `/documents/${doc.id}`)).status).toBe(404);
		const again = await esign(sb, { resource: 'document', operation: 'delete', documentId: rl(doc.id) });
		expect(again.error.httpCode).toBe('404');
	});
});

describe('Document → Get Many (Return All / Limit / filters)', () => {
	test('Return All over 230 documents takes exactly 3 requests of 100', async () => {
		await control(sb, 'POST', '/__sandbox/seed/documents', { count: 230, owner: 'admin' });
		await clearLog(sb);
		const res = await esign(sb, { resource: 'document', operation: 'getMany', returnAll: true });
		expect(res.error).toBeUndefined();
		expect(res.items).toHaveLength(230);
		expect(new Set(res.items.map((i) => i.json.id)).size).toBe(230);
		const log = await control(sb, 'GET', '/__sandbox/requests');
		expect(log).toHaveLength(3);
		expect(log.map((r) => Number(r.query.per_page))).toEqual([100, 100, 100]);
		expect(log.map((r) => Number(r.query.page))).toEqual([1, 2, 3]);
	});

	test('Return All with exactly 200 documents stops at TotalPages (no empty third page)', async () => {
		await control(sb, 'POST', '/__sandbox/seed/documents', { count: 200, owner: 'admin' });
		await clearLog(sb);
		const res = await esign(sb, { resource: 'document', operation: 'getMany', returnAll: true });
		expect(res.items).toHaveLength(200);
		expect(await requestLines(sb)).toHaveLength(2);
	});

	test('an empty list costs one request and returns no items', async () => {
		await clearLog(sb);
		const res = await esign(sb, { resource: 'document', operation: 'getMany', returnAll: true });
		expect(res.error).toBeUndefined();
		expect(res.items).toHaveLength(0);
		expect(await requestLines(sb)).toHaveLength(1);
	});

	test('a Limit fetches no extra page', async () => {
		await control(sb, 'POST', '/__sandbox/seed/documents', { count: 150, owner: 'admin' });
		await clearLog(sb);
		const small = await esign(sb, { resource: 'document', operation: 'getMany', returnAll: false, limit: 30 });
		expect(small.items).toHaveLength(30);
		expect(await requestLines(sb)).toHaveLength(1);

		await clearLog(sb);
		const big = await esign(sb, { resource: 'document', operation: 'getMany', returnAll: false, limit: 120 });
		expect(big.items).toHaveLength(120);
		const log = await control(sb, 'GET', '/__sandbox/requests');
		expect(log).toHaveLength(2);
		// per_page stays fixed so page 2 starts right after page 1.
		expect(log.map((r) => Number(r.query.per_page))).toEqual([100, 100]);
		const ids = big.items.map((i) => Number(i.json.id));
		expect(ids).toEqual([...ids].sort((a, b) => b - a));
		expect(new Set(ids).size).toBe(120);
	});

	test('status and search filters reach the API', async () => {
		await control(sb, 'POST', '/__sandbox/seed/documents', { count: 3, owner: 'admin', titlePrefix: 'Invoice' });
		await control(sb, 'POST', '/__sandbox/seed/documents', { count: 2, owner: 'admin', titlePrefix: 'Lease' });
		await sentDocument(sb, { title: 'Lease signed soon' });
		const leases = await esign(sb, { resource: 'document', operation: 'getMany', returnAll: true, filters: { search: 'lease' } });
		expect(leases.items).toHaveLength(3);
		expect(leases.items.every((i) => /lease/i.test(i.json.title))).toBe(true);
		const sent = await esign(sb, { resource: 'document', operation: 'getMany', returnAll: true, filters: { status: 'sent' } });
		expect(sent.items.map((i) => i.json.title)).toEqual(['Lease signed soon']);
	});
});

describe('Document → Send, Remind, Expire', () => {
	test('send emails one invitation per signer', async () => {
		const doc = await makeDraft(sb, {
			signers: [
				{ name: 'Ann', email: 'ann@example.org' },
				{ name: 'Bob', email: 'bob@example.org' },
			],
		});
		const res = await esign(sb, { resource: 'document', operation: 'send', documentId: rl(doc.id) });
		expect(res.error).toBeUndefined();
		expect(res.items[0].json).toMatchObject({ document_id: String(doc.id), sent: true });
		const outbox = await control(sb, 'GET', `/__sandbox/outbox?document_id=${doc.id}`);
		expect(outbox.filter((m) => m.kind === 'invitation').map((m) => m.to).sort()).toEqual(['ann@example.org', 'bob@example.org']);
	});

	test('send without signers fails with no_signers', async () => {
		const doc = await makeDraft(sb);
		const res = await esign(sb, { resource: 'document', operation: 'send', documentId: rl(doc.id) });
		expect(res.error.httpCode).toBe('400');
		expect(res.error.message).toMatch(/no_signers/);
	});

	test('remind everyone eligible, or one signer', async () => {
		const doc = await sentDocument(sb);
		const all = await esign(sb, { resource: 'document', operation: 'remind', documentId: rl(doc.id), remindTo: 'all' });
		expect(all.error).toBeUndefined();
		expect(all.items[0].json.reminded.map(String).sort()).toEqual(doc.signers.map((s) => String(s.id)).sort());

		const one = await esign(sb, {
			resource: 'document',
			operation: 'remind',
			documentId: rl(doc.id),
			remindTo: 'one',
			signerId: String(doc.signers[1].id),
		});
		expect(one.items[0].json.reminded.map(String)).toEqual([String(doc.signers[1].id)]);
		const reminders = (await control(sb, 'GET', `/__sandbox/outbox?document_id=${doc.id}`)).filter((m) => m.kind === 'reminder');
		expect(reminders.map((m) => m.to).sort()).toEqual(['ann@example.org', 'bob@example.org', 'bob@example.org']);
	});

	test('remind once everyone has signed is refused by the site (no_recipients is the spec’s; invalid_state the default profile’s guess)', async () => {
		const doc = await sentDocument(sb);
		const signers = await control(sb, 'GET', `/__sandbox/signers?document_id=${doc.id}`);
		for (const s of signers) await control(sb, 'POST', `/__sandbox/sign/${s.token}/sign`, {});
		const res = await esign(sb, { resource: 'document', operation: 'remind', documentId: rl(doc.id), remindTo: 'all' });
		expect(res.error).toBeDefined();
		expect(res.error.httpCode).toBe('400');
		expect(res.error.context.apiCode).toBe(strictProfile ? 'no_recipients' : 'invalid_state');
	});

	test('expire: not due is explained; a due expiry is applied', async () => {
		const doc = await sentDocument(sb);
		const early = await esign(sb, { resource: 'document', operation: 'expire', documentId: rl(doc.id) });
		expect(early.error.message).toMatch(/not_due/);
		expect(early.error.description).toMatch(/no expiry date, or it is still in the future/);

		await control(sb, 'POST', `/__sandbox/documents/${doc.id}/expiry`, { inSeconds: -60 });
		const res = await esign(sb, { resource: 'document', operation: 'expire', documentId: rl(doc.id) });
		expect(res.error).toBeUndefined();
		expect(res.items[0].json).toMatchObject({ expired: true, document: { status: 'expired' } });
		expect((await api(sb, 'GET', `/documents/${doc.id}`)).body.status).toBe('expired');
	});
});

describe('Document → Download and Get Audit Trail', () => {
	test('download gives the file as binary with the API filename, type and size; JSON has no base64', async () => {
		const original = await sample(sb, 'contract.pdf');
		const doc = await upload(sb, original, 'lease.pdf', 'Lease');
		const res = await esign(sb, { resource: 'document', operation: 'download', documentId: rl(doc.id) });
		expect(res.error).toBeUndefined();
		const item = res.items[0];
		expect(item.json).toEqual({});
		expect(item.binary.data.fileName).toBe('lease.pdf');
		expect(item.binary.data.mimeType).toBe('application/pdf');
		expect(item.binary.data.bytes).toBe(original.length);
		expect((await res.binary(0, 'data')).equals(original)).toBe(true);
	});

	test('download keeps the incoming item: its JSON and its other binaries go on, the file is added (as n8n\'s own downloads do)', async () => {
		const original = await sample(sb, 'contract.pdf');
		const other = Buffer.from('notes kept beside the file');
		const doc = await upload(sb, original, 'lease.pdf', 'Lease');
		const input = [{ json: { keep: 1, id: doc.id }, binary: { other: { data: other, fileName: 'notes.txt', mimeType: 'text/plain' } } }];
		for (const binaryMode of ['filesystem', 'default']) {
			const res = await esign(sb, { resource: 'document', operation: 'download', documentId: rl('={{ $json.id }}'), binaryPropertyName: 'file' }, { input, binaryMode });
			expect(res.error).toBeUndefined();
			expect(res.items).toHaveLength(1);
			const item = res.items[0];
			expect(item.json).toEqual({ keep: 1, id: doc.id });
			expect(Object.keys(item.binary).sort()).toEqual(['file', 'other']);
			expect((await res.binary(0, 'other')).equals(other)).toBe(true);
			expect(item.binary.file).toMatchObject({ fileName: 'lease.pdf', mimeType: 'application/pdf', bytes: original.length });
			expect((await res.binary(0, 'file')).equals(original)).toBe(true);
			expect(item.pairedItem).toEqual({ item: 0 });
		}
	});

	test('an answer cut off in the middle of the content fails the item (it is read as it arrives, never trusted)', async () => {
		const doc = await upload(sb, await sample(sb, 'contract.pdf'), 'lease.pdf', 'Lease');
		const whole = JSON.stringify((await api(sb, 'GET', `/documents/${doc.id}/file`)).body);
		await hostile(sb, { path: `/documents/${doc.id}/file`, raw: { status: 200, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: whole.slice(0, Math.floor(whole.length / 2)) } });
		const res = await esign(sb, { resource: 'document', operation: 'download', documentId: rl(doc.id) });
		expect(res.error?.message).toBe(`The site's answer for the file of document ${doc.id} is not the eSign API's JSON (it ends before the JSON object does (cut off))`);
		expect(res.items).toHaveLength(0);
	});

	test('the File Name option renames the output file', async () => {
		const doc = await upload(sb, await sample(sb, 'photo.png'), 'scan.png', 'Scan');
		const res = await esign(sb, { resource: 'document', operation: 'download', documentId: rl(doc.id), options: { fileName: 'contract-42.png' } });
		expect(res.items[0].binary.data.fileName).toBe('contract-42.png');
		expect(res.items[0].binary.data.mimeType).toBe('image/png');
		expect(res.items[0].binary.data.fileExtension).toBe('png');
	});

	test('download of a completed document is the signed PDF', async () => {
		const original = await sample(sb, 'contract.pdf');
		const doc = await sentDocument(sb);
		for (const s of await control(sb, 'GET', `/__sandbox/signers?document_id=${doc.id}`)) {
			await control(sb, 'POST', `/__sandbox/sign/${s.token}/sign`, {});
		}
		const res = await esign(sb, { resource: 'document', operation: 'download', documentId: rl(doc.id), binaryPropertyName: 'signed' });
		const bytes = await res.binary(0, 'signed');
		expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
		expect(bytes.equals(original)).toBe(false);
		expect(res.items[0].binary.signed.fileName).toMatch(/-signed\.pdf$/);
	});

	test('audit trail as one item or one item per event', async () => {
		const doc = await sentDocument(sb);
		const [first] = await control(sb, 'GET', `/__sandbox/signers?document_id=${doc.id}`);
		await control(sb, 'POST', `/__sandbox/sign/${first.token}/view`);
		const whole = await esign(sb, { resource: 'document', operation: 'getAuditTrail', documentId: rl(doc.id) });
		const trail = whole.items[0].json;
		expect(trail.document.id).toBe(String(doc.id));
		const actions = trail.events.map((e) => e.action);
		expect(actions).toEqual(expect.arrayContaining(['document_created', 'document_sent', 'document_viewed']));

		const split = await esign(sb, { resource: 'document', operation: 'getAuditTrail', documentId: rl(doc.id), output: 'events' });
		expect(split.items).toHaveLength(trail.events.length);
		expect(split.items.every((i) => i.json.document_id === String(doc.id) && i.pairedItem.item === 0)).toBe(true);
	});
});

describe('Document → Get Many, Return All across pages fetched together', () => {
	test('250 documents: 3 requests, every document once, in the site’s order (newest first)', async () => {
		await control(sb, 'POST', '/__sandbox/seed/documents', { count: 250, owner: 'admin' });
		await clearLog(sb);
		const res = await esign(sb, { resource: 'document', operation: 'getMany', returnAll: true });
		expect(res.error).toBeUndefined();
		const ids = res.items.map((item) => Number(item.json.id));
		expect(ids).toHaveLength(250);
		expect(new Set(ids).size).toBe(250);
		expect(ids).toEqual([...ids].sort((a, b) => b - a));
		const pages = (await requestLines(sb)).filter((line) => line === 'GET /documents');
		expect(pages).toHaveLength(3);
	});

	test('a Limit of 150 reads only the 2 pages it needs', async () => {
		await control(sb, 'POST', '/__sandbox/seed/documents', { count: 350, owner: 'admin' });
		await clearLog(sb);
		const res = await esign(sb, { resource: 'document', operation: 'getMany', returnAll: false, limit: 150 });
		expect(res.items).toHaveLength(150);
		expect(Number(res.items[0].json.id)).toBe(350);
		expect(Number(res.items[149].json.id)).toBe(201);
		expect((await requestLines(sb)).filter((line) => line === 'GET /documents')).toHaveLength(2);
	});
});

describe('Document → Get Many, Return All reads the same page rule as the picker', () => {
	test.each([
		// [count headers, documents, GET /documents requests]
		['wp', 250, 3],
		['wp', 200, 2], // the count says page 2 was the last: no empty page 3
		['both', 200, 2],
		['none', 200, 3], // without a count only an empty page ends it
	])('count headers %s, %i documents: every one, in %i requests', async (countHeaders, total, requests) => {
		await control(sb, 'POST', '/__sandbox/profile', { name: strictProfile ? 'strict' : 'default', countHeaders });
		await control(sb, 'POST', '/__sandbox/seed/documents', { count: total, owner: 'admin' });
		await clearLog(sb);
		const res = await esign(sb, { resource: 'document', operation: 'getMany', returnAll: true });
		expect(res.error).toBeUndefined();
		expect(new Set(res.items.map((item) => item.json.id)).size).toBe(total);
		expect((await requestLines(sb)).filter((line) => line === 'GET /documents')).toHaveLength(requests);
	});
});

describe('Document → Get Many, Return All on a site without page-count headers', () => {
	// Some sites (caches, proxies) strip X-ESIGN-Total/TotalPages: Return All must then read until a short or
	// empty page, and never stop early or loop.
	test.each([
		[230, [1, 2, 3]],
		[200, [1, 2, 3]], // a full last page: only an empty page 3 says it was the last
		[0, [1]],
	])('%i documents: every one once, pages read %j', async (total, expectedPages) => {
		const { site, pages, close } = await startSiteWithoutPageHeaders(total, sb);
		try {
			const res = await esign(site, { resource: 'document', operation: 'getMany', returnAll: true });
			expect(res.error).toBeUndefined();
			const ids = res.items.map((item) => Number(item.json.id));
			expect(ids).toHaveLength(total);
			expect(new Set(ids).size).toBe(total);
			expect(pages).toEqual(expectedPages);
		} finally {
			await close();
		}
	});
});
