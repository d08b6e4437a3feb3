'use strict';
/** Engine harness: a trigger's webhook lifecycle (activation, deactivation) as n8n's WebhookService runs it. */

const { core } = require('./setup');
const { webhookWorkflow } = require('./webhooks');

const STEPS = ['activate', 'deactivate'];

/**
 * Runs the node's webhookMethods the way n8n does: on activation `checkExists`, then `create` when it answered
 * false; on deactivation `delete`; each inside n8n-core's HookContext. `mode` and `activation` are what n8n
 * passes: ('trigger', 'activate') when a workflow is published, ('trigger', 'init') when n8n starts with it
 * active, ('manual', 'manual') for "Listen for test event" (then, as n8n's TestWebhooks, the webhook is a test one).
 * Takes runWebhook's node options (parameters, credentials, webhookId, ...).
 * Returns { calls: [{ method, result }], error (if a method threw), webhookUrl (the URL the editor shows) }.
 */
async function runWebhookLifecycle({ steps = STEPS, mode = 'trigger', activation = 'activate', ...options } = {}) {
	const unknown = steps.find((step) => !STEPS.includes(step));
	if (unknown) throw new Error(`Harness: unknown lifecycle step "${unknown}" (use ${STEPS.join(', ')})`);
	const { workflow, node, nodeType, webhookData } = webhookWorkflow({ isTest: mode === 'manual', ...options });
	const hookContext = () =>
		new core.HookContext(workflow, node, webhookData.workflowExecuteAdditionalData, mode, activation, webhookData);
	const calls = [];
	const run = async (method) => {
		const fn = nodeType.webhookMethods?.[webhookData.webhookDescription.name]?.[method];
		if (fn === undefined) return undefined;
		const result = await fn.call(hookContext());
		calls.push({ method, result });
		return result;
	};
	let error;
	try {
		for (const step of steps) {
			if (step === 'deactivate') await run('delete');
			else if (!(await run('checkExists'))) await run('create');
		}
	} catch (e) {
		error = e;
	}
	return { calls, error, webhookUrl: hookContext().getNodeWebhookUrl(webhookData.webhookDescription.name) };
}

module.exports = { runWebhookLifecycle };
