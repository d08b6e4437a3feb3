/**
 * What n8n's node panel ("What happens next?") shows for the package. n8n 1.123 and 2.41 build it the same way
 * (editor-ui, NodeCreator/composables/useActionsGeneration.ts, generateMergedNodesAndActions): every non-trigger
 * node is an entry; a trigger whose type name with "Trigger" removed is an entry with actions joins that entry's
 * list and the entry takes the trigger's description; any other trigger is an entry of its own. The e2e step 6
 * checks the result in the real editor.
 */
import type { INodeTypeDescription } from 'n8n-workflow';

import { ESign } from '../../nodes/ESign/ESign.node';
import { ESignStatusTrigger } from '../../nodes/ESignStatusTrigger/ESignStatusTrigger.node';
import { ESignTrigger } from '../../nodes/ESignTrigger/ESignTrigger.node';

const action = new ESign().description;
const webhook = new ESignTrigger().description;
const status = new ESignStatusTrigger().description;

/** The panel's entries by type name (node names as n8n prefixes them: the merge compares full names). */
function panelEntries(nodes: INodeTypeDescription[]) {
	const full = (d: INodeTypeDescription) => `n8n-nodes-esign.${d.name}`;
	const entries = new Map<string, { description: string; members: string[] }>();
	for (const d of nodes.filter((n) => !n.group.includes('trigger'))) entries.set(full(d), { description: d.description, members: [d.name] });
	for (const d of nodes.filter((n) => n.group.includes('trigger'))) {
		const app = entries.get(full(d).replace('Trigger', ''));
		if (app) {
			app.description = d.description;
			app.members.push(d.name);
		} else entries.set(full(d), { description: d.description, members: [d.name] });
	}
	return entries;
}

test('type names stay as saved workflows reference them', () => {
	expect([action.name, webhook.name, status.name]).toEqual(['eSign', 'eSignTrigger', 'eSignStatusTrigger']);
	expect([action.group, webhook.group, status.group]).toEqual([['transform'], ['trigger'], ['trigger']]);
});

test('the "eSign" entry holds the action node and the webhook trigger, and shows the action node\'s description', () => {
	const entry = panelEntries([action, webhook, status]).get('n8n-nodes-esign.eSign');
	expect(entry?.members).toEqual(['eSign', 'eSignTrigger']);
	expect(entry?.description).toBe(action.description);
	expect(action.description).toMatch(/^Send documents for e-signature/);
});

test('the Status Trigger is an entry of its own that says it polls', () => {
	const entry = panelEntries([action, webhook, status]).get('n8n-nodes-esign.eSignStatusTrigger');
	expect(entry?.members).toEqual(['eSignStatusTrigger']);
	expect(entry?.description).toMatch(/^Starts the workflow when a document changes status .* by polling/);
});
