'use strict';
/** Engine harness: Editor methods (listSearch, loadOptions, resourceMapping) through n8n-core's LoadOptionsContext. */

const { LoadOptionsContext, PACKAGE, Workflow, core } = require('./setup');
const { nodeTypes } = require('./nodeTypes');
const { HarnessCredentialsHelper } = require('./credentials');
const { createAdditionalData, credentialRefsFor, normaliseCredentials } = require('./workflows');

/**
 * Calls one of a node's editor methods (listSearch, loadOptions, resourceMapping) the way the
 * editor does: through n8n-core's LoadOptionsContext, with the node's current parameters and the
 * credential resolved by the engine.
 *
 *   await runMethod({ kind: 'listSearch', method: 'searchDocuments', parameters, credentials, args: ['lease'] })
 */
async function runMethod({ type = `${PACKAGE}.eSign`, kind, method, parameters = {}, credentials, args = [] }) {
	const credentialsByType = normaliseCredentials(credentials);
	const node = {
		id: 'method-node',
		name: 'Node Under Test',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: credentialRefsFor(type, credentialsByType),
	};
	const workflow = new Workflow({
		id: 'harness-methods',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const additionalData = createAdditionalData({
		credentialsHelper: new HarnessCredentialsHelper(credentialsByType),
		hooks: undefined,
		executionId: undefined,
		workflowId: workflow.id,
	});
	additionalData.currentNodeParameters = parameters;
	const context = new LoadOptionsContext(workflow, workflow.getNode(node.name), additionalData, 'parameters');
	const implementation = nodeTypes.getByNameAndVersion(type, 1).methods?.[kind]?.[method];
	if (!implementation) throw new Error(`Harness: ${type} has no ${kind}.${method}`);
	return await implementation.call(context, ...args);
}

module.exports = { runMethod };
