'use strict';
/** Engine harness: process setup (a private n8n user folder), the n8n-core and n8n-workflow pieces, shared ids. */

const fs = require('node:fs');
const path = require('node:path');

const { harnessFolder } = require('./stale-folders');

// n8n-core's InstanceSettings writes `<N8N_USER_FOLDER>/.n8n/config` on first use: keep it out of $HOME.
// One folder per process (named by pid): jest loads this module afresh, with a fresh process.env, for every
// test file of a worker, and a worker that jest stops may never run its exit handlers, so a folder per load
// would pile up in the temp dir.
const HARNESS_DIR = harnessFolder(process.pid);
fs.mkdirSync(HARNESS_DIR, { recursive: true });
process.once('exit', () => {
	try {
		fs.rmSync(HARNESS_DIR, { recursive: true, force: true });
	} catch {
		// best effort
	}
});
if (!process.env.N8N_USER_FOLDER) process.env.N8N_USER_FOLDER = path.join(HARNESS_DIR, 'user');
if (!process.env.N8N_ENCRYPTION_KEY) process.env.N8N_ENCRYPTION_KEY = 'esign-harness-encryption-key';

const core = require('n8n-core');
const {
	WorkflowExecute,
	ExecutionLifecycleHooks,
	ExecuteContext,
	LoadOptionsContext,
	RoutingNode,
	WebhookContext,
	BinaryDataService,
	ErrorReporter,
} = core;
const {
	Workflow,
	ICredentialsHelper,
	NodeHelpers,
	createRunExecutionData,
	isExpression,
	setSafeRegexEngine,
} = require('n8n-workflow');

// n8n-workflow runs every regular expression of the engine (a resource locator's value, for one: n8n-core's
// extract-value.js) in a node:vm with a 250 ms limit (safe-regex.js): a guard against runaway patterns, and also a
// wall-clock deadline. On a busy 2-core machine (npm test beside an install or another n8n) an ordinary pattern
// passed it: "Regular expression execution timed out", an engine test failing for the machine's load. The harness
// keeps the guard with a limit that only a runaway pattern reaches; what each pattern matches is unchanged.
const REGEX_LIMIT_MS = 20000;
function patientRegexEngine() {
	const vm = require('node:vm');
	const context = vm.createContext({});
	const code = {
		exec: 'new RegExp(pattern, flags).exec(input)',
		test: 'new RegExp(pattern, flags).test(input)',
		replace: 'input.replace(new RegExp(pattern, flags), replacement)',
		matchAll: 'Array.from(input.matchAll(new RegExp(pattern, flags)))',
		split: 'input.split(new RegExp(pattern, flags))',
	};
	const scripts = Object.fromEntries(Object.entries(code).map(([op, expr]) => [op, new vm.Script(`result = ${expr}`)]));
	const run = (op, values) => {
		Object.assign(context, { replacement: '', result: undefined }, values);
		scripts[op].runInContext(context, { timeout: REGEX_LIMIT_MS });
		return context.result;
	};
	return {
		exec: (pattern, input, flags) => run('exec', { pattern, input, flags: flags ?? '' }),
		test: (pattern, input, flags) => run('test', { pattern, input, flags: flags ?? '' }),
		replace: (pattern, input, flags, replacement) => run('replace', { pattern, input, flags: flags ?? '', replacement }),
		matchAll: (pattern, input, flags) => run('matchAll', { pattern, input, flags: (flags ?? '').includes('g') ? flags : `${flags ?? ''}g` }),
		split: (pattern, input, flags) => run('split', { pattern, input, flags: flags ?? '' }),
	};
}
setSafeRegexEngine(patientRegexEngine());

// Packages n8n-core itself uses, resolved from n8n-core's location (it has nested copies of some):
// the DI container (so this is the same instance), the logger class, and n8n's content-type parser.
const fromCore = (id) => require(require.resolve(id, { paths: [path.dirname(require.resolve('n8n-core'))] }));
const { Container } = fromCore('@n8n/di');
const { Logger } = fromCore('@n8n/backend-common');
const { parseIncomingMessage } = fromCore('@n8n/backend-network');

const PACKAGE = 'n8n-nodes-esign';

/** Run and source ids, unique across the harness modules. */
const counters = { run: 0, source: 0 };
const nextId = (kind) => ++counters[kind];
const ROOT = path.resolve(__dirname, '../..');

module.exports = { BinaryDataService, Container, ErrorReporter, ExecuteContext, ExecutionLifecycleHooks, HARNESS_DIR, ICredentialsHelper, LoadOptionsContext, Logger, NodeHelpers, PACKAGE, ROOT, RoutingNode, WebhookContext, Workflow, WorkflowExecute, core, createRunExecutionData, isExpression, nextId, parseIncomingMessage };
