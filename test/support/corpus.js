// The saved-workflow corpus (test/corpus/*.json) for the TypeScript tests, which may not read files themselves
// (the community lint forbids Node built-ins in .ts). scripts/lib/corpus.mjs runs the same files in real n8n.
const fs = require('node:fs');
const path = require('node:path');

const CORPUS_DIR = path.join(__dirname, '..', 'corpus');

/** [{ file, workflow }] in file order. */
function readCorpus() {
	return fs
		.readdirSync(CORPUS_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({ file, workflow: JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, file), 'utf8')) }));
}

module.exports = { readCorpus };
