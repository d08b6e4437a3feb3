import type { ESignContext } from './credentials';
import type { Headers } from './fronts';
import { cachedAnswerHint } from './fronts';

let requestSequence = 0;

/**
 * The value of the `_` query parameter every GET carries, unique per request (time first, so also across
 * restarts): a page or REST cache keyed by URL never holds an answer for it.
 */
export function cacheBuster(): string {
	requestSequence = (requestSequence + 1) % 1000;
	return `${Date.now()}${String(requestSequence).padStart(3, '0')}`;
}

// One warning per node execution (the context object), not one per item or page.
const warned = new WeakSet<object>();

/**
 * A read whose answer still came from a cache (despite the unique `_` parameter) may be stale: say so where
 * the user looks — the output pane's hints in the editor, n8n's log for triggers.
 */
export function warnIfCached(context: ESignContext, endpoint: string, headers: Headers): void {
	const hint = cachedAnswerHint(headers);
	if (!hint || warned.has(context)) return;
	warned.add(context);
	const message = `GET ${endpoint}: ${hint}`;
	if ('addExecutionHints' in context && typeof context.addExecutionHints === 'function') {
		context.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
	}
	context.logger?.warn(`eSign: ${message}`);
}
