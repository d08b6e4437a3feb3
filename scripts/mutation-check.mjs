#!/usr/bin/env node
// `npm run test:mutation`: proves the safety tests can fail. Each mutation breaks one safety rule in a
// temporary copy of the package, runs the suites that guard it, and passes only if they FAIL there.
// Prints `N passed, M failed` last (a passed check = the tests caught the mutation).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MUTATIONS = [
	{
		name: 'the transport repeats writes after a 5xx or a dropped connection',
		file: 'nodes/shared/transport/exchange.ts',
		from: "if (call.method !== 'GET' || call.failures >= GET_RETRIES) return false;",
		to: 'if (call.failures >= GET_RETRIES) return false;',
		tests: ['test/shared/transport.test.ts'],
	},
	{
		name: 'the trigger verifies re-serialised JSON instead of the raw bytes',
		file: 'nodes/ESignTrigger/receive.ts',
		from: 'const check = verifySignature(rawBody, signature, secret);',
		to: 'const check = verifySignature(reserialised(rawBody), signature, secret);',
		append: `\nfunction reserialised(raw: unknown): unknown {\n\ttry {\n\t\treturn Buffer.from(JSON.stringify(JSON.parse(Buffer.from(raw as Uint8Array).toString('utf8'))));\n\t} catch {\n\t\treturn raw;\n\t}\n}\n`,
		tests: ['test/ESignTrigger/trigger.test.ts'],
	},
	{
		name: 'the transport follows redirects (sending the key and secret to the target)',
		file: 'nodes/shared/transport/exchange.ts',
		from: 'disableFollowRedirect: true,',
		to: 'disableFollowRedirect: false,',
		tests: ['test/shared/transport.hostile.test.ts'],
	},
	{
		name: 'the credential is read on every request again',
		file: 'nodes/shared/transport/exchange.ts',
		from: 'call.decrypted ? { credentialsDecrypted: call.decrypted } : undefined,',
		to: 'undefined,',
		tests: ['test/shared/credentials.test.ts'],
	},
	{
		name: 'the eSign Tool throws its failures again (the model hears only n8n\'s bare message)',
		file: 'nodes/ESign/actions/router.ts',
		from: 'const asTool = answersAsTool.call(this);',
		to: 'const asTool = false;',
		tests: ['test/ESign/tool.test.ts'],
	},
	{
		// Only a front's page means nothing ran: after the API's own JSON answer a write never goes out again.
		name: 'the transport sends a write again in another form after the API answered it',
		file: 'nodes/shared/transport/override.ts',
		from: 'return !(parsed.json && isPlainObject(parsed.value));',
		to: 'return true;',
		tests: ['test/shared/firewall.test.ts'],
	},
	{
		name: 'PUT and DELETE refused by a firewall are never sent in WordPress\'s override form',
		file: 'nodes/shared/transport/override.ts',
		from: "const ladder: SendForm[] = ['method', 'query', 'header'];",
		to: "const ladder: SendForm[] = ['method'];",
		tests: ['test/shared/firewall.test.ts'],
	},
	{
		// The transport blanks them in every error it builds; the tool answer blanks again (a second layer).
		name: 'errors keep the credential values a site echoed back',
		file: 'nodes/shared/transport/errors.ts',
		from: 'const clean = (text: string) => blank(text, info.secrets);',
		to: 'const clean = (text: string) => text;',
		tests: ['test/unit/shared/hosting.test.ts'],
	},
];

const copyInto = (dir) => {
	for (const entry of ['nodes', 'credentials', 'test', 'package.json', 'tsconfig.json', 'tsconfig.test.json', 'jest.config.js']) {
		fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
	}
	fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
};

let passed = 0;
let failed = 0;
for (const m of MUTATIONS) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'esign-mutation-'));
	try {
		copyInto(dir);
		const file = path.join(dir, m.file);
		const source = fs.readFileSync(file, 'utf8');
		if (!source.includes(m.from)) throw new Error(`${m.file} no longer contains the line to mutate: ${m.from}`);
		fs.writeFileSync(file, source.replace(m.from, m.to) + (m.append ?? ''));
		const run = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'jest'), ['--rootDir', dir, ...m.tests], { cwd: dir, encoding: 'utf8' });
		const summary = /Tests:\s+(.*)/.exec(run.stderr + run.stdout)?.[1] ?? 'no summary';
		if (run.status !== 0 && /failed/.test(summary)) {
			passed++;
			console.log(`PASS caught: ${m.name} (${summary})`);
		} else {
			failed++;
			console.log(`FAIL not caught: ${m.name} (${summary})`);
		}
	} catch (err) {
		failed++;
		console.log(`FAIL ${m.name}: ${err.message}`);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
