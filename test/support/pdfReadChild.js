'use strict';
/**
 * A child process that reads PDFs with the reader compiled by test/support/pdfReader.js (its path is argv[2]), one
 * message at a time, as the node reads them (every page's lines, then its tags and anchor texts; then the form fields): { id, bytes, maxPages, limits } in, { id, outcome, … } out. Run by `fork` with the
 * 'advanced' serialization (bytes arrive as a Uint8Array). A crash of the process itself (V8 out of memory, a native
 * abort) is seen by the parent as the child's exit.
 */
const path = require('node:path');

const { PdfText, PdfError } = require(process.argv[2]);
// The node's text matching, compiled beside the reader (test/support/pdfReader.js).
const TEXT_TAGS = path.join(path.dirname(process.argv[2]), '..', 'textTags');
const { findTags, mayHoldTag } = require(path.join(TEXT_TAGS, 'tags.js'));
const { findAnchors } = require(path.join(TEXT_TAGS, 'anchors.js'));
const { fillCheck, rewriteCheck } = require('./pdfRewriteCheck.js');
// The fill (issue 51), compiled beside the reader too.
const fill = require(path.join(path.dirname(process.argv[2]), '..', 'helpers', 'pdfFill.js'));

/** Anchor texts looked for on every page, as the node does when a workflow names some. */
const ANCHORS = ['Signature:', 'a'];

async function read(message) {
	const started = performance.now();
	const answer = (result) => ({ id: message.id, ...result, ms: performance.now() - started, rssMb: process.resourceUsage().maxRSS / 1024 });
	try {
		const pdf = await PdfText.open(new Uint8Array(message.bytes), message.limits || {});
		let lines = 0;
		let tags = 0;
		let anchors = 0;
		const texts = [];
		for (const page of pdf.pages.slice(0, message.maxPages ?? Infinity)) {
			const read = await pdf.lines(page.number);
			lines += read.length;
			for (const line of read) if (texts.length < 20) texts.push(line.text.slice(0, 200));
			// What the node does with a page's lines: its tags (and other braces), and each anchor text's places.
			tags += findTags(read.filter(mayHoldTag), page.number, []).length;
			for (const matches of findAnchors(read, page.number, ANCHORS).values()) anchors += matches.length;
		}
		// What the node reads when a workflow takes its fields from the PDF's own form fields.
		const fields = await pdf.formFields();
		// The tag removal on every file that reads (issue 42): a broken upload is a crash-like finding.
		const rewrite = message.rewrite === false ? undefined : await rewriteCheck({ PdfText, findTags, mayHoldTag }, new Uint8Array(message.bytes), message.limits || {});
		const filled = message.rewrite === false ? undefined : await fillCheck({ PdfText }, fill, new Uint8Array(message.bytes), message.limits || {});
		return answer({ outcome: 'ok', pages: pdf.pages.length, lines, tags, anchors, texts, fields: fields.length, rewrite, filled });
	} catch (error) {
		if (error instanceof PdfError) return answer({ outcome: 'PdfError', kind: error.kind, message: error.message });
		return answer({ outcome: 'crash', name: error && error.name, message: String(error && error.message), stack: String(error && error.stack) });
	}
}

process.on('message', (message) => {
	read(message).then((result) => process.send(result));
});
