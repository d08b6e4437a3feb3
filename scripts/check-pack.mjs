#!/usr/bin/env node
// `npm run check:pack`: the published tarball holds exactly dist/**, README.md, LICENSE and package.json
// (npm adds the last three itself). Run after `npm run build`. Exit 1 with the differences otherwise.
import { execFileSync } from 'node:child_process';

const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' });
const [{ files }] = JSON.parse(out.slice(out.indexOf('[')));
const paths = files.map((f) => f.path).sort();
const allowed = (p) => p.startsWith('dist/') || ['README.md', 'LICENSE', 'package.json'].includes(p);
const unexpected = paths.filter((p) => !allowed(p));
const missing = ['README.md', 'LICENSE', 'package.json', 'dist/nodes/ESign/ESign.node.js', 'dist/nodes/ESignTrigger/ESignTrigger.node.js', 'dist/nodes/ESignStatusTrigger/ESignStatusTrigger.node.js', 'dist/credentials/ESignApi.credentials.js'].filter((p) => !paths.includes(p));
const tests = paths.filter((p) => /(^|\/)test\/|\.test\.|\.map$/.test(p));
if (unexpected.length || missing.length || tests.length) {
	if (unexpected.length) console.log(`not allowed in the package: ${unexpected.join(', ')}`);
	if (missing.length) console.log(`missing from the package: ${missing.join(', ')} (run npm run build first)`);
	if (tests.length) console.log(`test or source-map files in the package: ${tests.join(', ')}`);
	console.log('check:pack FAILED');
	process.exit(1);
}
console.log(`check:pack OK: ${paths.length} files (dist/**, README.md, LICENSE, package.json)`);
