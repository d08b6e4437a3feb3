// What a test script is waiting for right now: child commands, n8n starting, executions, polls, site controls.
// The watchdog of the test-script frame (testScript in expectations.mjs) prints these when it stops a run, so a
// stuck run says what it was waiting for instead of only that it ran too long.

const waits = new Map();
let seq = 0;

/**
 * Records that the script now waits for `what`; returns { update(what), done() }. Use waitFor(what, fn) where a
 * wait is one promise.
 */
export function waitingFor(what) {
	const id = ++seq;
	waits.set(id, { what, since: Date.now() });
	return {
		update: (text) => waits.has(id) && (waits.get(id).what = text),
		done: () => waits.delete(id),
	};
}

/** Runs fn() while recorded as waiting for `what`. */
export async function waitFor(what, fn) {
	const wait = waitingFor(what);
	try {
		return await fn();
	} finally {
		wait.done();
	}
}

/** The waits in progress, oldest first, alike ones counted together: ['n8n execute --id=x (for 95 s)', '200 × …']. */
export function currentWaits(now = Date.now()) {
	const groups = new Map();
	for (const { what, since } of waits.values()) {
		const g = groups.get(what) ?? { what, since, n: 0 };
		g.n++;
		g.since = Math.min(g.since, since);
		groups.set(what, g);
	}
	return [...groups.values()].sort((a, b) => a.since - b.since).map((g) => `${g.n > 1 ? `${g.n} × ` : ''}${g.what} (for ${Math.round((now - g.since) / 1000)} s)`);
}
