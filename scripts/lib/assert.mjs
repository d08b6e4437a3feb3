// A failed expectation in the test scripts. Its own module so that a check's helpers (textTags.mjs) and the script
// frame and expectations (expectations.mjs, which uses those helpers) share it without importing each other.

/** A failed expectation: the script frame reports it by its message alone (other errors with their stack). */
export class CheckError extends Error {}

export function assert(cond, msg) {
	if (!cond) throw new CheckError(msg);
}
