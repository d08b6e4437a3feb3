// The saved-workflow corpus (test/corpus/*.json) in a running instance (instance.mjs): workflows as n8n 2.41.1 and
// 1.123.81 save them, every operation with non-default parameters and both triggers with their options. They are
// imported unchanged (only the sandbox URL and the credential id are rewritten, as for the examples); the Manual-Trigger
// ones run with `n8n execute` and must end successfully after making their API calls with the effects below; the eSign
// Trigger fires on a real signing, and the Status Trigger's first poll starts one execution. CONTRIBUTING.md →
// Versioning policy: a change that breaks one of these breaks a user's saved workflow.
import fs from 'node:fs';
import path from 'node:path';
import { CREDENTIAL, EXAMPLE_SANDBOX_ORIGIN, NODE_TYPES, credRef, credentialData, isManual, sandboxModule, sandboxSite } from './esign.mjs';
import { assert, fmtRoutes, nodeOutput, runError, siteCalls } from './expectations.mjs';
import { pollEnded, sentDocument } from './checks.mjs';
import { ROOT } from './runtime.mjs';
import { typeOf } from './formFields.mjs';
import { readForms } from '../../test/support/pdfjsForms.mjs';

export const CORPUS_DIR = path.join(ROOT, 'test', 'corpus');

/** The corpus as [{file, workflow}] in file order. */
export function readCorpus() {
	return fs
		.readdirSync(CORPUS_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({ file, workflow: JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, file), 'utf8')) }));
}

/** A corpus workflow for a running site: its sample URLs and the credential id; nothing else changes. */
function forSite(workflow, site, credentialId, credentialName) {
	const wf = JSON.parse(JSON.stringify(workflow).split(EXAMPLE_SANDBOX_ORIGIN).join(site.url));
	for (const n of wf.nodes) if (n.credentials?.[CREDENTIAL.type]) n.credentials = { ...n.credentials, ...credRef(credentialId, credentialName) };
	wf.active = false;
	return wf;
}

const mailsTo = (outbox, docId, kind) => outbox.filter((m) => String(m.document_id) === String(docId) && m.kind === kind).map((m) => m.to).sort();
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** What each Manual-Trigger corpus workflow must make the site do: its API calls by route, and the effects. */
const EXPECTED = {
	esignCorpus01Lifecycle: {
		// Add Signer reads its signer back (GET /signers), then Get signers; Remind one names the signer in its body.
		// Place fields (bottom-left coordinates) reads the draft's file for its page heights (issue 37), then Download.
		routes: { upload: 1, getDocument: 1, update: 1, addSigner: 1, listSigners: 2, saveFields: 1, listFields: 1, send: 1, remind: 1, getFile: 2, getAudit: 1 },
		async verify({ site, runData, outbox }) {
			const docId = String(nodeOutput(runData, 'Upload')[0]?.json?.id ?? '');
			assert(docId, 'Upload gave no id');
			const doc = await site.document(docId);
			assert(doc?.status === 'sent' && doc.title === 'Corpus lease (final)', `document ${docId}: ${doc?.status}, "${doc?.title}"`);
			const fields = (await site.call('GET', `/documents/${docId}/fields`)).body;
			assert(same(fields.map((f) => `${f.field_type} p${f.page_number}`).sort(), ['initials p2', 'signature p2']), `fields on the site: ${JSON.stringify(fields).slice(0, 300)}`);
			// Bottom-left origin: the workflow says A4 (842 pt), the PDF's own page is Letter (792 pt), which wins since
			// issue 37: y = 792 − 120 − the field's height (initials 50, signature 60).
			assert(same(fields.map((f) => Number(f.position_y)).sort(), [612, 622]), `positions: ${fields.map((f) => f.position_y)}`);
			assert(same(mailsTo(outbox, docId, 'reminder'), ['ann@example.org']), `reminders: ${JSON.stringify(mailsTo(outbox, docId, 'reminder'))}`);
			const file = nodeOutput(runData, 'Download')[0]?.binary?.signed;
			assert(file?.fileName === 'corpus-lease.pdf' && file.mimeType === 'application/pdf', `Download binary "signed": ${JSON.stringify(file ?? null).slice(0, 200)}`);
			const events = nodeOutput(runData, 'Audit events');
			assert(events.length >= 3, `${events.length} audit events (one item per event)`);
			return `document ${docId} sent, 2 fields on page 2, 1 reminder to ann, download ${file.fileName}, ${events.length} audit events`;
		},
	},
	esignCorpus02Lists: {
		routes: { create: 1, listDocuments: 2, delete: 1, stats: 1 },
		async verify({ site, runData }) {
			const docId = String(nodeOutput(runData, 'Create draft')[0]?.json?.id ?? '');
			assert(docId && (await site.document(docId)) === null, `the created draft ${docId} still exists`);
			const found = nodeOutput(runData, 'Find drafts');
			assert(found.length === 1 && String(found[0].json.id) === docId, `Find drafts: ${JSON.stringify(found.map((i) => i.json.id))}`);
			const total = nodeOutput(runData, 'Statistics')[0]?.json?.total;
			const all = nodeOutput(runData, 'All documents');
			assert(typeof total === 'number' && all.length === total, `statistics total ${total}, All documents gave ${all.length} items`);
			return `draft ${docId} found and deleted; statistics total ${total} = ${all.length} documents listed`;
		},
	},
	esignCorpus03CreateSendExpire: {
		routes: { upload: 1, addSigner: 2, listSigners: 1, saveFields: 1, send: 1, expire: 1 },
		async verify({ site, runData }) {
			const docId = String(nodeOutput(runData, 'Create and send')[0]?.json?.id ?? '');
			const doc = await site.document(docId);
			assert(doc?.status === 'expired' && doc.title === 'Corpus offer', `document ${docId}: ${doc?.status}, "${doc?.title}"`);
			const fields = (await site.call('GET', `/documents/${docId}/fields`)).body;
			const signers = (await site.call('GET', `/documents/${docId}/signers`)).body;
			const dan = signers.find((s) => s.email === 'dan@example.org');
			assert(fields.length === 3 && String(fields.find((f) => f.field_type === 'date')?.signer_id) === String(dan?.id), `fields ${JSON.stringify(fields).slice(0, 300)}`);
			return `document ${docId} sent to 2 signers in order, the date field for dan (by email), then expired`;
		},
	},
	esignCorpus04Templates: {
		routes: { listTemplates: 1, getTemplate: 1, createFromTemplate: 1 },
		async verify({ site, runData, outbox }) {
			const out = nodeOutput(runData, 'Create from template')[0]?.json ?? {};
			const docId = String(out.document_id ?? out.id ?? '');
			const doc = await site.document(docId);
			assert(doc?.status === 'draft' && doc.title === 'Corpus lease from template', `document ${docId}: ${doc?.status}, "${doc?.title}"`);
			assert(mailsTo(outbox, docId, 'invitation').length === 0, 'Send is off, yet invitations went out');
			return `draft ${docId} from the template, not sent`;
		},
	},
	esignCorpus08TextTags: {
		// Two Adds read their signer back; Replace All from tags reads the draft's file and its signers; Replace All by
		// anchor texts reads the file; Create and Send reads its signers back once.
		routes: { upload: 2, addSigner: 4, listSigners: 4, getFile: 2, saveFields: 3, send: 1 },
		async verify({ site, runData }) {
			const draftId = String(nodeOutput(runData, 'Upload')[0]?.json?.id ?? '');
			const fromTags = nodeOutput(runData, 'Fields from tags')[0]?.json;
			assert(fromTags?.field_count === 8, `Fields from tags: ${JSON.stringify(fromTags).slice(0, 200)}`);
			const fields = (await site.call('GET', `/documents/${draftId}/fields`)).body;
			// The anchor rows replaced the tags' fields: one signature below "Signature:" (occurrence 1), a text after each "Date:".
			const named = fields.map((f) => `${f.field_type} ${f.field_name}`).sort();
			assert(same(named, ['signature Client signature', 'text Provider note', 'text Provider note']), `fields on the draft: ${named.join(', ')}`);
			const sentId = String(nodeOutput(runData, 'Create and send from tags')[0]?.json?.id ?? '');
			const sent = await site.document(sentId);
			const sentFields = (await site.call('GET', `/documents/${sentId}/fields`)).body;
			assert(sent?.status === 'sent' && sentFields.length === 8, `document ${sentId}: ${sent?.status}, ${sentFields.length} fields`);
			// The one change for this saved workflow (issue 42, the new default Remove Tags From the PDF): Create and Send
			// uploads the original followed by an update that no longer draws the tags; Replace All leaves the draft's file.
			const original = await site.sample('tagged-contract.pdf');
			const fileOf = async (id) => Buffer.from(await (await fetch(`${site.controlBase}/documents/${id}/file`)).arrayBuffer());
			const upload = await fileOf(sentId);
			assert(upload.length > original.length && upload.subarray(0, original.length).equals(original), `document ${sentId}'s file (${upload.length} bytes) is not the original (${original.length}) followed by an update`);
			assert((await fileOf(draftId)).equals(original), `draft ${draftId}'s file changed`);
			return `draft ${draftId}: 8 fields from tags (its file unchanged), then 3 by anchor texts; document ${sentId} sent with 8 fields from its tags, its file the original + ${upload.length - original.length} bytes of update`;
		},
	},
	esignCorpus10FillPdf: {
		// Fill PDF sends nothing; Create and Send (one signer) reads its signer back once.
		routes: { upload: 1, addSigner: 1, listSigners: 1, saveFields: 1, send: 1 },
		async verify({ site, runData }) {
			const filled = nodeOutput(runData, 'Fill PDF')[0]?.binary?.form;
			assert(filled?.mimeType === 'application/pdf', `Fill PDF binary "form": ${JSON.stringify(filled ?? null).slice(0, 200)}`);
			const id = String(nodeOutput(runData, 'Create and send with values')[0]?.json?.id ?? '');
			const doc = await site.document(id);
			const fields = (await site.call('GET', `/documents/${id}/fields`)).body;
			// Filled by Fill PDF (Tenant Name, Plan, Agree Terms) and by Create and Send's PDF Values (Landlord Name): the
			// signer gets only the fields left.
			const names = fields.map((f) => f.field_name).sort();
			assert(doc?.status === 'sent' && same(names, ['Landlord Signature', 'Notes', 'Tenant Date', 'Tenant Signature']), `document ${id}: ${doc?.status}, fields ${names.join(', ')}`);
			const original = await site.sample('tenancy-form.pdf');
			const upload = Buffer.from(await (await fetch(`${site.controlBase}/documents/${id}/file`)).arrayBuffer());
			assert(upload.length > original.length && upload.subarray(0, original.length).equals(original), `document ${id}'s file (${upload.length} bytes) is not the original (${original.length}) followed by updates`);
			const left = (await readForms(upload)).widgets.map((w) => w.name).sort();
			assert(same(left, ['Internal', 'Pets', 'Pets', 'Print', 'Reference']), `document ${id}'s file still has the widgets ${left.join(', ')}`);
			return `document ${id} sent with ${names.length} fields (${names.join(', ')}); its file the original + ${upload.length - original.length} bytes of updates, widgets left ${left.join(', ')}`;
		},
	},
	esignCorpus09FormFields: {
		// Two Adds read their signer back; Replace All from form fields reads the draft's file and its signers; Create and
		// Send (one signer) reads its signer back once.
		routes: { upload: 2, addSigner: 3, listSigners: 4, getFile: 1, saveFields: 2, send: 1 },
		async verify({ site, runData }) {
			const draftId = String(nodeOutput(runData, 'Upload')[0]?.json?.id ?? '');
			const replaced = nodeOutput(runData, 'Fields from form fields')[0]?.json;
			assert(replaced?.field_count === 8, `Fields from form fields: ${JSON.stringify(replaced).slice(0, 200)}`);
			const lou = String(nodeOutput(runData, 'Add landlord')[0]?.json?.id ?? '');
			const fields = (await site.call('GET', `/documents/${draftId}/fields`)).body;
			// Form Field Signers: names containing "landlord" → signer 2 (Lou), every other field → signer 1.
			const lous = fields.filter((f) => String(f.signer_id) === lou).map((f) => f.field_name).sort();
			assert(same(lous, ['Landlord Name', 'Landlord Signature']), `the landlord's fields on the draft: ${lous.join(', ')}`);
			const sentId = String(nodeOutput(runData, 'Create and send from form fields')[0]?.json?.id ?? '');
			const sent = await site.document(sentId);
			const sentFields = (await site.call('GET', `/documents/${sentId}/fields`)).body;
			assert(sent?.status === 'sent' && sentFields.length === 8 && new Set(sentFields.map((f) => f.signer_id)).size === 1, `document ${sentId}: ${sent?.status}, ${sentFields.length} fields`);
			// The one change for this saved workflow (issue 42, the new default Remove Form Fields From the PDF): Create and
			// Send uploads the original followed by an update without the 8 form fields that became fields (the 5 widgets
			// left out stay); Replace All leaves the draft's file.
			const original = await site.sample('tenancy-form.pdf');
			const fileOf = async (id) => Buffer.from(await (await fetch(`${site.controlBase}/documents/${id}/file`)).arrayBuffer());
			const upload = await fileOf(sentId);
			assert(upload.length > original.length && upload.subarray(0, original.length).equals(original), `document ${sentId}'s file (${upload.length} bytes) is not the original (${original.length}) followed by an update`);
			const [before, after] = [(await readForms(original)).widgets, (await readForms(upload)).widgets];
			const left = after.map((w) => w.name).sort();
			assert(before.length - after.length === 8 && same(left, before.filter((w) => !typeOf(w)).map((w) => w.name).sort()), `document ${sentId}'s file still has the widgets ${left.join(', ')}`);
			assert((await fileOf(draftId)).equals(original), `draft ${draftId}'s file changed`);
			return `draft ${draftId}: 8 fields from its form fields, the landlord's 2 to signer 2 (its file unchanged); document ${sentId} sent with 8 fields for its one signer, its file the original + ${upload.length - original.length} bytes of update, ${after.length} widgets left (${left.join(', ')})`;
		},
	},
	esignCorpus07Family: {
		// Create and Send (2 signers: add ×2, read back once); Signer Get Many and Get Values per signer read the signers;
		// each Add with Signing Order 0 reads the signers before adding and after (2 × 2); fields read by Field Get Many
		// and the two Get Values.
		routes: { upload: 1, addSigner: 4, listSigners: 7, saveFields: 1, send: 1, getDocument: 1, listFields: 3, create: 1 },
		async verify({ site, runData }) {
			const docId = String(nodeOutput(runData, 'Create and send')[0]?.json?.id ?? '');
			const [doc] = nodeOutput(runData, 'Document simplified').map((i) => i.json);
			assert(doc && Object.keys(doc).length === 10 && doc.id === docId && doc.signed_by === 'Cara Corpus <cara@example.org>' && doc.waiting_for === 'Dan Corpus <dan@example.org>', `Document simplified: ${JSON.stringify(doc)}`);
			const signers = nodeOutput(runData, 'Signers simplified').map((i) => i.json);
			assert(same(signers.map((s) => [s.email, s.status, Object.keys(s).length]), [['cara@example.org', 'signed', 10], ['dan@example.org', 'pending', 10]]), `Signers simplified: ${JSON.stringify(signers)}`);
			const fields = nodeOutput(runData, 'Fields simplified').map((i) => i.json);
			assert(fields.length === 3 && fields.every((f) => Object.keys(f).length === 10), `Fields simplified: ${JSON.stringify(fields).slice(0, 300)}`);
			const perSigner = nodeOutput(runData, 'Values per signer').map((i) => i.json);
			const [cara, dan] = perSigner;
			assert(perSigner.length === 2 && cara.signer_email === 'cara@example.org' && cara['signature 1'] === 'Cara Corpus' && dan['signature 1'] === '' && dan['date 1'] === '', `Values per signer: ${JSON.stringify(perSigner)}`);
			const perDocument = nodeOutput(runData, 'Values per document').map((i) => i.json);
			assert(same(perDocument, [{ document_id: docId, 'date 1': '' }]), `Values per document: ${JSON.stringify(perDocument)}`);
			const draftId = String(nodeOutput(runData, 'Create draft')[0]?.json?.id ?? '');
			const orders = (await site.call('GET', `/documents/${draftId}/signers`)).body.map((s) => `${s.email} ${s.signing_order}`);
			assert(same(orders, ['eve@example.org 1', 'finn@example.org 2']), `draft ${draftId} signers: ${orders.join(', ')}`);
			return `document ${docId}: simplified (10 fields), 2 signers and 3 fields simplified, values per signer and per document by name; draft ${draftId}: ${orders.join(', ')}`;
		},
	},
};

/**
 * The corpus in `n8n` (running, logged in): one check per workflow. Each trigger gets a sandbox of its own, so its
 * polls and deliveries are counted apart from the action runs; the Status Trigger is activated first and its
 * first poll (a minute) runs while the action workflows do.
 */
export async function corpusChecks(check, label, n8n, cleanups) {
	const { createSandbox } = sandboxModule();
	const open = async (name) => {
		const sb = await createSandbox({ port: 0, host: '127.0.0.1', rateLimits: false });
		cleanups.push(() => sb.close());
		const site = sandboxSite(sb);
		const credential = await n8n.ensureCredential(credentialData(sb), { name });
		return { sb, site, credential, name };
	};
	const corpus = readCorpus();
	const actions = corpus.filter(({ workflow }) => isManual(workflow));
	const ofType = (type) => corpus.filter(({ workflow }) => workflow.nodes.some((n) => n.type === type));
	const main = await open('eSign corpus site');
	const polled = await open('eSign corpus polled site');
	const importFor = (list, s) => n8n.import(list.map(({ workflow }) => forSite(workflow, s.site, s.credential.id, s.name)));

	const loaded = await check(`${label} all ${corpus.length} corpus workflows imported unchanged (test/corpus)`, async () => {
		await importFor(corpus.filter(({ workflow }) => !ofType(NODE_TYPES.statusTrigger).some((c) => c.workflow.id === workflow.id)), main);
		await importFor(ofType(NODE_TYPES.statusTrigger), polled);
		const have = new Set((await n8n.rest('GET', '/rest/workflows')).map((w) => String(w.id)));
		const missing = corpus.filter(({ workflow }) => !have.has(workflow.id)).map(({ file }) => file);
		assert(!missing.length, `not imported: ${missing.join(', ')}`);
		return `${actions.length} Manual-Trigger workflows, ${corpus.length - actions.length} trigger workflows`;
	});
	if (!loaded) return;

	// The Status Trigger first: a document its search matches exists before activation, so with Emit Existing the
	// first poll reports it (document.created, in the status scope, with the file).
	const pollers = [];
	for (const { file, workflow } of ofType(NODE_TYPES.statusTrigger)) {
		// A completed document (signed, so the trigger attaches its file) whose title the workflow's Search matches.
		const [seededId] = (await polled.site.control('POST', '/seed/documents', { status: 'completed', count: 1, titlePrefix: `Polled corpus NDA ${workflow.id}` })).ids;
		const seeded = { id: seededId };
		await polled.site.control('DELETE', '/requests');
		await n8n.activate(workflow.id);
		cleanups.push(() => n8n.deactivate(workflow.id).catch(() => {}));
		pollers.push({ file, workflow, seeded, activatedAt: Date.now() });
	}

	for (const { file, workflow } of actions) {
		await check(`${label} corpus ${file} runs with n8n execute, ends successfully and makes its API calls`, async () => {
			const exp = EXPECTED[workflow.id];
			assert(exp, `no expectations written for ${workflow.id} (scripts/lib/corpus.mjs)`);
			await main.site.control('DELETE', '/requests');
			const outboxBefore = (await main.site.control('GET', '/outbox')).length;
			const data = await n8n.run(workflow.id);
			const { runData } = data.data.resultData;
			const eSignNodes = workflow.nodes.filter((n) => n.type === NODE_TYPES.action).map((n) => n.name);
			const ran = eSignNodes.filter((name) => runData[name]?.length && !runData[name][0].error);
			assert(ran.length === eSignNodes.length, `eSign nodes that did not run: ${eSignNodes.filter((n) => !ran.includes(n)).join(', ')}`);
			const { routes, failed } = await siteCalls(main.site);
			assert(!failed.length, `failed API calls: ${failed.join('; ')}`);
			assert(same(Object.entries(routes).sort(), Object.entries(exp.routes).sort()), `API calls ${fmtRoutes(routes)}; expected ${fmtRoutes(exp.routes)}`);
			const outbox = (await main.site.control('GET', '/outbox')).slice(outboxBefore);
			return `${eSignNodes.length} eSign nodes; ${fmtRoutes(routes)}; ${await exp.verify({ site: main.site, runData, outbox })}`;
		});
	}

	for (const { file, workflow } of ofType(NODE_TYPES.trigger)) {
		await check(`${label} corpus ${file}: active, a real signing starts one execution with its options applied; a repeat starts another (Ignore Repeated Deliveries off)`, async () => {
			const hook = await n8n.activateTrigger(workflow.id);
			cleanups.push(() => n8n.deactivate(workflow.id).catch(() => {}));
			assert(hook.status === 401, `an unsigned POST got ${hook.status}, expected 401`);
			await main.site.control('POST', '/webhooks', { url: hook.url, replace: true });
			const { docId, signers } = await sentDocument(main.site, 'Corpus trigger contract');
			for (const s of signers) await main.site.control('POST', `/sign/${encodeURIComponent(s.token)}/sign`, {});
			await main.sb.idle(); // every delivery answered
			const deliveries = (await main.site.control('GET', '/webhooks')).deliveries.filter((d) => String(JSON.parse(d.body).data?.document_id) === docId);
			const started = deliveries.filter((d) => /Workflow was started/.test(d.answer ?? ''));
			assert(started.length === 1 && started[0].event === 'document.completed', `deliveries that started a run: ${deliveries.map((d) => `${d.event} → ${d.status} ${String(d.answer).slice(0, 40)}`).join('; ')}`);
			const [exec] = await n8n.expectExecutions(workflow.id, 1);
			assert(exec.status === 'success', `execution ${exec.id}: ${exec.status} ${runError(exec)}`);
			const [item] = nodeOutput(exec.data?.resultData?.runData, 'eSign Trigger');
			assert(item?.json?.event === 'document.completed' && String(item.json.data?.document_id) === docId, `output ${JSON.stringify(item?.json ?? null).slice(0, 300)}`);
			assert(item.binary?.signedPdf?.mimeType === 'application/pdf', `binary: ${Object.keys(item.binary ?? {}).join(', ') || 'none'} (expected signedPdf)`);
			assert(item.json.headers && typeof item.json.headers === 'object', `Include Headers is on, the item has no headers: ${Object.keys(item.json).join(', ')}`);
			// Ignore Repeated Deliveries is off in this workflow: the same signed delivery again starts a second run.
			const original = started[0];
			const res = await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json', 'X-ESIGN-Signature': original.signature, 'X-ESIGN-Event': original.event }, body: original.body });
			const answer = await res.text();
			assert(res.status === 200 && /Workflow was started/.test(answer), `repeat answered ${res.status}: ${answer.slice(0, 200)}`);
			const list = await n8n.expectExecutions(workflow.id, 2);
			assert(list.every((e) => e.status === 'success'), `executions: ${list.map((e) => `${e.id} ${e.status}`).join(', ')}`);
			return `execution ${exec.id}: document.completed of ${docId}, binary signedPdf, headers; ${deliveries.length - 1} other events answered without a run; the repeat started execution ${list[0].id}`;
		});
	}

	for (const { file, workflow, seeded, activatedAt } of pollers) {
		await check(`${label} corpus ${file}: active, its first poll reports the existing matching document once (Emit Existing, search, scope, file)`, async () => {
			await n8n.waitForExecutions(workflow.id, 1, 150000);
			const detectedIn = Date.now() - activatedAt;
			const [exec] = await n8n.expectExecutions(workflow.id, 1, { after: () => pollEnded(polled.site) }); // the next poll: nothing new
			assert(exec.status === 'success', `execution ${exec.id}: ${exec.status} ${runError(exec)}`);
			const items = nodeOutput(exec.data?.resultData?.runData, 'eSign Status Trigger');
			const seen = items.map(({ json }) => `${json.event} ${json.document?.id}`);
			// Emit Existing reports the document as created and, being completed (in the scope), as completed; its
			// signers may be reported as signed too (Signer Signed is chosen). Nothing of any other document.
			assert(items.every(({ json }) => String(json.document?.id) === String(seeded.id)), `items: ${seen.join(', ')}`);
			for (const event of ['document.created', 'document.completed']) assert(seen.filter((e) => e.startsWith(`${event} `)).length === 1, `items: ${seen.join(', ')}; expected one ${event}`);
			const completed = items.find(({ json }) => json.event === 'document.completed');
			assert(completed.binary?.pdf?.mimeType === 'application/pdf', `binary: ${Object.keys(completed.binary ?? {}).join(', ') || 'none'} (expected pdf)`);
			return `execution ${exec.id} ${(detectedIn / 1000).toFixed(1)} s after activation: ${seen.join(', ')}, the completed one with binary pdf; the next poll started none`;
		});
		await n8n.deactivate(workflow.id).catch(() => {});
	}
}
