// The REST API as the owner (cookie session) and the public API (API key).

export const DEFAULT_OWNER = { email: 'owner@example.com', firstName: 'eSign', lastName: 'Owner', password: 'ESign-Sandbox-2026' };

/** A tiny cookie-keeping REST client: client.request(method, path, body) → parsed `data`. */
export function restClient(url) {
	const client = {
		url,
		cookie: '',
		async raw(method, p, body, headers = {}) {
			const res = await fetch(url + p, {
				method,
				headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(client.cookie ? { cookie: client.cookie } : {}), ...headers },
				body: body !== undefined ? JSON.stringify(body) : undefined,
			});
			const set = res.headers.getSetCookie?.() ?? [];
			for (const c of set) {
				const [pair] = c.split(';');
				if (pair.startsWith('n8n-auth=')) client.cookie = pair;
			}
			const text = await res.text();
			let json;
			try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
			return { status: res.status, json, text };
		},
		async request(method, p, body, headers) {
			const r = await client.raw(method, p, body, headers);
			if (r.status >= 400) {
				const err = new Error(`${method} ${p} → ${r.status}: ${r.text.slice(0, 500)}`);
				err.status = r.status;
				err.body = r.json ?? r.text;
				throw err;
			}
			return r.json && typeof r.json === 'object' && 'data' in r.json ? r.json.data : r.json;
		},
	};
	return client;
}

/** Creates the owner account on a fresh instance, or logs in if one exists. Returns a cookie client. */
export async function setupOwner(url, owner = DEFAULT_OWNER) {
	const o = { ...DEFAULT_OWNER, ...owner };
	const client = restClient(url);
	const settings = await client.request('GET', '/rest/settings');
	if (settings?.userManagement?.showSetupOnFirstLoad) {
		await client.request('POST', '/rest/owner/setup', { email: o.email, firstName: o.firstName, lastName: o.lastName, password: o.password });
	} else await client.request('POST', '/rest/login', { emailOrLdapLoginId: o.email, password: o.password });
	return client;
}

/** Public-API key with every scope the instance offers. Returns the raw key (shown only once). */
export async function createApiKey(client, { label = `e2e ${new Date().toISOString()}` } = {}) {
	const scopes = await client.request('GET', '/rest/api-keys/scopes');
	const data = await client.request('POST', '/rest/api-keys', { label, expiresAt: null, scopes });
	return data.rawApiKey;
}

/** Public API call (`/api/v1/...`) with an API key. */
export async function publicApi(url, apiKey, method, p, body) {
	const res = await fetch(`${url}/api/v1${p}`, {
		method,
		headers: { 'X-N8N-API-KEY': apiKey, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
		body: body !== undefined ? JSON.stringify(body) : undefined,
	});
	const text = await res.text();
	if (res.status >= 400) throw Object.assign(new Error(`${method} /api/v1${p} → ${res.status}: ${text.slice(0, 500)}`), { status: res.status });
	return text ? JSON.parse(text) : undefined;
}

/**
 * Production and test webhook URLs of a workflow's webhook nodes, computed as the editor does:
 * /webhook/<path> when the node's webhook is isFullPath, else /webhook/<webhookId>/<path>.
 * nodeTypes: the node descriptions (from /types/nodes.json or exportNodes) — needed for path rules.
 */
export async function webhookUrls(client, id, nodeTypes) {
	const wf = await client.request('GET', `/rest/workflows/${id}`);
	nodeTypes ??= await client.request('GET', '/types/nodes.json');
	const out = [];
	for (const node of wf.nodes) {
		const descs = nodeTypes.filter((t) => t.name === node.type);
		const desc = descs.find((t) => [].concat(t.version).includes(node.typeVersion)) ?? descs[0];
		for (const hook of desc?.webhooks ?? []) {
			if (hook.name && hook.name !== 'default') continue;
			const resolve = (v) => {
				if (typeof v !== 'string') return v;
				const m = v.match(/^=\{\{\s*\$parameter\[["'](\w+)["']\]\s*\}\}$/);
				return m ? node.parameters?.[m[1]] ?? desc.properties?.find((p) => p.name === m[1])?.default : v;
			};
			let p = String(resolve(hook.path) ?? '').replace(/^\/+/, '');
			const full = resolve(hook.isFullPath) === true;
			const rel = full ? p : [node.webhookId, p].filter(Boolean).join('/');
			out.push({ node: node.name, type: node.type, method: resolve(hook.httpMethod), url: `${client.url}/webhook/${rel}`, testUrl: `${client.url}/webhook-test/${rel}` });
		}
	}
	return out;
}
