'use strict';
// CONTRIBUTING's ceiling against god-files: no file under nodes/ or credentials/ exceeds 500 lines, for
// test/unit/fileLength.test.ts. A ceiling, not a target: files are split by concept, never to meet a count.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, filesUnder, relative } = require('./sourceTree');

const MAX_LINES = 500;

/** Lines of `text` as an editor numbers them (a last line without a newline counts; a final newline adds none). */
function lineCount(text) {
	if (!text.length) return 0;
	return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Every .ts and .json file under nodes/ and credentials/ longer than MAX_LINES, as "path: N lines". */
function tooLong() {
	const found = [];
	for (const top of ['nodes', 'credentials']) {
		for (const file of filesUnder(path.join(ROOT, top), /\.(ts|json)$/)) {
			const lines = lineCount(fs.readFileSync(file, 'utf8'));
			if (lines > MAX_LINES) found.push(`${relative(file)}: ${lines} lines`);
		}
	}
	return found.sort();
}

module.exports = { MAX_LINES, lineCount, tooLong };
