'use strict';
// CONTRIBUTING's rule that no file under nodes/ or credentials/ exceeds 300 lines, for test/unit/fileLength.test.ts
// (a .js file: the lint refuses fs and path in .ts tests).
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const MAX_LINES = 300;

/** Lines of `text` as an editor numbers them (a last line without a newline counts; a final newline adds none). */
function lineCount(text) {
	if (!text.length) return 0;
	return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Every .ts and .json file under nodes/ and credentials/ longer than MAX_LINES, as "path: N lines". */
function tooLong() {
	const found = [];
	const visit = (dir) => {
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) visit(full);
			else if (/\.(ts|json)$/.test(entry.name)) {
				const lines = lineCount(fs.readFileSync(full, 'utf8'));
				if (lines > MAX_LINES) found.push(`${path.relative(ROOT, full)}: ${lines} lines`);
			}
		}
	};
	for (const top of ['nodes', 'credentials']) visit(path.join(ROOT, top));
	return found.sort();
}

module.exports = { MAX_LINES, lineCount, tooLong };
