// The pdf.js form-field oracle (test/support/pdfjsForms.mjs) for the TypeScript tests, in a child process (pdf.js
// needs Node >= 22 and is an ES module): the widgets pdf.js's page.getAnnotations() reports, boxes on the viewport.
const { runJsonChild } = require('./pdfjs');
const path = require('node:path');

const ORACLE = path.join(__dirname, 'pdfjsForms.mjs');

/** input: a file path, or the bytes (sent on stdin). */
function readFormsWithPdfjs(input, options = {}) {
	const args = [ORACLE, typeof input === 'string' ? input : '-'];
	if (options.password !== undefined) args.push('--password', options.password);
	return runJsonChild(args, input, 'pdfjsForms.mjs');
}

module.exports = { readFormsWithPdfjs };
