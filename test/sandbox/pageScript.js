'use strict';
// Runs a sandbox HTML page's script (the signing page's) in a Node `vm` against a small stand-in for the browser:
// the page's form controls read from its HTML as a browser reads them (a select's value is its selected option's, or
// its first option's when none is selected), elements by id, `fetch` handed in, `location.reload` and `prompt`
// recorded. No browser is needed, so the sandbox's suites stay in the engine layer. A .js file: the lint keeps
// `node:vm` out of .ts files.
const vm = require('node:vm');

/** @param {string} text */
const decode = (text) =>
	text
		.replace(/&#(\d+);/g, (_m, code) => String.fromCharCode(Number(code)))
		.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

/** @param {string} tag the inside of an opening tag, after its name */
function attributes(tag) {
	/** @type {Record<string, string>} */
	const attrs = {};
	for (const m of tag.matchAll(/([\w-]+)(?:="([^"]*)")?/g)) attrs[m[1]] = m[2] === undefined ? '' : decode(m[2]);
	return attrs;
}

/** @param {Record<string, string>} attrs */
const datasetOf = (attrs) =>
	Object.fromEntries(Object.entries(attrs).filter(([k]) => k.startsWith('data-')).map(([k, v]) => [k.slice(5).replace(/-(\w)/g, (_m, c) => c.toUpperCase()), v]));

/**
 * The page's form controls (`select`, `input`, `textarea`), each with what a browser's DOM gives the script.
 * @param {string} html
 */
function controlsOf(html) {
	const controls = [];
	for (const m of html.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
		const attrs = attributes(m[1]);
		const options = [...m[2].matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/g)].map((o) => {
			const a = attributes(o[1]);
			return { value: 'value' in a ? a.value : decode(o[2]), text: decode(o[2]), selected: 'selected' in a };
		});
		const chosen = options.find((o) => o.selected) ?? options[0];
		controls.push({ tag: 'select', type: 'select-one', attrs, options, value: chosen ? chosen.value : '' });
	}
	for (const m of html.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) controls.push({ tag: 'textarea', type: 'textarea', attrs: attributes(m[1]), value: decode(m[2]) });
	for (const m of html.matchAll(/<input\b([^>]*)>/g)) {
		const attrs = attributes(m[1]);
		controls.push({ tag: 'input', type: attrs.type || 'text', attrs, value: attrs.value ?? (attrs.type === 'checkbox' ? 'on' : ''), checked: 'checked' in attrs });
	}
	return controls.map((c) => ({ ...c, name: c.attrs.name, required: 'required' in c.attrs, dataset: datasetOf(c.attrs) }));
}

/**
 * Loads the page: its controls, then its inline script run once (as a browser does on load).
 * @param {string} html
 * @param {(path: string, init?: RequestInit) => Promise<Response>} fetchFn the page's fetch (paths are the page's own)
 */
function loadPage(html, fetchFn) {
	const controls = controlsOf(html);
	/** @type {Record<string, { id: string; textContent: string; onclick: null | (() => unknown) }>} */
	const byId = {};
	for (const m of html.matchAll(/\bid="([^"]+)"/g)) byId[m[1]] = { id: m[1], textContent: '', onclick: null };
	/** @type {{ path: string; body: unknown }[]} */
	const requests = [];
	/** @type {Promise<unknown>[]} */
	const pending = [];
	let reloads = 0;
	const context = {
		document: {
			getElementById: (id) => byId[id] ?? null,
			querySelectorAll: (selector) => {
				if (selector !== '[data-field]') throw new Error(`the stand-in page knows only [data-field], not ${selector}`);
				return controls.filter((c) => 'field' in c.dataset);
			},
		},
		fetch: (path, init) => {
			requests.push({ path, body: init && init.body ? JSON.parse(String(init.body)) : undefined });
			// The answer read whole here, so that the page's handlers run on it without waiting for the network.
			const answer = fetchFn(path, init).then(async (r) => {
				const data = await r.json();
				return { ok: r.ok, status: r.status, json: async () => data };
			});
			pending.push(answer);
			return answer;
		},
		location: { reload: () => { reloads += 1; } },
		prompt: () => null,
		JSON,
		Error,
	};
	const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
	for (const script of scripts) vm.runInNewContext(script, context);
	/** Waits until every request the page made has been answered and its handlers have run. */
	const settle = async () => {
		for (let seen = 0; seen < pending.length; seen = pending.length) await Promise.allSettled(pending.slice(seen));
		await new Promise((resolve) => setImmediate(resolve));
	};
	return {
		/** The control of a field id (`data-field`). */
		field: (id) => controls.find((c) => c.dataset.field === String(id)),
		/** Clicks a button by id, then waits for what it set going. */
		click: async (id) => {
			const el = byId[id];
			if (!el || typeof el.onclick !== 'function') throw new Error(`no button #${id} with a click handler`);
			el.onclick();
			await settle();
		},
		/** The text the page shows under its buttons (#result). */
		result: () => (byId.result ? byId.result.textContent : ''),
		requests,
		reloads: () => reloads,
		settle,
	};
}

module.exports = { loadPage };
