// The nodes' codex files (nodes/*/*.node.json) for the TypeScript tests, which may not read files themselves
// (the community lint forbids Node built-ins in .ts).
const fs = require('node:fs');
const path = require('node:path');

const NODES_DIR = path.join(__dirname, '..', '..', 'nodes');

/** [{ file, codex }] for every nodes/<Node>/<Node>.node.json. */
function readCodexFiles() {
	return fs
		.readdirSync(NODES_DIR)
		.map((dir) => path.join(dir, `${dir}.node.json`))
		.filter((file) => fs.existsSync(path.join(NODES_DIR, file)))
		.map((file) => ({ file: `nodes/${file}`, codex: JSON.parse(fs.readFileSync(path.join(NODES_DIR, file), 'utf8')) }));
}

module.exports = { readCodexFiles };
