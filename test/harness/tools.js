'use strict';
/**
 * Engine harness: running a node as an AI agent's tool, the way n8n 2.x's AI Agent (3.x) does it.
 *
 * The agent node asks the engine to run the tool (an "engine request"); n8n-core's WorkflowExecute
 * runs the tool node with the model's arguments as its input (where `$fromAI()` reads them), then
 * hands the tool's run back to the agent. The stand-in agent here does exactly that through the real
 * n8n-core, and reports what the model would receive, built as n8n's agent builds it (the JSON of the
 * tool's output items; `{"error": message}` when the tool failed without output).
 */

const { PACKAGE } = require('./setup');
const { nodeTypes, registerNodeType } = require('./nodeTypes');
const { runWorkflow } = require('./workflows');

const AGENT = 'Agent';

/**
 * The tool variant n8n generates from a `usableAsTool` node (n8n's convertNodeToAiTool): type name
 * + "Tool", no inputs, one ai_tool output, the same execute and methods.
 */
function toolVariant(baseTypeName) {
	const base = nodeTypes.getByName(baseTypeName);
	const description = JSON.parse(JSON.stringify(base.description));
	description.name += 'Tool';
	description.displayName += ' Tool';
	description.inputs = [];
	description.outputs = ['ai_tool'];
	delete description.usableAsTool;
	return Object.assign(Object.create(base), { description });
}

/** What n8n's AI Agent 3.x puts in the tool message for one tool run (its buildSteps' observation). */
function observationOf(taskData) {
	const items = taskData?.data?.ai_tool?.[0]?.map((item) => item?.json);
	if (items && items.length > 0) return JSON.stringify(items);
	if (taskData?.error) {
		return JSON.stringify({
			error: taskData.error.message ?? 'Unknown error',
			...(taskData.error.name ? { errorType: taskData.error.name } : {}),
		});
	}
	return JSON.stringify('');
}

/** Stand-in for the AI Agent: one tool call with fixed arguments, then the tool's answer as output. */
class TestAgent {
	constructor() {
		this.description = {
			displayName: 'Test Agent',
			name: 'test.agent',
			group: ['transform'],
			version: 1,
			description: 'Calls one tool through an engine request, like n8n’s AI Agent',
			defaults: { name: AGENT },
			inputs: ['main', 'ai_tool'],
			outputs: ['main'],
			properties: [
				{ displayName: 'Tool Node', name: 'toolNode', type: 'string', default: '' },
				{ displayName: 'Tool Arguments', name: 'toolArguments', type: 'string', default: '{}' },
			],
		};
	}

	async execute(response) {
		const toolNode = this.getNodeParameter('toolNode', 0);
		if (!response?.actionResponses?.length) {
			return {
				actions: [
					{
						actionType: 'ExecutionNodeAction',
						nodeName: toolNode,
						input: JSON.parse(this.getNodeParameter('toolArguments', 0)),
						type: 'ai_tool',
						id: 'call_harness_1',
						metadata: { itemIndex: 0 },
					},
				],
				metadata: {},
			};
		}
		const [answer] = response.actionResponses;
		return [[{ json: { observation: observationOf(answer.data) }, pairedItem: { item: 0 } }]];
	}
}

let registered = false;
function registerTypes() {
	if (registered) return;
	registerNodeType('test.agent', new TestAgent());
	registerNodeType(`${PACKAGE}.eSignTool`, toolVariant(`${PACKAGE}.eSign`));
	registered = true;
}

/**
 * Runs the eSign node as an agent's tool: `parameters` as in the editor (use
 * `={{ $fromAI('key', …) }}` where the model fills a value), `args` the model's arguments.
 * Returns { observation (the text the model receives), answer (observation parsed), items (the tool's
 * output items), error (the tool run's error, if it threw), runData, run }.
 */
async function runTool({ parameters = {}, args = {}, credentials, name = 'eSign Tool', onError }) {
	registerTypes();
	const nodes = [
		{ name: 'Manual Trigger', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{ name: AGENT, type: 'test.agent', parameters: { toolNode: name, toolArguments: JSON.stringify(args) } },
		{ name, type: `${PACKAGE}.eSignTool`, parameters, ...(onError ? { onError } : {}) },
	];
	const connections = {
		'Manual Trigger': { main: [[{ node: AGENT, type: 'main', index: 0 }]] },
		[name]: { ai_tool: [[{ node: AGENT, type: 'ai_tool', index: 0 }]] },
	};
	const result = await runWorkflow({ nodes, connections, credentials });
	const toolRun = result.runData[name]?.[0];
	const observation = result.runData[AGENT]?.at(-1)?.data?.main?.[0]?.[0]?.json?.observation;
	return {
		...result,
		observation,
		answer: observation === undefined ? undefined : JSON.parse(observation),
		items: toolRun?.data?.ai_tool?.[0] ?? [],
		error: toolRun?.error ?? result.error,
	};
}

module.exports = { runTool, toolVariant };
