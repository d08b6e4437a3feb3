'use strict';
/** Engine harness: Trigger nodes' webhook() through n8n-core's WebhookContext, and a real HTTP server in front of it. */

const http = require('node:http');
const path = require('node:path');
const { Container, Logger, PACKAGE, WebhookContext, Workflow, WorkflowExecute, core, nextId, parseIncomingMessage } = require('./setup');
const { nodeTypes } = require('./nodeTypes');
const { HarnessCredentialsHelper } = require('./credentials');
const { readBinary, useBinaryMode } = require('./binary');
const { createAdditionalData, credentialRefsFor, normaliseCredentials, runWorkflow } = require('./workflows');

/* ------------------------------------------------------------------------------------------------
 * Webhooks (trigger nodes) through n8n-core's WebhookContext
 * ---------------------------------------------------------------------------------------------- */

/**
 * A response object with the parts of express's Response that nodes use
 * (status, json, send, end, setHeader, header, headersSent), recording what was answered.
 * When `raw` (a node http.ServerResponse) is given, everything is also written to it.
 */
function createResponse(raw) {
	const listeners = { finish: [], close: [] };
	const res = {
		statusCode: 200,
		headers: {},
		body: undefined,
		ended: false,
		get headersSent() {
			return res.ended;
		},
		// As Node's ServerResponse: ended once answered; 'finish' when the answer was handed over.
		get writableEnded() {
			return res.ended;
		},
		once(event, listener) {
			listeners[event]?.push(listener);
			return res;
		},
		on(event, listener) {
			return res.once(event, listener);
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
			for (const listener of listeners.finish.splice(0)) listener();
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
 * What n8n builds around a trigger's webhook: the one-node workflow, the node type, credentials, additional data
 * and the IWebhookData of the node's first webhook. Shared by runWebhook and runWebhookLifecycle.
 */
function webhookWorkflow({
	type = `${PACKAGE}.eSignTrigger`,
	parameters = {},
	credentials,
	webhookId = 'harness-webhook-id',
	typeVersion = 1,
	name = 'eSign Trigger',
	isTest = false,
	staticData,
	workflowId: givenWorkflowId,
	failCredentialReads = 0,
}) {
	const credentialsByType = normaliseCredentials(credentials);
	const runId = nextId('run');
	const executionId = String(runId);
	// A fixed id stands for one saved workflow called again (as n8n loads it per webhook call); else one per call.
	const workflowId = givenWorkflowId ?? `harness-wf-${runId}`;
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
		// Like n8n: the workflow's static data as stored (a copy), saved back by the caller from `staticData`.
		staticData: staticData === undefined ? undefined : JSON.parse(JSON.stringify(staticData)),
	});
	const nodeType = nodeTypes.getByNameAndVersion(type, typeVersion);
	const webhookDescription = (nodeType.description.webhooks ?? [])[0];
	if (!webhookDescription) throw new Error(`Harness: ${type} declares no webhooks`);

	const credentialsHelper = new HarnessCredentialsHelper(credentialsByType);
	// The first `failCredentialReads` reads throw, as n8n 2.x's do when no expression isolate is free in time.
	credentialsHelper.failReads = failCredentialReads;
	const additionalData = createAdditionalData({ credentialsHelper, hooks: undefined, executionId, workflowId });
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
	return { node, workflow, nodeType, credentialsHelper, additionalData, webhookData };
}

/** The body n8n 2.41.1 answers an accepted delivery with (webhook-on-received-response-extractor.ts). */
function onReceivedBody(description, result) {
	const responseData = description.responseData === undefined ? 'firstEntryJson' : description.responseData;
	if (responseData === 'noData') return undefined;
	if (responseData) return responseData;
	if (result.webhookResponse !== undefined) return result.webhookResponse;
	return { message: 'Workflow was started' };
}

/** The static data as n8n stores it (JSON, without its changed marker). */
const storedForm = (staticData) => JSON.parse(JSON.stringify(staticData ?? {}, (key, value) => (key === '__dataChanged' ? undefined : value)));

/**
 * Calls a trigger node's webhook() inside n8n-core's WebhookContext — what n8n's WebhookService does — and then
 * does what n8n 2.41.1's executeWebhook (webhook-helpers.ts) and live-webhooks.ts do with the result:
 * - webhook() throws → 500; no workflowData → 200 with webhookResponse or {"message":"Webhook call received"}, or
 *   nothing more when the node answered itself (noWebhookResponse). On these paths n8n saves the static data the call
 *   changed (the response callback's saveStaticData). A node that answered itself and returned workflowData too has
 *   its static data saved, then n8n creates the run (or fails to, which the caller no longer hears).
 * - workflowData (responseMode onReceived, the node did not answer) → n8n creates the run first (WorkflowRunner.run:
 *   the execution row, or the job in queue mode) and answers only then: 200 with the onReceived body, or 500 "There
 *   was a problem executing the workflow" when it cannot (`failRun: true`, or `beforeRun` throwing). The static data
 *   the webhook call changed is NOT saved on this path: run() builds a new Workflow over the same static-data object,
 *   which resets its changed flag (observable-object.ts create) before the callback's save looks at it (seen in real
 *   n8n 2.41.1: docs/triggers.md). The run then executes the workflow from the trigger's items with WorkflowExecute
 *   (the trigger's own execute() included, as n8n-core's runNode calls it), and n8n saves what the run changed when
 *   it ends (not in manual mode). The run starts from the static data as stored, read again from the database
 *   (WorkflowRunner.run with loadStaticData: runMainProcess, or job-processor.ts in a worker), not from the call's
 *   copy. `execute: false`:
 *   the run is created, not executed (a queued job).
 *
 * request: { headers, rawBody (string|Buffer), body?, query?, method? } or a ready `req`.
 * staticData: the workflow's static data as stored before the call; the result's staticData is what n8n has stored
 * after the call and its run. beforeRun: awaited where n8n creates the run (a test holds or fails it there).
 * Returns { statusCode, json, text, headers, answered, result (the node's IWebhookResponseData), workflowData,
 *           items (the trigger's output in the run, else workflowData[0], else []), webhookItems, binary(i, prop),
 *           error (if webhook() threw), runCreated, run?, runData?, staticData, staticDataChanged, logs, req, res }.
 */
async function runWebhook({
	req: givenReq,
	res: givenRes,
	request,
	rawResponse,
	binaryMode = 'filesystem',
	mode = 'webhook',
	execute = true,
	failRun = false,
	beforeRun,
	...options
}) {
	await useBinaryMode(binaryMode);
	const { node, workflow, nodeType, credentialsHelper, additionalData, webhookData } = webhookWorkflow(options);
	const req = givenReq ?? createRequest(request ?? {});
	const res = givenRes ?? createResponse(rawResponse);
	additionalData.httpRequest = req;
	additionalData.httpResponse = res;

	const context = new WebhookContext(workflow, node, additionalData, mode, webhookData, [], null);
	// Record what the node logs as warnings and errors (n8n's logger would write them to the log).
	const logs = { warn: [], error: [] };
	const realLogger = Container.get(Logger);
	Object.defineProperty(context, 'logger', {
		value: new Proxy(realLogger, {
			get(target, prop) {
				if (prop === 'warn' || prop === 'error') return (message) => logs[prop].push(String(message));
				const value = target[prop];
				return typeof value === 'function' ? value.bind(target) : value;
			},
		}),
	});
	let result;
	let error;
	try {
		result = await nodeType.webhook.call(context);
	} catch (e) {
		error = e;
	}

	const stored = storedForm(options.staticData);
	let staticData = stored;
	let staticDataChanged = false;
	const saveIfChanged = (wf) => {
		if (wf.staticData.__dataChanged === true && mode !== 'manual') {
			staticData = storedForm(wf.staticData);
			staticDataChanged = true;
		}
	};
	const workflowData = error ? undefined : result?.workflowData;
	let runCreated = false;
	let runOut;
	if (error) {
		if (!res.ended) res.status(500).json({ code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
	} else if (workflowData === undefined) {
		saveIfChanged(workflow);
		if (!res.ended && result?.noWebhookResponse !== true) {
			if (result?.webhookResponse !== undefined) res.status(200).send(result.webhookResponse);
			else res.status(200).json({ message: 'Webhook call received' });
		}
	} else {
		// A node that answered itself and still returned workflowData: n8n's callback saves the static data first
		// (nothing is reset yet), then n8n creates the run; what happens to it, the caller no longer hears.
		if (result?.noWebhookResponse === true) saveIfChanged(workflow);
		try {
			if (failRun) throw new Error('Harness: the execution could not be created');
			await beforeRun?.();
			runCreated = true;
		} catch {
			runCreated = false;
		}
		if (!res.ended) {
			if (!runCreated) res.status(500).json({ code: 0, message: 'There was a problem executing the workflow' });
			else {
				const body = onReceivedBody(webhookData.webhookDescription, result);
				if (body === undefined) res.status(200).end();
				else if (typeof body === 'string') res.status(200).send(body);
				else res.status(200).json(body);
			}
		}
		if (runCreated && execute) {
			runOut = await runWorkflow({
				nodes: [node],
				connections: {},
				credentials: options.credentials,
				binaryMode,
				mode,
				startNode: node.name,
				startItems: workflowData[0],
				// n8n starts the run with the static data read again from the database (executeWebhook calls
				// WorkflowRunner.run with loadStaticData: runMainProcess, or the worker's job-processor.ts): what the
				// call wrote does not reach the run.
				staticData,
				workflowId: workflow.id,
			});
			saveIfChanged(runOut.workflow);
		}
	}

	const webhookItems = workflowData?.[0] ?? [];
	const runItems = runOut?.runData?.[node.name]?.[0]?.data?.main?.[0];
	const items = runItems ?? webhookItems;
	return {
		...describeResponse(res),
		answered: res.ended,
		result,
		workflowData,
		webhookItems,
		items,
		error,
		req,
		res,
		credentialsHelper,
		logs,
		runCreated,
		run: runOut?.run,
		runData: runOut?.runData,
		// What n8n has stored after the call and its run, without n8n's marker; whether anything was saved.
		staticDataChanged,
		staticData,
		binary: async (itemIndex = 0, prop = 'data') => {
			const binary = items[itemIndex]?.binary?.[prop];
			if (!binary) throw new Error(`Harness: item ${itemIndex} has no binary "${prop}"`);
			return await readBinary(binary);
		},
	};
}

/**
 * A real HTTP server in front of runWebhook: reads the raw bytes like n8n's rawBodyReader,
 * parses JSON like n8n's parseBody (an unparseable application/json body → 422, as real n8n
 * answers before the node runs, unless `rejectInvalidJson: false`), then hands the request to
 * the node through n8n-core's WebhookContext and writes the answer to the socket.
 *
 * Returns { url, port, path, calls: [runWebhook results], waitForCalls(n), waitFor(predicate), idle(), close() }.
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
	// Requests received and not yet handled to their end (answered, and the node's webhook() returned).
	let inFlight = 0;
	const idleWaiters = [];
	const settled = () => {
		inFlight--;
		if (inFlight === 0) for (const resolve of idleWaiters.splice(0)) resolve();
	};
	const type = options.type ?? `${PACKAGE}.eSignTrigger`;
	const description = nodeTypes.getByNameAndVersion(type, options.typeVersion ?? 1).description;
	const webhookPath = urlPath ?? `/webhook/${webhookId}/${(description.webhooks ?? [])[0]?.path ?? ''}`;

	const notify = () => {
		for (const waiter of [...waiters]) {
			const found = waiter.check();
			if (found !== undefined) {
				waiters.splice(waiters.indexOf(waiter), 1);
				waiter.resolve(found);
			}
		}
	};
	// No deadline of its own: a call that never comes is jest's test timeout (a hang guard), so a slow machine
	// cannot fail a test that would pass.
	const wait = (check) => {
		const found = check();
		if (found !== undefined) return Promise.resolve(found);
		return new Promise((resolve) => waiters.push({ check, resolve }));
	};

	const server = http.createServer((rawReq, rawRes) => {
		inFlight++;
		const chunks = [];
		rawReq.on('data', (c) => chunks.push(c));
		rawReq.on('end', async () => {
			const rawBody = Buffer.concat(chunks);
			const url = new URL(rawReq.url, `http://${host}`);
			if (url.pathname !== webhookPath) {
				rawRes.statusCode = 404;
				rawRes.setHeader('content-type', 'application/json');
				rawRes.end(JSON.stringify({ code: 404, message: 'The requested webhook is not registered.' }));
				settled();
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
				settled();
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
			settled();
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
		waitForCalls(count = 1) {
			return wait(() => (calls.length >= count ? calls.slice(0, count) : undefined));
		},
		/**
		 * Resolves once every request received so far has been handled to its end (its call is in `calls`). After the
		 * sender has its answers (the sandbox's idle()), nothing more can come: a test then reads `calls` directly.
		 */
		idle() {
			return inFlight === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
		},
		/** Resolves with the first call (already received or still to come) that matches. */
		waitFor(predicate) {
			return wait(() => calls.find((call) => predicate(call)));
		},
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}

module.exports = { createRequest, createResponse, runWebhook, startWebhookServer, webhookWorkflow };
