// A poller for the Status Trigger suites: polls through the engine harness against a sandbox and keeps the
// static data between polls, like an active workflow (a failed poll keeps the last good one, as n8n does).
import type { Json, PollRun, Sandbox } from '../support';
import { credentialsFor, harness } from '../support';

let pollers = 0;

export function poller(sb: Sandbox, parameters: Json = { events: ['*', 'document.created'] }) {
	let staticData: unknown;
	// One active workflow: its id stays the same from poll to poll, as in n8n.
	const workflowId = `harness-poller-${++pollers}`;
	return {
		async poll(extra: Json = {}): Promise<PollRun> {
			const run = await harness.runPoll({ parameters: { ...parameters, ...extra }, credentials: credentialsFor(sb), staticData, workflowId });
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
