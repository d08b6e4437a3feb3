'use strict';
/** Engine harness: Running workflows and single nodes through WorkflowExecute. */

const http = require('node:http');
const { ExecutionLifecycleHooks, Workflow, WorkflowExecute, core, createRunExecutionData, nextId } = require('./setup');
const { nodeTypes, sourceItems } = require('./nodeTypes');
const { HarnessCredentialsHelper } = require('./credentials');
const { readBinary, useBinaryMode } = require('./binary');

/* ------------------------------------------------------------------------------------------------
 * Running workflows
 * ---------------------------------------------------------------------------------------------- */


const BASE_URL = 'http://localhost:5678';

function createAdditionalData({ credentialsHelper, hooks, executionId, workflowId }) {
	return {
		credentialsHelper,
		hooks,
		executionId,
		workflowId,
		userId: 'harness-user',
		currentNodeExecutionIndex: 0,
		restApiUrl: `${BASE_URL}/rest`,
		instanceBaseUrl: `${BASE_URL}/`,
		formBaseUrl: `${BASE_URL}/form`,
		formWaitingBaseUrl: `${BASE_URL}/form-waiting`,
		formTestBaseUrl: `${BASE_URL}/form-test`,
		webhookBaseUrl: `${BASE_URL}/webhook`,
		webhookWaitingBaseUrl: `${BASE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${BASE_URL}/webhook-test`,
		mcpBaseUrl: `${BASE_URL}/mcp`,
		mcpTestBaseUrl: `${BASE_URL}/mcp-test`,
		variables: {},
		currentNodeParameters: undefined,
		// With a mock for this object n8n-core would try to decrypt whatever the mock returns.
		encryptedRunnerIdentity: undefined,
		executeWorkflow: async () => {
			throw new Error('Harness: sub-workflows are not supported');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		sendDataToUI: () => {},
		setExecutionStatus: () => {},
		startRunnerTask: async () => {
			throw new Error('Harness: task runners are not supported');
		},
	};
}

/** Credentials given as one eSignApi object, or as { typeName: data }. */
function normaliseCredentials(credentials) {
	if (!credentials) return {};
	if (credentials.siteUrl !== undefined || credentials.apiKey !== undefined) {
		return { eSignApi: credentials };
	}
	return credentials;
}

function credentialRefsFor(nodeTypeName, credentialsByType) {
	let type;
	try {
		type = nodeTypes.getByNameAndVersion(nodeTypeName);
	} catch {
		return undefined;
	}
	const refs = {};
	for (const { name } of type.description.credentials ?? []) {
		if (credentialsByType[name] !== undefined) refs[name] = { id: `cred-${name}`, name: `${name} (harness)` };
	}
	return Object.keys(refs).length ? refs : undefined;
}

/**
 * Runs a workflow from its start node (the manual trigger unless `startNode` is given) through
 * WorkflowExecute.processRunExecutionData, and resolves once the workflowExecuteAfter hook fired.
 *
 * nodes: INode[] — `id`, `position`, `typeVersion` and credentials refs are filled in when missing.
 */
async function runWorkflow({
	nodes,
	connections = {},
	credentials,
	binaryMode = 'filesystem',
	mode = 'manual',
	startNode,
	startItems,
	settings,
	staticData,
	workflowId: givenWorkflowId,
}) {
	await useBinaryMode(binaryMode);
	const credentialsByType = normaliseCredentials(credentials);
	const runId = nextId('run');
	const executionId = String(runId);
	const workflowId = givenWorkflowId ?? `harness-wf-${runId}`;

	const fullNodes = nodes.map((node, index) => ({
		id: node.id ?? `node-${index + 1}`,
		position: node.position ?? [index * 220, 0],
		typeVersion: node.typeVersion ?? 1,
		parameters: node.parameters ?? {},
		...node,
		credentials: node.credentials ?? credentialRefsFor(node.type, credentialsByType),
	}));

	const workflow = new Workflow({
		id: workflowId,
		name: `Harness workflow ${runId}`,
		nodes: fullNodes,
		connections,
		active: false,
		nodeTypes,
		staticData,
		settings: { executionOrder: 'v1', ...(settings ?? {}) },
	});

	const start = startNode ? workflow.getNode(startNode) : workflow.getStartNode();
	if (!start) throw new Error('Harness: the workflow has no start node (use n8n-nodes-base.manualTrigger)');

	const workflowData = {
		id: workflowId,
		name: workflow.name,
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: fullNodes,
		connections,
		settings: workflow.settings,
	};
	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
	let resolveRun;
	const finished = new Promise((resolve) => {
		resolveRun = resolve;
	});
	hooks.addHandler('workflowExecuteAfter', (run) => resolveRun(run));

	const credentialsHelper = new HarnessCredentialsHelper(credentialsByType);
	const additionalData = createAdditionalData({ credentialsHelper, hooks, executionId, workflowId });

	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node: start, data: { main: [startItems ?? [{ json: {} }]] }, source: null },
			],
		},
	});

	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
	let returned;
	try {
		returned = await workflowExecute.processRunExecutionData(workflow);
	} catch (error) {
		// Refused before any node ran, e.g. WorkflowHasIssuesError for a parameter that fails its
		// declared validation (real n8n refuses such a run the same way). No hooks fire then.
		return { run: undefined, runData: {}, error, workflow, credentialsHelper };
	}
	const run = await finished;
	return {
		run: run ?? returned,
		runData: (run ?? returned).data.resultData.runData,
		error: (run ?? returned).data.resultData.error,
		workflow,
		credentialsHelper,
	};
}

function outputOf(runData, nodeName, output = 0) {
	const tasks = runData[nodeName];
	if (!tasks || !tasks.length) return undefined;
	const last = tasks[tasks.length - 1];
	return last.data?.main?.[output] ?? [];
}

/**
 * Runs one node of `type` after a manual trigger and a source node emitting `input`.
 * Returns { items, outputs, error, binary(i, prop), runData, run, credentialsHelper }.
 */
async function runNode({
	type,
	parameters = {},
	credentials,
	input,
	continueOnFail = false,
	binaryMode = 'filesystem',
	typeVersion = 1,
	name = 'Node Under Test',
	onError,
	settings,
}) {
	const key = `items-${nextId('source')}`;
	sourceItems.set(key, input ?? [{ json: {} }]);
	const nodes = [
		{ name: 'Manual Trigger', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{ name: 'Source', type: 'test.source', parameters: { itemsKey: key } },
		{
			name,
			type,
			typeVersion,
			parameters,
			...(onError ? { onError } : continueOnFail ? { onError: 'continueRegularOutput' } : {}),
		},
	];
	const connections = {
		'Manual Trigger': { main: [[{ node: 'Source', type: 'main', index: 0 }]] },
		Source: { main: [[{ node: name, type: 'main', index: 0 }]] },
	};
	try {
		const result = await runWorkflow({ nodes, connections, credentials, binaryMode, settings });
		const { runData } = result;
		const task = runData[name]?.[0];
		const items = outputOf(runData, name) ?? [];
		const outputs = task?.data?.main ?? [];
		const error = task?.error ?? (runData[name] ? undefined : result.error);
		return {
			...result,
			items,
			outputs,
			error,
			binary: async (itemIndex = 0, prop = 'data') => {
				const binary = items[itemIndex]?.binary?.[prop];
				if (!binary) throw new Error(`Harness: item ${itemIndex} has no binary "${prop}"`);
				return await readBinary(binary);
			},
		};
	} finally {
		sourceItems.delete(key);
	}
}

module.exports = { createAdditionalData, credentialRefsFor, normaliseCredentials, runNode, runWorkflow };
