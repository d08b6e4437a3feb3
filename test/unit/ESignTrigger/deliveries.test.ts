// The ids the eSign Trigger remembers deliveries by (nodes/ESignTrigger/deliveries.ts): computed alike in the webhook
// call that checks a delivery and in the run that records it, from the item alone.
import * as crypto from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { REMEMBERED_DELIVERIES, bytesId, identifiesOneOccurrence, occurrenceId, remember, storedIds } from '../../../nodes/ESignTrigger/deliveries';

const sent = { event: 'document.completed', data: { document_id: '7', document_title: 'Lease' }, timestamp: '2026-11-26 10:00:00' };
/** Computed here on its own: base64url of the first 12 bytes of SHA-256 over the sent content as compact JSON. */
const expectedId = (content: object) => crypto.createHash('sha256').update(JSON.stringify(content)).digest().subarray(0, 12).toString('base64url');

describe('occurrenceId', () => {
	test('is of what the site sent: the members the trigger adds do not change it', () => {
		const id = occurrenceId({ ...sent });
		expect(id).toBe(expectedId(sent));
		expect(id).toHaveLength(16);
		const item = { event: sent.event, data: sent.data, receivedAt: '2026-11-26T10:00:01.000Z', timestamp: sent.timestamp, headers: { a: '1' }, downloadError: 'x' };
		expect(occurrenceId(item)).toBe(id);
	});

	test('survives n8n storing the item (a JSON round trip, as a queue-mode worker reads it back)', () => {
		const item = { event: sent.event, data: sent.data, receivedAt: 'now', timestamp: sent.timestamp, metadata: { n: 1.5, list: [1, 'two'] } };
		expect(occurrenceId(JSON.parse(JSON.stringify(item)))).toBe(occurrenceId(item));
	});

	test('differs for any other content', () => {
		expect(occurrenceId({ ...sent, timestamp: '2026-11-26 10:00:01' })).not.toBe(occurrenceId(sent));
		expect(occurrenceId({ ...sent, data: { ...sent.data, document_id: '8' } })).not.toBe(occurrenceId(sent));
	});

	test('bytesId is of the exact bytes (how releases up to 0.1.0 remembered deliveries)', () => {
		const raw = Buffer.from('{ "event": "document.completed" }');
		expect(bytesId(raw)).toBe(crypto.createHash('sha256').update(raw).digest().subarray(0, 12).toString('base64url'));
	});
});

describe('identifiesOneOccurrence', () => {
	test.each([
		[{ event: 'document.completed', data: {} }, true],
		[{ event: 'document.declined', data: {} }, true],
		[{ event: 'document.viewed', data: { document_id: 4 } }, false],
		[{ event: 'document.viewed', data: { document_id: 4 }, timestamp: '2024-01-20T15:30:45Z' }, true],
		[{ event: 'document.viewed', data: { viewed_at: '2026-11-24 10:00:00' } }, true],
		[{ event: 'document.viewed', data: {}, delivery_id: 'd-1' }, true],
		[{ event: 'document.viewed', data: {}, event_id: 12 }, true],
		// WPsigner's webhook_id names the webhook, shared by every delivery to one URL: not one occurrence.
		[{ event: 'signer.viewed', data: {}, webhook_id: 'wh_abc123' }, false],
		[{ event: 'document.viewed', data: {}, delivery_id: '' }, false],
		// What the trigger adds to its item is not what the site sent.
		[{ event: 'document.viewed', data: {}, receivedAt: '2026-11-26T10:00:00.000Z' }, false],
	])('%j → %s', (json, expected) => {
		expect(identifiesOneOccurrence(json)).toBe(expected);
	});
});

describe('remember', () => {
	test('appends new ids after those stored, keeps each once, and keeps the last 200', () => {
		const staticData: IDataObject = {};
		const ids = Array.from({ length: REMEMBERED_DELIVERIES + 5 }, (_, i) => `id${String(i).padStart(14, '0')}`);
		remember(staticData, ids.slice(0, 3));
		remember(staticData, [ids[1], ids[3]]);
		expect(storedIds(staticData)).toEqual(ids.slice(0, 4));
		remember(staticData, ids);
		expect(storedIds(staticData)).toEqual(ids.slice(5));
		expect(String(staticData.acceptedIds)).toHaveLength(REMEMBERED_DELIVERIES * 16);
	});

	test('ids this process knew long ago never push newer stored ones out (a worker after a burst split with another)', () => {
		const ids = Array.from({ length: 400 }, (_, i) => `id${String(i).padStart(14, '0')}`);
		const earlier = ids.slice(0, 200); // runs this worker executed before the burst, since fallen off the store
		const burst = ids.slice(200, 399);
		const mine = burst.filter((_, i) => i % 2 === 0); // this worker ran half of the burst
		const staticData: IDataObject = { acceptedIds: burst.join('') }; // the store holds the whole burst
		const next = ids[399];
		remember(staticData, [...earlier, ...mine, next]);
		expect(storedIds(staticData)).toEqual([...burst, next]);
	});

	test('an id the store does not have yet keeps its place among those it has: after the last it knows, else last', () => {
		const staticData: IDataObject = { acceptedIds: ['aaaaaaaaaaaaaaaa', 'cccccccccccccccc', 'eeeeeeeeeeeeeeee'].join('') };
		remember(staticData, ['bbbbbbbbbbbbbbbb', 'cccccccccccccccc', 'dddddddddddddddd', 'eeeeeeeeeeeeeeee', 'ffffffffffffffff']);
		expect(storedIds(staticData)).toEqual(['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 'cccccccccccccccc', 'dddddddddddddddd', 'eeeeeeeeeeeeeeee', 'ffffffffffffffff']);
	});

	test('changes nothing when it has nothing new to add (n8n then has nothing to save)', () => {
		const staticData: IDataObject = { acceptedIds: 'aaaaaaaaaaaaaaaa' };
		const changes: string[] = [];
		const watched = new Proxy(staticData, { set: (target, key, value) => (changes.push(String(key)), Reflect.set(target, key, value)) });
		remember(watched, ['aaaaaaaaaaaaaaaa']);
		remember(watched, []);
		expect(changes).toEqual([]);
		remember(watched, ['bbbbbbbbbbbbbbbb']);
		expect(changes).toEqual(['acceptedIds']);
	});

	test('replaces the earlier store (hex hashes), keeping its ids as bytes ids', () => {
		const raw = Buffer.from('old body');
		const staticData: IDataObject = { acceptedDeliveries: [crypto.createHash('sha256').update(raw).digest('hex'), 'junk'] };
		expect(storedIds(staticData)).toEqual([bytesId(raw)]);
		remember(staticData, ['newid0000000000a']);
		expect(staticData).toEqual({ acceptedIds: `${bytesId(raw)}newid0000000000a` });
	});
});
