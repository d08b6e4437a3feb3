'use strict';
/**
 * The webhook settings page (GET /__sandbox/settings), what the plugin's admin page offers: paste an eSign
 * Trigger's URL, see the signing secret and the recent deliveries, send a test event signed or deliberately
 * mis-signed. Plain forms (POST, then 303 back to the page), so it works without a line of script.
 */

const { escapeHtml: h, fail, randomToken, toInteger } = require('./util');
const store = require('./store');
const { EVENTS, eventData } = require('./webhooks');
const { layout } = require('./pages');

const PAGE = '/__sandbox/settings';
const SHOWN_DELIVERIES = 20;
const SHOWN_DOCUMENTS = 20;

/** The status a document has when the event is sent, for test events without a real document. */
const EVENT_STATUS = { 'document.sent': 'sent', 'document.viewed': 'viewed', 'document.signed': 'viewed', 'document.completed': 'completed', 'document.declined': 'declined', 'document.expired': 'expired' };
const SIGNER_EVENTS = ['document.viewed', 'document.signed', 'document.declined'];

/** How a delivery went, in words: what the receiver's answer means for a signed or a mis-signed event. */
function outcome(d) {
	if (d.status === null) return d.error ? { text: `not delivered: ${d.error}`, bad: true } : { text: 'in flight', bad: false };
	const accepted = d.status >= 200 && d.status < 300;
	if (d.misSigned) return d.status === 401 ? { text: 'rejected, as it must be', bad: false } : { text: `answered ${d.status} to a wrong signature: it should answer 401`, bad: true };
	if (accepted) return { text: 'accepted', bad: false };
	if (d.status === 401) return { text: "rejected the signature: is the credential's Webhook Signing Secret the one above?", bad: true };
	if (d.status === 404) return { text: 'no webhook at this URL: is the workflow active, or the trigger listening for a test event?', bad: true };
	return { text: `answered ${d.status}`, bad: true };
}

function deliveryRows(deliveries, highlight) {
	return deliveries.slice(-SHOWN_DELIVERIES).reverse().map((d) => {
		const { text, bad } = outcome(d);
		return `<tr${highlight.includes(d.id) ? ' class="new"' : ''} data-delivery="${d.id}"><td>${h(d.at)}</td><td>${h(d.event)}</td><td class="url">${h(d.url)}</td>` +
			`<td>${d.misSigned ? 'mis-signed' : 'signed'}</td><td class="status">${d.status ?? '-'}</td><td>${d.ms ?? '-'}</td>` +
			`<td class="${bad ? 'bad' : 'good'}">${h(text)}</td></tr>`;
	}).join('');
}

function settingsPage(core, { notice = '', error = '', highlight = [] } = {}) {
	const { state } = core;
	const receivers = state.webhooks.map((r) => `<tr><td>${h(r.url)}</td><td>${r.events ? h(r.events.join(', ')) : 'all events'}</td>` +
		`<td><form method="post" action="${PAGE}/webhooks/${r.id}/remove"><button>Remove</button></form></td></tr>`).join('');
	const documents = [...state.documents.values()].sort((a, b) => b.id - a.id).slice(0, SHOWN_DOCUMENTS)
		.map((d) => `<option value="${d.id}">Document ${d.id}: ${h(d.title)} (${h(d.status)})</option>`).join('');
	const targets = state.webhooks.map((r) => `<option value="${r.id}">${h(r.url)}</option>`).join('');
	return layout('Webhook settings – eSign sandbox', `
<p><a href="/">eSign sandbox</a> &rsaquo; Webhook settings</p>
<h1>Webhook settings</h1>
${notice ? `<p class="notice" role="status">${h(notice)}</p>` : ''}${error ? `<p class="error" role="alert">${h(error)}</p>` : ''}
<h2>Webhook URLs</h2>
<p>The site sends every document event to these URLs. Paste the URL an eSign Trigger node shows in n8n: its
<strong>Test URL</strong> while the trigger waits for a test event, its <strong>Production URL</strong> once the workflow is active.</p>
<table><tr><th>URL</th><th>Events</th><th></th></tr>${receivers || '<tr><td colspan="3">No webhook URL yet.</td></tr>'}</table>
<form method="post" action="${PAGE}/webhooks" class="row">
<label for="url">Webhook URL</label>
<input id="url" name="url" type="url" required placeholder="http://localhost:5678/webhook/…/esign">
<button>Add webhook URL</button>
</form>
<h2>Signing secret</h2>
<p><code id="secret">${h(state.webhookSecret)}</code></p>
<p>Put it in the eSign credential's <strong>Webhook Signing Secret</strong>. Every delivery carries
<code>X-ESIGN-Signature: sha256=&lt;HMAC-SHA256 of the body with this secret&gt;</code>; the trigger answers 401 when it does not match.</p>
<h2>Send a test event</h2>
${targets ? `<form method="post" action="${PAGE}/test" class="test">
<p><label>Event <select name="event">${EVENTS.map((e) => `<option${e === 'document.completed' ? ' selected' : ''}>${e}</option>`).join('')}</select></label></p>
<p><label>About <select name="document"><option value="">Example data (no document)</option>${documents}</select></label></p>
<p><label>To <select name="webhook"><option value="">Every webhook URL</option>${targets}</select></label></p>
<p><button name="signature" value="signed">Send signed test event</button>
<button name="signature" value="mis-signed">Send mis-signed test event</button></p>
<p class="hint">A mis-signed event is signed with a wrong key: a trigger that checks signatures answers 401.</p>
</form>` : '<p>Add a webhook URL first.</p>'}
<h2>Recent deliveries</h2>
<table><tr><th>Time (site clock)</th><th>Event</th><th>URL</th><th>Signature</th><th>HTTP status</th><th>ms</th><th>Result</th></tr>
${deliveryRows(state.deliveries, highlight) || '<tr><td colspan="7">No deliveries yet.</td></tr>'}</table>
<p>The newest ${SHOWN_DELIVERIES} are shown; <a href="/__sandbox/webhooks">/__sandbox/webhooks</a> has them all, with bodies and signatures.</p>`);
}

/** Back to the page after a form (303, so reloading it does not post again). */
const backTo = (query = {}) => {
	const search = new URLSearchParams(query).toString();
	return { status: 303, raw: '', headers: { Location: `${PAGE}${search ? `?${search}` : ''}` } };
};

/** A form error: the page again, with the reason, and the status a JSON control would answer. */
const formError = (core, status, error) => ({ status, html: settingsPage(core, { error }) });

function testEventData(core, event, documentId) {
	// test_id makes every test body unique: a trigger drops a body it has already seen as a repeated delivery.
	const extra = { test: true, test_id: randomToken(6) };
	if (event === 'document.declined') extra.decline_reason = 'Test event from the sandbox settings page.';
	if (documentId === '' || documentId === undefined) {
		const doc = { id: 0, title: 'Test event from the sandbox settings page', status: EVENT_STATUS[event] };
		const signer = { id: 0, name: 'Test Signer', email: 'test.signer@example.com' };
		return eventData(doc, SIGNER_EVENTS.includes(event) ? signer : null, extra);
	}
	const doc = core.state.documents.get(toInteger(documentId));
	if (!doc) fail(400, 'invalid_data', `There is no document ${documentId} any more.`);
	return eventData(doc, SIGNER_EVENTS.includes(event) ? store.documentSigners(core, doc.id)[0] : null, extra);
}

const NOTICES = { added: 'Webhook URL added.', removed: 'Webhook URL removed.' };

const routes = [
	['GET', PAGE, 'settings', (core, ctx) => {
		const ids = String(ctx.input.delivery || '').split(',').map(Number).filter(Number.isInteger);
		const sent = core.state.deliveries.filter((d) => ids.includes(d.id));
		const notice = ctx.input.done === 'sent'
			? sent.map((d) => `${d.misSigned ? 'Mis-signed' : 'Signed'} ${d.event} sent to ${d.url}: ${d.status ?? d.error} (${outcome(d).text}).`).join(' ')
			: NOTICES[ctx.input.done] || '';
		return { status: 200, html: settingsPage(core, { notice, highlight: ids }) };
	}],
	['POST', `${PAGE}/webhooks`, 'settingsAddWebhook', (core, ctx) => {
		const url = String(ctx.input.url ?? '').trim();
		let parsed = null;
		try {
			parsed = new URL(url);
		} catch {
			// parsed stays null: answered below.
		}
		if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
			return formError(core, 400, `"${url}" is not an http(s) URL. Paste the URL the eSign Trigger node shows in n8n.`);
		}
		core.webhooks.register({ url });
		return backTo({ done: 'added' });
	}],
	['POST', `${PAGE}/webhooks/:id/remove`, 'settingsRemoveWebhook', (core, ctx) => {
		if (!core.webhooks.unregister(toInteger(ctx.params.id))) return formError(core, 404, 'That webhook URL was already removed.');
		return backTo({ done: 'removed' });
	}],
	['POST', `${PAGE}/test`, 'settingsTestEvent', async (core, ctx) => {
		const { event, document: documentId, webhook, signature } = ctx.input;
		if (!EVENTS.includes(event)) return formError(core, 400, `Choose one of the events: ${EVENTS.join(', ')}.`);
		if (!['signed', 'mis-signed'].includes(signature)) return formError(core, 400, 'Choose "signed" or "mis-signed".');
		const receivers = webhook ? core.state.webhooks.filter((r) => r.id === toInteger(webhook)) : core.state.webhooks;
		if (!receivers.length) return formError(core, 400, webhook ? 'That webhook URL was removed; choose another.' : 'Add a webhook URL first.');
		let data;
		try {
			data = testEventData(core, event, documentId);
		} catch (error) {
			return formError(core, 400, error.message);
		}
		const deliveries = await core.webhooks.deliverNow(receivers.map((r) => r.url), event, data, { misSign: signature === 'mis-signed' });
		return backTo({ done: 'sent', delivery: deliveries.map((d) => d.id).join(',') });
	}],
];

module.exports = { routes, settingsPage, PAGE };
