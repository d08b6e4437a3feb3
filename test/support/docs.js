// The repository's docs/*.md for the TypeScript tests, which may not read files themselves (the community lint
// forbids Node built-ins in .ts).
const fs = require('node:fs');
const path = require('node:path');

/** The text of docs/<name>, e.g. readDoc('text-tags.md'). */
function readDoc(name) {
	return fs.readFileSync(path.join(__dirname, '..', '..', 'docs', name), 'utf8');
}

module.exports = { readDoc };
