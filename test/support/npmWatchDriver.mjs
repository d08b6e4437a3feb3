// Runs scripts/lib/npmWatch.mjs's npmInstallWatched once in this process (an ES module, which jest's CommonJS cannot
// import) and prints its outcome as one JSON line: { ok, stalled, message, logged, installed }.
import fs from 'node:fs';
import path from 'node:path';
import { npmDownloadsDir, npmInstallWatched } from '../../scripts/lib/npmWatch.mjs';

const { cwd, registry, cache, pkg, stallMs, maxMs, attempts, watchDownloads } = JSON.parse(process.argv[2]);
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
Object.assign(env, { npm_config_registry: registry, npm_config_cache: cache, npm_config_update_notifier: 'false', npm_config_fetch_retries: '0' });
const logged = [];
const args = ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', pkg];
const progressDirs = watchDownloads ? [npmDownloadsDir(env)] : [];
npmInstallWatched({ cwd, env, args, logsDir: path.join(cwd, '.npm-logs'), progressDirs, stallMs, maxMs, pollMs: 100, attempts, log: (m) => logged.push(m) }).then(
	() => out({ ok: true }),
	(e) => out({ ok: false, stalled: Boolean(e.stalled), message: String(e.message) }),
);
function out(result) {
	const installed = fs.existsSync(path.join(cwd, 'node_modules', pkg, 'package.json'));
	process.stdout.write(`${JSON.stringify({ ...result, logged, installed })}\n`);
}
