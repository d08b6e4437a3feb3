// The sandbox's signed PDF (test/sandbox/pdf.js) writes its text with the standard fonts, whose WinAnsi encoding has
// more than Latin-1: the certificate of completion shows a title's em dash as an em dash (WinAnsi 0x97), not "?".
// Read back with the package's own PDF reader.
import { PdfText } from '../../nodes/ESign/pdf';
import { buildSignedPdf, getSamples } from './pdf';

/** The text lines of the signed PDF's last page: the certificate of completion. */
async function certificateOf(title: string, signerName = 'Ann Example'): Promise<string[]> {
	const samples = await getSamples();
	const original = samples['one-page.pdf'].data;
	const signed = await buildSignedPdf({
		document: { id: 7, title, completed_at: '2026-11-28 04:00:00' },
		file: { kind: 'pdf', data: original, hash: 'abc123' },
		fields: [],
		signers: [{ id: 1, signing_order: 1, name: signerName, email: 'ann@example.org', signed_at: '2026-11-28 03:59:00', signed_ip: '127.0.0.1' }],
		events: [],
	});
	const pdf = await PdfText.open(new Uint8Array(signed));
	const last = pdf.pages[pdf.pages.length - 1];
	return (await pdf.lines(last.number)).map((line) => line.text);
}

describe('the certificate of completion', () => {
	it('writes the characters WinAnsi has beyond Latin-1 as they are: an em dash, curly quotes, the euro sign', async () => {
		const lines = await certificateOf('Website Services Agreement — Maple Studio “2026” €');
		expect(lines).toContain('Document: Website Services Agreement — Maple Studio “2026” € (id 7)');
	});

	it('writes a letter WinAnsi lacks as its base letter when it has one, and "?" only for what it cannot write', async () => {
		const lines = await certificateOf('Dvořák – Żurawski Ж');
		expect(lines).toContain('Document: Dvorák – Zurawski ? (id 7)');
	});

	it('keeps Latin-1 text as it is', async () => {
		const lines = await certificateOf('Café Zoë', 'Søren Ærø');
		expect(lines).toContain('Document: Café Zoë (id 7)');
		expect(lines.some((line) => line.startsWith('1. Søren Ærø <ann@example.org>'))).toBe(true);
	});
});
