// Every format the eSign Status Trigger has stored in a workflow's static data, written by copies of the writers
// of the time (from git history: `git log -p -- nodes/ESignStatusTrigger/state.ts`), so the upgrade tests feed the
// reader exactly what a saved workflow holds, whatever today's writer becomes. CONTRIBUTING.md → Versioning policy.
import type { IDataObject } from 'n8n-workflow';

import type { PollState } from '../../nodes/ESignStatusTrigger/state';

const CODE: Record<string, string> = { draft: 'd', sent: 's', viewed: 'v' };
const SIGNER_CODE: Record<string, string> = { viewed: 'v', signed: 's', declined: 'x' };

export interface StateFormat {
	name: string;
	/** Writes `state` as that version of the node did; `leftOut`: counts its /stats lacked (stored as NaN until aa0059f). */
	write(state: PollState, leftOut?: string[]): IDataObject;
}

/** 7dea718 (2026-11-22) to before 37f0926: no signer statuses; until aa0059f a count the site left out was NaN. */
const format1: StateFormat = {
	name: 'format 1 (7dea718, 2026-11-22): ids, statuses, counts, polls',
	write(state, leftOut = []) {
		const data: IDataObject = {};
		data.v = 1;
		data.maxId = state.maxId;
		data.counts = { ...state.counts, ...Object.fromEntries(leftOut.map((key) => [key, NaN])) };
		data.open = [...state.open].map(([id, status]) => id + CODE[status]).join(',');
		data.polls = state.polls;
		return data;
	},
};

/** 37f0926 (2026-11-23) to today (0.1.0): format 1 plus the signer statuses while signer events are chosen. */
const format1Signers: StateFormat = {
	name: 'format 1 with signers (37f0926, 2026-11-23; 0.1.0)',
	write(state) {
		const data = format1.write(state);
		if (state.signers) {
			data.signers = [...state.signers]
				.flatMap(([doc, ofDoc]) => [...ofDoc].map(([signer, status]) => `${doc}.${signer}${SIGNER_CODE[status]}`))
				.join(',');
		}
		return data;
	},
};

export const STATE_FORMATS: StateFormat[] = [format1, format1Signers];

/** What n8n does to static data between polls: saves it as JSON and reads it back (a NaN becomes null). */
export const asSaved = (data: IDataObject): IDataObject => JSON.parse(JSON.stringify(data)) as IDataObject;
