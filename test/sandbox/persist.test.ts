// The sandbox's opt-in persistence (createSandbox({dataDir}), `npm run sandbox -- --data <dir>`): what `npm start`
// relies on to find its documents after a restart. Files and the CLI go through ./nodeTools (the lint keeps
// node: modules out of .ts files).
import type { Json, Sandbox } from '../support';
import { api, control, createSandbox, sample, sentDocument, upload } from '../support';
import { runSandboxCli as runCli, tempFolder } from './nodeTools';

let folder: ReturnType<typeof tempFolder>;
let dir: string;
beforeEach(() => {
	folder = tempFolder('esign-sandbox-data-');
	dir = folder.dir;
});
afterEach(() => folder.remove());

/**
 * The saved file once `check` holds for it. Waits for the sandbox's saves themselves (a change is saved
 * SAVE_DELAY_MS after it), never a fixed time: jest's test timeout is the only hang guard.
 */
async function savedWhen(sb: Sandbox, check: (saved: Json) => boolean): Promise<Json> {
	for (;;) {
		// Asked before the file is read: a save between the read and the wait is never missed.
		const next = sb.nextSave();
		const saved = folder.exists('state.json') ? JSON.parse(folder.text('state.json')) : null;
		if (saved && check(saved)) return saved;
		await next;
	}
}

const fileBytes = async (sb: Sandbox, id: string | number) => Buffer.from(await (await fetch(`${sb.url}/__sandbox/documents/${id}/file`)).arrayBuffer());

/** A completed document (its signed PDF built), a second one sent, a receiver registered and one delivery made. */
async function makeHistory(sb: Sandbox) {
	const done = await sentDocument(sb, { title: 'Kept contract' });
	for (const s of await control(sb, 'GET', `/__sandbox/signers?document_id=${done.id}`)) {
		await control(sb, 'POST', `/__sandbox/sign/${s.token}/sign`, {});
	}
	const open = await sentDocument(sb, { title: 'Kept open one' });
	await control(sb, 'POST', '/__sandbox/webhooks', { url: 'http://127.0.0.1:9/esign-hook', events: ['document.completed'] });
	await control(sb, 'POST', '/__sandbox/webhooks/test', { event: 'document.completed', data: { document_id: Number(done.id) }, timeoutMs: 2000 });
	await control(sb, 'POST', '/__sandbox/clock', { advanceSeconds: 3600 });
	return { done, open, signedPdf: await fileBytes(sb, done.id) };
}

/** Everything a restart must keep, read through the API and the controls. */
async function snapshot(sb: Sandbox, ids: Array<string | number>): Promise<Json> {
	const perDocument: Json = {};
	for (const id of ids) {
		perDocument[id] = {
			document: (await api(sb, 'GET', `/documents/${id}`)).body,
			audit: (await api(sb, 'GET', `/documents/${id}/audit`)).body,
			fields: (await api(sb, 'GET', `/documents/${id}/fields`)).body,
			file: (await fileBytes(sb, id)).toString('base64'),
		};
	}
	const all = {
		perDocument,
		list: (await api(sb, 'GET', '/documents')).body,
		templates: (await api(sb, 'GET', '/templates')).body,
		outbox: await control(sb, 'GET', '/__sandbox/outbox'),
		signers: await control(sb, 'GET', '/__sandbox/signers'),
		webhooks: await control(sb, 'GET', '/__sandbox/webhooks'),
		clock: (await control(sb, 'GET', '/__sandbox/clock')).offsetSeconds,
		stats: (await api(sb, 'GET', '/stats')).body,
	};
	// Signing links hold the address the sandbox answers at; npm start keeps its port, these tests do not.
	return JSON.parse(JSON.stringify(all).replace(/http:\/\/127\.0\.0\.1:\d+\/sign\//g, 'SITE/sign/'));
}

test('a sandbox with dataDir keeps documents, signers, fields, files, audit, outbox, webhooks, deliveries and ids across a restart', async () => {
	const first = await createSandbox({ port: 0, dataDir: dir });
	expect(first.persistence).toMatchObject({ dir, file: folder.path('state.json'), restored: false, movedAside: null });
	const { done, open, signedPdf } = await makeHistory(first);
	const before = await snapshot(first, [done.id, open.id]);
	const counters = await control(first, 'GET', '/__sandbox/counters');
	await first.close();

	const second = await createSandbox({ port: 0, dataDir: dir });
	try {
		expect(second.persistence?.restored).toBe(true);
		expect(await snapshot(second, [done.id, open.id])).toEqual(before);
		// The signed PDF is the one built before the restart, byte for byte (not rebuilt with new dates).
		expect((await fileBytes(second, done.id)).equals(signedPdf)).toBe(true);
		expect(before.webhooks.deliveries).toHaveLength(1);
		// Counters as they were, plus the reads of the snapshot taken after the restart.
		const after = await control(second, 'GET', '/__sandbox/counters');
		expect(after.sendExecuted).toBe(counters.sendExecuted);
		expect(after.uploadExecuted).toBe(2);
		// Id sequences go on: nothing is handed out twice.
		const next = await sentDocument(second, { title: 'After restart' });
		expect(Number(next.id)).toBe(Number(open.id) + 1);
		expect(Math.min(...next.signers.map((s: Json) => Number(s.id)))).toBe(Math.max(...before.signers.map((s: Json) => Number(s.id))) + 1);
		const receiver = await control(second, 'POST', '/__sandbox/webhooks', { url: 'http://127.0.0.1:9/other' });
		expect(receiver.receiver.id).toBe(before.webhooks.webhooks[0].id + 1);
	} finally {
		await second.close();
	}
});

test('changes are saved shortly after they happen (not only on close), atomically, with file bytes stored once', async () => {
	const sb = await createSandbox({ port: 0, dataDir: dir });
	try {
		// A4 is a sample no seed template uses, so its bytes are kept for this document alone.
		const doc = await upload(sb, await sample(sb, 'a4.pdf'), 'a4.pdf', 'Saved without a close');
		const saved = await savedWhen(sb, (data) => data.data.documents.$map.length === 1);
		const documents = new Map<number, Json>(saved.data.documents.$map);
		expect(documents.get(Number(doc.id))).toMatchObject({ title: 'Saved without a close', status: 'draft' });
		expect(folder.list()).toEqual(['files', 'state.json']);
		// The uploaded bytes are a file named by their SHA-256, referred to from the state.
		const hash = documents.get(Number(doc.id)).file.data.$file;
		expect(folder.bytes(`files/${hash}`).equals(sb.state.documents.get(Number(doc.id)).file.data)).toBe(true);
		// A reset is a change too: what is saved is the fresh site, and the bytes nothing refers to any more go.
		await control(sb, 'POST', '/__sandbox/reset');
		expect((await savedWhen(sb, (data) => data.data.ids.document === 0)).data.documents.$map).toEqual([]);
		expect(folder.exists('files', hash)).toBe(false);
	} finally {
		await sb.close();
	}
});

test('resetData starts over: no documents, ids from 1, the seed templates', async () => {
	const first = await createSandbox({ port: 0, dataDir: dir });
	await makeHistory(first);
	await first.close();
	const sb = await createSandbox({ port: 0, dataDir: dir, resetData: true });
	try {
		expect(sb.persistence?.restored).toBe(false);
		expect((await api(sb, 'GET', '/documents')).body).toEqual([]);
		expect((await control(sb, 'GET', '/__sandbox/webhooks')).webhooks).toEqual([]);
		expect((await api(sb, 'GET', '/templates')).body.map((t: Json) => t.name)).toEqual(['Rental Agreement', 'Mutual NDA', "Uma's Offer Letter"]);
		expect((await sentDocument(sb)).id).toBe('1');
	} finally {
		await sb.close();
	}
});

describe('a data file that cannot be read is moved aside, named in a warning, and the sandbox starts fresh', () => {
	const cases: Record<string, () => string> = {
		'not JSON': () => '{"format": "esign-sandbox-data", "version": 1, "data": {"documents": ',
		'another format': () => JSON.stringify({ hello: 'world' }),
		'an altered stored file': () => {
			const [name] = folder.list('files');
			folder.append(`files/${name}`, 'x');
			return folder.text('state.json');
		},
		'a missing stored file': () => {
			const state = JSON.parse(folder.text('state.json'));
			folder.remove('files');
			return JSON.stringify(state);
		},
	};
	for (const [name, corrupt] of Object.entries(cases)) {
		test(name, async () => {
			const first = await createSandbox({ port: 0, dataDir: dir });
			await sentDocument(first);
			await first.close();
			const text = corrupt();
			folder.write('state.json', text);
			const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
			const sb = await createSandbox({ port: 0, dataDir: dir });
			try {
				const { file, movedAside, warning, restored } = sb.persistence ?? {};
				expect(restored).toBe(false);
				expect(movedAside).toMatch(/state\.json\.corrupt-/);
				expect(folder.readAt(String(movedAside))).toBe(text);
				expect(warning).toContain(String(file));
				expect(warning).toContain(String(movedAside));
				expect(warning).toMatch(/starts with fresh data/);
				expect(warn).toHaveBeenCalledWith(expect.stringContaining(String(movedAside)));
				expect((await api(sb, 'GET', '/documents')).body).toEqual([]);
			} finally {
				warn.mockRestore();
				await sb.close();
			}
			// The fresh data is saved in its place and read back on the next start.
			const again = await createSandbox({ port: 0, dataDir: dir });
			try {
				expect(again.persistence).toMatchObject({ restored: true, movedAside: null });
			} finally {
				await again.close();
			}
		});
	}
});

test('without dataDir the sandbox keeps its data in memory only', async () => {
	const sb = await createSandbox({ port: 0 });
	try {
		expect(sb.persistence).toBeNull();
		await sentDocument(sb);
	} finally {
		await sb.close();
	}
	const next = await createSandbox({ port: 0 });
	try {
		expect((await api(next, 'GET', '/documents')).body).toEqual([]);
	} finally {
		await next.close();
	}
});

test('npm run sandbox: --data keeps the data across runs, --reset starts over, --reset alone is refused', async () => {
	const one = await runCli(['--data', dir]);
	expect(one.out).toContain(`Data:           kept in ${dir} (fresh)`);
	await control({ url: String(one.url) } as Sandbox, 'POST', '/__sandbox/seed/documents', { count: 2 });
	await one.stop?.();
	const two = await runCli([`--data=${dir}`]);
	expect(two.out).toContain('(2 document(s) restored)');
	await two.stop?.();
	const three = await runCli(['--data', dir, '--reset']);
	expect(three.out).toContain(`kept in ${dir} (fresh)`);
	await three.stop?.();
	const refused = await runCli(['--reset']);
	expect(refused.code).toBe(1);
	expect(refused.out).toContain('give --data too');
});
