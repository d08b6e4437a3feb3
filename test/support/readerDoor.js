'use strict';
// The PDF reader's one door, for test/unit/oneDoor.test.ts (a .js file: the lint refuses fs and path in .ts tests).
// Outside nodes/ESign/pdf/, code imports the reader only through its index.ts (pdf/index, not an index of one of
// its folders); only the tests of the reader's internals (test/unit/pdf/) and its data generators
// (scripts/make-*.mjs) reach in.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, filesUnder, relative, specifiers } = require('./sourceTree');

const READER = path.join(ROOT, 'nodes', 'ESign', 'pdf');
const DOOR = path.join(READER, 'index');
const SCANNED = ['nodes', 'credentials', 'scripts', 'bench', 'test'];
const ALLOWED = [/^test\/unit\/pdf\//, /^scripts\/make-[\w-]+\.mjs$/, /^test\/unit\/oneDoor\.test\.ts$/]; // the last: its examples

/** The module paths `text` (the source of `file`) names that resolve into the reader's folder past its index. */
function reachesIn(file, text) {
	return specifiers(text).filter((spec) => {
		if (!spec.startsWith('.')) return false;
		const target = path.resolve(path.dirname(file), spec).replace(/\.(ts|js)$/, '');
		return target.startsWith(READER + path.sep) && target !== DOOR;
	});
}

/** "file imports spec" for every import past the door in the repository (this file's own examples aside). */
function importsPastTheDoor() {
	const offenders = [];
	for (const top of SCANNED) {
		for (const file of filesUnder(path.join(ROOT, top), /\.(ts|js|mjs|cjs)$/)) {
			const name = relative(file);
			if (file === __filename || file.startsWith(READER + path.sep) || ALLOWED.some((pattern) => pattern.test(name))) continue;
			for (const spec of reachesIn(file, fs.readFileSync(file, 'utf8'))) offenders.push(`${name} imports ${spec}`);
		}
	}
	return offenders;
}

/** A path in the repository, for reachesIn's examples. */
const repoPath = (...parts) => path.join(ROOT, ...parts);

module.exports = { importsPastTheDoor, reachesIn, repoPath };
