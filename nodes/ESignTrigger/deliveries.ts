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
/** Members the trigger adds to its item; not part of what the site sent. */
export const ADDED_MEMBERS = ['receivedAt', 'headers', 'downloadError'];

/**
 * Events that happen once per document (the spec's two events): an identical body of one of them is always the
 * same occurrence. Other events (a signer viewing twice, say) can recur with identical bodies when the site adds
 * no time or id, so for them identical content alone proves nothing.
 */
const ONCE_PER_DOCUMENT = new Set(['document.completed', 'document.declined']);
/** A time in a body: the spec's `YYYY-MM-DD HH:MM:SS`, or ISO 8601 (T, fractions, zone). */
const TIME_TEXT = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}/;
/**
 * Top-level members that name one occurrence (the spec shows none). Not `webhook_id`: WPsigner's docs call it a
 * "unique webhook delivery ID" but show `wh_abc123`, the form of a webhook (endpoint) id that every delivery to one
 * URL shares; taken as an occurrence id it would make identical bodies of different occurrences one
 * (docs/reference.md → Repeated deliveries).
 */
const OCCURRENCE_ID_KEYS = new Set(['id', 'delivery_id', 'event_id', 'uuid', 'nonce']);

const shortHash = (text: string | Uint8Array) => createHash('sha256').update(text).digest().subarray(0, 12).toString('base64url');

/** What the site sent, as the trigger's item carries it: the item's JSON without the members the trigger adds. */
function sentContent(json: IDataObject): IDataObject {
	const content: IDataObject = {};
	for (const [key, value] of Object.entries(json)) if (!ADDED_MEMBERS.includes(key)) content[key] = value;
	return content;
}

/**
 * The id a delivery is remembered by: of what the site sent (event, data and the other members), read from the
 * item itself, so the run that records it (in a queue-mode worker too) computes the same id as the webhook call
 * that checks it. Identical bodies give identical ids; JSON keeps member order through n8n's storage.
 */
export function occurrenceId(json: IDataObject): string {
	return shortHash(JSON.stringify(sentContent(json)));
}

/** The id of the exact bytes, as releases up to 0.1.0 remembered deliveries: still recognised, never written. */
export function bytesId(rawBody: Uint8Array): string {
	return shortHash(rawBody);
}

/**
 * Whether identical content means the same occurrence: the event happens once per document, or the body carries
 * a time (top level or data) or an occurrence id. Bodies exactly as the spec shows them ({event, data}) qualify
 * for the spec's two events; any event qualifies on a site that adds a timestamp or an id.
 */
export function identifiesOneOccurrence(json: IDataObject): boolean {
	const { event, data, ...rest } = sentContent(json);
	if (typeof event === 'string' && ONCE_PER_DOCUMENT.has(event)) return true;
	const hasTime = (object: unknown) =>
		typeof object === 'object' && object !== null && Object.values(object).some((value) => typeof value === 'string' && TIME_TEXT.test(value));
	const hasId = Object.entries(rest).some(
		([key, value]) => OCCURRENCE_ID_KEYS.has(key.toLowerCase()) && (typeof value === 'number' || (typeof value === 'string' && value !== '')),
	);
	return hasId || hasTime(rest) || hasTime(data);
}

/** The ids in the node's static data, oldest first (the earlier format migrated on read). */
export function storedIds(staticData: IDataObject): string[] {
	const value = staticData[STORE_KEY];
	if (typeof value === 'string') {
		const ids: string[] = [];
		for (let i = 0; i + ID_LENGTH <= value.length; i += ID_LENGTH) ids.push(value.slice(i, i + ID_LENGTH));
		return ids;
	}
	const old = staticData[OLD_STORE_KEY];
	if (!Array.isArray(old)) return [];
	// Each old hash's first 12 bytes are the bytes id of the same delivery.
	return old
		.filter((hash): hash is string => typeof hash === 'string' && /^[0-9a-f]{64}$/.test(hash))
		.map((hash) => Buffer.from(hash, 'hex').subarray(0, 12).toString('base64url'));
}

/**
 * Records ids in the node's static data, the oldest falling off past REMEMBERED_DELIVERIES. `known` is what this
 * process knows, oldest first (the run's own id last); the stored ids are what the last save kept. An id not stored
 * yet takes its age from `known`: it goes just before the first stored id that `known` has after it, or last when
 * `known` has none after it. So ids this process knew long ago, which the store has since let fall off, never push
 * out newer ones (runs on other workers save their own copies; the last save wins). Assigned at the top level, so
 * n8n marks the static data as changed and saves it when the run ends.
 */
export function remember(staticData: IDataObject, known: readonly string[]): void {
	const stored = storedIds(staticData);
	const isStored = new Set(stored);
	const before = new Map<string, string[]>();
	const placed = new Set<string>();
	let waiting: string[] = [];
	for (const id of known) {
		if (isStored.has(id)) {
			if (waiting.length) before.set(id, [...(before.get(id) ?? []), ...waiting]);
			waiting = [];
		} else if (!placed.has(id)) {
			placed.add(id);
			waiting.push(id);
		}
	}
	// Nothing new, and already in today's format: leave the static data unchanged (n8n then has nothing to save).
	if (placed.size === 0 && typeof staticData[STORE_KEY] === 'string') return;
	const kept = stored.flatMap((id) => [...(before.get(id) ?? []), id]).concat(waiting);
	staticData[STORE_KEY] = kept.slice(-REMEMBERED_DELIVERIES).join('');
	delete staticData[OLD_STORE_KEY];
}
