// A scripted stand-in for an OpenAI-compatible chat model: `POST /v1/chat/completions` answers what a
// script decides from the conversation so far (call a tool, read its answer, call the next, then reply).
// n8n's OpenAI Chat Model (lmChatOpenAi 1.3, Responses API off) talks to it through an openAiApi
// credential whose Base URL points here. Every request is kept, so a check can read what the model was
// told: the tools with their descriptions, and each tool's answer.
import http from 'node:http';

/** An assistant turn that calls tools: [{ name, args }]. */
export const callTools = (...calls) => ({ tool_calls: calls.map((c, i) => ({ id: `call_${Date.now().toString(36)}_${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) } })) });
/** An assistant turn that answers in words. */
export const reply = (content) => ({ content });

/** The tool messages of a conversation, oldest first: [{ name, content }] (name from the call they answer). */
export function toolAnswers(messages) {
	const names = new Map();
	for (const m of messages) for (const c of m.tool_calls ?? []) names.set(c.id, c.function?.name);
	return messages.filter((m) => m.role === 'tool').map((m) => ({ name: names.get(m.tool_call_id), content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) }));
}

function completion(model, turn) {
	const message = { role: 'assistant', content: turn.content ?? null, ...(turn.tool_calls ? { tool_calls: turn.tool_calls } : {}) };
	return {
		id: `chatcmpl-${Date.now().toString(36)}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model,
		choices: [{ index: 0, message, finish_reason: turn.tool_calls ? 'tool_calls' : 'stop' }],
		usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
	};
}

/** The same turn as server-sent chunks, for a client that asks for a stream. */
function chunks(model, turn) {
	const base = { id: `chatcmpl-${Date.now().toString(36)}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
	const delta = turn.tool_calls
		? { role: 'assistant', content: null, tool_calls: turn.tool_calls.map((c, index) => ({ index, ...c })) }
		: { role: 'assistant', content: turn.content };
	return [
		{ ...base, choices: [{ index: 0, delta, finish_reason: null }] },
		{ ...base, choices: [{ index: 0, delta: {}, finish_reason: turn.tool_calls ? 'tool_calls' : 'stop' }] },
	];
}

/**
 * Starts the model on a free 127.0.0.1 port. script(request) returns the next assistant turn
 * (callTools(...) or reply(...)) for a request body { messages, tools, ... }.
 * Resolves { url (the Base URL for the credential, ending in /v1), requests, close() }.
 */
export async function startScriptedModel(script) {
	const requests = [];
	const server = http.createServer((req, res) => {
		let raw = '';
		req.on('data', (d) => (raw += d));
		req.on('end', () => {
			const answer = (status, body) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(body));
			};
			if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) return answer(404, { error: { message: `no route ${req.method} ${req.url}` } });
			let body;
			try {
				body = JSON.parse(raw);
			} catch {
				return answer(400, { error: { message: 'body is not JSON' } });
			}
			requests.push(body);
			let turn;
			try {
				turn = script(body);
			} catch (err) {
				return answer(500, { error: { message: `script: ${err.message}` } });
			}
			const model = body.model ?? 'scripted';
			if (!body.stream) return answer(200, completion(model, turn));
			res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
			for (const chunk of chunks(model, turn)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
			res.end('data: [DONE]\n\n');
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}/v1`,
		requests,
		close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
	};
}
