'use strict';
/**
 * Engine harness: runs this package's nodes inside the REAL n8n-core `WorkflowExecute`, with
 * real credential resolution (the credential's `authenticate` applied by the engine through
 * `httpRequestWithAuthentication`), real binary data handling (n8n-core's BinaryDataService in
 * filesystem mode, n8n 2.x's default, or in memory) and real HTTP.
 *
 *   const h = require('./harness');
 *   const res = await h.runNode({ type, parameters, credentials, input, continueOnFail, binaryMode, typeVersion });
 *   res.items / res.error / await res.binary(i, 'data') / res.runData / res.run
 *   await h.runWorkflow({ nodes, connections, credentials, binaryMode })
 *   await h.testCredential({ siteUrl, apiKey, apiSecret })      // like n8n's CredentialsTester
 *   await h.runWebhook({ parameters, credentials, request, ... }) // a trigger's webhook() through n8n-core's WebhookContext
 *   const srv = await h.startWebhookServer({ ... })             // the same, behind a real HTTP server
 *
 * Plain CommonJS so the package lint rules for .ts (no Node built-ins, no process) do not apply.
 * Under jest the .ts sources are loaded through ts-jest.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');

// n8n-core's InstanceSettings writes `<N8N_USER_FOLDER>/.n8n/config` on first use: keep it out of $HOME.
const HARNESS_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'esign-harness-'));
if (!process.env.N8N_USER_FOLDER) process.env.N8N_USER_FOLDER = path.join(HARNESS_DIR, 'user');
if (!process.env.N8N_ENCRYPTION_KEY) process.env.N8N_ENCRYPTION_KEY = 'esign-harness-encryption-key';
process.on('exit', () => {
	try {
		fs.rmSync(HARNESS_DIR, { recursive: true, force: true });
	} catch {
		// best effort
	}
});

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
const ROOT = path.resolve(__dirname, '../..');

/* ------------------------------------------------------------------------------------------------
 * Node types
 * ---------------------------------------------------------------------------------------------- */

/** Minimal stand-in for n8n's Manual Trigger: the start node `getStartNode()` recognises. */
class ManualTrigger {
	constructor() {
		this.description = {
			displayName: 'Manual Trigger',
			name: 'manualTrigger',
			group: ['trigger'],
			version: 1,
			description: 'Runs the flow on clicking a button in n8n',
			defaults: { name: 'When clicking ‘Execute workflow’' },
			inputs: [],
			outputs: ['main'],
			properties: [],
		};
	}

	async execute() {
		return [this.getInputData()];
	}
}

/** Item sets handed to `test.source` nodes, keyed by id (Buffers cannot travel through parameters). */
const sourceItems = new Map();
let sourceCounter = 0;

/** Emits given items; binaries are stored through this.helpers.prepareBinaryData (any binary mode). */
class TestSource {
	constructor() {
		this.description = {
			displayName: 'Test Source',
			name: 'test.source',
			group: ['transform'],
			version: 1,
			description: 'Emits the items the harness was given',
			defaults: { name: 'Source' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [{ displayName: 'Items Key', name: 'itemsKey', type: 'string', default: '' }],
		};
	}

	async execute() {
		const key = this.getNodeParameter('itemsKey', 0);
		const items = sourceItems.get(key) ?? [{ json: {} }];
		const out = [];
		for (let i = 0; i < items.length; i++) {
			const item = items[i];
			const result = { json: { ...(item.json ?? {}) }, pairedItem: { item: 0 } };
			if (item.binary) {
				result.binary = {};
				for (const [prop, file] of Object.entries(item.binary)) {
					const data = Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data);
					result.binary[prop] = await this.helpers.prepareBinaryData(
						data,
						file.fileName,
						file.mimeType,
					);
				}
			}
			out.push(result);
		}
		return [out];
	}
}

const extraNodeTypes = new Map();

function loadPackageNode(relPath, className) {
	const mod = require(path.join(ROOT, relPath));
	if (!mod[className]) throw new Error(`${relPath} does not export ${className}`);
	return new mod[className]();
}

const nodeTypeFactories = {
	'n8n-nodes-base.manualTrigger': () => new ManualTrigger(),
	'test.source': () => new TestSource(),
	[`${PACKAGE}.eSign`]: () => loadPackageNode('nodes/ESign/ESign.node', 'ESign'),
	[`${PACKAGE}.eSignTrigger`]: () => loadPackageNode('nodes/ESignTrigger/ESignTrigger.node', 'ESignTrigger'),
};
const nodeTypeCache = new Map();

function getNodeTypeInstance(name) {
	if (extraNodeTypes.has(name)) return extraNodeTypes.get(name);
	if (!nodeTypeCache.has(name)) {
		const factory = nodeTypeFactories[name];
		if (!factory) throw new Error(`Harness: unknown node type "${name}"`);
		nodeTypeCache.set(name, factory());
	}
	return nodeTypeCache.get(name);
}

/** The INodeTypes the workflows get. */
const nodeTypes = {
	getByName(name) {
		return getNodeTypeInstance(name);
	},
	getByNameAndVersion(name, version) {
		return NodeHelpers.getVersionedNodeType(getNodeTypeInstance(name), version);
	},
	getKnownTypes() {
		return {};
	},
};

/** Add (or replace) a node type, e.g. a test double. */
function registerNodeType(name, instance) {
	extraNodeTypes.set(name, instance);
}

/* ------------------------------------------------------------------------------------------------
 * Credentials
 * ---------------------------------------------------------------------------------------------- */

let credentialTypesCache;
function credentialTypes() {
	if (!credentialTypesCache) {
		const { ESignApi } = require(path.join(ROOT, 'credentials/ESignApi.credentials'));
		const eSignApi = new ESignApi();
		credentialTypesCache = { [eSignApi.name]: eSignApi };
	}
	return credentialTypesCache;
}

function getCredentialType(name) {
	const type = credentialTypes()[name];
	if (!type) throw new Error(`Harness: unknown credential type "${name}"`);
	return type;
}

/** The credential's stored data as n8n hands it to a node: the type's defaults under the given values. */
function withCredentialDefaults(typeName, data) {
	const result = {};
	for (const property of getCredentialType(typeName).properties) {
		if (property.default !== undefined) result[property.name] = property.default;
	}
	for (const [key, value] of Object.entries(data ?? {})) {
		if (value !== undefined) result[key] = value;
	}
	return result;
}

/**
 * An ICredentialsHelper that does what n8n's CLI CredentialsHelper does for this package:
 * returns the decrypted data, and applies the credential type's `authenticate` — for a generic
 * one, each header/qs/body/auth value resolved through the workflow's expression engine with
 * `$credentials`.
 */
class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(credentialsByType) {
		super();
		this.credentialsByType = credentialsByType;
		this.decryptCalls = 0;
		this.authenticateCalls = 0;
	}

	getParentTypes() {
		return [];
	}

	isCredentialUsableByNode() {
		return true;
	}

	async authenticate(credentials, typeName, requestOptions, workflow, node) {
		this.authenticateCalls++;
		const type = getCredentialType(typeName);
		const auth = type.authenticate;
		if (!auth) return requestOptions;
		if (typeof auth === 'function') return await auth(credentials, requestOptions);
		if (!workflow || !node) {
			throw new Error('Workflow and node are required for declarative credential authentication');
		}
		if (auth.type === 'generic') {
			const resolve = (value) => {
				if (!isExpression(value)) return value;
				const resolved = workflow.expression.getSimpleParameterValue(
					node,
					value,
					'internal',
					{ $credentials: credentials },
					undefined,
					'',
				);
				return resolved ? String(resolved) : '';
			};
			if (requestOptions.headers === undefined) requestOptions.headers = {};
			for (const [outerKey, outerValue] of Object.entries(auth.properties)) {
				for (const [key, value] of Object.entries(outerValue)) {
					if (!requestOptions[outerKey]) requestOptions[outerKey] = {};
					requestOptions[outerKey][resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(nodeCredentials, type) {
		const data = await this.getDecrypted(undefined, nodeCredentials, type);
		return { id: nodeCredentials?.id ?? null, name: nodeCredentials?.name ?? '', type, getData: () => data };
	}

	async getDecrypted(_additionalData, _nodeCredentials, type) {
		this.decryptCalls++;
		const data = this.credentialsByType[type];
		if (data === undefined) {
			throw new Error(`Harness: no credentials of type "${type}" were given to this run`);
		}
		return withCredentialDefaults(type, data);
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type) {
		return getCredentialType(type).properties;
	}
}

/* ------------------------------------------------------------------------------------------------
 * Binary data
 * ---------------------------------------------------------------------------------------------- */

const binaryServices = {};
const silentLogger = {
	debug() {},
	info() {},
	warn() {},
	error() {},
	scoped() {
		return silentLogger;
	},
};
const quietErrorReporter = { error() {}, warn() {}, info() {} };

// n8n-core reports node errors through its ErrorReporter/Logger (stack traces on stderr). Expected
// errors are the point of many tests: keep them quiet unless HARNESS_DEBUG is set.
if (!process.env.HARNESS_DEBUG) {
	Container.set(ErrorReporter, quietErrorReporter);
	Container.set(Logger, silentLogger);
}

/**
 * Installs n8n-core's BinaryDataService in the DI container in the given mode:
 * 'filesystem' (n8n 2.x's default; files under a temp dir) or 'default' (in memory, base64 in the item).
 * The service is process-wide: runs with different modes must not overlap.
 */
async function useBinaryMode(mode = 'filesystem') {
	if (mode !== 'filesystem' && mode !== 'default') {
		throw new Error(`Harness: binaryMode must be 'filesystem' or 'default', not "${mode}"`);
	}
	if (!binaryServices[mode]) {
		const config = {
			mode,
			availableModes: ['filesystem'],
			localStoragePath: path.join(HARNESS_DIR, 'binary-data'),
			signingSecret: 'esign-harness-binary-signing',
			dbMaxFileSize: 512,
		};
		const service = new BinaryDataService(config, quietErrorReporter, silentLogger);
		await service.init();
		binaryServices[mode] = service;
	}
	Container.set(BinaryDataService, binaryServices[mode]);
	return binaryServices[mode];
}

/** Reads an item's binary through the binary data service (filesystem id or inline base64). */
async function readBinary(binaryData) {
	const service = binaryServices.filesystem ?? binaryServices.default ?? (await useBinaryMode('filesystem'));
	return await service.getAsBuffer(binaryData);
}

/* ------------------------------------------------------------------------------------------------
 * Running workflows
 * ---------------------------------------------------------------------------------------------- */

let runCounter = 0;

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
}) {
	await useBinaryMode(binaryMode);
	const credentialsByType = normaliseCredentials(credentials);
	const runId = ++runCounter;
	const executionId = String(runId);
	const workflowId = `harness-wf-${runId}`;

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
	const key = `items-${++sourceCounter}`;
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

/* ------------------------------------------------------------------------------------------------
 * Webhooks (trigger nodes) through n8n-core's WebhookContext
 * ---------------------------------------------------------------------------------------------- */

/**
 * A response object with the parts of express's Response that nodes use
 * (status, json, send, end, setHeader, header, headersSent), recording what was answered.
 * When `raw` (a node http.ServerResponse) is given, everything is also written to it.
 */
function createResponse(raw) {
	const res = {
		statusCode: 200,
		headers: {},
		body: undefined,
		ended: false,
		get headersSent() {
			return res.ended;
		},
		status(code) {
			res.statusCode = code;
			return res;
		},
		setHeader(name, value) {
			res.headers[String(name).toLowerCase()] = value;
			return res;
		},
		header(name, value) {
			if (typeof name === 'object') {
				for (const [k, v] of Object.entries(name)) res.setHeader(k, v);
				return res;
			}
			return res.setHeader(name, value);
		},
		set(name, value) {
			return res.header(name, value);
		},
		getHeader(name) {
			return res.headers[String(name).toLowerCase()];
		},
		json(value) {
			if (!res.headers['content-type']) res.setHeader('content-type', 'application/json; charset=utf-8');
			return res.send(JSON.stringify(value));
		},
		send(value) {
			if (value !== undefined) {
				if (Buffer.isBuffer(value) || typeof value === 'string') {
					res.body = res.body === undefined ? value : Buffer.concat([Buffer.from(res.body), Buffer.from(value)]);
				} else {
					return res.json(value);
				}
			}
			return res.end();
		},
		write(chunk) {
			res.body = res.body === undefined ? chunk : Buffer.concat([Buffer.from(res.body), Buffer.from(chunk)]);
			return true;
		},
		end(chunk) {
			if (chunk !== undefined) res.write(chunk);
			if (res.ended) return res;
			res.ended = true;
			if (raw && !raw.headersSent) {
				raw.statusCode = res.statusCode;
				for (const [k, v] of Object.entries(res.headers)) raw.setHeader(k, v);
				raw.end(res.body === undefined ? undefined : res.body);
			}
			return res;
		},
	};
	return res;
}

/** What the test sees of an answered response: status and parsed JSON body (if it is JSON). */
function describeResponse(res) {
	let text = res.body === undefined ? '' : Buffer.from(res.body).toString('utf8');
	let json;
	try {
		json = text ? JSON.parse(text) : undefined;
	} catch {
		json = undefined;
	}
	return { statusCode: res.statusCode, headers: res.headers, text, json };
}

/**
 * Builds an express-like Request from raw bytes the way n8n's body parser leaves it for a
 * webhook node: `rawBody` (Buffer of the exact bytes), `body` (parsed JSON object when the body is
 * JSON and parses, else {}), lower-case `headers`, `params`, `query`, `contentType`, `encoding`.
 */
function createRequest({ method = 'POST', path: urlPath = '/', headers = {}, rawBody, body, query = {}, params = {} }) {
	const lowerHeaders = {};
	for (const [k, v] of Object.entries(headers)) lowerHeaders[k.toLowerCase()] = v;
	const raw = rawBody === undefined ? undefined : Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8');
	if (raw && lowerHeaders['content-length'] === undefined) lowerHeaders['content-length'] = String(raw.length);
	if (raw && lowerHeaders['content-type'] === undefined) lowerHeaders['content-type'] = 'application/json';
	const req = {
		method,
		url: urlPath,
		path: urlPath,
		headers: lowerHeaders,
		query,
		params,
		rawBody: raw,
		body,
	};
	parseIncomingMessage(req); // n8n-core: sets req.contentType and req.encoding from Content-Type
	if (req.body === undefined) {
		req.body = {};
		if (raw && raw.length && (req.contentType === 'application/json' || req.contentType === undefined)) {
			try {
				const parsed = JSON.parse(raw.toString(req.encoding ?? 'utf8'));
				if (parsed && typeof parsed === 'object') req.body = parsed;
				req.bodyParseError = undefined;
			} catch (error) {
				req.bodyParseError = error;
			}
		}
	}
	return req;
}

/**
 * Calls a trigger node's webhook() inside n8n-core's WebhookContext — what n8n's WebhookService
 * does — and then answers like n8n's webhook helpers when the node did not answer itself:
 * `{}` → 200 {"message":"Webhook call received"}; workflowData with responseMode onReceived →
 * 200 {"message":"Workflow was started"}.
 *
 * request: { headers, rawBody (string|Buffer), body?, query?, method? } or a ready `req`.
 * execute: true also runs the workflow from the trigger's output (trigger → nothing else) with WorkflowExecute.
 * Returns { statusCode, json, text, headers, result (the node's IWebhookResponseData), workflowData,
 *           items (workflowData[0] or []), binary(i, prop), error (if webhook() threw), req, res, run? }.
 */
async function runWebhook({
	type = `${PACKAGE}.eSignTrigger`,
	parameters = {},
	credentials,
	request,
	req: givenReq,
	res: givenRes,
	rawResponse,
	binaryMode = 'filesystem',
	mode = 'webhook',
	webhookId = 'harness-webhook-id',
	typeVersion = 1,
	name = 'eSign Trigger',
	isTest = false,
	execute = false,
}) {
	await useBinaryMode(binaryMode);
	const credentialsByType = normaliseCredentials(credentials);
	const runId = ++runCounter;
	const executionId = String(runId);
	const workflowId = `harness-wf-${runId}`;
	const node = {
		id: 'trigger-node',
		name,
		type,
		typeVersion,
		position: [0, 0],
		parameters,
		webhookId,
		credentials: credentialRefsFor(type, credentialsByType),
	};
	const workflow = new Workflow({
		id: workflowId,
		name: `Harness webhook workflow ${runId}`,
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const nodeType = nodeTypes.getByNameAndVersion(type, typeVersion);
	const webhookDescription = (nodeType.description.webhooks ?? [])[0];
	if (!webhookDescription) throw new Error(`Harness: ${type} declares no webhooks`);

	const credentialsHelper = new HarnessCredentialsHelper(credentialsByType);
	const additionalData = createAdditionalData({ credentialsHelper, hooks: undefined, executionId, workflowId });
	const req = givenReq ?? createRequest(request ?? {});
	const res = givenRes ?? createResponse(rawResponse);
	additionalData.httpRequest = req;
	additionalData.httpResponse = res;

	const webhookData = {
		httpMethod: webhookDescription.httpMethod ?? 'POST',
		node: node.name,
		path: `${webhookId}/${webhookDescription.path}`,
		webhookDescription,
		workflowId,
		workflowExecuteAdditionalData: additionalData,
		webhookId,
		isTest,
	};

	const context = new WebhookContext(workflow, node, additionalData, mode, webhookData, [], null);
	let result;
	let error;
	try {
		result = await nodeType.webhook.call(context);
	} catch (e) {
		error = e;
	}

	if (error) {
		if (!res.ended) res.status(500).json({ code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
	} else if (result?.noWebhookResponse === true) {
		// The node answered itself (n8n sends nothing more).
	} else if (result?.workflowData === undefined) {
		if (!res.ended) {
			if (result?.webhookResponse !== undefined) res.status(200).send(result.webhookResponse);
			else res.status(200).json({ message: 'Webhook call received' });
		}
	} else if (!res.ended) {
		res.status(200).json({ message: 'Workflow was started' });
	}

	const workflowData = result?.workflowData;
	const items = workflowData?.[0] ?? [];
	const out = {
		...describeResponse(res),
		answered: res.ended,
		result,
		workflowData,
		items,
		error,
		req,
		res,
		credentialsHelper,
		binary: async (itemIndex = 0, prop = 'data') => {
			const binary = items[itemIndex]?.binary?.[prop];
			if (!binary) throw new Error(`Harness: item ${itemIndex} has no binary "${prop}"`);
			return await readBinary(binary);
		},
	};

	if (execute && workflowData) {
		const { run, runData } = await runWorkflow({
			nodes: [node],
			connections: {},
			credentials,
			binaryMode,
			mode: 'webhook',
			startNode: node.name,
			startItems: workflowData[0],
		});
		out.run = run;
		out.runData = runData;
	}
	return out;
}

/**
 * A real HTTP server in front of runWebhook: reads the raw bytes like n8n's rawBodyReader,
 * parses JSON like n8n's parseBody (an unparseable application/json body → 422, as real n8n
 * answers before the node runs, unless `rejectInvalidJson: false`), then hands the request to
 * the node through n8n-core's WebhookContext and writes the answer to the socket.
 *
 * Returns { url, port, path, calls: [runWebhook results], waitForCalls(n, timeoutMs), close() }.
 */
async function startWebhookServer({
	host = '127.0.0.1',
	port = 0,
	webhookId = 'harness-webhook-id',
	urlPath,
	rejectInvalidJson = true,
	...options
} = {}) {
	const calls = [];
	const waiters = [];
	const type = options.type ?? `${PACKAGE}.eSignTrigger`;
	const description = nodeTypes.getByNameAndVersion(type, options.typeVersion ?? 1).description;
	const webhookPath = urlPath ?? `/webhook/${webhookId}/${(description.webhooks ?? [])[0]?.path ?? ''}`;

	const notify = () => {
		for (const waiter of [...waiters]) {
			const found = waiter.check();
			if (found !== undefined) {
				waiters.splice(waiters.indexOf(waiter), 1);
				clearTimeout(waiter.timer);
				waiter.resolve(found);
			}
		}
	};
	const wait = (check, timeoutMs, describeFailure) => {
		const found = check();
		if (found !== undefined) return Promise.resolve(found);
		return new Promise((resolve, reject) => {
			const waiter = { check, resolve };
			waiter.timer = setTimeout(() => {
				waiters.splice(waiters.indexOf(waiter), 1);
				reject(new Error(`Harness: ${describeFailure()} (${calls.length} webhook call(s) received)`));
			}, timeoutMs);
			waiters.push(waiter);
		});
	};

	const server = http.createServer((rawReq, rawRes) => {
		const chunks = [];
		rawReq.on('data', (c) => chunks.push(c));
		rawReq.on('end', async () => {
			const rawBody = Buffer.concat(chunks);
			const url = new URL(rawReq.url, `http://${host}`);
			if (url.pathname !== webhookPath) {
				rawRes.statusCode = 404;
				rawRes.setHeader('content-type', 'application/json');
				rawRes.end(JSON.stringify({ code: 404, message: 'The requested webhook is not registered.' }));
				return;
			}
			const req = createRequest({
				method: rawReq.method,
				path: url.pathname,
				headers: rawReq.headers,
				rawBody,
				query: Object.fromEntries(url.searchParams),
			});
			if (rejectInvalidJson && req.bodyParseError) {
				rawRes.statusCode = 422;
				rawRes.setHeader('content-type', 'application/json');
				rawRes.end(JSON.stringify({ code: 422, message: `Failed to parse request body` }));
				calls.push({ statusCode: 422, rejectedByN8n: true, req });
				notify();
				return;
			}
			let result;
			try {
				result = await runWebhook({ ...options, type, webhookId, req, rawResponse: rawRes });
			} catch (error) {
				if (!rawRes.headersSent) {
					rawRes.statusCode = 500;
					rawRes.end(JSON.stringify({ message: String(error.message) }));
				}
				result = { statusCode: 500, error };
			}
			calls.push(result);
			notify();
		});
	});
	await new Promise((resolve) => server.listen(port, host, resolve));
	const address = server.address();
	const base = `http://${host}:${address.port}`;
	return {
		url: `${base}${webhookPath}`,
		base,
		port: address.port,
		path: webhookPath,
		calls,
		/** Resolves with the first `count` calls once that many arrived. */
		waitForCalls(count = 1, timeoutMs = 10000) {
			return wait(
				() => (calls.length >= count ? calls.slice(0, count) : undefined),
				timeoutMs,
				() => `expected ${count} webhook call(s)`,
			);
		},
		/** Resolves with the first call (already received or still to come) that matches. */
		waitFor(predicate, timeoutMs = 10000) {
			return wait(
				() => calls.find((call) => predicate(call)),
				timeoutMs,
				() => 'no webhook call matched',
			);
		},
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}

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

module.exports = {
	runNode,
	runMethod,
	runWorkflow,
	testCredential,
	runWebhook,
	startWebhookServer,
	createRequest,
	createResponse,
	registerNodeType,
	useBinaryMode,
	readBinary,
	nodeTypes,
	withCredentialDefaults,
	HarnessCredentialsHelper,
	HARNESS_DIR,
};
