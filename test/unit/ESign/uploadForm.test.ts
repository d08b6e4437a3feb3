// The upload's multipart body (helpers/utils.ts uploadForm): the file, or a rewritten file's parts (the original, then
// the incremental update), go into the body's file part in order, each part exactly its own bytes (a view of a Buffer
// that shares a larger ArrayBuffer, as small Buffers and slices do, must not bring its neighbours along).
import { uploadForm } from '../../../nodes/ESign/helpers/utils';

const fileOf = async (form: FormData) => {
	const file = form.get('file') as File;
	return { name: file.name, type: file.type, bytes: Buffer.from(await file.arrayBuffer()) };
};

describe('uploadForm', () => {
	test('a rewritten file’s parts: the file part is the original followed by the update, nothing else', async () => {
		const store = Buffer.from('....%PDF-1.7 original %%EOF|\n1 0 obj update %%EOF\n....', 'latin1');
		// Both parts are views into one larger buffer, neither at its start.
		const cut = store.indexOf('|');
		const original = store.subarray(4, cut);
		const update = new Uint8Array(store.buffer, store.byteOffset + cut + 1, store.length - cut - 5);
		const { name, type, bytes } = await fileOf(uploadForm([original, update], 'contract.pdf', 'application/pdf', 'Contract'));
		expect(bytes.toString('latin1')).toBe('%PDF-1.7 original %%EOF\n1 0 obj update %%EOF\n');
		expect(bytes.length).toBe(original.length + update.length);
		expect({ name, type }).toEqual({ name: 'contract.pdf', type: 'application/pdf' });
	});

	test('a file as read: exactly its bytes, also when the Buffer is a view into a larger one', async () => {
		const store = Buffer.from('xx%PDF-1.4 body %%EOFyy', 'latin1');
		const file = store.subarray(2, store.length - 2);
		const form = uploadForm(file, 'a.pdf', 'application/pdf', 'A');
		expect((await fileOf(form)).bytes.toString('latin1')).toBe('%PDF-1.4 body %%EOF');
		expect(form.get('title')).toBe('A');
	});
});
