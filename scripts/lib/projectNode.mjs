// pdf.js needs Node ≥ 22: the machine's own Node may be older, the project's (node_modules/.bin/node, the `node` dev
// dependency) is 24. A script that reads PDFs with pdf.js calls this first: under an older Node it runs itself again
// under the project's and exits with that run's status.
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function runUnderProjectNode(scriptUrl) {
	if (Number(process.versions.node.split('.')[0]) >= 22) return;
	const run = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'node'), [fileURLToPath(scriptUrl), ...process.argv.slice(2)], { stdio: 'inherit' });
	process.exit(run.status ?? 1);
}
