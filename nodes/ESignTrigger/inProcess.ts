import * as n8nWorkflow from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { REMEMBERED_DELIVERIES } from './deliveries';

/**
 * What this n8n process knows about the deliveries it accepted, per workflow and trigger node ("key"), between the
 * webhook call that accepts a delivery and the end of its run, when n8n saves the id the run recorded in the
 * workflow's static data. A cache only: static data stays the record, and another process's deliveries are not
 * seen here (docs/triggers.md → Repeated deliveries).
 *
 * - `runs`: ids whose run exists: n8n answered the accepting call 2xx where that proves it (below), or the run
 *   itself started in this process (run.ts).
 * - `pending`: ids handed to n8n by a webhook call, with the response n8n answers them on, until that says how it went.
 */

/**
 * Whether a 2xx from n8n proves the run exists. From n8n 2.8.0 on, n8n answers an accepted ('onReceived') delivery
 * only once it has created the execution (webhook-helpers.ts executeWebhook, `shouldDeferOnReceivedResponse`: absent
 * in 2.7.5, present in 2.8.0 and 2.41.1); earlier lines, 1.x included, answer first. n8n-workflow 2.8.0, released
 * with n8n 2.8.0, is the first to export `isTriggerLikeNode`, and a community node always runs with n8n's own
 * n8n-workflow: so its presence tells the line. (A test plays the other line by setting it.)
 */
export const n8nLine = { answerProvesRun: 'isTriggerLikeNode' in n8nWorkflow };

/** The parts of n8n's (express's) response this file reads: its status once n8n has answered. */
export interface AnsweredResponse {
	statusCode?: number;
	writableEnded?: boolean;
	once?(event: 'finish' | 'close', listener: () => void): unknown;
}

const MAX_KEYS = 500;
const MAX_PENDING = 2000;
/** How long a copy that arrives while the same delivery is being handed to n8n waits for that answer. */
const COPY_WAIT_MS = 2000;
const COPY_POLL_MS = 50;
/** Where a 2xx proves nothing (before n8n 2.8), how long after it a copy waits for the run to start here. */
const RUN_START_WAIT_MS = 1000;

interface Pending {
	key: string;
	id: string;
	res: AnsweredResponse;
	/** When a 2xx that proves nothing was first seen. */
	answeredAt?: number;
}

const runs = new Map<string, string[]>();
const pending = new Map<string, Pending>();

const pendingKey = (key: string, id: string) => `${key} ${id}`;

/** The key of one trigger node of one workflow, the same in the webhook call and in the run. */
export function triggerKey(context: { getWorkflow(): { id?: string }; getNode(): { id: string } }): string {
	return `${context.getWorkflow().id ?? ''}/${context.getNode().id}`;
}

/** Ids of runs that exist, recorded in this process (oldest first). */
export function recentRuns(key: string): readonly string[] {
	return runs.get(key) ?? [];
}

/** Records that the run of a delivery exists. */
export function runExists(key: string, id: string): void {
	const ids = (runs.get(key) ?? []).filter((known) => known !== id);
	ids.push(id);
	runs.delete(key); // re-inserted last: the map's order is its age
	runs.set(key, ids.slice(-REMEMBERED_DELIVERIES));
	if (runs.size > MAX_KEYS) runs.delete(runs.keys().next().value as string);
	pending.delete(pendingKey(key, id));
}

/**
 * n8n's answer to a delivery handed to it: 'unknown' until n8n has answered (to a caller who may have left: Node then
 * emits nothing, but the response records it); 'run' for a 2xx that proves the run exists; 'answered' for a 2xx that
 * does not (n8n before 2.8); 'refused' for anything else (n8n created no run).
 */
function outcomeOf(res: AnsweredResponse): 'run' | 'answered' | 'refused' | 'unknown' {
	if (res.writableEnded !== true) return 'unknown';
	const status = Number(res.statusCode);
	if (!(status >= 200 && status < 300)) return 'refused';
	return n8nLine.answerProvesRun ? 'run' : 'answered';
}

/**
 * What became of a delivery handed to n8n: 'run' (it exists: recorded), 'free' (n8n refused it, or an unproved 2xx
 * was not followed by its run starting here in time: another call may take it) or 'busy' (not known yet).
 */
function settle(key: string, id: string): 'run' | 'free' | 'busy' {
	const entry = pending.get(pendingKey(key, id));
	if (!entry) return recentRuns(key).includes(id) ? 'run' : 'free';
	const outcome = outcomeOf(entry.res);
	if (outcome === 'run') {
		runExists(key, id);
		return 'run';
	}
	if (outcome === 'answered') entry.answeredAt ??= Date.now();
	if (outcome === 'refused' || (outcome === 'answered' && Date.now() - (entry.answeredAt as number) >= RUN_START_WAIT_MS)) {
		pending.delete(pendingKey(key, id));
		return 'free';
	}
	return 'busy';
}

/**
 * Claims a delivery for this call, which will hand it to n8n and be answered on `res`: 'claimed' (go ahead), 'run'
 * (its run exists already: a repeat) or 'busy' (another call of this process is handing the same delivery to n8n and
 * how it went is not known yet). Synchronous, so two copies never both claim. n8n answers after the call returns.
 */
function claim(key: string, id: string, res: AnsweredResponse): 'claimed' | 'run' | 'busy' {
	const state = settle(key, id);
	if (state !== 'free') return state;
	pending.set(pendingKey(key, id), { key, id, res });
	res.once?.('finish', () => settle(key, id));
	if (pending.size > MAX_PENDING) {
		const [oldest, entry] = pending.entries().next().value as [string, Pending];
		if (settle(entry.key, entry.id) === 'busy') pending.delete(oldest);
	}
	return 'claimed';
}

/**
 * Claims a delivery (above); while another call is handing the same one to n8n, waits a little for how that went:
 * its run exists → 'run'; n8n refused it → this call claims it. Still not known → 'busy' (send again later).
 */
export async function claimDelivery(key: string, id: string, res: AnsweredResponse): Promise<'claimed' | 'run' | 'busy'> {
	for (let waited = 0; ; waited += COPY_POLL_MS) {
		const claimed = claim(key, id, res);
		if (claimed !== 'busy' || waited >= COPY_WAIT_MS) return claimed;
		await sleep(COPY_POLL_MS);
	}
}
