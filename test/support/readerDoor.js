'use strict';
// The PDF reader's one door, for test/unit/oneDoor.test.ts (a .js file: the lint refuses fs and path in .ts tests).
// Outside nodes/ESign/pdf/, code imports the reader only through its index.ts; only the tests of the reader's
// internals (test/unit/pdf/) and its data generators (scripts/make-*.mjs) reach in.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const READER = path.join(ROOT, 'nodes', 'ESign', 'pdf');
const SCANNED = ['nodes', 'credentials', 'scripts', 'bench', 'test'];
const ALLOWED = [/^test\/unit\/pdf\//, /^scripts\/make-[\w-]+\.mjs$/, /^test\/unit\/oneDoor\.test\.ts$/]; // the last: its examples
const SKIPPED = new Set(['node_modules', 'results', 'fixtures']);

function sourceFiles(dir, out = []) {
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) continue;
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) sourceFiles(full, out);
		else if (/\.(ts|js|mjs|cjs)$/.test(entry.name)) out.push(full);
	}
	return out;
}

/** The module paths `text` (the source of `file`) names that resolve into the reader's folder past its index. */
function reachesIn(file, text) {
	const found = [];
	for (const match of text.matchAll(/(?:\bfrom\s+|\brequire\(\s*|\bimport\(\s*)['"]([^'"]+)['"]/g)) {
		const spec = match[1];
		if (!spec.startsWith('.')) continue;
		const target = path.resolve(path.dirname(file), spec);
		if (!target.startsWith(READER + path.sep)) continue;
		if (path.basename(target).replace(/\.(ts|js)$/, '') === 'index') continue;
		found.push(spec);
	}
	return found;
}

/** "file imports spec" for every import past the door in the repository (this file's own examples aside). */
function importsPastTheDoor() {
	const offenders = [];
	for (const top of SCANNED) {
		for (const file of sourceFiles(path.join(ROOT, top))) {
			const relative = path.relative(ROOT, file).split(path.sep).join('/');
			if (file === __filename || file.startsWith(READER + path.sep) || ALLOWED.some((pattern) => pattern.test(relative))) continue;
			for (const spec of reachesIn(file, fs.readFileSync(file, 'utf8'))) offenders.push(`${relative} imports ${spec}`);
		}
	}
	return offenders;
}

/** A path in the repository, for reachesIn's examples. */
const repoPath = (...parts) => path.join(ROOT, ...parts);

module.exports = { importsPastTheDoor, reachesIn, repoPath };
