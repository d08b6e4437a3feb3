'use strict';
/**
 * A child process that reads PDFs with the reader compiled by test/support/pdfReader.js (its path is argv[2]), one
 * message at a time: { id, bytes, maxPages, limits } in, { id, outcome, … } out. Run by `fork` with the
 * 'advanced' serialization (bytes arrive as a Uint8Array). A crash of the process itself (V8 out of memory, a native
 * abort) is seen by the parent as the child's exit.
 */
const { PdfText, PdfError } = require(process.argv[2]);

async function read(message) {
	const started = performance.now();
	const answer = (result) => ({ id: message.id, ...result, ms: performance.now() - started, rssMb: process.resourceUsage().maxRSS / 1024 });
	try {
		const pdf = await PdfText.open(new Uint8Array(message.bytes), message.limits || {});
		let lines = 0;
		const texts = [];
		for (const page of pdf.pages.slice(0, message.maxPages ?? Infinity)) {
			const read = await pdf.lines(page.number);
			lines += read.length;
			for (const line of read) if (texts.length < 20) texts.push(line.text.slice(0, 200));
		}
		return answer({ outcome: 'ok', pages: pdf.pages.length, lines, texts });
	} catch (error) {
		if (error instanceof PdfError) return answer({ outcome: 'PdfError', kind: error.kind, message: error.message });
		return answer({ outcome: 'crash', name: error && error.name, message: String(error && error.message), stack: String(error && error.stack) });
	}
}

process.on('message', (message) => {
	read(message).then((result) => process.send(result));
});
