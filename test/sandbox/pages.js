'use strict';
/** The HTML pages' layout, the index (/) and a minimal signing page (/sign/:token); settings.js has the webhook settings page. */

const { escapeHtml: h } = require('./util');
const { documentFields, documentSigners, signingUrl } = require('./store');
const { hasDeclined } = require('./profile');
const { API_PREFIX } = require('./api');

const layout = (title, body) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${h(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;width:100%;margin:1rem 0}td,th{border:1px solid #ddd;padding:.35rem .5rem;text-align:left;font-size:.9rem}
code{background:#f4f4f4;padding:0 .2rem}.status{font-weight:600}button{padding:.5rem 1rem;margin-right:.5rem;cursor:pointer}
input,textarea,select{width:100%;box-sizing:border-box}
form.test select{width:auto;min-width:24rem;margin-left:.5rem}.row input{padding:.3rem}
.row{display:flex;gap:.5rem;align-items:center}.row input{flex:1}.row label{white-space:nowrap}.row button{margin:0}
td form{margin:0}td.url{word-break:break-all}.bad{color:#a00}.good{color:#070}tr.new{background:#fff8d6}.hint{color:#555;font-size:.9rem}
.notice{background:#eef7ee;border-left:4px solid #070;padding:.5rem}.error{background:#fbeaea;border-left:4px solid #a00;padding:.5rem}
</style></head><body>${body}</body></html>`;

function indexPage(core) {
	const { state } = core;
	const keys = Object.entries(state.keys)
		.map(([name, k]) => `<tr><td>${h(name)}</td><td>${h(state.users[k.user].name)}</td><td>${k.access === 'full' ? 'Full Access' : 'Read Only'}</td><td><code>${h(k.key)}</code></td><td><code>${h(k.secret)}</code></td></tr>`)
		.join('');
	const docs = [...state.documents.values()].sort((a, b) => b.id - a.id).slice(0, 100)
		.map((d) => {
			const signers = documentSigners(core, d.id)
				.map((s) => `<a href="/sign/${h(s.token)}">${h(s.name)}</a> (${h(s.status)})`).join(', ');
			return `<tr><td>${d.id}</td><td>${h(d.title)}</td><td class="status">${h(d.status)}</td><td>${signers || '-'}</td><td>${d.file ? `<a href="/__sandbox/documents/${d.id}/file">file</a>` : '-'}</td></tr>`;
		}).join('');
	return layout('eSign sandbox', `
<h1>eSign sandbox</h1>
<p>API URL: <code>${h(core.publicUrl + API_PREFIX)}</code> &middot; webhook secret: <code>${h(state.webhookSecret)}</code>
&middot; <a href="/__sandbox/settings"><strong>Webhook settings</strong></a> (add an eSign Trigger's URL, send a test event)
&middot; rate limits: ${state.rateLimits ? `${state.rateLimits.perKeyPerHour}/key/hour, ${state.rateLimits.perIpPerMinute}/IP/minute` : 'off'}</p>
<h2>Keys</h2><table><tr><th>Name</th><th>User</th><th>Permission</th><th>Key</th><th>Secret</th></tr>${keys}</table>
<p>Controls: <a href="/__sandbox/outbox">outbox</a> &middot; <a href="/__sandbox/requests">request log</a> &middot;
<a href="/__sandbox/webhooks">webhooks</a> &middot; <a href="/__sandbox/counters">counters</a> &middot; <a href="/__sandbox/signers">signers</a>
&middot; samples: ${['contract.pdf', 'tagged-contract.pdf', 'tenancy-form.pdf', 'one-page.pdf', 'a4.pdf', 'photo.png', 'photo.jpg', 'notes.txt'].map((n) => `<a href="/__sandbox/samples/${n}">${n}</a>`).join(' ')}</p>
<h2>Documents (newest 100)</h2><table><tr><th>Id</th><th>Title</th><th>Status</th><th>Signers (signing pages)</th><th>File</th></tr>${docs || '<tr><td colspan="5">No documents yet.</td></tr>'}</table>`);
}

const INPUT_TYPES = new Set(['text', 'textarea', 'dropdown', 'checkbox']);

/**
 * A dropdown shows what its value is: the empty "Choose…" option while nothing is chosen (a browser shows a select's
 * first option when no option is selected, and the signed PDF would hold something else than the page showed). A
 * required one carries `required`: the page's script refuses to sign while it is empty (issue 51).
 */
function dropdown(f, name) {
	const options = f.value && !f.options.includes(f.value) ? [...f.options, f.value] : f.options;
	const choices = options.map((o) => `<option value="${h(o)}"${o === f.value ? ' selected' : ''}>${h(o)}</option>`).join('');
	const label = h(f.field_name || f.field_type);
	return `<select data-field="${f.id}" data-label="${label}" name="${name}"${f.is_required ? ' required' : ''}><option value=""${f.value ? '' : ' selected'}>Choose…</option>${choices}</select>`;
}

function fieldInput(f) {
	const name = `f${f.id}`;
	const label = `${h(f.field_name || f.field_type)} (${h(f.field_type)}, page ${f.page_number})${f.is_required ? ' *' : ''}`;
	if (!INPUT_TYPES.has(f.field_type)) return `<li>${label}: ${f.value ? h(f.value) : '<em>filled on signing</em>'}</li>`;
	let control;
	if (f.field_type === 'textarea') control = `<textarea data-field="${f.id}" name="${name}">${h(f.value)}</textarea>`;
	else if (f.field_type === 'dropdown') control = dropdown(f, name);
	else if (f.field_type === 'checkbox') control = `<input type="checkbox" data-field="${f.id}" name="${name}" value="1"${f.value ? ' checked' : ''}>`;
	else control = `<input data-field="${f.id}" name="${name}" value="${h(f.value)}" placeholder="${h(f.placeholder)}">`;
	return `<li><label>${label}<br>${control}</label></li>`;
}

/** Opening the page counts as a view (done by the page's script, so link previews do not view). */
function signingPage(core, doc, signer) {
	const fields = documentFields(core, doc.id).filter((f) => f.signer_id === signer.id);
	const actionable = ['sent', 'viewed'].includes(doc.status) && signer.status !== 'signed' && !hasDeclined(signer);
	const base = `/__sandbox/sign/${encodeURIComponent(signer.token)}`;
	return layout(`Sign: ${doc.title}`, `
<h1>${h(doc.title)}</h1>
<p>Document ${doc.id} &middot; status <span class="status" id="doc-status">${h(doc.status)}</span> &middot;
${doc.total_pages} page(s) &middot; <a href="/__sandbox/documents/${doc.id}/file">view file</a></p>
<p>Signer: <strong>${h(signer.name)}</strong> &lt;${h(signer.email)}&gt; &middot; status <span class="status" id="signer-status">${h(signer.status)}</span></p>
<h2>Your fields</h2><ul>${fields.map(fieldInput).join('') || '<li>No fields assigned.</li>'}</ul>
${actionable ? `<p><button id="sign">Sign</button><button id="decline">Decline</button></p>` : '<p>Nothing to do on this document.</p>'}
<p id="result"></p>
<script>
const base = ${JSON.stringify(base)};
const post = (path, body) => fetch(base + path, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body || {})})
	.then(async (r) => { const data = await r.json(); if (!r.ok) throw new Error(data.message); return data; });
const show = (text) => { document.getElementById('result').textContent = text; };
${actionable ? `post('/view').catch((e) => show(e.message));
document.getElementById('sign').onclick = () => {
	const values = {};
	const missing = [];
	document.querySelectorAll('[data-field]').forEach((el) => {
		const v = el.type === 'checkbox' ? (el.checked ? '1' : '') : el.value;
		if (v !== '') values[el.dataset.field] = v;
		else if (el.required) missing.push(el.dataset.label);
	});
	if (missing.length) return show('Required, and nothing chosen yet: ' + missing.join(', ') + '. Choose before signing.');
	post('/sign', {values}).then(() => location.reload(), (e) => show(e.message));
};
document.getElementById('decline').onclick = () => {
	const reason = prompt('Why do you decline?');
	if (reason !== null) post('/decline', {reason}).then(() => location.reload(), (e) => show(e.message));
};` : ''}
</script>
<p><a href="/">Sandbox index</a> &middot; signing link: <code>${h(signingUrl(core, signer))}</code></p>`);
}

module.exports = { layout, indexPage, signingPage };
