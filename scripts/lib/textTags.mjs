// Text tags in real n8n (issues 37 and 42): what example 8 must make a site do. The fields stand where pdf.js reads
// the contract's (black) tags, and once both signers signed, the signed PDF the site hands out shows no tag text and
// has each signature stamped over its tag (read back with pdf.js: the signer's name, which the site stamps as the
// signature, lies inside the tag's box). The last signed contract is kept for the docs' picture (signedPagePicture).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { readPdf } from '../../test/support/pdfjsOracle.mjs';
import { assert } from './assert.mjs';
import { RUNTIME_ROOT } from './runtime.mjs';
import { ensureDebianPackages } from './services.mjs';

export const SIGNED_CONTRACT = path.join(RUNTIME_ROOT, 'e2e-logs', 'text-tags-signed.pdf');
const SIGNERS = [
	['Carla Client', '{{signature:1____}}'],
	['Pete Provider', '{{signature:2____}}'],
];
const SLACK = 2; // points: the stamped text sits inside the field, drawn at the tag's box

const fail = (message) => assert(false, message);

const inside = (inner, outer) =>
	inner[0] >= outer[0] - SLACK && inner[1] >= outer[1] - SLACK && inner[2] <= outer[2] + SLACK && inner[3] <= outer[3] + SLACK;

/** Example 8's checks on `site` for the document `docId` its run created and completed. */
export async function signedOverTags(site, docId) {
	const doc = await site.document(docId);
	if (doc?.status !== 'completed') fail(`document ${docId} status ${doc?.status}, expected completed`);
	const original = await readPdf(await site.sample('tagged-contract.pdf'), { glyphs: false });
	const fields = (await site.call('GET', `/documents/${docId}/fields`)).body;
	if (!Array.isArray(fields) || fields.length !== original.tags.length) fail(`${fields?.length} fields for ${original.tags.length} tags`);
	// Every field covers a tag (the checkbox: a square at the tag's left).
	for (const tag of original.tags) {
		const [left, top] = tag.box;
		const near = fields.find((f) => Number(f.page_number) === tag.page && Math.abs(Number(f.position_x) - left) <= 1 && Math.abs(Number(f.position_y) - top) <= 1);
		if (!near) fail(`no field at tag ${tag.text} (page ${tag.page}, ${left.toFixed(1)}, ${top.toFixed(1)})`);
	}
	const file = (await site.call('GET', `/documents/${docId}/file`)).body;
	const signed = Buffer.from(String(file?.content ?? ''), 'base64');
	if (signed.subarray(0, 5).toString('latin1') !== '%PDF-') fail(`the signed file is not a PDF (${file?.type})`);
	fs.mkdirSync(path.dirname(SIGNED_CONTRACT), { recursive: true });
	fs.writeFileSync(SIGNED_CONTRACT, signed);
	// The tags are black: the node removed them from the file it uploaded (issue 42), so no page shows any of their text.
	const left = await readPdf(signed, { glyphs: false, anchors: ['{{', '}}'] });
	const traces = left.pages.flatMap((page) => page.anchors.map((a) => `${a.text} on page ${page.page}`));
	if (left.tags.length || left.braces.length || traces.length) fail(`the signed PDF still shows tag text: ${[...left.tags, ...left.braces].map((t) => t.text).concat(traces).join(', ')}`);
	const stamped = await readPdf(signed, { glyphs: false, anchors: SIGNERS.map(([name]) => name), pages: [2] });
	const notes = [];
	for (const [name, tagText] of SIGNERS) {
		const tag = original.tags.find((t) => t.text === tagText);
		const names = stamped.pages[0].anchors.filter((a) => a.text === name);
		const over = names.find((a) => inside(a.box, tag.box));
		if (!over) fail(`no "${name}" stamped inside tag ${tagText} ${JSON.stringify(tag.box)}; found at ${JSON.stringify(names.map((a) => a.box))}`);
		notes.push(`${name}'s signature stamped at ${over.box.map((n) => n.toFixed(0)).join(',')} inside ${tagText}`);
	}
	return `${fields.length} fields on the ${original.tags.length} tags; completed; no tag text in the signed PDF (pdf.js); ${notes.join('; ')}`;
}

/** The signed contract's signature page as a PNG (pdftoppm, Debian's poppler-utils), for the docs. */
export function signedPagePicture(out, say = console.log) {
	if (!fs.existsSync(SIGNED_CONTRACT)) throw new Error(`${SIGNED_CONTRACT} is missing: example 8 did not run to the end`);
	ensureDebianPackages([{ command: 'pdftoppm', package: 'poppler-utils' }], say);
	const stem = out.replace(/\.png$/, '');
	const r = spawnSync('pdftoppm', ['-png', '-r', '72', '-f', '2', '-l', '2', '-singlefile', '-x', '0', '-y', '0', '-W', '595', '-H', '470', SIGNED_CONTRACT, stem], { encoding: 'utf8' });
	if (r.status !== 0) throw new Error(`pdftoppm failed: ${r.stderr}`);
	return `${path.relative(process.cwd(), out)} (${fs.statSync(out).size} bytes)`;
}
