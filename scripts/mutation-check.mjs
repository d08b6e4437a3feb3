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
	{
		// Fail closed: with no secret configured every delivery is refused, even one signed with an empty key.
		name: 'an empty webhook secret verifies deliveries signed with an empty key (fail open)',
		file: 'nodes/ESignTrigger/verifySignature.ts',
		from: "if (typeof secret !== 'string' || secret.length === 0) {",
		to: "if (typeof secret !== 'string') {",
		tests: ['test/unit/ESignTrigger/verifySignature.test.ts'],
		guards: ['no secret configured refuses everything, even a signature made with an empty key'],
	},
	{
		// Exactly once: the state a poll reported from is replaced by what it saw, so the next poll is quiet.
		name: 'the Status Trigger keeps the old state after a poll that reported changes (each change reported again)',
		file: 'nodes/ESignStatusTrigger/poll.ts',
		from: 'const output = await emit.call(this, changes, signerChanges, events, options);\n\tkeep.call(this, data, state);',
		to: 'const output = await emit.call(this, changes, signerChanges, events, options);\n\tkeep.call(this, data, stored);',
		tests: ['test/ESignStatusTrigger/statusTrigger.test.ts'],
		guards: ['a signed document is reported once, as completed, with the status seen before', 'sent, viewed, declined, expired and new documents, each reported once'],
	},
	{
		// Bottom-left y measures the field's lower edge: top-left y = page height − y − field height.
		name: 'bottom-left coordinates are converted without the field height (every field lands one height too low)',
		file: 'nodes/ESign/helpers/fields.ts',
		from: 'y = pageHeight - y - size.height;',
		to: 'y = pageHeight - y;',
		tests: ['test/unit/ESign/fields.test.ts', 'test/ESign/field/field.test.ts'],
		guards: [/^buildFields: sizes and coordinates bottom-left on /, 'converts bottom-left coordinates with the Page Height option when the file gives no sizes'],
	},
	{
		// Issue 37: a PDF's own page sizes convert bottom-left coordinates (mixed Letter and A4, turned pages).
		name: "bottom-left coordinates take the Page Height option over the PDF's own page height",
		file: 'nodes/ESign/helpers/fields.ts',
		from: 'const pageHeight = coordinates.pages?.[page - 1]?.height ?? coordinates.pageHeight;',
		to: 'const pageHeight = coordinates.pageHeight;',
		tests: ['test/ESign/field/field.test.ts'],
		guards: ['converts bottom-left coordinates with each page’s own height'],
	},
	{
		name: 'a field on a page the PDF does not have is sent to the site (no check before the upload)',
		file: 'nodes/ESign/helpers/placement.ts',
		from: "if (!size) return { problem: `page ${page} does not exist: the PDF has ${pages.length} page${pages.length === 1 ? '' : 's'}`, wholly: true };",
		to: 'if (!size) return {};',
		tests: ['test/ESign/document/createAndSend.test.ts'],
		guards: ['a field on a page the PDF does not have is refused before the upload, naming the row'],
	},
	{
		name: "a text tag's field is placed from the tag's baseline instead of its top (one line too low)",
		file: 'nodes/ESign/helpers/placement.ts',
		from: 'return { page, x: round(box.left), y: round(box.top), width: round(width), height: round(height) };',
		to: 'return { page, x: round(box.left), y: round(box.bottom), width: round(width), height: round(height) };',
		tests: ['test/ESign/document/tags.test.ts'],
		guards: ['puts each field on its tag, with its type, signer, required flag and name'],
	},
	{
		name: "Replace All gives tag signer n to the site's n-th listed signer instead of the n-th in signing order",
		file: 'nodes/ESign/actions/field/replaceAll.operation.ts',
		from: 'return signers.slice().sort((a, b) => order(a) - order(b) || Number(a.id) - Number(b.id));',
		to: 'return signers;',
		tests: ['test/ESign/document/tags.test.ts'],
		guards: ['gives tag signer n to the document’s n-th signer in signing order'],
	},
	{
		name: 'a form field no Form Field Signers row assigns goes to the first signer (no error listing it)',
		file: 'nodes/ESign/helpers/formFields.ts',
		from: 'return signerCount === 1 ? 1 : undefined;',
		to: 'return 1;',
		tests: ['test/unit/ESign/formFields.test.ts', 'test/ESign/document/formFields.slow.test.ts'],
		guards: ['fields no rule assigns stop the item', 'refused before any request when two signers and no row says who fills some fields'],
	},
	{
		name: 'a hidden form field becomes a field signers cannot see on the page',
		file: 'nodes/ESign/helpers/formFields.ts',
		from: "if (widget.hidden) return 'hidden: a PDF viewer does not show it';",
		to: '',
		tests: ['test/unit/ESign/formFields.test.ts', 'test/ESign/document/formFields.slow.test.ts'],
		guards: ['read-only, hidden, push-button and radio fields are left out', 'each usable form field becomes a field over its rectangle'],
	},
	{
		// Fields are placed on the page as displayed: a turned page's text is found where a viewer shows it.
		name: "the PDF reader ignores a page's /Rotate (positions on a turned page as if it were upright)",
		file: 'nodes/ESign/pdf/pages.ts',
		from: 'case 90:\n\t\t\treturn [0, 1, 1, 0, -y0, -x0];',
		to: 'case 90:\n\t\t\treturn [1, 0, 0, -1, -x0, y1];',
		tests: ['test/unit/pdf/oracle.slow.test.ts'],
		guards: ['agreement-rotate90.pdf'],
	},
	{
		// Anchors are matched as people type them (issue 41): a straight quote finds the PDF's curly one.
		name: "anchor texts no longer fold typographic quotes (\"Tenant's\" does not find \"Tenant’s\")",
		file: 'nodes/ESign/textTags/fold.ts',
		from: "\t[QUOTES, \"'\"],\n",
		to: '',
		tests: ['test/unit/textTags/anchors.test.ts', 'test/ESign/document/tags.test.ts'],
		guards: ['a straight quote finds a typographic one', 'an anchor typed with a straight quote finds the PDF’s curly one'],
	},
	{
		// Text wholly outside the displayed page is neither an anchor nor a tag (issue 41): a viewer shows none of it.
		name: 'the PDF reader keeps text drawn wholly outside the displayed page',
		file: 'nodes/ESign/pdf/index.ts',
		from: 'new LineBuilder(keep, { width: page.width, height: page.height })',
		to: 'new LineBuilder(keep)',
		tests: ['test/unit/pdf/layout.test.ts', 'test/ESign/document/tags.test.ts'],
		guards: ['text past the CropBox of a turned page is not a line', 'text drawn off the page is not searched'],
	},
	{
		name: 'Return All reads on past the last page the site names (X-ESIGN-TotalPages)',
		file: 'nodes/shared/pages.ts',
		from: 'if (totalPages !== undefined) return page < totalPages;',
		to: '',
		tests: ['test/ESign/document/document.test.ts'],
		guards: ['Return All with exactly 200 documents stops at TotalPages (no empty third page)'],
	},
	{
		// Without page counts (a proxy stripped them), a short page is the last one.
		name: 'Return All reads on after a short page when the site gives no page count',
		file: 'nodes/shared/pages.ts',
		from: 'return itemCount >= perPage;',
		to: 'return true;',
		tests: ['test/ESign/document/document.test.ts'],
		guards: [/^Document → Get Many, Return All on a site without page-count headers 230 documents/],
	},
	{
		name: 'a Limit reads every page instead of stopping once it has enough',
		file: 'nodes/shared/transport/index.ts',
		from: 'return limit === undefined || results.length < limit;',
		to: 'return true;',
		tests: ['test/ESign/document/document.test.ts'],
		guards: ['a Limit fetches no extra page', 'a Limit of 150 reads only the 2 pages it needs'],
	},
	{
		// A 5xx or a dropped connection may come after the site ran the send: the signers may have been emailed.
		name: "Create and Send deletes its document after a 5xx or a dropped send (one the signers may already have)",
		file: 'nodes/ESign/actions/document/createAndSend.operation.ts',
		from: 'const definite = httpCode >= 400 && httpCode < 500;',
		to: 'const definite = true;',
		tests: ['test/ESign/document/createAndSend.test.ts'],
		guards: ['a 500 after the site ran the send keeps the document', 'a dropped connection on send is treated the same way'],
	},
	{
		name: 'Create and Send keeps its draft after a definite refusal (4xx) instead of deleting it',
		file: 'nodes/ESign/actions/document/createAndSend.operation.ts',
		from: 'const definite = httpCode >= 400 && httpCode < 500;',
		to: 'const definite = false;',
		tests: ['test/ESign/document/createAndSend.test.ts'],
		guards: ['a refusal at the fields step deletes the draft and says which step failed'],
	},
	{
		// A 200 is a promise (issue 31): the trigger leaves the answer to n8n, which gives it once the run exists.
		name: 'the trigger answers an accepted delivery itself, before n8n has created its run (as before issue 31)',
		file: 'nodes/ESignTrigger/receive.ts',
		from: '\treturn { workflowData: [[{ json }]] };',
		to: "\tres.status(200).json({ message: 'Workflow was started' });\n\tres.end();\n\treturn { workflowData: [[{ json }]], noWebhookResponse: true };",
		tests: ['test/ESignTrigger/deliveries.test.ts'],
		guards: [/^a 200 is a promise: .*the run cannot be created/, 'an accepted delivery is answered by n8n once its run exists'],
	},
	{
		// Only a 2xx from n8n means the run exists: a delivery n8n refused is never a repeat.
		name: "the trigger takes n8n's 500 for a delivery whose run exists (its resend would be a \"repeat\")",
		file: 'nodes/ESignTrigger/inProcess.ts',
		from: "if (!(status >= 200 && status < 300)) return 'refused';",
		to: '',
		tests: ['test/ESignTrigger/deliveries.test.ts'],
		guards: [/^a 200 is a promise: .*the run cannot be created/, 'a copy while n8n refuses the first goes ahead'],
	},
	{
		name: 'the run records nothing (Ignore Repeated Deliveries lets every repeat run again)',
		file: 'nodes/ESignTrigger/run.ts',
		from: "\tremember(this.getWorkflowStaticData('node'), [...recentRuns(key), id]);\n\trunExists(key, id);",
		to: '',
		tests: ['test/ESignTrigger/deliveries.test.ts'],
		guards: ['a byte-identical repeat is answered 200 and does not run the workflow again'],
	},
	{
		name: 'Reject Deliveries Older Than ignores the zone of an ISO 8601 timestamp',
		file: 'nodes/ESignTrigger/timestamps.ts',
		from: "\tif (zone.toUpperCase() === 'Z') return wall + fraction;",
		to: '\treturn undefined;',
		tests: ['test/ESignTrigger/deliveries.test.ts'],
		guards: [/^Reject Deliveries Older Than .*ISO 8601 with Z: two hours old is stale/],
	},
	{
		// One error policy (issue 43): a limit met while reading stops the read, wherever a fallback stands.
		name: 'the PDF reader falls back past a limit (a decompression bomb in a ToUnicode map reads as no map)',
		file: 'nodes/ESign/pdf/recover.ts',
		from: "return error instanceof PdfError && (error.kind === 'damaged' || error.kind === 'unsupported');",
		to: 'return error instanceof PdfError;',
		tests: ['test/unit/pdf/recover.test.ts'],
		guards: ['a limit stops the read in a ToUnicode map', "in a hybrid file's xref stream"],
	},
	{
		name: 'the PDF reader turns a programming error (a TypeError) into a repair, as if the data were damaged',
		file: 'nodes/ESign/pdf/recover.ts',
		from: "return error instanceof PdfError && (error.kind === 'damaged' || error.kind === 'unsupported');",
		to: "return !(error instanceof PdfError) || error.kind === 'damaged' || error.kind === 'unsupported';",
		tests: ['test/unit/pdf/recover.test.ts'],
		guards: ['a TypeError while parsing a ToUnicode map reaches the caller', 'a TypeError while reading the cross-reference is not answered by a rebuild'],
	},
	{
		// The control: proves that a guard failing on a TypeError is not counted. It must be reported NOT caught.
		name: 'control: a TypeError thrown inside the page walk (a crash, not a broken promise)',
		control: true,
		file: 'nodes/shared/pages.ts',
		from: 'for (let page = 1; ; page++) {',
		to: 'for (let page = (null as unknown as { first: number }).first; ; page++) {',
		tests: ['test/unit/ESignStatusTrigger/detect.test.ts'],
		guards: ['without X-ESIGN-TotalPages a full page is followed by one more read, and a short page ends the list'],
	},
].filter((m) => !process.env.MUTATION_ONLY || m.name.includes(process.env.MUTATION_ONLY));

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
