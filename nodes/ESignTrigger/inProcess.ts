import { sleep } from 'n8n-workflow';

import { REMEMBERED_DELIVERIES } from './deliveries';

/**
 * What this n8n process knows about the deliveries it accepted, per workflow and trigger node ("key"), between the
 * webhook call that accepts a delivery and the end of its run, when n8n saves the id the run recorded in the
 * workflow's static data. A cache only: static data stays the record, and another process's deliveries are not
 * seen here (docs/triggers.md → Repeated deliveries).
 *
 * - `runs`: ids whose run exists: n8n answered the accepting call 2xx (n8n 2.x answers after it created the run;
 *   1.x before, see docs/triggers.md) or the run itself started in this process.
 * - `pending`: ids handed to n8n whose answer is not known yet, with the response n8n will answer them on.
 */

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

const runs = new Map<string, string[]>();
const pending = new Map<string, { key: string; id: string; res: AnsweredResponse }>();

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

type Outcome = 'run' | 'refused' | 'unknown';

/** n8n's answer to a delivery handed to it: 2xx means the run exists (2.x); anything else, that it does not. */
function outcomeOf(res: AnsweredResponse): Outcome {
	if (res.writableEnded !== true) return 'unknown';
	const status = Number(res.statusCode);
	return status >= 200 && status < 300 ? 'run' : 'refused';
}

/** Settles a pending delivery from its answer, once n8n has answered it (to a caller who may have left). */
function settle(key: string, id: string): Outcome {
	const entry = pending.get(pendingKey(key, id));
	if (!entry) return 'unknown';
	const outcome = outcomeOf(entry.res);
	if (outcome === 'run') runExists(key, id);
	else if (outcome === 'refused') pending.delete(pendingKey(key, id));
	return outcome;
}

/**
 * Claims a delivery for this call, which will hand it to n8n and be answered on `res`: 'claimed' (go ahead), 'run'
 * (its run exists already: a repeat) or 'busy' (another call of this process is handing the same delivery to n8n
 * and n8n has not answered it yet). Synchronous, so two copies never both claim. n8n answers after the call
 * returns; the answer is read when it ends ('finish'), or later, on demand, when the caller left before it (Node then
 * emits nothing more).
 */
function claim(key: string, id: string, res: AnsweredResponse): 'claimed' | 'run' | 'busy' {
	if (recentRuns(key).includes(id)) return 'run';
	const outcome = settle(key, id);
	if (outcome === 'run') return 'run';
	if (pending.has(pendingKey(key, id))) return 'busy';
	pending.set(pendingKey(key, id), { key, id, res });
	res.once?.('finish', () => settle(key, id));
	if (pending.size > MAX_PENDING) {
		const [oldest, entry] = pending.entries().next().value as [string, { key: string; id: string }];
		if (settle(entry.key, entry.id) === 'unknown') pending.delete(oldest);
	}
	return 'claimed';
}

/**
 * Claims a delivery (above); while another call is handing the same one to n8n, waits a little for n8n's answer to
 * it: its run exists → 'run'; n8n refused it → this call claims it. Still no answer → 'busy' (send again later).
 */
export async function claimDelivery(key: string, id: string, res: AnsweredResponse): Promise<'claimed' | 'run' | 'busy'> {
	for (let waited = 0; ; waited += COPY_POLL_MS) {
		const claimed = claim(key, id, res);
		if (claimed !== 'busy' || waited >= COPY_WAIT_MS) return claimed;
		await sleep(COPY_POLL_MS);
	}
}
