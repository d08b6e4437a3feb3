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
} = require('n8n-workflow');

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
