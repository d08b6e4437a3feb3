// The pdf.js oracle (test/support/pdfjsOracle.mjs) and the PDF fixtures (test/fixtures/pdf/) for the TypeScript tests,
// which may not use Node built-ins themselves (the community lint forbids them in .ts). The oracle is an ES module
// that patches pdf.js's worker, so it runs in a child process (of this Node: 24 under npm test).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ORACLE = path.join(__dirname, 'pdfjsOracle.mjs');
// pdfjs-dist needs Node >= 22: this Node when it is new enough (npm test runs Node 24), else the `node` devDependency's.
const NODE =
	Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : path.join(__dirname, '..', '..', 'node_modules', '.bin', 'node');
const PDF_FIXTURES_DIR = path.join(__dirname, '..', 'fixtures', 'pdf');

/**
 * Reads a PDF with pdf.js: { pdfjs, numPages, pages: [{ page, width, height, rotate, anchors, glyphs? }], tags, braces }.
 * input: a file path, or the bytes (sent on stdin). options: { anchors, password, glyphs (default true), pages }.
 */
function readPdfWithPdfjs(input, options = {}) {
	const args = [ORACLE, typeof input === 'string' ? input : '-'];
	for (const anchor of options.anchors ?? []) args.push('--anchor', anchor);
	if (options.password !== undefined) args.push('--password', options.password);
	if (options.glyphs === false) args.push('--no-glyphs');
	if (options.pages) args.push('--pages', options.pages.join(','));
	return runJsonChild(args, input, 'pdfjsOracle.mjs');
}

/** test/fixtures/pdf/manifest.json. */
function readPdfFixtureManifest() {
	return JSON.parse(fs.readFileSync(path.join(PDF_FIXTURES_DIR, 'manifest.json'), 'utf8'));
}

/** A fixture's path and bytes (undefined bytes when it is not on disk, e.g. a git-ignored one not made yet). */
function readPdfFixture(file) {
	const full = path.join(PDF_FIXTURES_DIR, file);
	return { path: full, bytes: fs.existsSync(full) ? fs.readFileSync(full) : undefined };
}

/** Runs NODE with `args` (the script first), `input` on stdin when it is bytes, and parses its JSON answer. */
function runJsonChild(args, input, label) {
	return new Promise((resolve, reject) => {
		const child = spawn(NODE, args, { stdio: ['pipe', 'pipe', 'pipe'] });
		const out = [];
		const err = [];
		child.stdout.on('data', (chunk) => out.push(chunk));
		child.stderr.on('data', (chunk) => err.push(chunk));
		child.on('error', reject);
		child.on('close', (code) => {
			if (code !== 0) {
				reject(new Error(`${label} exited with ${code}: ${Buffer.concat(err).toString().trim()}`));
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

module.exports = { PDF_FIXTURES_DIR, runJsonChild, readPdfWithPdfjs, readPdfFixtureManifest, readPdfFixture };
