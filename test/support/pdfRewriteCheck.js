'use strict';
/**
 * The tag removal run on a file the reader read (issue 42), for the fuzzer and the hostile-file checks: every tag
 * found is marked, the update written, and the upload read again. Throws a plain Error (a finding, not a PdfError)
 * when the upload breaks what the removal promises: the original bytes in front, the same pages, the removed tags
 * gone, and an unchanged upload being the original itself. `reader`: { PdfText, findTags, mayHoldTag }, compiled
 * or from the sources.
 */
async function rewriteCheck(reader, bytes, limits = {}) {
	const { PdfText, findTags, mayHoldTag } = reader;
	const pdf = await PdfText.open(bytes, limits);
	const remover = pdf.tagRemover();
	let tags = 0;
	for (const page of pdf.pages) {
		const lines = await pdf.lines(page.number, mayHoldTag, { sources: true });
		for (const tag of findTags(lines, page.number, [])) {
			tags++;
			remover.removeTag(tag, lines);
		}
	}
	const result = await remover.write();
	const summary = { changed: result.changed, tags, removed: result.removed, skipped: result.skipped.length, reason: result.reason };
	if (!result.changed) {
		if (result.bytes !== bytes) throw new Error('rewrite: an unchanged upload is not the original bytes');
		return summary;
	}
	for (let i = 0; i < bytes.length; i++) if (result.bytes[i] !== bytes[i]) throw new Error(`rewrite: the upload differs from the original at byte ${i}`);
	let out;
	try {
		out = await PdfText.open(result.bytes, limits);
	} catch (error) {
		throw new Error(`rewrite: the upload no longer opens: ${error && error.message}`);
	}
	if (out.pages.length !== pdf.pages.length) throw new Error(`rewrite: ${pdf.pages.length} pages became ${out.pages.length}`);
	let left = 0;
	for (const page of out.pages) left += findTags(await out.lines(page.number, mayHoldTag), page.number, []).length;
	if (left > tags - result.removed) throw new Error(`rewrite: ${left} tags left after removing ${result.removed} of ${tags}`);
	return { ...summary, left };
}

module.exports = { rewriteCheck };
