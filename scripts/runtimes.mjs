#!/usr/bin/env node
// `npm run runtimes`: installs the real n8n lines the scripts use (2.41.1 and 1.123.81) into .n8n-runtime/, both at
// once (on 2 cores, ~3.5 min instead of ~6.5 one after the other), and nothing else. Every script installs what it
// needs on first use anyway; .ci/run runs this as its own stage before the end-to-end one.
// Env: RUNTIME_LINES=2,1 (which lines).
import { LINES, ensureRuntimes } from './lib/runtime.mjs';

const lines = (process.env.RUNTIME_LINES || Object.keys(LINES).join(',')).split(',').map((s) => s.trim()).filter(Boolean);
for (const line of lines) if (!LINES[line]) throw new Error(`RUNTIME_LINES: unknown line ${line}`);
const started = Date.now();
ensureRuntimes(lines).then(
	() => console.log(`[n8n-runtime] n8n ${lines.map((l) => LINES[l].version).join(' and ')} ready after ${Math.round((Date.now() - started) / 1000)} s`),
	(err) => {
		console.error(`[n8n-runtime] install failed: ${err.stack || err}`);
		process.exitCode = 1;
	},
);
