// Reading a delivery's timestamp (nodes/ESignTrigger/timestamps.ts): the forms real sites send, and what is refused.
import { deliveryTime, isValidTimeZone } from '../../../nodes/ESignTrigger/timestamps';

describe('deliveryTime', () => {
	test('ISO 8601 with a zone: Z, ±hh:mm, ±hhmm, ±hh, fractions; the Site Time Zone does not apply', () => {
		const at = Date.UTC(2024, 0, 20, 15, 30, 45);
		for (const zone of ['UTC', 'Europe/Berlin']) {
			expect(deliveryTime('2024-01-20T15:30:45Z', zone)).toBe(at);
			expect(deliveryTime('2024-01-20t15:30:45z', zone)).toBe(at);
			expect(deliveryTime('2024-01-20T17:30:45+02:00', zone)).toBe(at);
			expect(deliveryTime('2024-01-20T10:00:45-05:30', zone)).toBe(at);
			expect(deliveryTime('2024-01-20T17:30:45+0200', zone)).toBe(at);
			expect(deliveryTime('2024-01-20T17:30:45+02', zone)).toBe(at);
			expect(deliveryTime('2024-01-20T15:30:45.250Z', zone)).toBe(at + 250);
			expect(deliveryTime('2024-01-20 15:30:45.5 +00:00', zone)).toBe(at + 500);
		}
	});

	test("the spec's wall-clock form (and with a T or fractions) is read in the Site Time Zone, across daylight saving", () => {
		expect(deliveryTime('2026-07-01 12:00:00', 'Europe/Berlin')).toBe(Date.UTC(2026, 6, 1, 10, 0, 0));
		expect(deliveryTime('2026-01-01 12:00:00', 'Europe/Berlin')).toBe(Date.UTC(2026, 0, 1, 11, 0, 0));
		expect(deliveryTime('2026-11-22T10:00:00', 'UTC')).toBe(Date.UTC(2026, 10, 22, 10, 0, 0));
		expect(deliveryTime(' 2026-11-22 10:00:00.125 ', 'America/New_York')).toBe(Date.UTC(2026, 10, 22, 15, 0, 0) + 125);
		expect(deliveryTime('2026-11-22 10:00:00', 'Mars/Olympus')).toBeUndefined();
	});

	test('Unix time: seconds (10 digits) or milliseconds (13 digits), as a number or digits', () => {
		expect(deliveryTime(1705764645, 'UTC')).toBe(1705764645000);
		expect(deliveryTime('1705764645', 'UTC')).toBe(1705764645000);
		expect(deliveryTime(1705764645123, 'UTC')).toBe(1705764645123);
		expect(deliveryTime('1705764645123', 'UTC')).toBe(1705764645123);
	});

	test('anything else is not read (no guess)', () => {
		for (const value of [
			undefined,
			null,
			'',
			'yesterday',
			'22/11/2026',
			'2026-11-22',
			'2026-02-30 10:00:00',
			'2026-13-01 10:00:00',
			'2026-11-22 24:00:00',
			'2026-11-22 10:60:00',
			'2026-11-22T10:00:00+25:00',
			'2026-11-22T10:00:00+02:75',
			'2026-11-22T10:00:00 PST',
			17,
			-1705764645,
			1705764645.5,
			'17057646450',
			{ at: 1 },
			[1705764645],
		]) {
			expect(deliveryTime(value, 'UTC')).toBeUndefined();
		}
	});
});

test('isValidTimeZone', () => {
	expect(isValidTimeZone('Europe/Berlin')).toBe(true);
	expect(isValidTimeZone('UTC')).toBe(true);
	expect(isValidTimeZone('Mars/Olympus')).toBe(false);
});
