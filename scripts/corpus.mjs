#!/usr/bin/env node
// `npm run test:corpus`: the saved-workflow corpus (test/corpus, scripts/lib/corpus.mjs) alone in real n8n 2.41.1 and
// 1.123.81, each with a fresh user folder. CI runs the same checks as step 9 of `npm run test:e2e` (in the instance the
// e2e already started); this script is for working on the corpus without the rest of the e2e.
// Env: CORPUS_LINES=2,1 (which lines, in order), CORPUS_KEEP=1 (keep the temporary user folders).
import path from 'node:path';
import { LINES, RUNTIME_ROOT, ensureRuntime } from './lib/runtime.mjs';
import { testScript } from './lib/expectations.mjs';
import { createInstance } from './lib/instance.mjs';
import { corpusChecks } from './lib/corpus.mjs';
import { secs } from './lib/esign.mjs';

const ORDER = (process.env.CORPUS_LINES || '2,1').split(',').map((s) => s.trim()).filter(Boolean);
const KEEP = process.env.CORPUS_KEEP === '1';
const { counts, check, say, cleanups, stopSince, main, pack } = testScript('corpus');

main(async () => {
	for (const line of ORDER) if (!LINES[line]) throw new Error(`CORPUS_LINES: unknown line ${line}`);
	for (const line of ORDER) await ensureRuntime(line);
	const tarball = await pack();
	if (!tarball) return;
	for (const line of ORDER) {
		const t0 = Date.now();
		const mark = cleanups.length;
		try {
			const n8n = await createInstance({ line, tarball, keep: KEEP, logDir: path.join(RUNTIME_ROOT, 'corpus-logs'), cleanups });
			say(`---- n8n ${n8n.version} ----`);
			const started = await check(`${n8n.tag} n8n starts with the package installed`, async () => (await n8n.start(), n8n.url));
			if (started) await corpusChecks(check, n8n.tag, n8n, cleanups);
		} catch (err) {
			counts.failed++;
			console.log(`FAIL [n8n line ${line}] setup: ${err.stack || err}`);
		} finally {
			await stopSince(mark);
			say(`line ${line} done in ${secs(Date.now() - t0)}`);
		}
	}
});
