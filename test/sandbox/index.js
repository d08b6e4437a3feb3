'use strict';
/**
 * Sandbox eSign site: a plain Node HTTP server implementing the eSign REST API under
 * /wp-json/esign/v1 plus sandbox-only controls. See CONTRACT.md for the full contract.
 *
 *   const { createSandbox } = require('./test/sandbox');
 *   const sb = await createSandbox({ port: 0 });
 *   ... fetch(sb.apiUrl + '/documents', { headers: { 'X-ESIGN-API-Key': sb.keys.admin.key, ... } })
 *   await sb.close();
 */

const http = require('node:http');
const https = require('node:https');
const { API_PREFIX, handleApi } = require('./api');
const { handleControl, publicKeys } = require('./controls');
const { normalizeRateLimits, SPEC_RATE_LIMITS } = require('./auth');
const { createState, resetData, ts } = require('./store');
const { createWebhooks } = require('./webhooks');
const { seedTemplates } = require('./templates');
const { getSamples } = require('./pdf');
const { sendJson } = require('./http');
const { normalizeFronts } = require('./fronts');
const { sandboxCertificate } = require('./tls');
const { createPersistence } = require('./persist');
const { normalizeProfile } = require('./profile');

/**
 * What a WordPress site with Plain permalinks answers at /wp-json/…: it does not route the address, so its
 * canonical redirect adds a trailing slash (301), and the address with the slash is the theme's 404 page.
 */
function plainPermalinkAnswer(req, res, url) {
	if (!url.pathname.endsWith('/')) {
		res.writeHead(301, { Location: `${url.pathname}/${url.search}`, 'X-Redirect-By': 'WordPress', 'Content-Type': 'text/html; charset=UTF-8' });
		res.end();
		return;
	}
	res.writeHead(404, { 'Content-Type': 'text/html; charset=UTF-8' });
	res.end('<!doctype html><html><head><title>Page not found – eSign sandbox</title></head><body class="error404"><h1>Oops! That page can&rsquo;t be found.</h1></body></html>');
}

const DEFAULT_WEBHOOK_SECRET = 'whsec_sandbox_3b9f2c7e1a5d48f6b0c2e9a7d1f4c8b5';

/**
 * @param {object} [opts]
 * @param {number} [opts.port=0]          0 = a free port
 * @param {string} [opts.host='127.0.0.1']
 * @param {object|boolean} [opts.rateLimits=false]  {perKeyPerHour, perIpPerMinute}, true = the spec's values, false = off
 * @param {string} [opts.webhookSecret=DEFAULT_WEBHOOK_SECRET]
 * @param {boolean} [opts.seed=true]      seed the templates (users and keys always exist)
 * @param {string} [opts.publicUrl]       base of signing links when the sandbox is reached under another address
 * @param {object} [opts.fronts]          what the site sits behind (Basic auth, cache, challenge, block page, header
 *                                        stripping), as POST /__sandbox/fronts takes it; reset returns to it
 * @param {boolean|string} [opts.tls]     HTTPS with a certificate made at start: true / 'self-signed', 'expired', 'wrong-host'
 * @param {string} [opts.dataDir]         keep the data in this folder across restarts (see persist.js); default: in memory only
 * @param {boolean} [opts.resetData=false] with dataDir: remove the kept data first and start fresh
 * @param {string|object} [opts.profile='default'] what it plays where the spec says "not shown": 'default' (the
 *                                        project's guesses), 'strict' (the spec alone, varied where it is silent),
 *                                        'family' (a WPsigner-like site), or knobs over a preset (profile.js;
 *                                        CONTRACT.md → Profiles); reset returns to it
 * @param {number|null} [opts.deliveryTimeoutMs=5000] how long a webhook delivery waits for its answer; null = no limit
 */
async function createSandbox(opts = {}) {
	const { port = 0, host = '127.0.0.1', rateLimits = false, webhookSecret = DEFAULT_WEBHOOK_SECRET, seed = true, publicUrl, tls = false } = opts;
	const state = createState({ rateLimits: normalizeRateLimits(rateLimits), webhookSecret });
	const startFronts = normalizeFronts(opts.fronts ?? {});
	const startProfile = normalizeProfile(opts.profile);
	// changed(): called after anything that may change the data; saves it when opts.dataDir is set.
	const core = { state, samples: await getSamples(), publicUrl: '', changed: () => {}, deliveryTimeoutMs: opts.deliveryTimeoutMs };
	core.webhooks = createWebhooks(core);
	core.reset = () => {
		resetData(state);
		state.fronts = { ...startFronts };
		// What the site plays where the spec is silent (profile.js); POST /__sandbox/profile changes it until the next reset.
		state.profile = { ...startProfile, addSignerAnswers: [...startProfile.addSignerAnswers] };
		// The answers a cache front keeps, by cache key.
		state.frontCache = new Map();
		if (seed) seedTemplates(core);
		core.changed();
	};
	core.reset();
	const persistence = opts.dataDir ? createPersistence(core, opts.dataDir, { resetData: opts.resetData === true }) : null;
	if (persistence) core.changed = persistence.changed;

	const certificate = tls ? sandboxCertificate(tls, host) : null;
	const onRequest = (req, res) => {
		const url = new URL(req.url, 'http://sandbox.local');
		// Plain permalinks: WordPress serves the REST API as /?rest_route=/esign/v1/... as well.
		const restRoute = (url.pathname === '/' || url.pathname === '/index.php') && url.searchParams.get('rest_route');
		if (restRoute) {
			url.pathname = `/wp-json${restRoute.startsWith('/') ? '' : '/'}${restRoute}`;
			url.searchParams.delete('rest_route');
		}
		const isApi = url.pathname === '/wp-json' || url.pathname.startsWith('/wp-json/');
		if (isApi && !restRoute && state.permalinks === 'plain') {
			plainPermalinkAnswer(req, res, url);
			return;
		}
		const handler = isApi ? handleApi : handleControl;
		// Reads change data too (counters, the signed PDF built on first download).
		res.once('close', core.changed);
		handler(core, req, res, url).catch((error) => {
			console.error('[sandbox] request failed:', error);
			sendJson(res, 500, { code: 'internal_error', message: String(error.message), data: { status: 500 } });
		});
	};
	const listen = async (server, onPort) => {
		await new Promise((resolve, reject) => {
			server.once('error', reject);
			server.listen(onPort, host, () => {
				server.off('error', reject);
				resolve();
			});
		});
		const at = server.address().port;
		return { port: at, url: `${server instanceof https.Server ? 'https' : 'http'}://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${at}` };
	};
	const server = certificate ? https.createServer({ key: certificate.key, cert: certificate.cert }, onRequest) : http.createServer(onRequest);
	const { port: actualPort, url } = await listen(server, port);
	// An HTTPS sandbox also answers plain HTTP on another free port, so tests can arrange and check it without trusting the certificate.
	const plainServer = certificate ? http.createServer(onRequest) : null;
	const plain = plainServer ? await listen(plainServer, 0) : null;
	core.publicUrl = (publicUrl || url).replace(/\/+$/, '');

	let closing;
	return {
		url,
		apiUrl: url + API_PREFIX,
		port: actualPort,
		keys: publicKeys(state),
		/** With opts.tls: {variant, cert} (the certificate as PEM, for a client that should trust it); else null. */
		tls: certificate && { variant: certificate.variant, cert: certificate.cert },
		/** With opts.tls: the same site over plain HTTP ({url, apiUrl}); else null. */
		plain: plain && { url: plain.url, apiUrl: plain.url + API_PREFIX },
		get webhookSecret() {
			return state.webhookSecret;
		},
		/** Live in-memory state (documents, signers, fields, templates: Maps by numeric id; outbox, requestLog, deliveries: arrays). */
		state,
		/** The profile's name at start ('default', 'strict' or 'family'); sb.state.profile holds the knobs in use. */
		profile: startProfile.name,
		/** Same as POST /__sandbox/reset. */
		reset: core.reset,
		/** Resolves once every webhook delivery in flight has settled. */
		idle: () => core.webhooks.idle(),
		/** The sandbox clock as `YYYY-MM-DD HH:MM:SS`. */
		now: () => ts(core),
		/**
		 * With opts.dataDir: {dir, file, restored (data was read from file), movedAside (where an unreadable file
		 * went, else null), warning (the message about it, else null)}; null when the data lives in memory only.
		 */
		persistence: persistence && persistence.info,
		/** With opts.dataDir: resolves after the next save of the data (a change is saved SAVE_DELAY_MS after it). */
		nextSave: () => (persistence ? persistence.nextSave() : Promise.reject(new Error('this sandbox keeps its data in memory only (no dataDir)'))),
		close() {
			closing ??= new Promise((resolve) => {
				core.webhooks.close();
				if (persistence) persistence.close();
				const servers = [server, plainServer].filter(Boolean);
				let open = servers.length;
				for (const s of servers) {
					s.close(() => --open || resolve());
					s.closeAllConnections();
				}
			});
			return closing;
		},
	};
}

module.exports = { createSandbox, DEFAULT_WEBHOOK_SECRET, SPEC_RATE_LIMITS };
