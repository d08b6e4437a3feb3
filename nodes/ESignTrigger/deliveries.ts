import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** How many accepted deliveries are remembered to recognise repeats (hashes only, never bodies). */
export const REMEMBERED_DELIVERIES = 1000;

/** SHA-256 of the exact bytes of a delivery. */
export function deliveryHash(rawBody: Uint8Array): string {
	return createHash('sha256').update(rawBody).digest('hex');
}

/** The remembered hashes in the node's static data, tolerating anything a corrupt state may hold. */
function remembered(staticData: IDataObject): string[] {
	const list = staticData.acceptedDeliveries;
	return Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string') : [];
}

export function isRepeat(staticData: IDataObject, hash: string): boolean {
	return remembered(staticData).includes(hash);
}

/** Remembers an accepted delivery; the oldest fall off past REMEMBERED_DELIVERIES. */
export function remember(staticData: IDataObject, hash: string): void {
	// A new array assigned at the top level, so n8n marks the static data as changed and saves it.
	staticData.acceptedDeliveries = [...remembered(staticData), hash].slice(-REMEMBERED_DELIVERIES);
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
