// What one n8n process knows about the deliveries it handed to n8n (nodes/ESignTrigger/inProcess.ts): copies are
// claimed once, a 2xx from n8n counts as a run only where n8n answers after creating it, a refusal frees the delivery.
import { claimDelivery, n8nLine, recentRuns, runExists } from '../../../nodes/ESignTrigger/inProcess';

/** n8n's response to a webhook call, as Node's ServerResponse reports it: ended once answered, 'finish' if the caller stayed. */
class Answer {
	statusCode = 200;
	writableEnded = false;
	private finished: Array<() => void> = [];
	once(event: 'finish' | 'close', listener: () => void) {
		if (event === 'finish') this.finished.push(listener);
		return this;
	}
	answer(status: number, callerLeft = false) {
		this.statusCode = status;
		this.writableEnded = true;
		if (!callerLeft) for (const listener of this.finished.splice(0)) listener();
	}
}

let n = 0;
const key = () => `wf-${++n}/node`;

/**
 * `claim` run on jest's clock, moved on past the longest wait (a copy waits up to 2 s), so the waits take no real
 * time; a claim still waiting then would be a failure, not a hang.
 */
async function onJestClock<T>(claim: () => Promise<T>): Promise<T | 'still waiting'> {
	jest.useFakeTimers();
	try {
		let outcome: T | 'still waiting' = 'still waiting';
		const claimed = claim().then((value) => (outcome = value));
		await jest.advanceTimersByTimeAsync(3_000);
		await Promise.race([claimed, Promise.resolve()]);
		return outcome;
	} finally {
		jest.useRealTimers();
	}
}

describe('on n8n 2.8 and later (a 2xx is given once the run exists)', () => {
	test('the first call claims a delivery; a copy while n8n has not answered waits, then is a repeat once n8n answers 2xx', async () => {
		const k = key();
		const first = new Answer();
		expect(await claimDelivery(k, 'id-1', first)).toBe('claimed');
		const copy = claimDelivery(k, 'id-1', new Answer());
		first.answer(200);
		expect(await copy).toBe('run');
		expect(recentRuns(k)).toEqual(['id-1']);
		expect(await claimDelivery(k, 'id-1', new Answer())).toBe('run');
	});

	test('a refusal (5xx) frees the delivery: the next copy claims it, and nothing is recorded', async () => {
		const k = key();
		const first = new Answer();
		await claimDelivery(k, 'id-2', first);
		first.answer(500);
		expect(await claimDelivery(k, 'id-2', new Answer())).toBe('claimed');
		expect(recentRuns(k)).toEqual([]);
	});

	test("an answer to a caller who left is still read (Node emits nothing then)", async () => {
		const k = key();
		const first = new Answer();
		await claimDelivery(k, 'id-3', first);
		first.answer(200, true);
		expect(await claimDelivery(k, 'id-3', new Answer())).toBe('run');
	});

	test('still unanswered after the wait: busy (the caller is told to send it again later)', async () => {
		const k = key();
		await claimDelivery(k, 'id-4', new Answer());
		expect(await onJestClock(() => claimDelivery(k, 'id-4', new Answer()))).toBe('busy');
	});

	test('another delivery, or another trigger, is not affected', async () => {
		const k = key();
		await claimDelivery(k, 'id-5', new Answer());
		expect(await claimDelivery(k, 'id-6', new Answer())).toBe('claimed');
		expect(await claimDelivery(key(), 'id-5', new Answer())).toBe('claimed');
	});
});

describe('on n8n before 2.8, 1.x included (a 2xx comes before the run exists)', () => {
	beforeEach(() => (n8nLine.answerProvesRun = false));
	afterEach(() => (n8nLine.answerProvesRun = true));

	test('a 2xx proves nothing: a copy becomes a repeat only when the run starts in this process', async () => {
		const k = key();
		const first = new Answer();
		await claimDelivery(k, 'id-7', first);
		first.answer(200);
		expect(recentRuns(k)).toEqual([]);
		const copy = claimDelivery(k, 'id-7', new Answer());
		runExists(k, 'id-7'); // the run's own step (run.ts)
		expect(await copy).toBe('run');
	});

	test('a 2xx not followed by its run here: the copy goes ahead after a short wait (a run n8n failed to create is never a repeat)', async () => {
		const k = key();
		const first = new Answer();
		await claimDelivery(k, 'id-8', first);
		first.answer(200);
		expect(await onJestClock(() => claimDelivery(k, 'id-8', new Answer()))).toBe('claimed');
		expect(recentRuns(k)).toEqual([]);
	});
});

test('the line is told by the n8n-workflow that runs the node (2.41 here)', () => {
	expect(n8nLine.answerProvesRun).toBe(true);
});
