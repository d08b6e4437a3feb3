#!/usr/bin/env node
// `npm run test:mutation`: proves the safety tests can fail, and fail for the right reason. In a temporary copy of
// the package it first runs the guard tests unchanged (the baseline: all must pass, and every guard must name a test
// that exists there); then each mutation breaks one promise and runs its guard tests. A mutation counts as caught
// only when one of its guard tests FAILS ON AN ASSERTION: an `expect` matcher (jest's report gives its
// `matcherResult`), `expect.assertions`, a `.rejects`/`.resolves` expectation or Node's `assert`, and that assertion
// did not just see a crash (a TypeError or the like in its message). A test that throws a TypeError, a suite that
// does not compile or run, a test stopped by jest's timeout, or a run over the time limit are not catches; the
// `control` entries prove it on every run (a mutation that throws a TypeError must be reported as NOT caught).
// Only the guard tests run (jest -t, unit, slow and engine projects): the other tests of a suite prove nothing here.
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
 * Each mutation (data: scripts/mutations.json, one shape for all, with a `why` where it needs saying): the file,
 * the exact text to replace (`from`, found exactly once) and its replacement, the suites to run, and `guards`: the
 * tests that name the rule (a string found in, or a RegExp matching, a test's full name: its describe blocks and title). When a `from` is no longer in the file the code moved: update the mutation.
 */
const MUTATIONS = JSON.parse(fs.readFileSync(new URL('./mutations.json', import.meta.url), 'utf8'))
	// `why` is for the reader of the list; a guard { regexp, flags } is a RegExp.
	.map(({ why, ...m }) => ({ ...m, guards: m.guards.map((g) => (typeof g === 'string' ? g : new RegExp(g.regexp, g.flags))) }))
	.filter((m) => !process.env.MUTATION_ONLY || m.name.includes(process.env.MUTATION_ONLY));

const guardText = (g) => (g instanceof RegExp ? String(g) : JSON.stringify(g));
const matches = (g, fullName) => (g instanceof RegExp ? g.test(fullName) : fullName.includes(g));
/** jest -t: one pattern for the guards (jest matches it against the same full name: describe blocks and title). */
const namePattern = (guards) => guards.map((g) => (g instanceof RegExp ? `(?:${g.source})` : g.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('|');

// jest's own per-test timeout: the test hung, it did not fail on what it checks.
const TIMED_OUT = /Exceeded timeout of \d+ ?ms/;
// An assertion that saw a crash of the code under test (its message names the error): the mutation made the code
// throw, which proves nothing about the promise the test names.
const CRASHED = /\b(TypeError|ReferenceError|SyntaxError|RangeError)\b|Cannot read propert(y|ies) of (undefined|null)|is not a function\b/;
// Failures of jest's expect that carry no matcherResult: a promise that resolved or rejected against
// `.rejects`/`.resolves`, and expect.assertions/hasAssertions; and Node's assert module (AssertionError).
const EXPECTATION = /^(Error: )?(expect(\(received\))?\.(rejects|resolves|assertions|hasAssertions)\b|assert\.|AssertionError)/;

/**
 * How a test failed: 'assertion' (an expectation about the behaviour failed), 'crash' (an error such as a
 * TypeError, also when an assertion only received it), 'timeout' (jest's per-test timeout) or 'error' (anything
 * else thrown). Read from jest's --json report: `failureDetails[].matcherResult` is set by expect's matchers.
 */
function failureKind(a) {
	const message = (a.failureMessages ?? []).join('\n');
	if (TIMED_OUT.test(message)) return 'timeout';
	const details = a.failureDetails ?? [];
	const asserted = details.some((d) => d && (d.matcherResult || d.code === 'ERR_ASSERTION' || d.name === 'AssertionError')) || EXPECTATION.test(message.replace(/\u001b\[[0-9;]*m/g, '').trim());
	// Only the first line of each failure names what was thrown; a matcher's message also shows what it received.
	if (CRASHED.test(message.split('\n').slice(0, 6).join('\n'))) return 'crash';
	return asserted ? 'assertion' : 'error';
}

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
 * jest on the tests of `files` in `dir` whose names match `guards`, in the unit, slow and engine projects (the strict
 * project would run the same tests again), with its JSON report. Resolves { report, ms, hung, code, output }: hung
 * when the run passed the time limit (its whole process group is then killed; the report is then missing).
 */
function runJest(dir, files, guards) {
	const out = path.join(dir, `jest-${Date.now()}.json`);
	const started = Date.now();
	const jest = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
	const args = [jest, '--rootDir', dir, '--ci', '--colors=false', '--selectProjects', 'unit', 'slow', 'engine', '--json', `--outputFile=${out}`, '--testNamePattern', namePattern(guards), '--runTestsByPath', ...files];
	const child = spawn(nodeBin(), args, { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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

/**
 * Each test that ran (tests jest -t left out are not listed): { file, fullName, status, kind, message }, kind as
 * failureKind for a failed test; and the suites that failed to run.
 */
function readReport(dir, report) {
	const tests = [];
	const broken = [];
	for (const suite of report.testResults) {
		const file = path.relative(dir, suite.name);
		const ran = suite.assertionResults.filter((a) => a.status === 'passed' || a.status === 'failed');
		if (!ran.length || (suite.status === 'failed' && suite.message && !ran.some((a) => a.status === 'failed'))) {
			broken.push(`${file}: ${firstLines(suite.message || 'the suite ran no test')}`);
		}
		for (const a of ran) {
			const message = (a.failureMessages ?? []).join('\n');
			tests.push({ file, fullName: a.fullName, status: a.status, kind: a.status === 'failed' ? failureKind(a) : undefined, message });
		}
	}
	return { tests, broken };
}

const firstLines = (text, n = 6) => String(text).replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).filter(Boolean).slice(0, n).join(' | ');
const kinds = (list) => Object.entries(list.reduce((acc, t) => ({ ...acc, [t.kind]: (acc[t.kind] ?? 0) + 1 }), {})).map(([k, n]) => `${n} ${k}`).join(', ');

main(async () => {
	const controls = MUTATIONS.filter((m) => m.control).length;
	say(`${MUTATIONS.length - controls} mutation${MUTATIONS.length - controls === 1 ? '' : 's'} and ${controls} control${controls === 1 ? '' : 's'}; time limit ${secs(TIMEOUT_MS)} per jest run`);
	const dir = copyPackage();
	const suites = [...new Set(MUTATIONS.flatMap((m) => m.tests))];
	const allGuards = MUTATIONS.flatMap((m) => m.guards ?? []);

	// The baseline: the same tests, unchanged, in the same copy. A test that already fails would "catch" anything.
	const clean = await check(`baseline: the guard tests in ${suites.length} suites pass unchanged, and every guard names a test there`, async () => {
		for (const m of MUTATIONS) assert(Array.isArray(m.guards) && m.guards.length, `mutation "${m.name}" names no guards: list the tests that guard its rule`);
		const run = await runJest(dir, suites, allGuards);
		assert(!run.hung, `the baseline run passed the time limit of ${secs(TIMEOUT_MS)}: raise MUTATION_TIMEOUT_S or find the hang\n${run.output.slice(-2000)}`);
		assert(run.report, `jest gave no report (exit ${run.code}):\n${run.output.slice(-3000)}`);
		const baseline = readReport(dir, run.report);
		const ran = new Set(baseline.tests.map((t) => t.file));
		const missing = suites.filter((s) => !ran.has(s));
		assert(!missing.length, `suites that ran no guard test: ${missing.join(', ')}`);
		assert(!baseline.broken.length, `suites that failed to run: ${baseline.broken.join('; ')}`);
		const failing = baseline.tests.filter((t) => t.status !== 'passed');
		assert(!failing.length, `${failing.length} guard tests do not pass unchanged, so a mutation they "catch" proves nothing: ${failing.slice(0, 5).map((t) => `${t.file} › ${t.fullName} (${t.kind}: ${firstLines(t.message, 2)})`).join('; ')}`);
		for (const m of MUTATIONS) {
			for (const g of m.guards) {
				const named = baseline.tests.filter((t) => m.tests.includes(t.file) && matches(g, t.fullName));
				assert(named.length, `mutation "${m.name}": the guard ${guardText(g)} names no test in ${m.tests.join(', ')} (renamed or removed? update the guard)`);
			}
		}
		assert(run.code === 0, `jest exited ${run.code} although every test passed:\n${run.output.slice(-1500)}`);
		const perSuite = run.report.testResults.map((s) => `${path.relative(dir, s.name)} ${secs(s.endTime - s.startTime)}`).join(', ');
		return `${baseline.tests.length} guard tests in ${secs(run.ms)} (${perSuite})`;
	});
	if (!clean) return;

	for (const m of MUTATIONS) {
		await check(`${m.control ? 'not counted' : 'caught'}: ${m.name}`, async () => {
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
				const run = await runJest(dir, m.tests, m.guards);
				assert(!run.hung, `HUNG: the mutated run passed the time limit of ${secs(TIMEOUT_MS)} and was stopped; a hang is not a catch`);
				assert(run.report, `jest gave no report (exit ${run.code}):\n${run.output.slice(-3000)}`);
				const { tests, broken } = readReport(dir, run.report);
				assert(!broken.length, `the mutated suites did not run (a compile error is not a catch; fix the mutation's \`to\`): ${broken.join('; ')}`);
				const guarded = tests.filter((t) => m.guards.some((g) => matches(g, t.fullName)));
				const failed = guarded.filter((t) => t.status === 'failed');
				const caught = failed.filter((t) => t.kind === 'assertion');
				const other = failed.filter((t) => t.kind !== 'assertion');
				const notCounted = other.length ? `; not counted: ${kinds(other)} (e.g. "${other[0].fullName}": ${firstLines(other[0].message, 2).slice(0, 160)})` : '';
				if (m.control) {
					// The control's guards must fail (the crash is real) and none may count as a catch.
					assert(failed.length, `the control's guard tests did not fail at all: the control no longer throws where it should`);
					assert(!caught.length, `COUNTED: ${caught.length} guard tests were counted as assertion failures although the code only threw, e.g. "${caught[0]?.fullName}": ${firstLines(caught[0]?.message ?? '', 3)}`);
					return `${failed.length} of ${guarded.length} guard tests failed, none on an assertion${notCounted}: correctly not a catch (jest ${secs(run.ms)})`;
				}
				assert(caught.length, `NOT CAUGHT: none of the ${guarded.length} guard tests failed on an assertion${notCounted}`);
				return `${caught.length} of ${guarded.length} guard tests failed on an assertion, e.g. "${caught[0].fullName}": ${firstLines(caught[0].message, 2).slice(0, 200)}${notCounted} (jest ${secs(run.ms)})`;
			} finally {
				fs.writeFileSync(file, original);
			}
		});
	}
});
