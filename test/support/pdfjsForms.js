// The pdf.js form-field oracle (test/support/pdfjsForms.mjs) for the TypeScript tests, in a child process (pdf.js
// needs Node >= 22 and is an ES module): the widgets pdf.js's page.getAnnotations() reports, boxes on the viewport.
const { spawn } = require('node:child_process');
const path = require('node:path');

const ORACLE = path.join(__dirname, 'pdfjsForms.mjs');
const NODE =
	Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : path.join(__dirname, '..', '..', 'node_modules', '.bin', 'node');

/** input: a file path, or the bytes (sent on stdin). */
function readFormsWithPdfjs(input, options = {}) {
	const args = [ORACLE, typeof input === 'string' ? input : '-'];
	if (options.password !== undefined) args.push('--password', options.password);
	return new Promise((resolve, reject) => {
		const child = spawn(NODE, args, { stdio: ['pipe', 'pipe', 'pipe'] });
		const out = [];
		const err = [];
		child.stdout.on('data', (chunk) => out.push(chunk));
		child.stderr.on('data', (chunk) => err.push(chunk));
		child.on('error', reject);
		child.on('close', (code) => {
			if (code !== 0) {
				reject(new Error(`pdfjsForms.mjs exited with ${code}: ${Buffer.concat(err).toString().trim()}`));
				return;
			}
			try {
				resolve(JSON.parse(Buffer.concat(out).toString()));
			} catch (error) {
				reject(error);
			}
		});
		child.stdin.end(typeof input === 'string' ? undefined : Buffer.from(input));
	});
}

module.exports = { readFormsWithPdfjs };
