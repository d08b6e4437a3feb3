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
 *   await h.runTool({ parameters, args, credentials })          // the node as an AI agent's tool (engine request)
 *   const srv = await h.startWebhookServer({ ... })             // the same, behind a real HTTP server
 *   await h.runWebhookLifecycle({ parameters, credentials })     // activation/deactivation (webhookMethods)
 *
 * Plain CommonJS so the package lint rules for .ts (no Node built-ins, no process) do not apply.
 * Under jest the .ts sources are loaded through ts-jest.
 */


// Split by concern (each file ≤ ~400 lines); this entry re-exports the harness's public API.
function pick(module, names) {
	return Object.fromEntries(names.map((name) => [name, module[name]]));
}

module.exports = {
	...pick(require('./setup'), ['HARNESS_DIR']),
	...pick(require('./nodeTypes'), ['registerNodeType', 'nodeTypes']),
	...pick(require('./credentials'), ['withCredentialDefaults', 'HarnessCredentialsHelper']),
	...pick(require('./binary'), ['useBinaryMode', 'readBinary']),
	...pick(require('./workflows'), ['runNode', 'runWorkflow']),
	...pick(require('./credentialTest'), ['testCredential']),
	...pick(require('./webhooks'), ['runWebhook', 'startWebhookServer', 'createRequest', 'createResponse']),
	...pick(require('./activation'), ['runWebhookLifecycle']),
	...pick(require('./loadOptions'), ['runMethod']),
	...pick(require('./polls'), ['runPoll']),
	...pick(require('./tools'), ['runTool']),
};
