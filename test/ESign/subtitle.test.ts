// The canvas subtitle is an expression n8n evaluates in its own engine: run it there for every operation.
import type { INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { ESign } from '../../nodes/ESign/ESign.node';
import { harness } from '../support';

const { description } = new ESign();
const nodeTypes = harness.nodeTypes as unknown as INodeTypes;

function subtitle(resource: string, operation: string): unknown {
	const node = { id: 's', name: 'eSign', type: 'n8n-nodes-esign.eSign', typeVersion: 1, position: [0, 0] as [number, number], parameters: { resource, operation } };
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, description.subtitle as string, 'internal', {});
}

test('the subtitle shows the display names of the operation and resource', () => {
	expect(subtitle('document', 'getAuditTrail')).toBe('Get Audit Trail: Document');
	expect(subtitle('stats', 'get')).toBe('Get: Statistic');
	expect(subtitle('field', 'replaceAll')).toBe('Replace All: Field');
});

test('every operation of every resource has its display name in the subtitle', () => {
	for (const property of description.properties.filter((p) => p.name === 'operation')) {
		for (const resource of (property.displayOptions?.show?.resource ?? []) as string[]) {
			for (const option of property.options as Array<{ name: string; value: string }>) {
				expect(subtitle(resource, option.value)).toMatch(new RegExp(`^${option.name}: `));
			}
		}
	}
});
