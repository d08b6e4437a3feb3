// What the sandbox's TypeScript suites need from Node's built-ins. The community lint keeps `node:` imports,
// `process`, timers and `__dirname` out of every .ts file, tests included; .js files are not linted that way.
const crypto = require('node:crypto');
const fs = require('node:fs');
const https = require('node:https');
const os = require('node:os');
const path = require('node:path');
const tls = require('node:tls');
const { spawn } = require('node:child_process');

/**
 * A fresh folder under the system's temp folder, and the file operations the persistence suite makes in it.
 * Names are relative to the folder; `readAt` takes an absolute path (a file the sandbox moved aside).
 * @param {string} prefix
 */
function tempFolder(prefix) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	/** @param {string[]} parts */
	const at = (...parts) => path.join(dir, ...parts);
	return {
		dir,
		/** @param {string[]} parts */
		path: at,
		/** @param {string[]} parts */
		exists: (...parts) => fs.existsSync(at(...parts)),
		/** @param {string} name @returns {Buffer} */
		bytes: (name) => fs.readFileSync(at(name)),
		/** @param {string} name @returns {string} */
		text: (name) => fs.readFileSync(at(name), 'utf8'),
		/** @param {string} file an absolute path @returns {string} */
		readAt: (file) => fs.readFileSync(file, 'utf8'),
		/** @param {string} name @param {string} text */
		write: (name, text) => fs.writeFileSync(at(name), text),
		/** @param {string} name @param {string} text */
		append: (name, text) => fs.appendFileSync(at(name), text),
		/** @param {string[]} parts @returns {string[]} */
		list: (...parts) => fs.readdirSync(at(...parts)).sort(),
		/** @param {string[]} parts */
		remove: (...parts) => fs.rmSync(at(...parts), { recursive: true, force: true }),
	};
}

/**
 * Runs `npm run sandbox` (cli.js) with these arguments until it prints its banner, then hands back how to stop
 * it (SIGTERM); a run that exits first gives its exit code. Either way with everything it printed.
 * @param {string[]} args
 * @returns {Promise<{ url?: string; out: string; code?: number | null; stop?: () => Promise<void> }>}
 */
function runSandboxCli(args) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [path.join(__dirname, 'cli.js'), '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		let stopping = false;
		/** @param {Buffer} chunk */
		const take = (chunk) => {
			out += chunk;
			const url = /running at (\S+)/.exec(out)?.[1];
			if (url && out.includes('Ctrl-C') && !stopping) {
				stopping = true;
				resolve({ url, out, stop: () => new Promise((done) => { child.once('exit', () => done()); child.kill('SIGTERM'); }) });
			}
		};
		child.stdout.on('data', take);
		child.stderr.on('data', take);
		child.once('exit', (code) => {
			if (!stopping) resolve({ code, out });
		});
		child.once('error', reject);
	});
}

/**
 * GET over HTTPS with node:https on a new connection: {status, body}, or the TLS error's code and message.
 * @param {string} url
 * @param {import('node:https').RequestOptions} [options]
 * @returns {Promise<{ status?: number; body?: string; code?: string; message?: string }>}
 */
function httpsGet(url, options = {}) {
	return new Promise((resolve) => {
		https
			.get(url, { agent: false, ...options }, (res) => {
				/** @type {Buffer[]} */
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
			})
			.on('error', (/** @type {NodeJS.ErrnoException} */ error) => resolve({ code: error.code, message: error.message }));
	});
}

/**
 * Loads a key and certificate into a TLS context as a server would (throws when Node cannot read them).
 * @param {{ key: string | Buffer; cert: string | Buffer }} pair
 */
function loadCertificate({ key, cert }) {
	tls.createSecureContext({ key, cert });
}

// Node's own crypto module object: a spy on it (jest.spyOn) reaches the sandbox's modules, which a spy on a
// TypeScript `import * as crypto` namespace copy would not.
module.exports = { tempFolder, runSandboxCli, httpsGet, loadCertificate, nodeCrypto: crypto };
