// eSign Status Trigger across an upgrade: the state the last poll before it stored, in every format the node has
// written (test/support/stateFormats.ts; today's own is in statusTrigger.test.ts), is migrated, not reset, so a change made on the site between that poll and the first one after the
// upgrade is reported, exactly once. Polls run through n8n-core's PollContext against the sandbox; the static data
// goes through n8n's JSON round trip. CONTRIBUTING.md → Versioning policy → Stored state.
import type { IDataObject } from 'n8n-workflow';

import type { PollState } from '../../nodes/ESignStatusTrigger/state';
import { readState } from '../../nodes/ESignStatusTrigger/state';
import type { Json } from '../support';
import { control, useSandbox } from '../support';
import { STATE_FORMATS, asSaved } from '../support/stateFormats';
import { poller } from './poller';

const sb = useSandbox();
const NODE_KEY = 'node:eSign Status Trigger';

const seed = async (status: string, count = 1): Promise<string[]> =>
	(await control<{ ids: string[] }>(sb, 'POST', '/__sandbox/seed/documents', { status, count })).ids;

async function tokens(documentId: string): Promise<string[]> {
	const signers = await control<Json[]>(sb, 'GET', `/__sandbox/signers?document_id=${documentId}`);
	return signers.map((s: Json) => s.token);
}

async function sign(token: string): Promise<void> {
	await control(sb, 'POST', `/__sandbox/sign/${token}/view`);
	await control(sb, 'POST', `/__sandbox/sign/${token}/sign`);
}

const events = (items: Json[]) => items.map((i) => `${i.json.event} ${i.json.document.id} ${i.json.previousStatus}`);

/**
 * The last poll before the upgrade: today's code records the site (a sent document, a draft) and stores its state.
 * Resolves that state as the node stored it, and the sent document.
 */
async function before(parameters: Json) {
	const [sent] = await seed('sent');
	await seed('draft', 2);
	const old = poller(sb, parameters);
	const first = await old.poll();
	expect(first.error).toBeUndefined();
	expect(first.output).toBeNull();
	return { stored: old.state as IDataObject, sent };
}

/** The first polls after the upgrade, from `data` stored as the workflow's static data. */
function after(parameters: Json, data: IDataObject) {
	const p = poller(sb, parameters);
	p.staticData = { [NODE_KEY]: asSaved(data) };
	return p;
}

describe('eSign Status Trigger: a state stored before an upgrade keeps reporting changes', () => {
	const parameters = { events: ['document.completed'] };

	test.each(STATE_FORMATS.map((format) => [format.name, format] as const))('%s: migrated, the change made in between reported once', async (_name, format) => {
		const { stored, sent } = await before(parameters);
		// The same moment as that version of the node would have stored it; one count its /stats lacked (NaN then).
		const state = readState(stored).state as PollState;
		const old = format.write(state, ['deleted']);
		for (const token of await tokens(sent)) await sign(token);

		const p = after(parameters, old);
		const run = await p.poll();
		expect(run.error).toBeUndefined();
		expect(run.warnings).toEqual([]);
		expect(events(run.items)).toEqual([`document.completed ${sent} sent`]);
		// Stored in today's format from then on.
		expect(readState(p.state as IDataObject)).toEqual({ state: expect.objectContaining({ maxId: state.maxId }) });
		expect((await p.poll()).output).toBeNull();
	});

	test('format 1 with signers: a signer who signed in between is reported once (the signer statuses were migrated)', async () => {
		const withSigners = { events: ['signer.signed', 'document.completed'] };
		const [sent] = await seed('sent');
		const old = poller(sb, withSigners);
		expect((await old.poll()).output).toBeNull();
		const format = STATE_FORMATS[STATE_FORMATS.length - 1];
		const stored = format.write(readState(old.state as IDataObject).state as PollState);
		expect(typeof stored.signers).toBe('string');
		const signers = await control<Json[]>(sb, 'GET', `/__sandbox/signers?document_id=${sent}`);
		await sign(signers[0].token);

		const p = after(withSigners, stored);
		const run = await p.poll();
		expect(run.warnings).toEqual([]);
		const got = run.items.map((i) => `${i.json.event} ${i.json.document.id} ${i.json.signer?.id ?? '-'}`);
		const completed = signers.length === 1 ? [`document.completed ${sent} -`] : [];
		expect(got).toEqual([`signer.signed ${sent} ${signers[0].id}`, ...completed]);
		expect((await p.poll()).output).toBeNull();
	});
});

describe('eSign Status Trigger: a state it cannot read in full', () => {
	const parameters = { events: ['document.completed', 'document.created'] };

	test('an unknown version: what still reads is kept, the change made in between and a new document are reported once, with a warning', async () => {
		const { stored, sent } = await before(parameters);
		for (const token of await tokens(sent)) await sign(token);
		const [created] = await seed('draft');

		const p = after(parameters, { ...stored, v: 99, counts: 'unreadable' });
		const run = await p.poll();
		expect(run.error).toBeUndefined();
		expect(run.warnings).toHaveLength(1);
		expect(run.warnings[0]).toMatch(/could not be read in full because it has an unknown format \(version 99\), its counts are missing\. It goes on from what could be read, the highest id \(\d+\) and 3 open documents/);
		expect(events(run.items).sort()).toEqual([`document.completed ${sent} sent`, `document.created ${created} null`].sort());
		expect((p.state as IDataObject).v).toBe(1);
		expect((await p.poll()).output).toBeNull();
	});
});
