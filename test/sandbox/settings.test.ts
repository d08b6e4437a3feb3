// The sandbox's webhook settings page (/__sandbox/settings) over HTTP, with a receiver that checks signatures the
// way the eSign Trigger does (test/support's recorder is the HTTP server).
import * as crypto from 'crypto';

import type { Sandbox } from '../support';
import { control, createSandbox, makeDraft, startRecorder } from '../support';

type Receiver = Awaited<ReturnType<typeof startVerifyingReceiver>>;

let sb: Sandbox;
let receiver: Receiver;
beforeAll(async () => {
	sb = await createSandbox({ port: 0 });
	receiver = await startVerifyingReceiver(() => sb.webhookSecret);
});
afterAll(async () => {
	await sb.close();
	await receiver.close();
});
beforeEach(async () => {
	await control(sb, 'POST', '/__sandbox/reset');
	receiver.requests.length = 0;
});

const hmac = (secret: string, raw: Buffer) => `sha256=${crypto.createHmac('sha256', secret).update(raw).digest('hex')}`;

/** Answers 200 when X-ESIGN-Signature is the HMAC-SHA256 of the raw body with the secret, else 401. */
async function startVerifyingReceiver(secret: () => string) {
	const receiver = await startRecorder(({ raw, headers }) => {
		const given = Buffer.from(String(headers['x-esign-signature'] ?? ''));
		const expected = Buffer.from(hmac(secret(), raw));
		const valid = given.length === expected.length && crypto.timingSafeEqual(given, expected);
		return { status: valid ? 200 : 401, body: valid ? { message: 'Workflow was started' } : { code: 'invalid_signature' }, record: { valid } };
	});
	return { ...receiver, url: `${receiver.url}/webhook/abc/esign` };
}

/** Posts a form as a browser does (urlencoded, redirects not followed). */
async function submit(path: string, fields: Record<string, string>) {
	const res = await fetch(sb.url + path, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(fields).toString(),
		redirect: 'manual',
	});
	return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

/** A page of the sandbox; a redirect's location (null when there was none) must be there to follow. */
const page = async (path: string | null = '/__sandbox/settings') => {
	expect(path).not.toBeNull();
	const res = await fetch(sb.url + path);
	expect(res.headers.get('content-type')).toMatch(/^text\/html/);
	return res.text();
};
/** The rows of the deliveries table, newest first, as their cells' text. */
const deliveryRows = (html: string) => [...html.matchAll(/<tr[^>]*data-delivery="(\d+)">(.*?)<\/tr>/g)]
	.map(([, id, row]) => ({ id: Number(id), cells: [...row.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1]) }));

test('the index page links the settings page, which shows the signing secret and says no URL is registered yet', async () => {
	expect(await page('/')).toContain('href="/__sandbox/settings"');
	const html = await page();
	expect(html).toContain(`<code id="secret">${sb.webhookSecret}</code>`);
	expect(html).toContain('No webhook URL yet.');
	expect(html).toContain('Add a webhook URL first.');
	expect(html).toContain('No deliveries yet.');
});

test('the form registers a pasted trigger URL (303 back to the page) and removes it again', async () => {
	const added = await submit('/__sandbox/settings/webhooks', { url: `  ${receiver.url}  ` });
	expect(added).toMatchObject({ status: 303, location: '/__sandbox/settings?done=added' });
	expect((await control(sb, 'GET', '/__sandbox/webhooks')).webhooks).toEqual([{ id: 1, url: receiver.url, events: null }]);
	const html = await page(added.location);
	expect(html).toContain('Webhook URL added.');
	expect(html).toContain(`<td>${receiver.url}</td><td>all events</td>`);

	const removed = await submit('/__sandbox/settings/webhooks/1/remove', {});
	expect(removed).toMatchObject({ status: 303, location: '/__sandbox/settings?done=removed' });
	expect((await control(sb, 'GET', '/__sandbox/webhooks')).webhooks).toEqual([]);
	expect(await page(removed.location)).toContain('No webhook URL yet.');
	expect((await submit('/__sandbox/settings/webhooks/1/remove', {})).status).toBe(404);
});

test('a URL that is not http(s) is refused in plain words, escaped, and nothing is registered', async () => {
	const refused = await submit('/__sandbox/settings/webhooks', { url: 'javascript:alert("<b>x</b>")' });
	expect(refused.status).toBe(400);
	expect(refused.text).toContain('is not an http(s) URL. Paste the URL the eSign Trigger node shows in n8n.');
	expect(refused.text).toContain('&#60;b&#62;x&#60;/b&#62;');
	expect(refused.text).not.toContain('<b>x</b>');
	expect((await control(sb, 'GET', '/__sandbox/webhooks')).webhooks).toEqual([]);
});

test('a signed test event verifies with the shared secret over the raw body; a mis-signed one does not and is answered 401', async () => {
	await submit('/__sandbox/settings/webhooks', { url: receiver.url });

	const signed = await submit('/__sandbox/settings/test', { event: 'document.completed', document: '', webhook: '', signature: 'signed' });
	expect(signed).toMatchObject({ status: 303, location: '/__sandbox/settings?done=sent&delivery=1' });
	expect(receiver.requests).toHaveLength(1);
	const good = receiver.requests[0];
	expect(good.headers['x-esign-signature']).toBe(hmac(sb.webhookSecret, good.raw));
	expect(good.headers['x-esign-event']).toBe('document.completed');
	expect(JSON.parse(good.raw.toString())).toMatchObject({ event: 'document.completed', data: { status: 'completed', test: true } });

	const misSigned = await submit('/__sandbox/settings/test', { event: 'document.declined', document: '', webhook: '1', signature: 'mis-signed' });
	expect(misSigned.location).toBe('/__sandbox/settings?done=sent&delivery=2');
	const bad = receiver.requests[1];
	expect(bad.headers['x-esign-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
	expect(bad.headers['x-esign-signature']).not.toBe(hmac(sb.webhookSecret, bad.raw));
	expect(bad.valid).toBe(false);
	expect(JSON.parse(bad.raw.toString()).data).toMatchObject({ signer_name: 'Test Signer', decline_reason: expect.any(String) });

	// The page lists both, newest first, with the receiver's answers and what they mean.
	const html = await page(misSigned.location);
	expect(html).toContain(`Mis-signed document.declined sent to ${receiver.url}: 401 (rejected, as it must be).`);
	const rows = deliveryRows(html);
	expect(rows.map((r) => [r.id, ...r.cells.slice(1, 5), r.cells[6]])).toEqual([
		[2, 'document.declined', receiver.url, 'mis-signed', '401', 'rejected, as it must be'],
		[1, 'document.completed', receiver.url, 'signed', '200', 'accepted'],
	]);
	expect(rows[0].cells[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
	expect(Number(rows[0].cells[5])).toBeGreaterThanOrEqual(0);
	// Two test events with the same choices are two different bodies (a trigger drops a body it has seen).
	await submit('/__sandbox/settings/test', { event: 'document.completed', document: '', webhook: '', signature: 'signed' });
	expect(receiver.requests[2].raw.equals(good.raw)).toBe(false);
});

test('a signed test event that the receiver rejects (another secret) says which setting to check', async () => {
	const otherSecret = await startVerifyingReceiver(() => 'whsec_the_credential_has_another_one');
	try {
		await submit('/__sandbox/settings/webhooks', { url: otherSecret.url });
		const sent = await submit('/__sandbox/settings/test', { event: 'document.sent', document: '', webhook: '', signature: 'signed' });
		expect(otherSecret.requests.map((r) => r.valid)).toEqual([false]);
		const html = await page(sent.location);
		expect(deliveryRows(html)[0].cells.slice(3, 5)).toEqual(['signed', '401']);
		expect(html).toContain('rejected the signature: is the credential&#39;s Webhook Signing Secret the one above?');
	} finally {
		await otherSecret.close();
	}
});

test('a test event about a real document carries its id, title and first signer; everything shown is HTML-escaped', async () => {
	const doc = await makeDraft(sb, { title: 'Offer <img src=x onerror=alert(1)>', signers: [{ name: 'Ann <Signer>', email: 'ann@example.org' }] });
	const hostile = `${receiver.url}?next=<script>alert(1)</script>`;
	await submit('/__sandbox/settings/webhooks', { url: hostile });
	const form = await page();
	expect(form).toContain(`<option value="${doc.id}">Document ${doc.id}: Offer &#60;img src=x onerror=alert(1)&#62; (draft)</option>`);
	expect(form).not.toContain('<img src=x');
	expect(form).not.toContain('<script>alert(1)</script>');

	const sent = await submit('/__sandbox/settings/test', { event: 'document.viewed', document: String(doc.id), webhook: '', signature: 'signed' });
	expect(JSON.parse(receiver.requests[0].raw.toString()).data).toMatchObject({
		document_id: Number(doc.id), document_title: 'Offer <img src=x onerror=alert(1)>', signer_id: Number(doc.signers[0].id), signer_name: 'Ann <Signer>',
	});
	const html = await page(sent.location);
	expect(html).toContain('?next=&#60;script&#62;alert(1)&#60;/script&#62;');
	expect(html).not.toContain('<script>alert(1)</script>');
	// A bad choice comes back as the page with the reason, not a JSON error.
	const wrong = await submit('/__sandbox/settings/test', { event: 'document.exploded', document: '', webhook: '', signature: 'signed' });
	expect(wrong.status).toBe(400);
	expect(wrong.text).toContain('Choose one of the events: document.sent, document.viewed');
});
