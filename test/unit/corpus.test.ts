// The saved-workflow corpus (test/corpus, run in real n8n by `npm run test:e2e` step 9 / `npm run test:corpus`)
// covers the nodes: every operation of the action node with parameters set away from their defaults, and both
// triggers with every parameter and option. A new operation or option without a corpus entry fails here, in
// `npm test`, without a server. CONTRIBUTING.md → Versioning policy.
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { ESign } from '../../nodes/ESign/ESign.node';
import { ESignStatusTrigger } from '../../nodes/ESignStatusTrigger/ESignStatusTrigger.node';
import { ESignTrigger } from '../../nodes/ESignTrigger/ESignTrigger.node';
import { readCorpus } from '../support/corpus';

const PACKAGE = 'n8n-nodes-esign';
const corpus = readCorpus();
const nodesOf = (type: string) => corpus.flatMap(({ file, workflow }) => workflow.nodes.filter((n) => n.type === `${PACKAGE}.${type}`).map((node) => ({ file, node })));
const differs = (value: unknown, fallback: unknown) => JSON.stringify(value) !== JSON.stringify(fallback);
/** Parameters an operation can have that say nothing about behaviour (texts shown in the editor, the AI tool's description). */
const NOT_BEHAVIOUR = new Set(['notice', 'toolDescription']);

const action = new ESign().description;
const versions = (d: INodeTypeDescription) => [d.version].flat();
const resourceProp = action.properties.find((p) => p.name === 'resource') as INodeProperties;
const resources = (resourceProp.options as Array<{ value: string }>).map((o) => o.value);
const operationProp = (resource: string) =>
	action.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource)) as INodeProperties;
const shownFor = (p: INodeProperties, resource: string, operation: string) => {
	const show = p.displayOptions?.show ?? {};
	return (!show.resource || show.resource.includes(resource)) && (!show.operation || show.operation.includes(operation));
};
const operations = resources.flatMap((resource) =>
	((operationProp(resource).options ?? []) as Array<{ value: string }>).map((o) => [resource, o.value] as const),
);

describe('the corpus holds every operation of the eSign node with non-default parameters', () => {
	const saved = nodesOf('eSign').map(({ file, node }) => {
		// The editor leaves out parameters at their default: a missing resource or operation is the default one.
		const resource = String(node.parameters.resource ?? resourceProp.default);
		return { file, node, resource, operation: String(node.parameters.operation ?? operationProp(resource).default) };
	});

	test('it has every operation the description offers (at least 20)', () => {
		expect(operations.length).toBeGreaterThanOrEqual(20);
		const missing = operations.filter(([r, o]) => !saved.some((s) => s.resource === r && s.operation === o));
		expect(missing).toEqual([]);
	});

	test.each(operations)('%s → %s: a saved node sets a parameter away from its default, and an optional one where the operation has any', (resource, operation) => {
		const props = action.properties.filter((p) => shownFor(p, resource, operation) && !['resource', 'operation'].includes(p.name) && p.type !== 'notice' && !NOT_BEHAVIOUR.has(p.name));
		const optional = props.filter((p) => !p.required && p.name !== 'requestOptions');
		const nodes = saved.filter((s) => s.resource === resource && s.operation === operation);
		const set = (s: (typeof nodes)[number], list: INodeProperties[]) => list.filter((p) => s.node.parameters[p.name] !== undefined && differs(s.node.parameters[p.name], p.default));
		expect(nodes.some((s) => set(s, props).length > 0)).toBe(true);
		if (optional.length > 0) expect(nodes.some((s) => set(s, optional).length > 0)).toBe(true);
		// Only parameters the description has for this operation (a renamed one would be silently dropped by n8n).
		for (const s of nodes) {
			const known = new Set([...props, ...action.properties.filter((p) => shownFor(p, resource, operation))].map((p) => p.name));
			expect(Object.keys(s.node.parameters).filter((name) => !known.has(name) && !['resource', 'operation'].includes(name))).toEqual([]);
			expect(versions(action)).toContain(s.node.typeVersion);
		}
	});
});

describe.each([
	['eSignTrigger', new ESignTrigger().description],
	['eSignStatusTrigger', new ESignStatusTrigger().description],
] as const)('the corpus holds %s with every parameter and option set away from its default', (type, description) => {
	const saved = nodesOf(type);
	const props = description.properties.filter((p) => p.type !== 'notice');

	test('it is in the corpus, at a version the node has', () => {
		expect(saved.length).toBeGreaterThan(0);
		for (const { node } of saved) expect(versions(description)).toContain(node.typeVersion);
	});

	test.each(props.map((p) => [p.name, p] as const))('%s', (_name, p) => {
		if (p.type === 'collection') {
			for (const option of (p.options ?? []) as INodeProperties[]) {
				const values = saved.map(({ node }) => (node.parameters[p.name] as Record<string, unknown> | undefined)?.[option.name]);
				expect({ option: option.name, set: values.some((v) => v !== undefined) }).toEqual({ option: option.name, set: true });
			}
		} else {
			expect(saved.some(({ node }) => node.parameters[p.name] !== undefined && differs(node.parameters[p.name], p.default))).toBe(true);
		}
	});

	test('no saved parameter the node does not have', () => {
		const names = new Set([...props.map((p) => p.name), 'pollTimes']);
		for (const { node } of saved) expect(Object.keys(node.parameters).filter((n) => !names.has(n))).toEqual([]);
	});
});
