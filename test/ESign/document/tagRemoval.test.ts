// Remove Tags From the PDF (issue 42), through the engine against the sandbox: Create and Send uploads the file
// with its tags no longer drawn (the original, then an incremental update), the fields placed where the tags were;
// off, or for a file that must not be rewritten, the upload is the input byte for byte. Replace All leaves the
// site's file alone. The uploaded file is read back from the sandbox and re-read with the node's reader.
import type { INodeProperties } from 'n8n-workflow';

import { description as createAndSendProperties } from '../../../nodes/ESign/actions/document/createAndSend.operation';
import { description as replaceAllProperties } from '../../../nodes/ESign/actions/field/replaceAll.operation';
import { PdfText } from '../../../nodes/ESign/pdf';
import { findTags } from '../../../nodes/ESign/textTags/tags';
import { api, esign, makeDraft, rl, useSandbox } from '../../support';
import { readPdfFixture } from '../../support/pdfjs';
import type { Json } from '../../support';

const sb = useSandbox();

const SIGNERS = {
	signer: [
		{ name: 'Carla Client', email: 'carla@example.org', role: 'signer', signingOrder: 0 },
		{ name: 'Pete Provider', email: 'pete@example.org', role: 'signer', signingOrder: 0 },
	],
};

const createAndSend = (options: Json = {}): Json => ({
	resource: 'document',
	operation: 'createAndSend',
	title: 'Website Services Agreement',
	signers: SIGNERS,
	fieldsInput: 'tags',
	options,
});

const fileInput = (data: Buffer, fileName: string) => [{ json: {}, binary: { data: { data, fileName, mimeType: 'application/pdf' } } }];

const fixture = (name: string): Buffer => readPdfFixture(name).bytes as Buffer;

/** The file the site holds for a document, as uploaded. */
const uploaded = async (id: unknown): Promise<Buffer> => Buffer.from(await (await fetch(`${sb.url}/__sandbox/documents/${String(id)}/file`)).arrayBuffer());

const hintsOf = (res: Json): string[] => (res.runData['Node Under Test']?.[0]?.hints ?? []).map((h: Json) => h.message);

/** Every page's text (white-space dropped: a removed tag may leave a gap where a space was) and its tags. */
async function reading(bytes: Buffer): Promise<{ text: string; tags: string[] }> {
	const pdf = await PdfText.open(new Uint8Array(bytes));
	let text = '';
	const tags: string[] = [];
	for (const page of pdf.pages) {
		const lines = await pdf.lines(page.number);
		text += lines.map((line) => line.text).join('');
		tags.push(...findTags(lines, page.number).map((tag) => tag.text));
	}
	return { text: text.replace(/\s+/g, ''), tags };
}

/** Where the site put each field: type, page and box, in the order saved. */
const placed = async (id: unknown) =>
	((await api(sb, 'GET', `/documents/${String(id)}/fields`)).body as Json[]).map((f) => [f.field_type, f.page_number, f.position_x, f.position_y, f.width, f.height].join(' '));

describe('Create and Send → Remove Tags From the PDF', () => {
	const black = fixture('website-contract-black.pdf');

	test('by default uploads the original followed by an update in which no tag is drawn, under the binary’s file name, fields where the tags were', async () => {
		const on = await esign(sb, createAndSend(), { input: fileInput(black, 'black-contract.pdf') });
		expect(on.error).toBeUndefined();
		expect(hintsOf(on)).toEqual([]);
		const id = on.items[0].json.id;
		const bytes = await uploaded(id);
		expect(bytes.length).toBeGreaterThan(black.length);
		expect(bytes.subarray(0, black.length).equals(black)).toBe(true);
		const before = await reading(black);
		const after = await reading(bytes);
		expect(before.tags).toHaveLength(8);
		expect(after.tags).toEqual([]);
		// The same other text: the original's with each tag's text taken out.
		expect(after.text).toBe(before.tags.reduce((text, tag) => text.replace(tag.replace(/\s+/g, ''), ''), before.text));
		expect((await api(sb, 'GET', `/documents/${String(id)}`)).body).toMatchObject({ original_filename: 'black-contract.pdf' });
		// Fields are placed from the tags as read before the removal: as with the option off.
		const off = await esign(sb, createAndSend({ removeTags: false }), { input: fileInput(black, 'black-contract.pdf') });
		expect(await placed(id)).toEqual(await placed(off.items[0].json.id));
	});

	test('the uploaded file is exactly the original followed by the writer’s update (the parts joined once, in order, nothing else)', async () => {
		// The writer's update for the same marks, made here by the reader as the node makes it.
		const pdf = await PdfText.open(new Uint8Array(black));
		const remover = pdf.tagRemover();
		for (const page of pdf.pages) {
			const lines = await pdf.lines(page.number, undefined, { sources: true });
			for (const tag of findTags(lines, page.number)) if (tag.spec) remover.removeTag(tag, lines);
		}
		const expected = await remover.write();
		expect(expected.changed).toBe(true);
		const update = Buffer.concat(expected.update as Uint8Array[]);
		const res = await esign(sb, createAndSend(), { input: fileInput(black, 'black-contract.pdf') });
		expect(res.error).toBeUndefined();
		const bytes = await uploaded(res.items[0].json.id);
		expect(bytes.length).toBe(black.length + update.length);
		expect(bytes.subarray(0, black.length).equals(black)).toBe(true);
		expect(bytes.subarray(black.length).equals(Buffer.from(update))).toBe(true);
	});

	test('off uploads the file byte for byte, tags and all', async () => {
		const res = await esign(sb, createAndSend({ removeTags: false }), { input: fileInput(black, 'black-contract.pdf') });
		expect(res.error).toBeUndefined();
		expect((await uploaded(res.items[0].json.id)).equals(black)).toBe(true);
		expect(hintsOf(res)).toEqual([]);
	});

	test('with binary data stored on disk (n8n 2.x’s filesystem mode) too: the rewritten file on, the stored file byte for byte off', async () => {
		const on = await esign(sb, createAndSend(), { input: fileInput(black, 'black-contract.pdf'), binaryMode: 'filesystem' });
		expect(on.error).toBeUndefined();
		const bytes = await uploaded(on.items[0].json.id);
		expect(bytes.length).toBeGreaterThan(black.length);
		expect(bytes.subarray(0, black.length).equals(black)).toBe(true);
		expect((await reading(bytes)).tags).toEqual([]);
		const off = await esign(sb, createAndSend({ removeTags: false }), { input: fileInput(black, 'black-contract.pdf'), binaryMode: 'filesystem' });
		expect((await uploaded(off.items[0].json.id)).equals(black)).toBe(true);
	});

	test('an encrypted file goes up unchanged, with a hint saying why and that the tags stay visible', async () => {
		const encrypted = fixture('agreement-rc4-128.pdf');
		const res = await esign(sb, createAndSend(), { input: fileInput(encrypted, 'encrypted.pdf') });
		expect(res.error).toBeUndefined();
		expect(res.items[0].json).toMatchObject({ status: 'sent' });
		expect((await uploaded(res.items[0].json.id)).equals(encrypted)).toBe(true);
		const hints = hintsOf(res);
		expect(hints).toHaveLength(1);
		expect(hints[0]).toMatch(/^Item 1: the text tags in the file in binary field "data" \(encrypted\.pdf\) were not removed: the PDF is encrypted.*The file was uploaded unchanged\. Signers see them/);
	});
});

describe('Replace All from text tags', () => {
	test('leaves the draft’s file on the site as it is, and does not offer the option', async () => {
		const black = fixture('website-contract-black.pdf');
		const doc = await makeDraft(sb, {
			file: { data: black, name: 'black-contract.pdf' },
			signers: [
				{ name: 'Carla Client', email: 'carla@example.org' },
				{ name: 'Pete Provider', email: 'pete@example.org' },
			],
			fields: false,
		});
		const res = await esign(sb, { resource: 'field', operation: 'replaceAll', documentId: rl(String(doc.id)), fieldsInput: 'tags', options: { removeTags: true } });
		expect(res.error).toBeUndefined();
		expect((await api(sb, 'GET', `/documents/${String(doc.id)}/fields`)).body).toHaveLength(8);
		expect((await uploaded(doc.id)).equals(black)).toBe(true);
		expect(hintsOf(res)).toEqual([]);
		// The option is Create and Send's only; Replace All's tag notice says the file stays as it is.
		const optionNames = (properties: INodeProperties[]) => (properties.find((p) => p.name === 'options')?.options as INodeProperties[]).map((o) => o.name);
		expect(optionNames(createAndSendProperties)).toContain('removeTags');
		expect(optionNames(replaceAllProperties)).not.toContain('removeTags');
		expect(replaceAllProperties.find((p) => p.name === 'tagsNotice')?.displayName).toMatch(/leaves it as it is.*signers see the tags/);
	});
});
