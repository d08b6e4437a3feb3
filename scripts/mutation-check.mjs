#!/usr/bin/env node
// `npm run test:mutation`: proves the safety tests can fail, and fail for the right reason. In a temporary copy of
// the package it first runs every named suite unchanged (the baseline: all must pass, and every guard must name a
// test that exists there); then each mutation breaks one safety rule and runs the suites that guard it. A mutation
// counts as caught only when one of its guard tests FAILS on an assertion: other tests failing, a suite that does
// not compile or run, a test that hits jest's timeout, or a run over the time limit are not catches.
// Env: MUTATION_TIMEOUT_S=600 (time limit of each jest run, the baseline's included: above jest's own 5-minute
// hang guard, so a hung test shows as such), MUTATION_ONLY=<text> (only the mutations whose name contains it).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, nodeBin } from './lib/runtime.mjs';
import { CheckError, assert, testScript } from './lib/expectations.mjs';
import { secs } from './lib/esign.mjs';

const TIMEOUT_MS = Number(process.env.MUTATION_TIMEOUT_S || 600) * 1000;

/**
 * Each mutation: the file, the exact text to replace (`from`, found exactly once) and its replacement, the suites to
 * run, and `guards`: the tests that name the rule (a string found in, or a RegExp matching, a test's full name:
 * its describe blocks and title). When a `from` is no longer in the file the code moved: update the mutation.
 */
const MUTATIONS = [
	{
		name: 'the transport repeats writes after a 5xx or a dropped connection',
		file: 'nodes/shared/transport/exchange.ts',
		from: "if (call.method !== 'GET' || call.failures >= GET_RETRIES) return false;",
		to: 'if (call.failures >= GET_RETRIES) return false;',
		tests: ['test/shared/transport.test.ts'],
		guards: [/^retries: reads are repeated, writes never .*is not repeated/],
	},
	{
		name: 'the trigger verifies re-serialised JSON instead of the raw bytes',
		file: 'nodes/ESignTrigger/receive.ts',
		from: 'const check = verifySignature(rawBody, signature, secret);',
		to: 'const check = verifySignature(reserialised(rawBody), signature, secret);',
		append: `\nfunction reserialised(raw: unknown): unknown {\n\ttry {\n\t\treturn Buffer.from(JSON.stringify(JSON.parse(Buffer.from(raw as Uint8Array).toString('utf8'))));\n\t} catch {\n\t\treturn raw;\n\t}\n}\n`,
		tests: ['test/ESignTrigger/trigger.test.ts'],
		guards: [/^signature over the raw bytes /],
	},
	{
		name: 'the trigger answers a credential it could not read as a forged delivery (401, as before issue 25)',
		file: 'nodes/ESignTrigger/receive.ts',
		from: 'const read = await readWebhookSecret.call(this);',
		to: "const read = await readWebhookSecret.call(this).then((r) => ('failure' in r ? { secret: '' } : r));",
		tests: ['test/ESignTrigger/trigger.test.ts'],
		guards: [/^the credential cannot be read /],
	},
	{
		name: 'the transport follows redirects (sending the key and secret to the target)',
		file: 'nodes/shared/transport/exchange.ts',
		from: 'disableFollowRedirect: true,',
		to: 'disableFollowRedirect: false,',
		tests: ['test/shared/transport.hostile.test.ts'],
		guards: [/^redirects are never followed /],
	},
	{
		name: 'the credential is read on every request again',
		file: 'nodes/shared/transport/exchange.ts',
		from: 'call.decrypted ? { credentialsDecrypted: call.decrypted } : undefined,',
		to: 'undefined,',
		tests: ['test/shared/credentials.test.ts'],
		guards: ['one credential read', 'reads the credential once'],
	},
	{
		name: "the eSign Tool throws its failures again (the model hears only n8n's bare message)",
		file: 'nodes/ESign/actions/router.ts',
		from: 'const asTool = answersAsTool.call(this);',
		to: 'const asTool = false;',
		tests: ['test/ESign/tool.test.ts'],
		guards: [/^eSign Tool: answers /],
	},
	{
		// Only a front's page means nothing ran: after the API's own JSON answer a write never goes out again.
		name: 'the transport sends a write again in another form after the API answered it',
		file: 'nodes/shared/transport/override.ts',
		from: 'return !(parsed.json && isPlainObject(parsed.value));',
		to: 'return true;',
		tests: ['test/shared/firewall.test.ts'],
		guards: [/^a write the API answered, or that may have run, never goes out again after /],
	},
	{
		name: 'PUT and DELETE refused by a firewall are never sent in WordPress\'s override form',
		file: 'nodes/shared/transport/override.ts',
		from: "const ladder: SendForm[] = ['method', 'query', 'header'];",
		to: "const ladder: SendForm[] = ['method'];",
		tests: ['test/shared/firewall.test.ts'],
		guards: [/^a firewall that refuses PUT and DELETE .*goes out once more as POST \?_method=PUT/, 'Create and Send\'s rollback deletes its draft through the override'],
	},
	{
		// The transport blanks them in every error it builds; the tool answer blanks again (a second layer).
		name: 'errors keep the credential values a site echoed back',
		file: 'nodes/shared/transport/errors.ts',
		from: 'const clean = (text: string) => blank(text, info.secrets);',
		to: 'const clean = (text: string) => text;',
		tests: ['test/unit/shared/hosting.test.ts'],
		guards: ['a site that echoes the key or secret back'],
	},
].filter((m) => !process.env.MUTATION_ONLY || m.name.includes(process.env.MUTATION_ONLY));

const guardText = (g) => (g instanceof RegExp ? String(g) : JSON.stringify(g));
const matches = (g, fullName) => (g instanceof RegExp ? g.test(fullName) : fullName.includes(g));
// jest's own per-test timeout: the test hung, it did not fail on what it checks.
const TIMED_OUT = /Exceeded timeout of \d+ ?ms/;

const { check, say, cleanups, main } = testScript('mutation');

/** The package's sources and tests in a fresh folder (node_modules linked): mutations never touch the worktree. */
function copyPackage() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'esign-mutation-'));
	cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
	for (const entry of ['nodes', 'credentials', 'test', 'package.json', 'tsconfig.json', 'tsconfig.test.json', 'jest.config.js']) {
		fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
	}
	fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
	return dir;
}

/**
 * jest on `files` in `dir`, with its JSON report. Resolves { report, ms, hung, code, output }: hung when the run
 * passed the time limit (its whole process group is then killed; the report is then missing).
 */
function runJest(dir, files) {
	const out = path.join(dir, `jest-${Date.now()}.json`);
	const started = Date.now();
	const jest = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
	const child = spawn(nodeBin(), [jest, '--rootDir', dir, '--ci', '--colors=false', '--json', `--outputFile=${out}`, '--runTestsByPath', ...files], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	for (const s of [child.stdout, child.stderr]) s.on('data', (d) => (output = (output + d).slice(-20000)));
	const kill = () => {
		try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
	};
	cleanups.push(kill);
	return new Promise((resolve) => {
		let hung = false;
		const timer = setTimeout(() => {
			hung = true;
			kill();
		}, TIMEOUT_MS);
		child.on('close', (code) => {
			clearTimeout(timer);
			cleanups.splice(cleanups.indexOf(kill), 1);
			let report;
			try { report = JSON.parse(fs.readFileSync(out, 'utf8')); } catch { /* no report: hung or crashed */ }
			resolve({ report, ms: Date.now() - started, hung, code, output });
		});
	});
}

/** Each test of a report: { file, fullName, status, timedOut, message }; and suites that failed to run. */
function readReport(dir, report) {
	const tests = [];
	const broken = [];
	for (const suite of report.testResults) {
		const file = path.relative(dir, suite.name);
		if (!suite.assertionResults.length || (suite.status === 'failed' && suite.message && !suite.assertionResults.some((a) => a.status === 'failed'))) {
			broken.push(`${file}: ${firstLines(suite.message || 'the suite ran no test')}`);
		}
		for (const a of suite.assertionResults) {
			const message = (a.failureMessages ?? []).join('\n');
			tests.push({ file, fullName: a.fullName, status: a.status, timedOut: TIMED_OUT.test(message), message });
		}
	}
	return { tests, broken };
}

const firstLines = (text, n = 6) => String(text).replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).filter(Boolean).slice(0, n).join(' | ');

main(async () => {
	say(`${MUTATIONS.length} mutation${MUTATIONS.length === 1 ? '' : 's'}; time limit ${secs(TIMEOUT_MS)} per jest run`);
	const dir = copyPackage();
	const suites = [...new Set(MUTATIONS.flatMap((m) => m.tests))];

	// The baseline: the same suites, unchanged, in the same copy. A suite that already fails would "catch" anything.
	let baseline;
	const clean = await check(`baseline: the guarding suites (${suites.length}) pass unchanged, and every guard names a test there`, async () => {
		const run = await runJest(dir, suites);
		assert(!run.hung, `the baseline run passed the time limit of ${secs(TIMEOUT_MS)}: raise MUTATION_TIMEOUT_S or find the hang\n${run.output.slice(-2000)}`);
		assert(run.report, `jest gave no report (exit ${run.code}):\n${run.output.slice(-3000)}`);
		baseline = readReport(dir, run.report);
		const ran = new Set(baseline.tests.map((t) => t.file));
		const missing = suites.filter((s) => !ran.has(s));
		assert(!missing.length, `suites that did not run: ${missing.join(', ')}`);
		assert(!baseline.broken.length, `suites that failed to run: ${baseline.broken.join('; ')}`);
		const failing = baseline.tests.filter((t) => t.status !== 'passed');
		assert(!failing.length, `${failing.length} tests do not pass unchanged, so a mutation they "catch" proves nothing: ${failing.slice(0, 5).map((t) => `${t.file} › ${t.fullName} (${t.status})`).join('; ')}`);
		for (const m of MUTATIONS) {
			assert(Array.isArray(m.guards) && m.guards.length, `mutation "${m.name}" names no guards: list the tests that guard its rule`);
			for (const g of m.guards) {
				const named = baseline.tests.filter((t) => m.tests.includes(t.file) && matches(g, t.fullName));
				assert(named.length, `mutation "${m.name}": the guard ${guardText(g)} names no test in ${m.tests.join(', ')} (renamed or removed? update the guard)`);
			}
		}
		assert(run.code === 0, `jest exited ${run.code} although every test passed:\n${run.output.slice(-1500)}`);
		const perSuite = run.report.testResults.map((s) => `${path.relative(dir, s.name)} ${secs(s.endTime - s.startTime)}`).join(', ');
		return `${baseline.tests.length} tests in ${secs(run.ms)} (${perSuite})`;
	});
	if (!clean) return;

	for (const m of MUTATIONS) {
		await check(`caught: ${m.name}`, async () => {
			const file = path.join(dir, m.file);
			const original = fs.readFileSync(file, 'utf8');
			const found = original.split(m.from).length - 1;
			if (found !== 1) {
				throw new CheckError(
					`${found === 0 ? 'NOT FOUND' : `FOUND ${found} TIMES`}: mutation "${m.name}" looks for this text in ${m.file}:\n  ${m.from}\n${found === 0 ? 'The code moved: update the mutation\'s `from` (and `to`) in scripts/mutation-check.mjs.' : 'Make `from` longer so it names one place.'}`,
				);
			}
			fs.writeFileSync(file, original.replace(m.from, m.to) + (m.append ?? ''));
			try {
				const run = await runJest(dir, m.tests);
				assert(!run.hung, `HUNG: the mutated run passed the time limit of ${secs(TIMEOUT_MS)} and was stopped; a hang is not a catch`);
				assert(run.report, `jest gave no report (exit ${run.code}):\n${run.output.slice(-3000)}`);
				const { tests, broken } = readReport(dir, run.report);
				assert(!broken.length, `the mutated suites did not run (a compile error is not a catch; fix the mutation's \`to\`): ${broken.join('; ')}`);
				const guarded = tests.filter((t) => m.guards.some((g) => matches(g, t.fullName)));
				const caught = guarded.filter((t) => t.status === 'failed' && !t.timedOut);
				const hung = guarded.filter((t) => t.timedOut);
				const others = tests.filter((t) => t.status === 'failed' && !guarded.includes(t));
				const also = others.length ? `; ${others.length} other tests failed too (not counted)` : '';
				assert(
					caught.length,
					`NOT CAUGHT: none of the ${guarded.length} guard tests failed on an assertion${hung.length ? ` (${hung.length} hit jest's timeout: a hang is not a catch)` : ''}${also}: ${others.slice(0, 3).map((t) => t.fullName).join('; ')}`,
				);
				return `${caught.length} of ${guarded.length} guard tests failed, e.g. "${caught[0].fullName}": ${firstLines(caught[0].message, 2).slice(0, 200)}${also} (jest ${secs(run.ms)})`;
			} finally {
				fs.writeFileSync(file, original);
			}
		});
	}
});
