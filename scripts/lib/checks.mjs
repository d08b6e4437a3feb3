// Checks the test scripts make the same way against any site (the sandbox, the WordPress test site) through a
// running instance (instance.mjs): an example's API calls and effects, the trigger fired by a real signing,
// a forged delivery, the polling trigger, the credential test. Each resolves the note of its PASS line.
import { NODE_TYPES, POLL_SECONDS, STATUS_TRIGGER_WORKFLOW_ID, TRIGGER_WORKFLOW_ID, chain, credRef, isManual, node, pollTimes, readExamples, secs, signature } from './esign.mjs';
import { EXPECTED, assert, fmtRoutes, nodeOutput, runError, siteCalls } from './expectations.mjs';
import { isDone } from './instance.mjs';
import { sleep } from './runtime.mjs';
import { waitingFor } from './waits.mjs';

/**
 * A Manual-Trigger example: run() starts it and resolves { runData, note }; then the calls the site logged must
 * be the example's expected routes, all successful (on Plain permalinks all through ?rest_route=), and its checks pass.
 */
export async function exampleRun(site, workflow, run) {
	const exp = EXPECTED[workflow.id];
	assert(exp, `no expectations written for ${workflow.id}`);
	await site.control('DELETE', '/requests');
	const outboxBefore = (await site.control('GET', '/outbox')).length;
	const { runData, note: runNote } = await run();
	const { log, routes, failed } = await siteCalls(site);
	assert(!failed.length, `failed API calls: ${failed.join('; ')}`);
	assert(JSON.stringify(Object.entries(routes).sort()) === JSON.stringify(Object.entries(exp.routes).sort()), `API calls ${fmtRoutes(routes)}; expected ${fmtRoutes(exp.routes)}`);
	// Plain permalinks: index.php?rest_route=, as WordPress's rest_url() writes it (nginx's recipe 405s PUT/DELETE to /?rest_route=).
	if (site.style === 'plain') assert(log.every((e) => e.url.startsWith('/index.php?rest_route=/esign/v1')), `not all requests used index.php?rest_route=: ${log.map((e) => e.url).join(', ')}`);
	const outbox = (await site.control('GET', '/outbox')).slice(outboxBefore);
	const note = await exp.verify({ site, runData, outbox, log });
	return `${runNote}; ${fmtRoutes(routes)}; ${note}`;
}

/**
 * Every Manual-Trigger example (imported for `site`) run by run(workflow), which resolves { runData, note } (default:
 * `n8n execute`): one exampleRun check each, labelled `<label> <file> <how> and makes its API calls`.
 */
export async function examplesRun(check, label, n8n, site, { how = 'runs with n8n execute', run } = {}) {
	run ??= async (workflow) => ({ runData: (await n8n.run(workflow.id)).data.resultData.runData, note: 'success' });
	for (const { file, workflow } of readExamples().filter(({ workflow }) => isManual(workflow))) {
		await check(`${label} ${file} ${how} and makes its API calls`, () => exampleRun(site, workflow, () => run(workflow)));
	}
}

/**
 * The trigger example activated (its production URL `url` when given, an unsigned POST refused with 401) and
 * registered as the site's receiver; then signingFiresOnce with sign() and more(), and a forged delivery refused.
 * Resolves { hook, docId } (empty when the trigger could not be activated).
 */
export async function triggerFires(check, label, n8n, site, sign, { url, more } = {}) {
	let hook;
	let docId;
	const active = await check(`${label} trigger example active, its production URL registered as the site's webhook receiver`, async () => {
		hook = await n8n.activateTrigger(TRIGGER_WORKFLOW_ID);
		if (url) assert(hook.url === url, `production URL ${hook.url}, expected ${url}`);
		assert(hook.status === 401, `an unsigned POST got ${hook.status}, expected 401`);
		await site.control('POST', '/webhooks', { url: hook.url, replace: true });
		return `${hook.url} (unsigned POST → 401)`;
	});
	if (!active) return {};
	await check(`${label} a real signing fires exactly one successful execution with the signed file`, async () => {
		const fired = await signingFiresOnce(n8n, site, sign, more);
		docId = fired.docId;
		return fired.note;
	});
	await check(`${label} a forged delivery gets 401 and starts no execution`, () => forgedRefused(n8n, hook.url, docId));
	return { hook, docId };
}

/** The trigger's and the polling trigger's output item: the event, the document and the signed PDF; Get completed document after it. */
function assertSignedOutput(runData, triggerNode, docId) {
	const items = nodeOutput(runData, triggerNode);
	assert(items.length === 1, `${items.length} items from ${triggerNode}`);
	const { json, binary } = items[0];
	const id = triggerNode === 'eSign Trigger' ? json.data?.document_id : json.document?.id;
	assert(json.event === 'document.completed' && String(id) === docId, `${triggerNode} output ${JSON.stringify(json).slice(0, 300)}, expected document.completed of ${docId}`);
	if (json.document) assert(json.document.status === 'completed', `document ${JSON.stringify(json.document).slice(0, 200)}`);
	const bin = binary && Object.values(binary)[0];
	assert(bin?.mimeType === 'application/pdf', `binary: ${JSON.stringify(bin ?? null).slice(0, 200)} (Download Document is on)`);
	const got = nodeOutput(runData, 'Get completed document')[0]?.json;
	assert(got?.status === 'completed', `Get completed document: status ${got?.status}`);
	return { json, bin };
}

/**
 * The trigger example, active with its URL registered as the site's receiver, fired by a real signing:
 * sign() signs a document the site's way and resolves { docId, note }. The site's document.completed delivery
 * (and its other events of the document) are answered 200 and exactly one successful execution carries the
 * signed PDF. more({ exec, bin, completed, deliveries }) adds site-specific checks and resolves a note.
 */
async function signingFiresOnce(n8n, site, sign, more) {
	const before = (await n8n.executions(TRIGGER_WORKFLOW_ID)).length;
	const { docId, note: signNote } = await sign();
	const doc = (await site.call('GET', `/documents/${docId}`)).body;
	assert(doc?.status === 'completed', `document ${docId} is ${doc?.status}`);
	const deliveries = (await site.control('GET', '/webhooks')).deliveries.filter((d) => String(JSON.parse(d.body).data?.document_id) === docId);
	const completed = deliveries.filter((d) => d.event === 'document.completed');
	assert(completed.length === 1 && completed[0].status === 200, `document.completed deliveries: ${JSON.stringify(completed.map((d) => d.status ?? d.error))}`);
	assert(deliveries.every((d) => d.status === 200), `deliveries: ${deliveries.map((d) => `${d.event}→${d.status ?? d.error}`).join(', ')}`);
	// Every delivery has been answered (sign() resolves once the site's deliveries settled), and the answers say
	// which start a run: n8n answers those "Workflow was started" (2.x once it created the execution, 1.x just before);
	// the other events (sent, viewed, signed) got n8n's "Webhook call received", given after the node returned no
	// run. So exactly one run can exist, now or later (see expectExecutions).
	const starting = deliveries.filter((d) => /Workflow was started/.test(d.answer ?? ''));
	assert(starting.length === 1 && starting[0] === completed[0], `deliveries answered "Workflow was started": ${starting.map((d) => d.event).join(', ') || 'none'}; answers: ${deliveries.map((d) => `${d.event} → ${String(d.answer).slice(0, 60)}`).join('; ')}`);
	const [exec] = await n8n.expectExecutions(TRIGGER_WORKFLOW_ID, before + 1);
	assert(exec.status === 'success', `execution ${exec.id} status ${exec.status}: ${runError(exec)}`);
	const { bin } = assertSignedOutput(exec.data?.resultData?.runData, 'eSign Trigger', docId);
	const extra = await more?.({ exec, bin, completed: completed[0], deliveries });
	return { docId, note: `execution ${exec.id}: document.completed of document ${docId}, binary ${bin.fileName ?? '?'} (${bin.mimeType}${bin.fileSize ? `, ${bin.fileSize}` : ''}); ${deliveries.length - 1} other events answered 200 without a run${signNote ? `; ${signNote}` : ''}${extra ? `; ${extra}` : ''}` };
}

/**
 * One signed document.completed delivery for the trigger example, told apart by its title: post() sends it to `url`
 * (the same bytes each time) and resolves { status, text }; runs() lists its runs, the executions whose trigger
 * output is it (a run that failed before the trigger ran has none); endedRuns() waits until it has runs and all have
 * ended, and resolves them.
 */
function oneDelivery(n8n, site, url, docId, title) {
	const body = JSON.stringify({ event: 'document.completed', data: { document_id: String(docId), document_title: title }, timestamp: new Date().toISOString() });
	const post = async () => {
		const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'X-ESIGN-Signature': signature(body, site.webhookSecret) }, body });
		return { status: res.status, text: (await res.text()).replace(/\s+/g, ' ') };
	};
	const runs = async () => (await n8n.executions(TRIGGER_WORKFLOW_ID, { includeData: true })).filter((e) => nodeOutput(e.data?.resultData?.runData ?? {}, 'eSign Trigger')[0]?.json?.data?.document_title === title);
	const endedRuns = async (timeoutMs = 120000) => {
		let list = await runs();
		for (let waited = 0; !(list.length && list.every(isDone)); waited += 500) {
			assert(waited < timeoutMs, `no ended run of the delivery "${title}" after ${timeoutMs / 1000} s (${list.length} runs)`);
			await sleep(500);
			list = await runs();
		}
		return list;
	};
	return { post, runs, endedRuns };
}

/**
 * A 200 is a promise (issue 31): while n8n cannot create or queue executions (refuse(); restore() ends it), a
 * delivery to the trigger example is never answered 2xx without its run: n8n 2.x answers 5xx. (n8n 1.x answers before
 * it creates the run, for its own Webhook node too, so there a 200 only means "received": docs/triggers.md; that is
 * not checked.) Nothing about it is remembered, so the same delivery sent again once n8n works runs exactly once,
 * with its file attached in the run, and a third sending is a repeat. `url`: where to send (the webhook processor in
 * queue mode). restore() waits for n8n's own failed attempt (its log names the refusal, `refusedLog`), so a late
 * attempt cannot slip past the restored database. Resolves the note of the PASS line.
 */
export async function promiseKept(n8n, site, url, docId, { refuse, restore, what, refusedLog, logOf = () => n8n.main.log() }) {
	const { post, runs, endedRuns } = oneDelivery(n8n, site, url, docId, `Promise ${what} ${Date.now()}`);
	const logged = () => (logOf().match(refusedLog) ?? []).length;
	const loggedBefore = logged();
	await refuse();
	let refused;
	try {
		refused = await post();
		for (let waited = 0; logged() === loggedBefore; waited += 200) {
			assert(waited < 60000, `n8n logged no failed attempt (${refusedLog}) within 60 s while ${what}; answer ${refused.status} ${refused.text.slice(0, 200)}`);
			await sleep(200);
		}
	} finally {
		await restore();
	}
	if (n8n.line === '2') assert(refused.status >= 500, `while ${what}, the delivery was answered ${refused.status}: ${refused.text.slice(0, 200)}`);
	const failed = await runs();
	assert(failed.length === 0, `${failed.length} runs of the refused delivery`);
	const resent = await post();
	assert(resent.status === 200 && /Workflow was started/.test(resent.text), `sent again once n8n worked: ${resent.status} ${resent.text.slice(0, 200)} (a failed delivery must not be taken for a repeat)`);
	const ended = await endedRuns();
	assert(ended.length === 1, `${ended.length} runs of the delivery sent again`);
	const [exec] = ended;
	assert(exec.status === 'success', `execution ${exec.id} status ${exec.status}: ${runError(exec)}`);
	assertSignedOutput(exec.data?.resultData?.runData, 'eSign Trigger', String(docId));
	const third = await post();
	assert(third.status === 200 && /repeated_delivery/.test(third.text), `sent a third time: ${third.status} ${third.text.slice(0, 200)}`);
	const after = await runs();
	assert(after.length === 1, `${after.length} runs after the third sending`);
	return `while ${what}: ${refused.status} ${refused.text.slice(0, 70)}, no run; sent again: 200, execution ${exec.id} with the signed PDF; a third time: repeated_delivery`;
}

/**
 * n8n 1.x answers an accepted delivery before it creates the run (webhook-helpers.js executeWebhook, 1.123.81), for its
 * own Webhook node too, so its 200 while refuse() holds proves nothing. What the trigger keeps there: nothing is
 * remembered for a run that was never created, so the same delivery, sent again once n8n works, ends with exactly one
 * run (whether n8n's late attempt for the first sending slipped past restore() or not: then the resend is a repeat).
 * Resolves the note of the PASS line, with what the site saw.
 */
export async function answeredBeforeRun(n8n, site, url, docId, { refuse, restore }) {
	const { post, runs, endedRuns } = oneDelivery(n8n, site, url, docId, `Promise 1.x ${Date.now()}`);
	await refuse();
	let first;
	try {
		first = await post();
		await sleep(3000); // n8n's attempt to create the run fails meanwhile (1.x logs nothing to wait for)
	} finally {
		await restore();
	}
	const second = await post();
	assert(second.status === 200, `sent again once n8n worked: ${second.status} ${second.text.slice(0, 60)}`);
	await endedRuns();
	await n8n.expectExecutions(TRIGGER_WORKFLOW_ID, (await n8n.executions(TRIGGER_WORKFLOW_ID)).length);
	const list = await runs();
	assert(list.length === 1 && list[0].status === 'success', `the delivery has ${list.length} runs (${list.map((e) => e.status).join(', ')}), expected exactly one`);
	return `while refusing: ${first.status} ${first.text.slice(0, 60)} (n8n 1.x answers before it creates the run); sent again: ${second.status} ${second.text.slice(0, 60)}; exactly one run, ${list[0].id}`;
}

/** A delivery signed with another secret gets 401 and starts no execution. */
async function forgedRefused(n8n, hookUrl, docId = '1') {
	const before = (await n8n.executions(TRIGGER_WORKFLOW_ID)).length;
	const body = JSON.stringify({ event: 'document.completed', data: { document_id: Number(docId), document_title: 'Forged', status: 'completed' }, timestamp: '2026-01-01 00:00:00' });
	const res = await fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'X-ESIGN-Signature': signature(body, 'not-the-secret'), 'X-ESIGN-Event': 'document.completed' }, body });
	await res.arrayBuffer();
	assert(res.status === 401, `forged delivery answered ${res.status}`);
	// Answered: a refusal returns no run in the same step as its answer (see expectExecutions).
	await n8n.expectExecutions(TRIGGER_WORKFLOW_ID, before);
	return '401, no new execution';
}

/** How many GET /stats requests the site has logged (the polling trigger's first request each poll). */
export const statsPolls = async (site) => (await site.control('GET', '/requests')).filter((r) => r.method === 'GET' && r.path.endsWith('/stats')).length;

/** Waits for `polls` more polls than the site has logged so far (GET /stats: a poll's first request). */
export async function nextPoll(site, { polls = 1, timeoutMs = 150000 * polls } = {}) {
	const count = await statsPolls(site);
	const deadline = Date.now() + timeoutMs;
	const wait = waitingFor(`${polls} more poll${polls > 1 ? 's' : ''} (GET /stats) at ${site.url}`);
	try {
		while ((await statsPolls(site)) < count + polls) {
			assert(Date.now() < deadline, `no poll (GET /stats) within ${timeoutMs / 1000} s`);
			await sleep(1000);
		}
	} finally {
		wait.done();
	}
}

/**
 * Resolves once a poll that began after this call has ended, by the poller's record at the site: the trigger polls
 * one poll at a time, POLL_SECONDS apart (a minute for the workflows as users get them; each poll is a few requests
 * to a local site, well under that), so when the second poll from now sends its first request the first one has
 * ended and handed any run it found to n8n (expectExecutions' `after` for a polling trigger: that run is then listed).
 */
export const pollEnded = (site) => nextPoll(site, { polls: 2 });

/**
 * Activates a polling workflow with the site's request log cleared and waits for its first poll, which must start
 * nothing: an early look (a run it started could still be on its way), the callers' exact final counts
 * (expectExecutions after pollEnded) include anything it started.
 */
async function activatePolling(n8n, site, workflowId) {
	await site.control('DELETE', '/requests');
	await n8n.activate(workflowId);
	await nextPoll(site);
	assert((await n8n.executions(workflowId)).length === 0, 'the first poll started an execution');
}

/**
 * The polling example (imported polling every POLL_SECONDS), activated: its first poll records what exists and starts nothing; a
 * document signed after it (sign() resolves { docId }) gives exactly one execution with the signed PDF, and
 * the next poll none. Stays active (the caller deactivates it).
 */
export async function pollingFiresOnce(n8n, site, sign, workflowId = STATUS_TRIGGER_WORKFLOW_ID) {
	const activatedAt = Date.now();
	await activatePolling(n8n, site, workflowId);
	const firstPollAfter = Date.now() - activatedAt;
	const { docId } = await sign();
	await n8n.waitForExecutions(workflowId, 1, 150000);
	const detectedIn = Date.now() - activatedAt;
	const [exec] = await n8n.expectExecutions(workflowId, 1, { after: () => pollEnded(site) }); // the next poll: nothing new may run
	assert(exec.status === 'success', `execution ${exec.id} status ${exec.status}: ${runError(exec)}`);
	const { json, bin } = assertSignedOutput(exec.data?.resultData?.runData, 'eSign Status Trigger', docId);
	return `first poll ${secs(firstPollAfter)} after activation; execution ${exec.id} for document ${docId} ${secs(detectedIn)} after it (previousStatus ${json.previousStatus}), binary ${bin.fileName}; the next poll started none`;
}

const SIGNER_POLL_WORKFLOW_ID = 'esignE2eSignerPoll';

/** An eSign Status Trigger polling every POLL_SECONDS for Signer Signed and Document Completed, nothing after it. */
const signerPollWorkflow = (credentialId) =>
	chain(SIGNER_POLL_WORKFLOW_ID, 'eSign e2e: signer events by polling', [
		node('eSign Status Trigger', NODE_TYPES.statusTrigger, 1, { pollTimes: pollTimes(POLL_SECONDS), events: ['signer.signed', 'document.completed'] }, { credentials: credRef(credentialId) }),
	]);

const TWO_SIGNERS = [['Gail Client', 'gail@example.org'], ['Hugo Countersigner', 'hugo@example.org']];

/**
 * A document sent to `people` ([name, email], each with a signature field on page 1), made through the API the way
 * a user does; inOrder: signing order 1, 2, …. Resolves { docId, signers: [{ id, token }] } in signing order.
 */
export async function sentDocument(site, title, { people = TWO_SIGNERS, inOrder = true } = {}) {
	const ok = async (method, p, opts) => {
		const res = await site.call(method, p, opts);
		assert(res.status < 300, `eSign API ${method} ${p} → ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
		return res.body;
	};
	const docId = String((await site.upload(await site.sample('contract.pdf'), title, 'contract.pdf')).id);
	for (const [i, [name, email]] of people.entries()) await ok('POST', `/documents/${docId}/signers`, { json: { name, email, ...(inOrder && { signing_order: i + 1 }) } });
	const signers = await ok('GET', `/documents/${docId}/signers`);
	const fields = signers.map((s, i) => ({ signer_id: Number(s.id), field_type: 'signature', page_number: 1, position_x: 72, position_y: 500 + i * 90 }));
	await ok('POST', `/documents/${docId}/fields`, { json: { fields } });
	const sent = await ok('POST', `/documents/${docId}/send`);
	assert(sent?.sent === true, `send: ${JSON.stringify(sent).slice(0, 300)}`);
	const tokens = (await site.control('GET', `/signers?document_id=${docId}`)).sort((a, b) => Number(a.signing_order) - Number(b.signing_order));
	assert(tokens.length === people.length, `${tokens.length} signers on document ${docId}`);
	return { docId, signers: tokens.map((s) => ({ id: String(s.id), token: s.token })) };
}

/** The site's API requests since the log was cleared, counted from one GET /stats (a poll's first) to the next: anything else running against the site counts too. */
async function requestsPerPoll(site) {
	const polls = [];
	for (const r of await site.control('GET', '/requests')) {
		if (r.method === 'GET' && r.path.endsWith('/stats')) polls.push(0);
		if (polls.length) polls[polls.length - 1]++;
	}
	return polls;
}

/**
 * Signer events by polling: a two-signer document, sent before activation (the first poll records it), signed one
 * signer at a time: one execution with Signer Signed for the first signer; then one with Signer Signed for the
 * second and Document Completed, in that order; the next poll none. Imports its own workflow; deactivates it.
 */
export async function signersPolledOnce(n8n, site, credentialId) {
	await n8n.import(signerPollWorkflow(credentialId));
	const { docId, signers } = await sentDocument(site, 'Signed one signer at a time');
	const sign = (n) => site.control('POST', `/sign/${encodeURIComponent(signers[n].token)}/sign`, {});
	const itemsOf = (exec) => nodeOutput(exec.data?.resultData?.runData, 'eSign Status Trigger').map(({ json }) => `${json.event} ${json.document?.id} ${json.signer?.id ?? '-'} ${json.previousStatus}`);
	try {
		await activatePolling(n8n, site, SIGNER_POLL_WORKFLOW_ID);
		await sign(0);
		await n8n.waitForExecutions(SIGNER_POLL_WORKFLOW_ID, 1, 150000);
		await sign(1);
		await n8n.waitForExecutions(SIGNER_POLL_WORKFLOW_ID, 2, 150000);
		const [second, first] = await n8n.expectExecutions(SIGNER_POLL_WORKFLOW_ID, 2, { after: () => pollEnded(site) }); // the next poll: nothing new may run
		for (const exec of [first, second]) assert(exec.status === 'success', `execution ${exec.id} status ${exec.status}: ${runError(exec)}`);
		const want1 = [`signer.signed ${docId} ${signers[0].id} pending`];
		const want2 = [`signer.signed ${docId} ${signers[1].id} pending`, `document.completed ${docId} - viewed`];
		assert(JSON.stringify(itemsOf(first)) === JSON.stringify(want1), `first execution: ${JSON.stringify(itemsOf(first))}, expected ${JSON.stringify(want1)}`);
		assert(JSON.stringify(itemsOf(second)) === JSON.stringify(want2), `second execution: ${JSON.stringify(itemsOf(second))}, expected ${JSON.stringify(want2)}`);
		const signer = nodeOutput(first.data?.resultData?.runData, 'eSign Status Trigger')[0].json.signer;
		assert(signer.email === 'gail@example.org' && signer.status === 'signed' && signer.signed_at, `signer: ${JSON.stringify(signer)}`);
		return `executions ${first.id} (${want1.join('; ')}) and ${second.id} (${want2.join('; ')}); the next poll started none; site requests from each GET /stats to the next: ${(await requestsPerPoll(site)).join(', ')}`;
	} finally {
		await n8n.deactivate(SIGNER_POLL_WORKFLOW_ID).catch(() => {});
	}
}

/** n8n's credential test (the editor's "Test" button): the good key OK, a wrong secret Error (its message matching badMessage). */
export async function credentialTests(n8n, credential, data, badMessage) {
	const good = await n8n.testCredential(credential, data);
	assert(good?.status === 'OK', `good key: ${JSON.stringify(good)}`);
	const bad = await n8n.testCredential(credential, { ...data, apiSecret: 'wrong-secret' });
	assert(bad?.status === 'Error', `bad key: ${JSON.stringify(bad)}`);
	if (badMessage) assert(badMessage.test(bad.message), `bad key message: ${bad.message}`);
	return `bad key → "${bad.message}"`;
}
