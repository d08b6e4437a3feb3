// The PDF reader's decryption (nodes/ESign/pdf/read/crypt.ts): files qpdf encrypted with the empty user password
// (test/fixtures/pdf/crypt, made by scripts/pdf-fixtures/makeCrypt.mjs from one plain file whose text is known) read
// as the plain file; a file that needs a password, or is encrypted for certificates, is refused as "encrypted".
import { PdfDocument } from '../../../nodes/ESign/pdf/read/document';
import { PdfDict } from '../../../nodes/ESign/pdf/read/objects';
import { PdfText } from '../../../nodes/ESign/pdf';
import { emptyPasswordEntries, rc4Object } from '../../support/pdfCrypt';
import { readPdfFixture } from '../../support/pdfjs';
import { pagesPdf } from '../../support/pdfRaw';
import { pdfError } from './run';

// What makeCrypt.mjs wrote before encrypting.
const PLAIN_LINES = ['Secret text {{signature:1}}', 'Second line'];
const PLAIN_TITLE = 'Encrypted title';

const fixture = (name: string) => new Uint8Array(readPdfFixture(`crypt/${name}`).bytes as Buffer);
const latin = (bytes: Uint8Array) => String.fromCharCode(...bytes);

describe('files that open with the empty user password', () => {
	it.each([
		['rc4-40.pdf', 'RC4 40-bit, revision 2'],
		['rc4-128.pdf', 'RC4 128-bit, revision 3'],
		['aes-128.pdf', 'AES-128 (AESV2), revision 4'],
		['aes-256-r5.pdf', 'AES-256 (AESV3), revision 5'],
		['aes-256-r6.pdf', 'AES-256 (AESV3), revision 6'],
		['aes-256-objstm.pdf', 'AES-256, revision 6, objects in object streams'],
	])('%s (%s): the text and a string object read as the plain file', async (name) => {
		const bytes = fixture(name);
		expect(latin(bytes)).toContain('/Encrypt');
		expect(latin(bytes)).not.toContain('Secret text');
		const pdf = await PdfText.open(bytes);
		expect((await pdf.lines(1)).map((line) => line.text)).toEqual(PLAIN_LINES);
		const doc = await PdfDocument.open(bytes);
		const info = await doc.resolve(doc.xref.trailer.get('Info'));
		expect(info).toBeInstanceOf(PdfDict);
		expect(latin((info as PdfDict).get('Title') as Uint8Array)).toBe(PLAIN_TITLE);
	});
});

describe('files the reader refuses', () => {
	it.each(['rc4-128-userpw.pdf', 'aes-256-userpw.pdf'])('%s needs a user password: "encrypted"', async (name) => {
		const error = await pdfError(PdfText.open(fixture(name)));
		expect(error.kind).toBe('encrypted');
		expect(error.message).toMatch(/password/);
	});

	it('a certificate security handler (/Adobe.PubSec): "encrypted"', async () => {
		const bytes = pagesPdf([{ content: 'BT ET' }], {
			extra: [[60, '<< /Filter /Adobe.PubSec /SubFilter /adbe.pkcs7.s5 /V 4 /R 4 /Length 128 /Recipients [<308201>] >>']],
			build: { trailer: '/Encrypt 60 0 R /ID [<0011> <0011>]' },
		});
		const error = await pdfError(PdfText.open(bytes));
		expect(error.kind).toBe('encrypted');
		expect(error.message).toMatch(/certificate/);
	});

	it('a tampered /U entry (the empty password no longer fits): "encrypted"', async () => {
		const bytes = Buffer.from(fixture('rc4-128.pdf'));
		const text = bytes.toString('latin1');
		const at = text.indexOf('/U <') + 4;
		bytes[at] = bytes[at] === 0x30 ? 0x31 : 0x30;
		expect((await pdfError(PdfText.open(new Uint8Array(bytes)))).kind).toBe('encrypted');
	});
});

describe('standard security entries written by the tests (algorithms 2, 4 and 5 of the standard)', () => {
	const id = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
	const o = Buffer.alloc(32, 7);
	const encrypted = (r: number, keyBytes: number, cf: string, content: Uint8Array) => {
		const { u } = emptyPasswordEntries({ r, keyBytes, o, p: -4, id });
		const v = r === 2 ? 1 : r === 3 ? 2 : 4;
		const encrypt = `<< /Filter /Standard /V ${v} /R ${r} /Length ${keyBytes * 8} ${cf} /O <${o.toString('hex')}> /U <${u.toString('hex')}> /P -4 >>`;
		return pagesPdf([{ content }], { extra: [[60, encrypt]], build: { trailer: `/Encrypt 60 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>]` } });
	};
	const content = 'BT /F1 12 Tf 72 700 Td (Crafted) Tj ET';

	it.each([
		[2, 5],
		[3, 7],
		[3, 16],
	])('RC4, revision %d, %d-byte key: the content decrypts', async (r, keyBytes) => {
		const { key } = emptyPasswordEntries({ r, keyBytes, o, p: -4, id });
		const pdf = await PdfText.open(encrypted(r, keyBytes, '', rc4Object(key, 11, 0, content)));
		expect((await pdf.lines(1)).map((line) => line.text)).toEqual(['Crafted']);
	});

	it.each([
		['AESV2', 5],
		['AESV3', 5],
		['AESV3', 16],
	])('an %s crypt filter with a %d-byte key (not an AES key size) is refused as "damaged", not a crash', async (cfm, keyBytes) => {
		const cf = `/CF << /StdCF << /CFM /${cfm} >> >> /StmF /StdCF /StrF /StdCF`;
		const error = await pdfError(PdfText.open(encrypted(4, keyBytes, cf, new Uint8Array(48).fill(1))));
		expect(error.kind).toBe('damaged');
	});
});
