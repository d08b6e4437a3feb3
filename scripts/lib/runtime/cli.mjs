// The n8n CLI: import, execute, export:nodes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { n8nBin, nodeBin, run } from './install.mjs';
import { env, freePort } from './env.mjs';

/**
 * Runs `n8n <args>` against the instance in userFolder (n8n may be running: the CLI gets
 * its own broker port so the two task-runner brokers do not clash).
 */
export async function runCli(line, userFolder, args, { brokerPort, check = true, timeoutMs = 180000, extraEnv, wrap = [] } = {}) {
	const e = env(line, { userFolder, brokerPort: brokerPort ?? (await freePort()), extra: extraEnv });
	// wrap: a command to run n8n under, e.g. ['/usr/bin/time', '-f', 'MAXRSS=%M'] (its output goes to stderr).
	const [cmd, ...args0] = [...wrap, nodeBin()];
	return run(cmd, [...args0, n8nBin(line), ...args], { cwd: userFolder, env: e, check, timeoutMs });
}

/** JSON printed by a CLI command: log lines (some start with `[`) share stdout; the JSON starts on a `{` line. */
export function parseCliJson(stdout) {
	const lines = stdout.split('\n');
	for (let i = 0; i < lines.length; i++) {
		if (!lines[i].startsWith('{')) continue;
		// Log lines may also follow the JSON: try the longest block ending on a `}` line first.
		for (let j = lines.length - 1; j >= i; j--) {
			if (!lines[j].trimEnd().endsWith('}')) continue;
			try {
				return JSON.parse(lines.slice(i, j + 1).join('\n'));
			} catch { /* try a shorter block */ }
		}
	}
	throw new Error(`no JSON in n8n output:\n${stdout.slice(-2000)}`);
}

/** Imports a workflow file, or every .json in a folder (ids in the files are kept; always imported inactive). */
export function importWorkflow(line, userFolder, file, opts) {
	const input = path.resolve(file);
	const args = ['import:workflow', `--input=${input}`];
	if (fs.statSync(input).isDirectory()) args.push('--separate');
	return runCli(line, userFolder, args, opts);
}

/**
 * `n8n execute --id` (2.x has no --file). Resolves the run data; a failed run rejects unless
 * check=false. Only workflows that start from a Manual/Execute Workflow Trigger can run this way.
 */
export async function executeWorkflow(line, userFolder, id, opts = {}) {
	const res = await runCli(line, userFolder, ['execute', `--id=${id}`, '--rawOutput'], { ...opts, check: false });
	let data;
	try {
		data = parseCliJson(res.stdout);
	} catch (err) {
		if (opts.check === false) return { ...res, data: undefined };
		throw new Error(`n8n execute --id=${id} exited with ${res.code}: ${err.message}\n${res.stderr.slice(-2000)}`);
	}
	if (opts.check !== false && res.code !== 0) {
		throw new Error(`n8n execute --id=${id} exited with ${res.code}\n${res.stdout.slice(-3000)}${res.stderr.slice(-2000)}`);
	}
	return { ...res, data };
}

/** Every node type n8n loads (offline, ~6-10 s); entries have .name like `n8n-nodes-esign.eSign`. */
export async function exportNodes(line, userFolder, opts) {
	const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-export-')), 'nodes.json');
	try {
		await runCli(line, userFolder, ['export:nodes', `--output=${out}`], opts);
		return JSON.parse(fs.readFileSync(out, 'utf8'));
	} finally {
		fs.rmSync(path.dirname(out), { recursive: true, force: true });
	}
}
