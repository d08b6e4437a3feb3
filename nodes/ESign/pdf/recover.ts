import { PdfError } from './read/objects';

/**
 * The reader's one error policy. A reader that falls back (to a scan of the file, a default encoding, a font left as
 * it was) does so only for a PdfError saying the data is damaged or unsupported. A limit always stops the read with
 * its own message (falling back would just spend the budget again elsewhere), and an error that is not a PdfError
 * (a TypeError, a RangeError) is a bug in the reader, never quietly turned into a repair: parsers of file data throw
 * PdfError('damaged') at their own bounds checks.
 */
export function recoverable(error: unknown): error is PdfError {
	return error instanceof PdfError && (error.kind === 'damaged' || error.kind === 'unsupported');
}

/** `work`'s result, or `fallback` when it fails in a way the reader recovers from; any other error propagates. */
export async function orElse<T, F>(work: Promise<T>, fallback: F): Promise<T | F> {
	let failure: unknown;
	try {
		return await work;
	} catch (error) {
		failure = error;
	}
	if (recoverable(failure)) return fallback;
	throw failure;
}

/** The synchronous `orElse`: `work()`, or `fallback` for a damaged or unsupported input. */
export function attempt<T, F>(work: () => T, fallback: F): T | F {
	let failure: unknown;
	try {
		return work();
	} catch (error) {
		failure = error;
	}
	if (recoverable(failure)) return fallback;
	throw failure;
}
