#!/usr/bin/env node
// `npm run test:e2e:agent`: the eSign Tool under n8n's own AI Agent in real n8n (2.41.1 by default), headless.
// A scripted OpenAI-compatible model (scripts/lib/scriptedModel.mjs, served by this process on a free
// 127.0.0.1 port; `n8n execute` runs in its own process) drives n8n's AI Agent (3.1 on 2.x, 3 on 1.x)
// through n8n's OpenAI Chat Model (1.3, Responses API off):
//   a. it searches documents by title with one eSign Tool (Document → Get Many, $fromAI search), takes the
//      id from the tool's answer and reminds the signers with another (Document → Remind, $fromAI id);
//      checked in the sandbox's request log and outbox;
//   b. it reminds a draft: the site refuses (400 invalid_state), and the tool message the model receives
//      carries the site's code and message and the node's advice, and no secret.
// Both also check that the model was given the eSign Tool's default descriptions.
// Prints PASS/FAIL per check and ends with `N passed, M failed`; exits 1 on any failure.
// Env: AGENT_LINES=2 (n8n lines, in order; 1 = 1.123.81), E2E_KEEP=1 (keep the user folders).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LINES, RUNTIME_ROOT, buildAndPack, ensureRuntime } from './lib/runtime.mjs';
import { NODE_TYPES, credRef, credentialData, manual, node, sandboxModule, sandboxSite, secs } from './lib/esign.mjs';
import { assert, createChecks, createLifecycle, nodeOutput } from './lib/expectations.mjs';
import { createInstance } from './lib/instance.mjs';
import { callTools, reply, startScriptedModel, toolAnswers } from './lib/scriptedModel.mjs';

const ORDER = (process.env.AGENT_LINES || '2').split(',').map((s) => s.trim()).filter(Boolean);
const KEEP = process.env.E2E_KEEP === '1';
const LOG_DIR = path.join(RUNTIME_ROOT, 'e2e-logs');
const TOOL_TYPE = `${NODE_TYPES.action}Tool`;
const FIND_TOOL = 'Find documents'; // the model sees it as Find_documents
const REMIND_TOOL = 'Remind signers';
const toolName = (nodeName) => nodeName.replace(/ /g, '_');

const { counts, check } = createChecks();
const say = (...a) => console.log('[e2e-agent]', ...a);
const { cleanups, finish, stopSince } = createLifecycle({ label: 'e2e-agent', say, counts });

/**
 * The model's script. The prompt names the scenario: "Remind … titled <words>" searches by those words
 * and reminds the one document found; "Remind … document <id>" reminds that id. After the last tool
 * answer it replies with that answer's summary (or "Done").
 */
function script({ messages }) {
	const prompt = String(messages.find((m) => m.role === 'user')?.content ?? '');
	const answers = toolAnswers(messages);
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
function agentWorkflow(line, id, prompt, { esignCredential, modelCredential }) {
	const nodes = [
		manual('Start'),
		node('AI Agent', '@n8n/n8n-nodes-langchain.agent', line === '2' ? 3.1 : 3, { promptType: 'define', text: prompt, options: {} }),
		node('Scripted model', '@n8n/n8n-nodes-langchain.lmChatOpenAi', 1.3, { model: { __rl: true, mode: 'id', value: 'scripted' }, responsesApiEnabled: false, options: {} }, { credentials: { openAiApi: { id: String(modelCredential.id), name: modelCredential.name } } }),
		node(FIND_TOOL, TOOL_TYPE, 1, { resource: 'document', operation: 'getMany', returnAll: false, limit: 10, filters: { search: fromAI('title', 'Words from the document title') } }, { credentials: credRef(esignCredential.id) }),
		node(REMIND_TOOL, TOOL_TYPE, 1, { resource: 'document', operation: 'remind', documentId: { __rl: true, mode: 'id', value: fromAI('documentId', 'The document ID (id) from a document search') }, remindTo: 'all' }, { credentials: credRef(esignCredential.id) }),
	];
	const to = (type) => ({ [type]: [[{ node: 'AI Agent', type, index: 0 }]] });
	return {
		id,
		name: `eSign agent: ${prompt}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes,
		connections: { Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] }, 'Scripted model': to('ai_languageModel'), [FIND_TOOL]: to('ai_tool'), [REMIND_TOOL]: to('ai_tool') },
	};
}

/** The tool descriptions the model was given, by tool name. */
function toolsGiven(request) {
	return Object.fromEntries((request?.tools ?? []).map((t) => [t.function?.name, t.function?.description]));
}

async function runLine(line, tarball) {
	const lineStart = Date.now();
	const mark = cleanups.length;
	const { createSandbox } = sandboxModule();
	const sb = await createSandbox({ port: 0, host: '127.0.0.1', rateLimits: false });
	cleanups.push(() => sb.close());
	const site = sandboxSite(sb);
	const model = await startScriptedModel(script);
	cleanups.push(() => model.close());
	const n8n = await createInstance({ line, tarball, keep: KEEP, logDir: LOG_DIR, cleanups });
	const { tag, version } = n8n;
	say(`---- n8n ${version} ----`);
	try {
		await n8n.start();
		say(`n8n ready at ${n8n.url} in ${secs(Date.now() - lineStart)}; scripted model at ${model.url}`);
		const esignCredential = await n8n.ensureCredential(credentialData(sb));
		const modelCredential = await n8n.ensureCredential({ apiKey: 'sk-scripted-model', url: model.url, header: false }, { name: 'Scripted model', type: 'openAiApi' });
		modelCredential.name = 'Scripted model';

		// The site: a sent lease (two signers) and a draft of another.
		const ok = async (method, p, json) => {
			const res = await site.call(method, p, json === undefined ? {} : { json });
			assert(res.status < 300, `eSign API ${method} ${p} → ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
			return res.body;
		};
		const lease = await site.upload(await site.sample('one-page.pdf'), 'Lease 12 Oak Street');
		for (const [name, email] of [['Ann Signer', 'ann@example.org'], ['Bob Signer', 'bob@example.org']]) await ok('POST', `/documents/${lease.id}/signers`, { name, email });
		const signers = await ok('GET', `/documents/${lease.id}/signers`);
		await ok('POST', `/documents/${lease.id}/fields`, { fields: signers.map((s, i) => ({ signer_id: Number(s.id), field_type: 'signature', page_number: 1, position_x: 72, position_y: 500 + i * 90 })) });
		await ok('POST', `/documents/${lease.id}/send`);
		const draft = await site.upload(await site.sample('one-page.pdf'), 'Draft NDA');

		const findAndRemind = agentWorkflow(line, 'esignAgentRemind01', 'Remind the signers of the document titled "Oak Street"', { esignCredential, modelCredential });
		const refused = agentWorkflow(line, 'esignAgentRefuse01', `Remind the signers of document ${draft.id}`, { esignCredential, modelCredential });
		await n8n.import([findAndRemind, refused]);

		await check(`${tag} a. the agent finds a document by title and reminds its signers`, async () => {
			await site.control('DELETE', '/requests');
			const before = model.requests.length;
			const data = await n8n.run(findAndRemind.id);
			const requests = model.requests.slice(before);
			assert(requests.length === 3, `the model was asked ${requests.length} times, expected 3 (search, remind, reply)`);
			const given = toolsGiven(requests[0]);
			assert(/^Searches eSign documents/.test(given[toolName(FIND_TOOL)] ?? ''), `the search tool was described as ${JSON.stringify(given[toolName(FIND_TOOL)])}`);
			assert(/Needs the document ID of a sent or viewed document\. If you only know its title, get the ID first with a document search/.test(given[toolName(REMIND_TOOL)] ?? ''), `the remind tool was described as ${JSON.stringify(given[toolName(REMIND_TOOL)])}`);
			const calls = (await site.control('GET', '/requests')).map((r) => `${r.method} ${r.path.replace(/^\/wp-json\/esign\/v1/, '')}${r.query?.search ? `?search=${r.query.search}` : ''} ${r.status}`);
			assert(JSON.stringify(calls) === JSON.stringify([`GET /documents?search=Oak Street 200`, `POST /documents/${lease.id}/remind 200`]), `site calls: ${JSON.stringify(calls)}`);
			const reminders = (await site.control('GET', `/outbox?document_id=${lease.id}`)).filter((m) => m.kind === 'reminder').map((m) => m.to).sort();
			assert(JSON.stringify(reminders) === JSON.stringify(['ann@example.org', 'bob@example.org']), `reminders sent to ${JSON.stringify(reminders)}`);
			const [out] = nodeOutput(data.data.resultData.runData, 'AI Agent');
			return `site: ${calls.join(', ')}; reminders to ${reminders.join(', ')}; agent: "${String(out?.json?.output).slice(0, 80)}"`;
		});

		await check(`${tag} b. the site refuses (remind on a draft) and the refusal reaches the model`, async () => {
			const before = model.requests.length;
			const data = await n8n.run(refused.id);
			const requests = model.requests.slice(before);
			assert(requests.length === 2, `the model was asked ${requests.length} times, expected 2 (remind, reply)`);
			const [answer] = toolAnswers(requests[1].messages);
			assert(answer?.name === toolName(REMIND_TOOL), `tool answer from ${answer?.name}`);
			const text = answer.content;
			for (const part of ['invalid_state', `Only sent or viewed documents can be reminded; this document is draft.`, '"httpStatus":400', '"summary":"The eSign site refused the request (HTTP 400, code invalid_state)']) {
				assert(text.includes(part), `the tool message lacks ${part}: ${text.slice(0, 600)}`);
			}
			for (const secret of [sb.keys.admin.key, sb.keys.admin.secret, sb.webhookSecret]) assert(!text.includes(secret), 'the tool message contains a credential value');
			const [out] = nodeOutput(data.data.resultData.runData, 'AI Agent');
			assert(String(out?.json?.output).includes('invalid_state'), `the agent's reply: ${JSON.stringify(out?.json ?? null).slice(0, 300)}`);
			return `tool message (${text.length} chars): ${text.slice(0, 160)}…`;
		});
	} catch (err) {
		counts.failed++;
		console.log(`FAIL ${tag} setup: ${err.stack || err}`);
	} finally {
		await stopSince(mark);
		say(`n8n ${version} done in ${secs(Date.now() - lineStart)}`);
	}
}

async function main() {
	for (const line of ORDER) if (!LINES[line]) throw new Error(`AGENT_LINES: unknown line ${line}`);
	for (const line of ORDER) await ensureRuntime(line);
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'esign-agent-pack-'));
	cleanups.push(() => fs.rmSync(packDir, { recursive: true, force: true }));
	let tarball;
	if (!(await check('build and pack n8n-nodes-esign', async () => path.basename((tarball = await buildAndPack(packDir)))))) return;
	for (const line of ORDER) await runLine(line, tarball);
}

main()
	.catch((err) => {
		counts.failed++;
		console.log(`FAIL e2e-agent: ${err.stack || err}`);
	})
	.finally(() => finish());

