#!/usr/bin/env node
// `npm run test:e2e`: the package in real n8n, headless, for n8n 2.41.1 and then 1.123.81, each with the sandbox and
// a fresh user folder: types loaded, the examples run, both triggers fired by real signings (also across a restart),
// forgeries and repeats refused, the credential test, misbehaving and fronted sites, the eSign Tool under n8n's AI
// Agent with a scripted model (test/support/scriptedModel.mjs), and in a browser the node panel and the node walked in
// the editor (README screenshots).
// Env: E2E_LINES=2,1 (which lines, in order), E2E_KEEP=1 (keep the temporary user folders),
//      E2E_SCREENSHOTS=0 (skip the browser step), E2E_TIMEOUT_MIN=30 (watchdog after the runtime install),
//      E2E_STRICT_LINES=2 (the lines that also run the examples against a strict sandbox; empty: none),
//      E2E_CORPUS=0 (skip step 9, the saved-workflow corpus), E2E_ONLY=browser (per line only the setup and step 6;
//      E2E_ONLY=examples: only the setup and step 2, the examples),
//      ESIGN_POLL_SECONDS=10 (how often the polling workflows poll; 60: every minute, as the example is committed).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { LINES, RUNTIME_ROOT, ROOT, ensureRuntimes } from './lib/runtime.mjs';
import { CREDENTIAL, NODE_TYPES, POLL_SECONDS, STATUS_TRIGGER_WORKFLOW_ID, TRIGGER_WORKFLOW_ID, chain, credRef, credentialData, isManual, manual, node, readExamples, sandboxModule, sandboxSite, secs } from './lib/esign.mjs';
import { assert, nodeOutput, runError, testScript } from './lib/expectations.mjs';
import { answeredBeforeRun, credentialTests, exampleRun, examplesRun, pollEnded, pollingFiresOnce, promiseKept, signersPolledOnce, sentDocument, statsPolls, triggerFires } from './lib/checks.mjs';
import { createInstance } from './lib/instance.mjs';
import { ensureChromium, openEditor, takeScreenshots } from './lib/screenshots.mjs';
import { createAndSendHints, defineFieldsChoices, runFromEditor, templateBeforeChoice, templateVariables } from './lib/editorCheck.mjs';
import { corpusChecks } from './lib/corpus.mjs';
import { signedPagePicture } from './lib/textTags.mjs';
import { callTools, reply, startScriptedModel, toolAnswers } from '../test/support/scriptedModel.mjs';

const ORDER = (process.env.E2E_LINES || '2,1').split(',').map((s) => s.trim()).filter(Boolean);
const KEEP = process.env.E2E_KEEP === '1';
const SCREENSHOTS = process.env.E2E_SCREENSHOTS !== '0';
const CORPUS = process.env.E2E_CORPUS !== '0'; // step 9; `npm run test:corpus` runs it alone
// E2E_ONLY=browser: per line only n8n's start, the types, the examples' import and step 6 (the browser step);
// E2E_ONLY=examples: the same setup and step 2 (every Manual-Trigger example run, its calls and effects checked).
const ONLY = process.env.E2E_ONLY || '';
// The lines that run the examples against the strict sandbox too (step 8); E2E_STRICT_LINES= (empty) skips it.
const STRICT_LINES = (process.env.E2E_STRICT_LINES ?? '2').split(',').map((s) => s.trim()).filter(Boolean);
const LOG_DIR = path.join(RUNTIME_ROOT, 'e2e-logs');
const DOCS_DIR = path.join(ROOT, 'docs');
const WEBHOOK_ID = '7b0f3c2e-5d1a-4c3e-9a44-0e5a1c2d3e4f';
const TOOL_TYPE = `${NODE_TYPES.action}Tool`;
const FIND_TOOL = 'Find documents'; // the model sees it as Find_documents
const REMIND_TOOL = 'Remind signers';
const PLACE_TOOL = 'Place fields from tags';
const toolName = (nodeName) => nodeName.replace(/ /g, '_');

const { counts, check, skip, say, cleanups, stopSince, main, pack, watchdog } = testScript('e2e');

/** Another origin that records whatever reaches it (a redirect target that must receive nothing). */
async function startRecorder() {
	const requests = [];
	const server = http.createServer((req, res) => {
		requests.push({ method: req.method, url: req.url, headers: req.headers });
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{"total":0}');
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		requests,
		close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
	};
}

/** A Manual Trigger → eSign Statistics workflow for the misbehaving-site checks. */
const probe = (credentialId) => chain('esignE2eProbeStats', 'eSign e2e probe: statistics', [manual('Run probe'), node('Statistics', NODE_TYPES.action, 1, { resource: 'stats', operation: 'get' }, { credentials: credRef(credentialId) })]);

/** The site's side of a signing: a sent two-signer document, then each signer signs. Resolves { docId }. */
async function signedDocument(site, title) {
	const { docId, signers } = await sentDocument(site, title);
	for (const s of signers) await site.control('POST', `/sign/${encodeURIComponent(s.token)}/sign`, {});
	await site.sb.idle(); // every webhook delivery settled
	return { docId };
}

// ---------------------------------------------------------------- the AI agent (step 7)

/**
 * The model's script. The prompt names the scenario: "Remind … titled <words>" searches by those words
 * and reminds the one document found; "Remind … document <id>" reminds that id. After the last tool
 * answer it replies with that answer's summary (or "Done").
 */
function script({ messages }) {
	const prompt = String(messages.find((m) => m.role === 'user')?.content ?? '');
	const answers = toolAnswers(messages);
	const draft = /fields of draft (\d+)/.exec(prompt);
	if (draft) {
		if (!answers.length) return callTools({ name: toolName(PLACE_TOOL), args: { documentId: draft[1] } });
		const [placed] = JSON.parse(answers[0].content);
		return reply(placed?.summary ?? `Placed ${placed?.field_count} fields.`);
	}
	const byId = /document (\d+)/.exec(prompt);
	if (byId) {
		if (!answers.length) return callTools({ name: toolName(REMIND_TOOL), args: { documentId: byId[1] } });
		const [first] = JSON.parse(answers[0].content);
		return reply(first?.summary ?? 'Done');
	}
	const words = /titled "([^"]+)"/.exec(prompt)?.[1];
	if (!words) throw new Error(`no scenario in the prompt: ${prompt}`);
	if (!answers.length) return callTools({ name: toolName(FIND_TOOL), args: { title: words } });
	if (answers.length === 1) {
		const found = JSON.parse(answers[0].content);
		if (found.length !== 1 || found[0].id === undefined) return reply(`I found ${found.length} documents, not one.`);
		return callTools({ name: toolName(REMIND_TOOL), args: { documentId: String(found[0].id) } });
	}
	const [reminded] = JSON.parse(answers[1].content);
	return reply(reminded?.summary ?? `Reminded ${reminded?.reminded?.length ?? 0} signers.`);
}

const fromAI = (key, description) => `={{ $fromAI('${key}', '${description}', 'string') }}`;

/** Manual Trigger → AI Agent (the version a new agent gets in that n8n line), with the scripted model and the two eSign Tools. */
function agentWorkflow(line, id, prompt, { esignId, modelId }) {
	const nodes = [
		manual('Start'),
		node('AI Agent', '@n8n/n8n-nodes-langchain.agent', line === '2' ? 3.1 : 3, { promptType: 'define', text: prompt, options: {} }),
		node('Scripted model', '@n8n/n8n-nodes-langchain.lmChatOpenAi', 1.3, { model: { __rl: true, mode: 'id', value: 'scripted' }, responsesApiEnabled: false, options: {} }, { credentials: { openAiApi: { id: String(modelId), name: 'Scripted model' } } }),
		node(FIND_TOOL, TOOL_TYPE, 1, { resource: 'document', operation: 'getMany', returnAll: false, limit: 10, filters: { search: fromAI('title', 'Words from the document title') } }, { credentials: credRef(esignId) }),
		node(REMIND_TOOL, TOOL_TYPE, 1, { resource: 'document', operation: 'remind', documentId: { __rl: true, mode: 'id', value: fromAI('documentId', 'The document ID (id) from a document search') }, remindTo: 'all' }, { credentials: credRef(esignId) }),
		// Text tags (issue 37): the model gives only the draft's id; the fields come from the tags of its PDF.
		node(PLACE_TOOL, TOOL_TYPE, 1, { resource: 'field', operation: 'replaceAll', documentId: { __rl: true, mode: 'id', value: fromAI('documentId', 'The ID of the draft document') }, fieldsInput: 'tags' }, { credentials: credRef(esignId) }),
	];
	const to = (type) => ({ [type]: [[{ node: 'AI Agent', type, index: 0 }]] });
	return {
		id,
		name: `eSign agent: ${prompt}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes,
		connections: { Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] }, 'Scripted model': to('ai_languageModel'), [FIND_TOOL]: to('ai_tool'), [REMIND_TOOL]: to('ai_tool'), [PLACE_TOOL]: to('ai_tool') },
	};
}

/** The tool descriptions the model was given, by tool name. */
function toolsGiven(request) {
	return Object.fromEntries((request?.tools ?? []).map((t) => [t.function?.name, t.function?.description]));
}

// ---------------------------------------------------------------- the strict sandbox (step 8)

/**
 * Every Manual-Trigger example imported again (same ids, a credential of its own) for a sandbox started with the
 * strict profile, and run as in step 2: a node that relies on a guess of the default sandbox fails here. The trigger
 * examples are left as they are (the eSign Trigger's own strict run is in its engine suite).
 */
async function strictExamples(tag, n8n) {
	const { createSandbox } = sandboxModule();
	const strict = await createSandbox({ port: 0, host: '127.0.0.1', rateLimits: false, profile: 'strict' });
	cleanups.push(() => strict.close());
	const site = sandboxSite(strict);
	const manualIds = readExamples().filter(({ workflow }) => isManual(workflow)).map(({ workflow }) => workflow.id);
	const imported = await check(`${tag} 8. the ${manualIds.length} Manual-Trigger examples imported for a second sandbox, strict profile (the spec alone)`, async () => {
		const credential = await n8n.ensureCredential(credentialData(strict), { name: 'eSign strict sandbox' });
		await n8n.importExamples(site, credential.id, manualIds);
		return `${strict.url}, credential "eSign strict sandbox" ${credential.id}`;
	});
	if (imported) await examplesRun(check, `${tag} 8. strict sandbox:`, n8n, site);
}

// ---------------------------------------------------------------- the editor (step 6)

/**
 * Step 6 in headless Chromium: the node panel (README screenshots), then the node in the editor (scripts/lib/editorCheck.mjs):
 * Template → Create Document from the node panel before and after a template is chosen, Create and Send's hints,
 * example 1 run with the Execute Workflow button. Skipped, saying so, with E2E_SCREENSHOTS=0 or no browser.
 */
async function browserStep(tag, line, n8n, site) {
	const chromium = SCREENSHOTS ? ensureChromium(say) : { reason: 'E2E_SCREENSHOTS=0 turns the browser step off: the node panel and the node in the editor are not checked and no screenshot is taken' };
	if (!chromium.ok) {
		skip(`${tag} 6. node panel and the eSign node in the editor`, chromium.reason);
		return;
	}
	// What the editor must show comes from the node's description as n8n serves it (read once for every step here).
	const description = (await n8n.rest('GET', '/types/nodes.json')).find((t) => t.name === NODE_TYPES.action);
	// The node panel: the eSign entry shows the action node's description (n8n gives that entry the webhook trigger's:
	// test/unit/nodePanel.test.ts), in the search list (2.x; 1.x shows no description there, for its own nodes neither)
	// and on the entry's page; README screenshots.
	await check(`${tag} 6. node panel: the eSign entry shows the action node's description; screenshots (headless Chromium)`, async () => {
		const names = line === '2' ? undefined : { nodePanel: 'node-panel-1.x.png', operations: 'operations-1.x.png' };
		const shot = await takeScreenshots({ url: n8n.url, workflowId: 'esignExample0002', outDir: DOCS_DIR, names });
		const own = description?.description;
		assert(own, `${NODE_TYPES.action} not in /types/nodes.json`);
		const entry = shot.entries.find((e) => e.name === 'eSign');
		const listed = line === '2' ? own : '';
		assert(entry?.description === listed, `the search lists ${JSON.stringify(shot.entries)}; expected "eSign" with ${JSON.stringify(listed)}`);
		assert(shot.header.includes(own), `the eSign page shows "${shot.header}", not the action node's description "${own}"`);
		assert(shot.actions.length >= 10, `the eSign page listed ${shot.actions.length} actions`);
		for (const f of Object.values(shot.files)) assert(fs.statSync(f).size > 10000, `${f} is only ${fs.statSync(f).size} bytes`);
		return `${Object.values(shot.files).map((f) => path.relative(ROOT, f)).join(', ')}; search: ${shot.items.join(', ')}; ${shot.categories.join(', ')}`;
	});

	// The node walked as a user walks it (issue 38).
	const docsFile = (name) => path.join(DOCS_DIR, line === '2' ? `${name}.png` : `${name}-1.x.png`);
	let editor;
	// Taller than the node panel's pictures: the screenshots show a template's variables and a field row with their hints.
	const opened = async () => (editor ??= await openEditor({ url: n8n.url, viewport: { width: 1280, height: 1000 } }));
	try {
		await check(`${tag} 6b. editor: the Template action that creates a document, picked in the node panel of a new workflow, opens Template → Create Document, and its variables mapper shows no error before a template is chosen`, async () =>
			templateBeforeChoice(await opened(), { description, credential: CREDENTIAL.name }),
		);
		const name = 'Rental Agreement';
		const variablesFile = docsFile('template-variables');
		await check(`${tag} 6c. editor: choosing "${name}" in Template shows each of its variables as a row (${path.relative(ROOT, variablesFile)})`, async () => {
			assert(editor, 'the editor did not open (6b)');
			const listed = (await site.call('GET', '/templates')).body;
			const id = (Array.isArray(listed) ? listed : []).find((t) => t.name === name)?.id;
			assert(id, `the site lists no template "${name}": ${JSON.stringify(listed).slice(0, 200)}`);
			const variables = (await site.call('GET', `/templates/${id}`)).body?.variables ?? [];
			assert(variables.length, `template ${id} "${name}" has no variables on the site`);
			return templateVariables(editor, { template: { name, variables }, file: variablesFile });
		});
		const fieldsFile = docsFile('create-and-send-fields');
		await check(`${tag} 6d. editor: Create and Send, picked in the node panel, shows the hints of a Signers row and a Fields row; Font Size only for text-valued field types (${path.relative(ROOT, fieldsFile)})`, async () =>
			createAndSendHints(await opened(), { description, credential: CREDENTIAL.name, file: fieldsFile }),
		);
		const example = readExamples().find(({ workflow }) => workflow.id === 'esignExample0001');
		await check(`${tag} 6e. editor: ${example.file} run with the Execute Workflow button ends successfully and makes its API calls`, async () => {
			const browser = await opened();
			return exampleRun(site, example.workflow, () => runFromEditor(browser, n8n, example.workflow.id));
		});
		await check(`${tag} 6f. editor: Create and Send, Define Fields "From Text Tags in the PDF" and "From the PDF’s Form Fields" each show their own notice, parameters and options (Remove Tags From the PDF, Form Field Signers, Form Field Size …) and not the other's`, async () =>
			defineFieldsChoices(await opened(), { description, credential: CREDENTIAL.name }),
		);
	} finally {
		await editor?.close();
	}
}

// ---------------------------------------------------------------- one n8n line

async function runLine(line, tarball) {
	const lineStart = Date.now();
	const mark = cleanups.length; // everything pushed after this belongs to this line
	const failedBefore = counts.failed;
	const { createSandbox } = sandboxModule();
	const sb = await createSandbox({ port: 0, host: '127.0.0.1', rateLimits: false }); // limits off: tests (clarifications)
	cleanups.push(() => sb.close());
	const site = sandboxSite(sb);
	const n8n = await createInstance({ line, tarball, keep: KEEP, logDir: LOG_DIR, cleanups });
	const { tag, version } = n8n;
	say(`---- n8n ${version} ----`);
	cleanups.splice(mark + 1, 0, () => {
		if (counts.failed > failedBefore) say(`n8n ${version} log: ${path.relative(ROOT, path.join(LOG_DIR, `n8n-${version}.log`))}`);
		if (KEEP) say(`kept ${n8n.userFolder}`);
	});
	try {
		// 1. Types: offline export of every node type n8n loads.
		await check(`${tag} 1. node types loaded (n8n export:nodes)`, async () => {
			const names = new Set((await n8n.exportNodes()).map((t) => t.name));
			for (const n of Object.values(NODE_TYPES)) assert(names.has(n), `${n} not among the ${names.size} exported types`);
			return Object.values(NODE_TYPES).join(', ');
		});

		const started = await check(`${tag} n8n starts with the package installed`, async () => {
			await n8n.start();
			return `${n8n.url}, ready in ${secs(Date.now() - lineStart)} since the line began`;
		});
		if (!started) return;

		await check(`${tag} 1. types served to the editor (/types/nodes.json, /types/credentials.json)`, async () => {
			const { versionCli } = await n8n.rest('GET', '/rest/settings');
			assert(versionCli === version, `server reports ${versionCli}`);
			const nodes = await n8n.rest('GET', '/types/nodes.json');
			const creds = await n8n.rest('GET', '/types/credentials.json');
			for (const n of Object.values(NODE_TYPES)) assert(nodes.some((t) => t.name === n), `${n} not in /types/nodes.json`);
			assert(creds.some((c) => c.name === CREDENTIAL.type), `${CREDENTIAL.type} not in /types/credentials.json`);
			return `${Object.keys(NODE_TYPES).length} node types and credential type ${CREDENTIAL.type}`;
		});

		const credential = await n8n.ensureCredential(credentialData(sb));

		// 2. Examples: import all, run every Manual-Trigger one with `n8n execute` (n8n keeps running).
		const examples = readExamples();
		const imported = await check(`${tag} 2. all ${examples.length} examples imported`, async () => {
			await n8n.importExamples(site, credential.id, undefined, { pollSeconds: POLL_SECONDS });
			const have = new Set((await n8n.rest('GET', '/rest/workflows')).map((w) => String(w.id)));
			const missing = examples.filter(({ workflow }) => !have.has(workflow.id)).map(({ file }) => file);
			assert(!missing.length, `not imported: ${missing.join(', ')}`);
			return `credential "${CREDENTIAL.name}" ${credential.id}`;
		});
		if (ONLY === 'browser') {
			skip(`${tag} 2.–5. and 7.–9.`, 'E2E_ONLY=browser: only the browser step runs');
			if (imported) await browserStep(tag, line, n8n, site);
			return;
		}
		if (imported) await examplesRun(check, `${tag} 2.`, n8n, site);
		if (ONLY === 'examples') {
			skip(`${tag} 3.–9.`, 'E2E_ONLY=examples: only the examples run');
			return;
		}
		// What text tags do, for the docs: example 8's signed contract, its signature page as a picture (2.x only).
		if (imported && line === '2') {
			await check(`${tag} 2. text tags: the signed contract's signature page as a picture (docs/text-tags-signed.png)`, async () =>
				signedPagePicture(path.join(DOCS_DIR, 'text-tags-signed.png'), say),
			);
		}

		// 3. Trigger: active, fired by the sandbox's real signed document.completed.
		const sign = async () => {
			const before = (await n8n.executions(TRIGGER_WORKFLOW_ID)).length;
			assert(before === 0, `${before} executions before signing`);
			return signedDocument(site, 'E2E trigger contract');
		};
		const { hook, docId } = await triggerFires(check, `${tag} 3.`, n8n, site, sign, { url: `${n8n.url}/webhook/${WEBHOOK_ID}/esign` });
		if (hook) {
			await check(`${tag} 3. repeating the real signed delivery byte for byte starts no second execution`, async () => {
				const original = (await site.control('GET', '/webhooks')).deliveries.find((d) => d.event === 'document.completed' && String(JSON.parse(d.body).data?.document_id) === docId);
				assert(original, 'no document.completed delivery to repeat');
				const before = (await n8n.executions(TRIGGER_WORKFLOW_ID)).length;
				const res = await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json', 'X-ESIGN-Signature': original.signature, 'X-ESIGN-Event': original.event }, body: original.body });
				const answer = await res.text();
				assert(res.status === 200 && /repeated_delivery/.test(answer), `repeat answered ${res.status}: ${answer.slice(0, 200)}`);
				// Answered: a refusal returns no run in the same step as its answer (see expectExecutions).
				await n8n.expectExecutions(TRIGGER_WORKFLOW_ID, before);
				return '200 repeated_delivery, no new execution (the accepted hash came from the workflow\'s stored static data)';
			});
		}

		// 3e. A 200 is a promise (issue 31): the database refuses new executions for a moment. n8n 2.x answers after it
		// created the run; 1.x answers before (its own Webhook node too), and the delivery sent again runs once.
		if (hook) {
			const refusing = { refuse: () => n8n.refuseExecutions(true), restore: () => n8n.refuseExecutions(false), what: 'the database refused new executions' };
			if (line === '2') {
				await check(`${tag} 3e. while the database refuses new executions, a delivery is answered 5xx, never 200 without its run; sent again, it runs once`, () =>
					promiseKept(n8n, site, hook.url, docId, { ...refusing, refusedLog: /refused by the e2e test/g }),
				);
			} else {
				await check(`${tag} 3e. while the database refuses new executions, n8n 1.x answers 200 before it creates the run; sent again, the delivery ends with exactly one run`, () => answeredBeforeRun(n8n, site, hook.url, docId, refusing));
			}
		}

		// 3b. Polling trigger: active, it polls every POLL_SECONDS (ESIGN_POLL_SECONDS, 10 s; the example as committed
		// polls every minute: see POLL_SECONDS in scripts/lib/esign.mjs); a document signed after its first poll gives
		// exactly one execution, and the next poll gives none.
		await check(`${tag} 3b. polling trigger: a document signed between polls gives exactly one execution, with the signed file`, async () => {
			cleanups.push(() => n8n.deactivate(STATUS_TRIGGER_WORKFLOW_ID).catch(() => {}));
			return pollingFiresOnce(n8n, site, () => signedDocument(site, 'E2E polled contract'));
		});

		// 3c. The polling trigger's state survives a restart: a document signed while n8n is down is
		// reported once after the restart (no new baseline that would swallow it, no repeat of the first).
		await check(`${tag} 3c. polling trigger: a document signed while n8n is stopped is reported once after the restart`, async () => {
			const before = await n8n.executions(STATUS_TRIGGER_WORKFLOW_ID);
			assert(before.length === 1, `${before.length} executions before the restart (step 3b must run first)`);
			await n8n.stop();
			const { docId } = await signedDocument(site, 'E2E contract signed during downtime');
			const polls = await statsPolls(site);
			await n8n.restart();
			const restartedAt = Date.now();
			await n8n.waitForExecutions(STATUS_TRIGGER_WORKFLOW_ID, 2, 150000).catch((err) => {
				throw new Error(`${err.message} (${polls} polls before the restart; the state may not have survived)`);
			});
			const list = await n8n.expectExecutions(STATUS_TRIGGER_WORKFLOW_ID, 2, { after: () => pollEnded(site) });
			const newest = list.find((e) => !before.some((b) => b.id === e.id));
			const [item] = nodeOutput(newest.data?.resultData?.runData, 'eSign Status Trigger');
			assert(String(item?.json?.document?.id) === docId && item.json.event === 'document.completed', `the new execution reports ${JSON.stringify(item?.json ?? null).slice(0, 200)}`);
			await n8n.deactivate(STATUS_TRIGGER_WORKFLOW_ID);
			return `execution ${newest.id} for document ${docId} ${secs(Date.now() - restartedAt)} after the restart; the next poll started none`;
		});

		// 3d. Signer events by polling: a two-signer document signed one signer at a time gives Signer Signed
		// for the first, then Signer Signed + Document Completed for the second, once each.
		await check(`${tag} 3d. polling trigger, signer events: a two-signer document signed one signer at a time`, () => signersPolledOnce(n8n, site, credential.id));

		// 4. Credential test through n8n's own endpoint (the editor's "Test" button).
		// 2.x shows the credential's rules message; 1.x a generic "Authorization failed" text.
		await check(`${tag} 4. credential test: good key OK, bad key Error`, () => credentialTests(n8n, credential, credentialData(sb), line === '2' ? /refused the request \(401\).*rejected the API key or secret/ : undefined));

		// 5. A misbehaving site (issue 8): a redirect to another origin and an HTML page with 200.
		await n8n.import(probe(credential.id));
		const stats = '/wp-json/esign/v1/stats';
		await check(`${tag} 5. a redirect to another origin fails naming it; the key and secret never reach it (node and credential test)`, async () => {
			const other = await startRecorder();
			try {
				await site.control('POST', '/faults', { path: stats, answer: 'redirect', status: 301, location: `${other.url}${stats}`, count: 1 });
				const message = runError(await n8n.run('esignE2eProbeStats', 'error'));
				assert(message.includes(`The site redirects ${sb.url}${stats} to ${other.url}${stats} — Use ${other.url} as the Site URL`), `error: ${message}`);
				await site.control('POST', '/faults', { path: stats, answer: 'redirect', status: 302, location: `${other.url}${stats}`, count: 1 });
				const tested = await n8n.testCredential(credential, credentialData(sb));
				assert(tested?.status === 'Error', `credential test: ${JSON.stringify(tested)}`);
				if (line === '2') assert(/redirects this address elsewhere \(HTTP 302\)/.test(tested.message), `credential test message: ${tested.message}`);
				assert(other.requests.length === 0, `the other origin received ${other.requests.length} requests: ${JSON.stringify(other.requests).slice(0, 300)}`);
				return `node: "${message.split(' — ')[0]}"; credential test: "${tested.message.slice(0, 80)}…"; other origin: 0 requests`;
			} finally {
				await site.control('DELETE', '/faults');
				await other.close();
			}
		});
		await check(`${tag} 5. an HTML page answered with 200 fails the item instead of becoming output`, async () => {
			await site.control('POST', '/faults', { path: stats, answer: 'html-200', count: 1 });
			try {
				const message = runError(await n8n.run('esignE2eProbeStats', 'error'));
				assert(/answered GET \/stats with something other than the eSign API's JSON \(HTTP 200, text\/html/.test(message), `error: ${message}`);
				return message.split(' — ')[0];
			} finally {
				await site.control('DELETE', '/faults');
			}
		});

		// 5b. Real hosting (issue 19): the site behind HTTP Basic auth and a page cache that keeps GET answers by URL
		// for minutes and ignores Cache-Control (the sandbox's fronts play both).
		await check(`${tag} 5b. behind Basic auth and a URL-keyed cache: the credential sends both logins, and a read sees a change made after a cached one`, async () => {
			const staging = { user: 'staging', password: `pw-${Date.now()}` };
			const doc = String((await site.upload(await site.sample('one-page.pdf'), 'Before the cache', 'cached.pdf')).id);
			const fronted = await n8n.ensureCredential({ ...credentialData(sb), basicAuth: true, basicAuthUser: staging.user, basicAuthPassword: staging.password }, { name: 'eSign behind a front' });
			const get = chain('esignE2eFrontGet', 'eSign e2e: Get behind a front', [manual('Run'), node('Get document', NODE_TYPES.action, 1, { resource: 'document', operation: 'get', documentId: { __rl: true, mode: 'id', value: doc } }, { credentials: credRef(fronted.id, 'eSign behind a front') })]);
			await n8n.import(get);
			const title = async () => nodeOutput((await n8n.run('esignE2eFrontGet')).data.resultData.runData, 'Get document')[0]?.json?.title;
			await site.control('POST', '/fronts', { basicAuth: staging, cache: { headers: [] } });
			try {
				assert((await title()) === 'Before the cache', 'first read');
				// Without the password: the front's 401, named as such (node), and the credential test's text.
				const refused = runError(await n8n.run('esignE2eProbeStats', 'error'));
				assert(/asks for a username and password before WordPress \(HTTP Basic auth\)/.test(refused), `without Basic auth: ${refused}`);
				const tested = await n8n.testCredential(fronted, { ...credentialData(sb), basicAuth: true, basicAuthUser: staging.user, basicAuthPassword: staging.password });
				assert(tested?.status === 'OK', `credential test with Basic auth: ${JSON.stringify(tested)}`);
				const bare = await n8n.testCredential(credential, credentialData(sb));
				assert(bare?.status === 'Error' && (line !== '2' || /sign-in box/.test(bare.message)), `credential test without Basic auth: ${JSON.stringify(bare)}`);
				// The change goes through the same cache (writes pass it); only the password prompt is lifted for it.
				await site.control('POST', '/fronts', { basicAuth: false });
				const renamed = await site.call('PUT', `/documents/${doc}`, { json: { title: 'After the cache' } });
				assert(renamed.status === 200, `rename → ${renamed.status}`);
				await site.control('POST', '/fronts', { basicAuth: staging });
				const after = await title();
				assert(after === 'After the cache', `second read shows "${after}": a cached answer`);
				const gets = (await site.control('GET', '/requests')).filter((r) => r.method === 'GET' && r.path.endsWith(`/documents/${doc}`) && r.executed !== false);
				assert(gets.length >= 2 && gets.every((r) => /^\d+$/.test(r.query?._ ?? '')), `reads without a unique _: ${JSON.stringify(gets.map((r) => r.url))}`);
				return `node: "${refused.split(' — ')[0].slice(0, 90)}…"; both reads reached the site (_=${gets.map((r) => r.query._).join(', ')}); credential test OK with Basic auth, "${(bare.message ?? '').slice(0, 60)}…" without`;
			} finally {
				await site.control('DELETE', '/fronts');
			}
		});

		// 6. The editor in headless Chromium: the node panel, then the node walked as a user walks it.
		await browserStep(tag, line, n8n, site);

		// 7. The eSign Tool under n8n's AI Agent (3.1 on 2.x, 3 on 1.x) and OpenAI Chat Model 1.3 (Responses API off),
		// pointed at a scripted OpenAI-compatible model served by this process.
		const model = await startScriptedModel(script);
		cleanups.push(() => model.close());
		const ids = { esignId: credential.id, modelId: (await n8n.ensureCredential({ apiKey: 'sk-scripted-model', url: model.url, header: false }, { name: 'Scripted model', type: 'openAiApi' })).id };

		// The site: a sent renewal (two signers) and a draft of another document.
		const { docId: renewalId } = await sentDocument(site, 'Renewal 7 Birch Lane', { people: [['Ann Signer', 'ann@example.org'], ['Bob Signer', 'bob@example.org']], inOrder: false });
		const draft = await site.upload(await site.sample('one-page.pdf'), 'Draft NDA');

		const findAndRemind = agentWorkflow(line, 'esignAgentRemind01', 'Remind the signers of the document titled "Birch Lane"', ids);
		const refused = agentWorkflow(line, 'esignAgentRefuse01', `Remind the signers of document ${draft.id}`, ids);
		// A draft of the tagged contract with its two signers, for the text-tags tool.
		const tagged = await site.upload(await site.sample('tagged-contract.pdf'), 'Tagged draft for the agent', 'website-contract.pdf');
		for (const [name, email] of [['Carla Client', 'carla@example.org'], ['Pete Provider', 'pete@example.org']]) await site.call('POST', `/documents/${tagged.id}/signers`, { json: { name, email } });
		const placeFields = agentWorkflow(line, 'esignAgentTags01', `Place the fields of draft ${tagged.id} from its text tags`, ids);
		await n8n.import([findAndRemind, refused, placeFields]);

		await check(`${tag} 7. AI agent: it finds a document by title and reminds its signers`, async () => {
			await site.control('DELETE', '/requests');
			const before = model.requests.length;
			const data = await n8n.run(findAndRemind.id);
			const requests = model.requests.slice(before);
			const heard = JSON.stringify(toolAnswers(requests.at(-1)?.messages ?? [])).slice(0, 800);
			assert(requests.length === 3, `the model was asked ${requests.length} times, expected 3 (search, remind, reply); the tool answers it had: ${heard}`);
			const given = toolsGiven(requests[0]);
			assert(/^Searches eSign documents/.test(given[toolName(FIND_TOOL)] ?? ''), `the search tool was described as ${JSON.stringify(given[toolName(FIND_TOOL)])}`);
			assert(/Needs the document ID of a sent or viewed document\. If you only know its title, get the ID first with a document search/.test(given[toolName(REMIND_TOOL)] ?? ''), `the remind tool was described as ${JSON.stringify(given[toolName(REMIND_TOOL)])}`);
			const calls = (await site.control('GET', '/requests')).map((r) => `${r.method} ${r.path.replace(/^\/wp-json\/esign\/v1/, '')}${r.query?.search ? `?search=${r.query.search}` : ''} ${r.status}`);
			assert(JSON.stringify(calls) === JSON.stringify([`GET /documents?search=Birch Lane 200`, `POST /documents/${renewalId}/remind 200`]), `site calls: ${JSON.stringify(calls)}`);
			const reminders = (await site.control('GET', `/outbox?document_id=${renewalId}`)).filter((m) => m.kind === 'reminder').map((m) => m.to).sort();
			assert(JSON.stringify(reminders) === JSON.stringify(['ann@example.org', 'bob@example.org']), `reminders sent to ${JSON.stringify(reminders)}`);
			const [out] = nodeOutput(data.data.resultData.runData, 'AI Agent');
			return `site: ${calls.join(', ')}; reminders to ${reminders.join(', ')}; agent: "${String(out?.json?.output).slice(0, 80)}"`;
		});

		await check(`${tag} 7. AI agent: the site refuses (a draft with nobody to remind: no_recipients, the spec's refusal) and the refusal reaches the model`, async () => {
			// The refusal the spec shows. The sandbox's default profile refuses a draft earlier with its own guess
			// (invalid_state), so for this check it plays the spec's refusals alone (CONTRACT.md → Profiles).
			await site.control('POST', '/profile', { refusals: 'spec' });
			try {
				const before = model.requests.length;
				const data = await n8n.run(refused.id);
				const requests = model.requests.slice(before);
				assert(requests.length === 2, `the model was asked ${requests.length} times, expected 2 (remind, reply)`);
				const [answer] = toolAnswers(requests[1].messages);
				assert(answer?.name === toolName(REMIND_TOOL), `tool answer from ${answer?.name}`);
				const text = answer.content;
				for (const part of ['no_recipients', 'No signer is waiting to sign this document.', '"httpStatus":400', '"summary":"The eSign site refused the request (HTTP 400, code no_recipients)']) {
					assert(text.includes(part), `the tool message lacks ${part}: ${text.slice(0, 600)}`);
				}
				for (const secret of [sb.keys.admin.key, sb.keys.admin.secret, sb.webhookSecret]) assert(!text.includes(secret), 'the tool message contains a credential value');
				const [out] = nodeOutput(data.data.resultData.runData, 'AI Agent');
				assert(String(out?.json?.output).includes('no_recipients'), `the agent's reply: ${JSON.stringify(out?.json ?? null).slice(0, 300)}`);
				return `tool message (${text.length} chars): ${text.slice(0, 160)}…`;
			} finally {
				await site.control('POST', '/profile', {});
			}
		});

		await check(`${tag} 7. AI agent: it places a draft's fields from the text tags of its PDF, given only the draft's id`, async () => {
			await site.control('DELETE', '/requests');
			const before = model.requests.length;
			const data = await n8n.run(placeFields.id);
			const requests = model.requests.slice(before);
			assert(requests.length === 2, `the model was asked ${requests.length} times, expected 2 (place, reply)`);
			// The tool's inputs, as the model saw them: the draft's id and nothing about positions.
			const schema = (requests[0]?.tools ?? []).find((t) => t.function?.name === toolName(PLACE_TOOL))?.function?.parameters?.properties ?? {};
			assert(JSON.stringify(Object.keys(schema)) === JSON.stringify(['documentId']), `the tool's inputs: ${JSON.stringify(Object.keys(schema))}`);
			const calls = (await site.control('GET', '/requests')).map((r) => `${r.method} ${r.path.replace(/^\/wp-json\/esign\/v1/, '')} ${r.status}`);
			const id = tagged.id;
			assert(JSON.stringify(calls) === JSON.stringify([`GET /documents/${id}/file 200`, `GET /documents/${id}/signers 200`, `POST /documents/${id}/fields 200`]), `site calls: ${JSON.stringify(calls)}`);
			const fields = (await site.call('GET', `/documents/${id}/fields`)).body;
			assert(Array.isArray(fields) && fields.length === 8, `${fields?.length} fields on the draft, expected the contract's 8 tags`);
			const [answer] = toolAnswers(requests[1].messages);
			assert(answer?.name === toolName(PLACE_TOOL) && /"field_count":8/.test(answer.content), `tool answer: ${String(answer?.content).slice(0, 300)}`);
			const [out] = nodeOutput(data.data.resultData.runData, 'AI Agent');
			return `tool inputs: documentId only; site: ${calls.join(', ')}; 8 fields from the tags; agent: "${String(out?.json?.output).slice(0, 60)}"`;
		});

		// 8. The examples once more, against a second sandbox playing the spec alone (the strict profile: declines in
		// declined_at only, webhook bodies {event, data}, minimal Add Signer answers, only the spec's refusals).
		if (STRICT_LINES.includes(line)) await strictExamples(tag, n8n);

		// 9. The saved-workflow corpus (test/corpus, scripts/lib/corpus.mjs; CONTRIBUTING.md → Versioning policy) in this
		// same instance: every operation with non-default parameters, both triggers with their options.
		if (CORPUS) await corpusChecks(check, `${tag} 9.`, n8n, cleanups);
		else skip(`${tag} 9. saved-workflow corpus`, 'E2E_CORPUS=0');
	} catch (err) {
		// Setup outside a check failed (sandbox, owner, API key): count it and go on.
		counts.failed++;
		console.log(`FAIL ${tag} setup: ${err.stack || err}`);
	} finally {
		await stopSince(mark); // this line's n8n and sandbox stop before the next line starts
		say(`n8n ${version} done in ${secs(Date.now() - lineStart)}`);
	}
}

// ---------------------------------------------------------------- main

main(async () => {
	for (const line of ORDER) if (!LINES[line]) throw new Error(`E2E_LINES: unknown line ${line}`);
	if (ONLY && !['browser', 'examples'].includes(ONLY)) throw new Error(`E2E_ONLY: unknown value ${ONLY} ("browser" or "examples")`);
	// First run on a fresh clone: installs both runtimes at once (~5 min; .ci/run starts this earlier, `npm run
	// runtimes`); later runs reuse them.
	await ensureRuntimes(ORDER);
	watchdog('E2E_TIMEOUT_MIN', 30); // the runtime install excluded
	const tarball = await pack();
	if (!tarball) return;
	for (const line of ORDER) await runLine(line, tarball).catch((err) => {
		counts.failed++;
		console.log(`FAIL [n8n ${LINES[line].version}] setup: ${err.stack || err}`);
	});
});
