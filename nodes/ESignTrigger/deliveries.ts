import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** How many accepted deliveries are remembered to recognise repeats (short ids only, never bodies). */
export const REMEMBERED_DELIVERIES = 200;
/** Characters per remembered id: base64url of the first 12 bytes of SHA-256 (96 bits, ~3.2 KB for 200). */
const ID_LENGTH = 16;
/** Static-data key of the remembered ids: one string of ids, oldest first. */
const STORE_KEY = 'acceptedIds';
/** The format before 0.1.0's first release: an array of 64-hex SHA-256 hashes (read, then replaced). */
const OLD_STORE_KEY = 'acceptedDeliveries';

/**
 * Events that happen once per document (the spec's two events): a byte-identical body of one of them is
 * always the same occurrence. Other events (a signer viewing twice, say) can recur with identical bodies
 * when the site adds no time or id, so for them identical bytes alone prove nothing.
 */
const ONCE_PER_DOCUMENT = new Set(['document.completed', 'document.declined']);
/** The spec's timestamp format, `YYYY-MM-DD HH:MM:SS` (ISO's T accepted too). */
const TIME_TEXT = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}/;
/** Top-level members a site may add to name one delivery (not shown by the spec; any one of them will do). */
const DELIVERY_ID_KEYS = new Set(['id', 'delivery_id', 'event_id', 'webhook_id', 'uuid', 'nonce']);

/** The short id a delivery is remembered by: of the exact bytes received. */
export function deliveryId(rawBody: Uint8Array): string {
	return createHash('sha256').update(rawBody).digest().subarray(0, 12).toString('base64url');
}

/**
 * Whether identical bytes mean the same occurrence: the event happens once per document, or the body carries
 * a time (top level or data) or a delivery id. Bodies exactly as the spec shows them ({event, data}) qualify
 * for the spec's two events; any event qualifies on a site that adds a timestamp or an id.
 */
export function identifiesOneOccurrence(event: string, data: unknown, rest: IDataObject): boolean {
	if (ONCE_PER_DOCUMENT.has(event)) return true;
	const hasTime = (object: unknown) =>
		typeof object === 'object' && object !== null && Object.values(object).some((value) => typeof value === 'string' && TIME_TEXT.test(value));
	const hasId = Object.entries(rest).some(([key, value]) => DELIVERY_ID_KEYS.has(key.toLowerCase()) && (typeof value === 'number' || (typeof value === 'string' && value !== '')));
	return hasId || hasTime(rest) || hasTime(data);
}

/**
 * Ids this process accepted lately, per workflow and trigger node. In one n8n process (single mode, or one
 * webhook processor) webhook calls run side by side, each with its own copy of the static data, and the last
 * to be saved wins: merging these in on every write keeps the others' ids. A cache only: static data stays the
 * record, and another process's concurrent copies are not seen (docs/triggers.md → Repeated deliveries).
 */
const recentInProcess = new Map<string, string[]>();
const PROCESS_KEYS = 500;

function stored(staticData: IDataObject): string[] {
	const value = staticData[STORE_KEY];
	if (typeof value === 'string') {
		const ids: string[] = [];
		for (let i = 0; i + ID_LENGTH <= value.length; i += ID_LENGTH) ids.push(value.slice(i, i + ID_LENGTH));
		return ids;
	}
	// The earlier format, migrated on read: each hash's first 12 bytes are the same id.
	const old = staticData[OLD_STORE_KEY];
	if (!Array.isArray(old)) return [];
	return old
		.filter((hash): hash is string => typeof hash === 'string' && /^[0-9a-f]{64}$/.test(hash))
		.map((hash) => Buffer.from(hash, 'hex').subarray(0, 12).toString('base64url'));
}

export function isRepeat(staticData: IDataObject, id: string, processKey?: string): boolean {
	return stored(staticData).includes(id) || (processKey !== undefined && (recentInProcess.get(processKey) ?? []).includes(id));
}

/**
 * Remembers an accepted delivery (with what this process accepted lately); the oldest fall off past
 * REMEMBERED_DELIVERIES. Assigned at the top level, so n8n marks the static data as changed and saves it.
 */
export function remember(staticData: IDataObject, id: string, processKey?: string): void {
	const ids = stored(staticData);
	const seen = new Set(ids);
	for (const recent of processKey === undefined ? [] : (recentInProcess.get(processKey) ?? [])) {
		if (!seen.has(recent)) ids.push(recent);
		seen.add(recent);
	}
	if (!seen.has(id)) ids.push(id);
	const kept = ids.slice(-REMEMBERED_DELIVERIES);
	staticData[STORE_KEY] = kept.join('');
	delete staticData[OLD_STORE_KEY];
	if (processKey !== undefined) {
		recentInProcess.delete(processKey); // re-inserted last: the map's order is its age
		recentInProcess.set(processKey, kept);
		if (recentInProcess.size > PROCESS_KEYS) recentInProcess.delete(recentInProcess.keys().next().value as string);
	}
}

/**
 * The instant a `YYYY-MM-DD HH:MM:SS` wall-clock time in `timeZone` stands for (ms since the epoch), or
 * undefined when the text or the time zone is not valid. Uses the platform's time-zone data (Intl).
 */
export function siteTimeToEpoch(timestamp: unknown, timeZone: string): number | undefined {
	const match = typeof timestamp === 'string' ? /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(timestamp.trim()) : null;
	if (!match) return undefined;
	const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
	const wall = Date.UTC(year, month - 1, day, hour, minute, second);
	if (!Number.isFinite(wall)) return undefined;
	let format: Intl.DateTimeFormat;
	try {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
	} catch {
		return undefined;
	}
	// The zone's offset at an instant: its wall clock there, read as UTC, minus the instant.
	const offsetAt = (instant: number): number => {
		const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
		const asUtc = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
		return asUtc - instant;
	};
	// Twice, so a wall time next to a daylight-saving change lands on the right side of it.
	let instant = wall - offsetAt(wall);
	instant = wall - offsetAt(instant);
	return instant;
}

export function isValidTimeZone(timeZone: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone });
		return true;
	} catch {
		return false;
	}
}
