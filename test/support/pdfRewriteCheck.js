'use strict';
/**
 * The tag removal run on a file the reader read (issue 42), for the fuzzer and the hostile-file checks: every tag
 * found is marked, the update written, and the upload read again. Throws a plain Error (a finding, not a PdfError)
 * when the upload breaks what the removal promises: the original bytes in front, the same pages, the removed tags
 * gone, and an unchanged upload being the original itself. Then the form-widget removal (widgetCheck), alone and,
 * where the file has both, with the tags in the same update. `reader`: { PdfText, findTags, mayHoldTag }, compiled
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
	const alone = await widgetCheck(reader, bytes, limits);
	// Both in one update (the seam TagRemover.write(extra)) only where the file has both.
	const both = alone && tags ? await widgetCheck(reader, bytes, limits, { left: tags - result.removed }) : undefined;
	const widgets = alone && { ...alone, both };
	if (!result.changed) {
		if (result.bytes !== bytes) throw new Error('rewrite: an unchanged upload is not the original bytes');
		return { ...summary, widgets };
	}
	expectPrefix('rewrite', result.bytes, bytes);
	let out;
	try {
		out = await PdfText.open(result.bytes, limits);
	} catch (error) {
		throw new Error(`rewrite: the upload no longer opens: ${error && error.message}`);
	}
	if (out.pages.length !== pdf.pages.length) throw new Error(`rewrite: ${pdf.pages.length} pages became ${out.pages.length}`);
	const left = await tagsIn(reader, out);
	if (left > tags - result.removed) throw new Error(`rewrite: ${left} tags left after removing ${result.removed} of ${tags}`);
	return { ...summary, left, widgets };
}

/**
 * The fill run on a file the reader read (issue 51), for the fuzzer: every form field and data tag given a value it
 * takes (a text, true, the first choice), checked and drawn, the update written and read again. A refusal of the fill
 * (its problems) is an answer, not a finding; a thrown error other than the reader's own is. Throws a plain Error
 * when the upload breaks what the fill promises: the original in front, the same pages, the filled widgets and the
 * data tags gone. `fill`: helpers/pdfFill.js, compiled beside the reader.
 */
async function fillCheck({ PdfText }, fill, bytes, limits = {}) {
	const pdf = await PdfText.open(bytes, limits);
	const values = {};
	for (const widget of await pdf.formFields()) {
		const look = widget.look;
		if (widget.hidden) continue; // refused by the fill (a viewer does not show it)
		if (widget.kind === 'text' || widget.kind === 'textarea') values[widget.name] = 'Fuzz 1';
		else if (widget.kind === 'checkbox') values[widget.name] = true;
		else if (widget.kind === 'dropdown' && look && look.choices.length) values[widget.name] = look.choices[0][1];
		else if (widget.kind === 'radio' && look && look.exportValue) values[widget.name] = look.exportValue;
	}
	const probe = await fill.planFill(pdf, {});
	for (const problem of probe.problems) if (/^The data tag .* has no value$/.test(problem.message)) values[problem.name] = 'v';
	if (!Object.keys(values).length) return undefined; // nothing to fill
	const plan = await fill.planFill(await PdfText.open(bytes, limits), values);
	if (plan.problems.length) return { filled: 0, refused: plan.problems.length };
	const { removal, problems } = await fill.writeFill(plan);
	if (problems.length || !removal.changed) return { filled: plan.filled.length, refused: problems.length, changed: removal.changed };
	expectPrefix('fill', removal.bytes, bytes);
	let out;
	try {
		out = await PdfText.open(removal.bytes, limits);
	} catch (error) {
		throw new Error(`fill: the upload no longer opens: ${error && error.message}`);
	}
	if (out.pages.length !== pdf.pages.length) throw new Error(`fill: ${pdf.pages.length} pages became ${out.pages.length}`);
	const left = new Set((await out.formFields()).map((w) => w.name));
	const still = plan.filled.filter((name) => left.has(name));
	if (still.length) throw new Error(`fill: the filled fields ${still.join(', ')} are still in the file`);
	return { filled: plan.filled.length, refused: 0, changed: true };
}

function expectPrefix(what, upload, bytes) {
	if (upload.length < bytes.length) throw new Error(`${what}: the upload (${upload.length} bytes) is shorter than the original (${bytes.length})`);
	for (let i = 0; i < bytes.length; i++) if (upload[i] !== bytes[i]) throw new Error(`${what}: the upload differs from the original at byte ${i}`);
}

async function tagsIn({ findTags, mayHoldTag }, pdf) {
	let left = 0;
	for (const page of pdf.pages) left += findTags(await pdf.lines(page.number, mayHoldTag), page.number, []).length;
	return left;
}

/**
 * Which widgets become eSign fields: helpers/formFields.ts leftOutBecause, restated here because the compiled reader
 * the fuzz children load holds the reader and the text matching only (formFields.ts imports n8n-workflow).
 * test/unit/pdf/widgetRemoval.test.ts holds this copy to the node's rule on the fillable fixtures.
 */
const FIELD_KINDS = new Set(['signature', 'text', 'textarea', 'checkbox', 'dropdown']);
const becomesField = (w) => FIELD_KINDS.has(w.kind) && !w.hidden && !w.readOnly && !(w.kind === 'dropdown' && !(w.options && w.options.length));

/** A widget as the check compares it: name, page and rectangle. */
const widgetKey = (w) => JSON.stringify([w.name, w.page, w.box.left, w.box.top, w.box.right, w.box.bottom]);

function tally(widgets) {
	const counts = new Map();
	for (const w of widgets) counts.set(widgetKey(w), (counts.get(widgetKey(w)) ?? 0) + 1);
	return counts;
}

async function pageTexts(pdf) {
	const texts = [];
	for (const page of pdf.pages) texts.push((await pdf.lines(page.number)).map((line) => line.text).join('\n'));
	return texts;
}

/**
 * The form-widget removal (widgetRemoval.ts) on a file whose form has widgets that become fields, as the node runs
 * it: the widgets that become fields removed. A finding when the original is not a prefix (or an unchanged upload is
 * not the original), the upload does not open with the same pages, a removed widget is still read, a widget not
 * removed (not given, or given and named in `skipped`) is no longer read (name + page + rect), or a page's text
 * changed. `tags` ({ left }: what the tag removal alone left): the tags removed in the same update too
 * (TagRemover.write(extra)), and no more tags left than alone. Undefined when the file has no such widget.
 */
async function widgetCheck(reader, bytes, limits = {}, tags) {
	const { PdfText } = reader;
	const pdf = await PdfText.open(bytes, limits);
	const widgets = await pdf.formFields();
	const usable = widgets.filter(becomesField);
	if (!usable.length) return undefined;
	const texts = tags ? undefined : await pageTexts(pdf);
	let remover;
	if (tags) {
		remover = pdf.tagRemover();
		for (const page of pdf.pages) {
			const lines = await pdf.lines(page.number, reader.mayHoldTag, { sources: true });
			for (const tag of reader.findTags(lines, page.number, [])) remover.removeTag(tag, lines);
		}
	}
	const what = tags ? 'widgets and tags' : 'widgets';
	const result = await pdf.removeWidgets(usable, remover);
	const summary = { widgets: widgets.length, usable: usable.length, changed: result.changed, removed: result.removed, skipped: result.skipped.length, reason: result.reason };
	if (!result.changed) {
		if (result.bytes !== bytes) throw new Error(`${what}: an unchanged upload is not the original bytes`);
		if (result.reason === undefined && result.skipped.length < usable.length) throw new Error(`${what}: nothing written, no reason given, and ${usable.length - result.skipped.length} widgets neither removed nor named as left`);
		return summary;
	}
	expectPrefix(what, result.bytes, bytes);
	let out;
	try {
		out = await PdfText.open(result.bytes, limits);
	} catch (error) {
		throw new Error(`${what}: the upload no longer opens: ${error && error.message}`);
	}
	if (out.pages.length !== pdf.pages.length) throw new Error(`${what}: ${pdf.pages.length} pages became ${out.pages.length}`);
	let after;
	try {
		after = await out.formFields();
	} catch (error) {
		throw new Error(`${what}: the upload's form fields no longer read: ${error && error.message}`);
	}
	// What should stay: every widget read before, less the ones given and not named as left in place.
	const expected = tally(widgets);
	const kept = [...result.skipped];
	for (const w of usable) {
		const at = kept.findIndex((s) => s.page === w.page && s.text === w.name);
		if (at >= 0) kept.splice(at, 1);
		else expected.set(widgetKey(w), expected.get(widgetKey(w)) - 1);
	}
	const found = tally(after);
	for (const key of new Set([...expected.keys(), ...found.keys()])) {
		const want = expected.get(key) ?? 0;
		const got = found.get(key) ?? 0;
		if (got > want) throw new Error(`${what}: widget ${key} read ${got} times after the removal, ${want} expected (a removed widget is still there)`);
		if (got < want) throw new Error(`${what}: widget ${key} read ${got} times after the removal, ${want} expected (a widget not removed is gone)`);
	}
	if (tags) {
		const left = await tagsIn(reader, out);
		if (left > tags.left) throw new Error(`${what}: ${left} tags left, ${tags.left} when removed alone`);
		return { ...summary, tagsLeft: left };
	}
	const textsAfter = await pageTexts(out);
	for (let i = 0; i < texts.length; i++) if (textsAfter[i] !== texts[i]) throw new Error(`${what}: the text of page ${i + 1} changed`);
	return summary;
}

module.exports = { fillCheck, rewriteCheck, widgetCheck, becomesField };
