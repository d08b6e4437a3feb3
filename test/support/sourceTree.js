'use strict';
// The repository's source files, for the tests that scan the tree (a .js file: the lint refuses fs and path in .ts
// tests): the 500-line ceiling (fileLength.js), the PDF reader's one door (readerDoor.js), import cycles
// (importGraph.js).
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
/** Folders no scan enters: installed packages, generated results, test fixtures. */
const SKIPPED = new Set(['node_modules', 'results', 'fixtures']);

/** Every file under `dir` whose name `pattern` matches, hidden folders and SKIPPED ones left out. */
function filesUnder(dir, pattern, out = []) {
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) continue;
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) filesUnder(full, pattern, out);
		else if (pattern.test(entry.name)) out.push(full);
	}
	return out;
}

/** `file` relative to the repository, with forward slashes. */
const relative = (file) => path.relative(ROOT, file).split(path.sep).join('/');

/** The relative module paths a source text names: import, export … from, require() and import(). */
function specifiers(text) {
	return [...text.matchAll(/(?:\bfrom\s+|\brequire\(\s*|\bimport\(\s*|^import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]);
}

module.exports = { ROOT, filesUnder, relative, specifiers };
