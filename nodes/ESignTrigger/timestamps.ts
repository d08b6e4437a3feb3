/**
 * Reading a delivery's `timestamp` (the spec shows none in webhook bodies; sites that send one differ):
 * - ISO 8601 with a zone, `2024-01-20T15:30:45Z` or `…+02:00` / `…+0200`, fractions allowed (WPsigner's bodies);
 * - a wall-clock time without a zone, the spec's `YYYY-MM-DD HH:MM:SS` (a T or fractions allowed), read in the
 *   site's time zone;
 * - Unix time, as a number or digits: seconds (10 digits) or milliseconds (13 digits).
 */
const TIME =
	/^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** The instant a delivery's timestamp stands for (ms since the epoch), or undefined when it cannot be read. */
export function deliveryTime(value: unknown, timeZone: string): number | undefined {
	if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value.trim()))) return unixTime(Number(value));
	if (typeof value !== 'string') return undefined;
	const match = TIME.exec(value.trim());
	if (!match) return undefined;
	const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
	const fraction = match[7] ? Number(`0.${match[7]}`) * 1000 : 0;
	const wall = Date.UTC(year, month - 1, day, hour, minute, second);
	const back = new Date(wall);
	// Date.UTC rolls 2024-02-30 over into March: a date that does not exist is not read.
	if (!Number.isFinite(wall) || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
		return undefined;
	}
	const zone = match[8];
	if (zone === undefined) {
		const instant = siteTimeToEpoch(wall, timeZone);
		return instant === undefined ? undefined : instant + fraction;
	}
	if (zone.toUpperCase() === 'Z') return wall + fraction;
	const [, sign, hours, minutes = '0'] = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone) ?? [];
	if (Number(hours) > 23 || Number(minutes) > 59) return undefined;
	const offset = (Number(hours) * 60 + Number(minutes)) * 60000;
	return wall - (sign === '-' ? -offset : offset) + fraction;
}

function unixTime(value: number): number | undefined {
	if (!Number.isInteger(value) || value <= 0) return undefined;
	const digits = String(value).length;
	if (digits === 10) return value * 1000;
	if (digits === 13) return value;
	return undefined;
}

/**
 * The instant a wall-clock time (its fields read as UTC: `wall`) stands for in `timeZone`, or undefined when the
 * time zone is not valid. Uses the platform's time-zone data (Intl).
 */
function siteTimeToEpoch(wall: number, timeZone: string): number | undefined {
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
