// A poller for the Status Trigger suites: polls through the engine harness against a sandbox and keeps the
// static data between polls, like an active workflow (a failed poll keeps the last good one, as n8n does).
import type { Json, PollRun, Sandbox } from '../support';
import { credentialsFor, harness } from '../support';

export function poller(sb: Sandbox, parameters: Json = { events: ['*', 'document.created'] }) {
	let staticData: unknown;
	return {
		async poll(extra: Json = {}): Promise<PollRun> {
			const run = await harness.runPoll({ parameters: { ...parameters, ...extra }, credentials: credentialsFor(sb), staticData });
			if (!run.error) staticData = run.staticData;
			return run;
		},
		get staticData(): Json {
			return staticData;
		},
		set staticData(value: Json) {
			staticData = value;
		},
		/** The node's own state in the static data. */
		get state(): Json {
			return (staticData as Json)?.['node:eSign Status Trigger'];
		},
	};
}
