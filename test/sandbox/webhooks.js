'use strict';
/**
 * Signed webhook delivery. The body is PHP-style JSON and the signature is
 * `sha256=` + lowercase hex HMAC-SHA256 of exactly those bytes. One attempt, 5 s timeout.
 * Deliveries run in the background (the API answer does not wait); `idle()` waits for them.
 */

const crypto = require('node:crypto');
const { phpJson, randomToken } = require('./util');
const { nextId, pushCapped, ts } = require('./store');
const { specEventData } = require('./profile');

const EVENTS = ['document.sent', 'document.viewed', 'document.signed', 'document.completed', 'document.declined', 'document.expired'];
const TIMEOUT_MS = 5000;

const sign = (secret, body) => `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;

/** The `data` of a document event; signer events add the signer, declines the reason. */
function eventData(doc, signer, extra = {}) {
	const data = { document_id: doc.id, document_title: doc.title, status: doc.status };
	if (signer) Object.assign(data, { signer_id: signer.id, signer_name: signer.name, signer_email: signer.email });
	return Object.assign(data, extra);
}

function createWebhooks(core) {
	const pending = new Set();
	const aborter = new AbortController();

	/**
	 * The body as the profile sends it: the default's {event, data, timestamp}, or (webhooks: 'spec') exactly the
	 * spec's {event, data}, with data cut to the spec table's members unless `asGiven` (the test control's data).
	 */
	function bodyOf(event, data, asGiven) {
		if (core.state.profile.webhooks !== 'spec') return phpJson({ event, data, timestamp: ts(core) });
		return phpJson({ event, data: asGiven ? data : specEventData(event, data) });
	}

	/**
	 * options.misSign: signed with a random key instead of the secret (a receiver must answer 401);
	 * options.asGiven: the data goes out as given, whatever the profile (POST /__sandbox/webhooks/test).
	 * core.deliveryTimeoutMs: null = wait for the answer however long it takes (the jest tests: no wall-clock deadline).
	 */
	async function deliver(url, event, data, { timeoutMs = core.deliveryTimeoutMs === undefined ? TIMEOUT_MS : core.deliveryTimeoutMs, misSign = false, asGiven = false } = {}) {
		const body = bodyOf(event, data, asGiven);
		// The spec shows one header, X-ESIGN-Signature; X-ESIGN-Event is the default profile's extra.
		const eventHeader = core.state.profile.webhooks === 'spec' ? {} : { 'X-ESIGN-Event': event };
		const started = Date.now();
		const signature = sign(misSign ? randomToken() : core.state.webhookSecret, body);
		const delivery = { id: nextId(core, 'delivery'), url, event, body, signature, status: null, answer: null, error: null, at: ts(core) };
		if (misSign) delivery.misSigned = true;
		pushCapped(core.state.deliveries, delivery);
		try {
			const res = await fetch(url, {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json; charset=UTF-8',
					'User-Agent': 'eSign-Sandbox-Webhooks/1.0',
					'X-ESIGN-Signature': signature,
					...eventHeader,
				},
				body,
				redirect: 'manual',
				signal: timeoutMs === null ? aborter.signal : AbortSignal.any([AbortSignal.timeout(timeoutMs), aborter.signal]),
			});
			delivery.status = res.status;
			// What the receiver answered (its first 500 characters): the test scripts read from it whether a run started.
			delivery.answer = (await res.text().catch(() => '')).slice(0, 500);
		} catch (e) {
			delivery.error = e.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : String((e.cause && e.cause.message) || e.message);
		}
		delivery.ms = Date.now() - started;
		core.changed();
		return delivery;
	}

	/** Starts a delivery and tracks it until it settles. */
	function track(promise) {
		pending.add(promise);
		promise.finally(() => pending.delete(promise));
		return promise;
	}

	return {
		EVENTS,
		eventData,
		register({ url, events, replace }) {
			const receiver = { id: nextId(core, 'webhook'), url, events: Array.isArray(events) && events.length ? events : null };
			if (replace) core.state.webhooks = [];
			core.state.webhooks.push(receiver);
			return receiver;
		},
		/** Removes a receiver; false when there is none with that id. */
		unregister(id) {
			const before = core.state.webhooks.length;
			core.state.webhooks = core.state.webhooks.filter((r) => r.id !== id);
			return core.state.webhooks.length < before;
		},
		/** Fans an event out to every receiver subscribed to it, in the background. */
		emit(event, data) {
			for (const r of core.state.webhooks) {
				if (!r.events || r.events.includes(event)) track(deliver(r.url, event, data));
			}
		},
		/** Delivers now and resolves with the delivery record(s); options (timeoutMs overrides the 5 s, misSign, asGiven) as deliver's. */
		deliverNow(urls, event, data, options) {
			return Promise.all(urls.map((url) => track(deliver(url, event, data, options))));
		},
		async idle() {
			while (pending.size) await Promise.allSettled([...pending]);
		},
		close() {
			aborter.abort();
		},
	};
}

module.exports = { EVENTS, sign, eventData, createWebhooks };
