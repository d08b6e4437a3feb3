'use strict';
/** Engine harness: Node types the engine resolves: the manual trigger, a source of test items, the package's nodes. */

const path = require('node:path');
const { NodeHelpers, PACKAGE, ROOT } = require('./setup');

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
	[`${PACKAGE}.eSignStatusTrigger`]: () => loadPackageNode('nodes/ESignStatusTrigger/ESignStatusTrigger.node', 'ESignStatusTrigger'),
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

module.exports = { nodeTypes, registerNodeType, sourceItems };
