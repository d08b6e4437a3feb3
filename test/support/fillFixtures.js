'use strict';
// The fill fixtures (test/fixtures/pdf/fill/, issue 51: fill a PDF from the workflow) for the TypeScript tests, which may
// not use Node built-ins themselves (the community lint forbids them in .ts), and for scripts/fill-check.mjs. Made by
// scripts/pdf-fixtures/makeFill.mjs; manifest.json says what each file exercises, the values to fill it with and where
// each must appear.
const fs = require('node:fs');
const path = require('node:path');

const FILL_FIXTURES_DIR = path.join(__dirname, '..', 'fixtures', 'pdf', 'fill');

/** test/fixtures/pdf/fill/manifest.json. */
function readFillManifest() {
	return JSON.parse(fs.readFileSync(path.join(FILL_FIXTURES_DIR, 'manifest.json'), 'utf8'));
}

/** A fill fixture's path and bytes (undefined bytes when the file is missing). */
function readFillFixture(file) {
	const full = path.join(FILL_FIXTURES_DIR, file);
	return { path: full, bytes: fs.existsSync(full) ? fs.readFileSync(full) : undefined };
}

module.exports = { FILL_FIXTURES_DIR, readFillManifest, readFillFixture };
