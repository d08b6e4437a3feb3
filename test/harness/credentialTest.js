'use strict';
/** Engine harness: The credential test, run as n8n's CredentialsTester runs a declarative `test` request. */

const { ExecuteContext, RoutingNode, Workflow, core, createRunExecutionData } = require('./setup');
const { nodeTypes } = require('./nodeTypes');
const { HarnessCredentialsHelper, getCredentialType, withCredentialDefaults } = require('./credentials');
const { createAdditionalData } = require('./workflows');

/* ------------------------------------------------------------------------------------------------
 * Credential test (as n8n's CredentialsTester runs a declarative `test` request)
 * ---------------------------------------------------------------------------------------------- */

const noOpType = {
	description: {
		displayName: 'No Operation, do nothing',
		name: 'n8n-nodes-base.noOp',
		group: ['organization'],
		version: 1,
		description: 'No Operation',
		defaults: { name: 'No Operation, do nothing' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	},
};

/**
 * Runs the credential type's `test.request` through n8n-core's RoutingNode (declarative request,
 * the credential's authenticate applied by httpRequestWithAuthentication), then applies the
 * `rules` the way packages/cli's CredentialsTester does. → { status: 'OK'|'Error', message }
 */
async function testCredential(data, credentialType = 'eSignApi') {
	const type = getCredentialType(credentialType);
	if (!type.test) return { status: 'Error', message: 'No testing function found for this credential.' };
	const decryptedData = withCredentialDefaults(credentialType, data);
	const credentialsDecrypted = {
		id: 'cred-test',
		name: 'Credential under test',
		type: credentialType,
		data: decryptedData,
	};

	const testNodeType = {
		description: {
			...noOpType.description,
			credentials: [{ name: credentialType, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: type.test.request },
					default: '',
				},
			],
		},
	};
	const node = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: testNodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		credentials: { [credentialType]: { id: credentialsDecrypted.id, name: credentialsDecrypted.name } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => testNodeType,
			getByNameAndVersion: () => testNodeType,
			getKnownTypes: () => ({}),
		},
	});
	const credentialsHelper = new HarnessCredentialsHelper({ [credentialType]: data });
	const additionalData = createAdditionalData({
		credentialsHelper,
		hooks: undefined,
		executionId: undefined,
		workflowId: undefined,
	});
	const runExecutionData = createRunExecutionData({ resultData: { runData: {} } });
	const executeData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		runExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);
	const routingNode = new RoutingNode(context, testNodeType, credentialsDecrypted);
	try {
		await routingNode.runNode();
	} catch (error) {
		const response = error.cause?.response;
		if (response) {
			for (const rule of type.test.rules ?? []) {
				if (rule.type === 'responseCode' && response.status === rule.properties.value) {
					return { status: 'Error', message: rule.properties.message, httpCode: response.status };
				}
			}
			if (response.status < 199 || response.status > 299) {
				return {
					status: 'Error',
					message: response.statusText || `Received HTTP status code: ${response.status}`,
					httpCode: response.status,
				};
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: String(error.message) };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

module.exports = { testCredential };
