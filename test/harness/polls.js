'use strict';
/** Engine harness: a polling trigger's poll() through n8n-core's PollContext, as n8n runs it on each tick. */

const { Container, Logger, PACKAGE, Workflow, core, nextId } = require('./setup');
const { nodeTypes } = require('./nodeTypes');
const { HarnessCredentialsHelper } = require('./credentials');
const { useBinaryMode, readBinary } = require('./binary');
const { createAdditionalData, credentialRefsFor, normaliseCredentials } = require('./workflows');

/**
 * One poll of a polling trigger node.
 *
 * staticData: the workflow's static data as n8n stored it after the previous poll (copied in); the
 * result's staticData is what the node left there (what n8n stores next).
 * mode: 'trigger' (an active workflow's poll) or 'manual' ("Fetch Test Event").
 * workflowId: the workflow's id; an active workflow keeps its id from poll to poll (default: a new one per run).
 * Returns { output (the node's return value), items (output[0] or []), error, staticData, warnings,
 *           binary(i, prop) }.
 */
async function runPoll({
	type = `${PACKAGE}.eSignStatusTrigger`,
	parameters = {},
	credentials,
	staticData,
	mode = 'trigger',
	activation = 'activate',
	binaryMode = 'filesystem',
	name = 'eSign Status Trigger',
	typeVersion = 1,
	workflowId,
}) {
	await useBinaryMode(binaryMode);
	const credentialsByType = normaliseCredentials(credentials);
	const runId = nextId('run');
	const node = {
		id: 'poll-node',
		name,
		type,
		typeVersion,
		position: [0, 0],
		parameters,
		credentials: credentialRefsFor(type, credentialsByType),
	};
	const workflow = new Workflow({
		id: workflowId ?? `harness-wf-${runId}`,
		name: `Harness poll workflow ${runId}`,
		nodes: [node],
		connections: {},
		active: mode !== 'manual',
		nodeTypes,
		settings: { executionOrder: 'v1' },
		staticData: staticData === undefined ? undefined : JSON.parse(JSON.stringify(staticData)),
	});
	const nodeType = nodeTypes.getByNameAndVersion(type, typeVersion);
	const additionalData = createAdditionalData({
		credentialsHelper: new HarnessCredentialsHelper(credentialsByType),
		hooks: undefined,
		executionId: String(runId),
		workflowId: workflow.id,
	});
	const emitted = [];
	const context = new core.PollContext(
		workflow,
		node,
		additionalData,
		mode,
		activation,
		(data) => emitted.push(data),
		(error) => emitted.push(error),
	);
	// Record what the node logs as warnings (n8n's logger would write them to the log).
	const warnings = [];
	// Defined before n8n-core's memoised getter first runs (it then fixes the property for good).
	const realLogger = Container.get(Logger);
	Object.defineProperty(context, 'logger', {
		value: new Proxy(realLogger, {
			get(target, prop) {
				if (prop === 'warn') return (message) => warnings.push(String(message));
				const value = target[prop];
				return typeof value === 'function' ? value.bind(target) : value;
			},
		}),
	});

	let output = null;
	let error;
	try {
		output = await nodeType.poll.call(context);
	} catch (e) {
		error = e;
	}
	const items = output?.[0] ?? [];
	return {
		output,
		items,
		error,
		warnings,
		staticData: JSON.parse(JSON.stringify(workflow.staticData, (key, value) => (key === '__dataChanged' ? undefined : value))),
		binary: async (itemIndex = 0, prop = 'data') => {
			const binary = items[itemIndex]?.binary?.[prop];
			if (!binary) throw new Error(`Harness: item ${itemIndex} has no binary "${prop}"`);
			return await readBinary(binary);
		},
	};
}

module.exports = { runPoll };
