// Small encrypted PDFs for the PDF reader's unit tests (test/unit/pdf/crypt.test.ts), made by qpdf from one plain
// file written here: every standard security handler revision the reader opens with the empty user password (RC4 40,
// RC4 128, AES-128, AES-256 R5 and R6, AES-256 with object streams) and two that need a password. The files are
// committed; run `node scripts/pdf-fixtures/makeCrypt.mjs` (needs qpdf 11) to remake them. Deterministic where qpdf
// allows it (--static-id, --static-aes-iv); AES-256 keys are random, so those files change on every run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { pagesPdf } = require('../../test/support/pdfRaw.js');

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'test', 'fixtures', 'pdf', 'crypt');
mkdirSync(out, { recursive: true });

// The text the tests expect; the Info dictionary's /Title is a string object (decrypted with its object's key).
const plain = pagesPdf(
	[{ content: 'BT /F1 12 Tf 72 700 Td (Secret text {{signature:1}}) Tj 0 -20 Td (Second line) Tj ET', deflate: true }],
	{ extra: [[50, '<< /Title (Encrypted title) /Producer (makeCrypt) >>']], build: { trailer: '/Info 50 0 R /ID [<00112233445566778899AABBCCDDEEFF> <00112233445566778899AABBCCDDEEFF>]' } },
);
const temp = mkdtempSync(join(tmpdir(), 'esign-crypt-'));
const source = join(temp, 'plain.pdf');
writeFileSync(source, plain);

const variants = [
	['rc4-40.pdf', ['--allow-weak-crypto', '--encrypt', '', 'esign-owner', '40', '--']],
	['rc4-128.pdf', ['--allow-weak-crypto', '--encrypt', '', 'esign-owner', '128', '--use-aes=n', '--']],
	['aes-128.pdf', ['--encrypt', '', 'esign-owner', '128', '--use-aes=y', '--']],
	['aes-256-r5.pdf', ['--allow-weak-crypto', '--encrypt', '', 'esign-owner', '256', '--force-R5', '--']],
	['aes-256-r6.pdf', ['--encrypt', '', 'esign-owner', '256', '--']],
	['aes-256-objstm.pdf', ['--object-streams=generate', '--encrypt', '', 'esign-owner', '256', '--']],
	['rc4-128-userpw.pdf', ['--allow-weak-crypto', '--encrypt', 'esign-user', 'esign-owner', '128', '--use-aes=n', '--']],
	['aes-256-userpw.pdf', ['--encrypt', 'esign-user', 'esign-owner', '256', '--']],
];
for (const [name, args] of variants) {
	execFileSync('qpdf', ['--static-id', '--static-aes-iv', ...args, source, join(out, name)]);
	console.log(`wrote test/fixtures/pdf/crypt/${name}`);
}
rmSync(temp, { recursive: true, force: true });
