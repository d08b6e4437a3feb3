// Uploads larger than the site's PHP limits: PHP drops the file before WordPress runs, so the site answers
// "no file" (or a web server answers 413). The error must say why, with the file's size. The sandbox
// simulates Debian's php.ini (upload_max_filesize = 2M, post_max_size = 8M) through /__sandbox/php-limits.
import { control, esign, hostile, sample, useSandbox } from '../../support';

const sb = useSandbox();

/** A valid PDF of about `megabytes` MB: the sample, then blank lines and a closing %%EOF (readers skip them). */
async function bigPdf(megabytes: number): Promise<Buffer> {
	const pdf = await sample(sb, 'one-page.pdf');
	const end = Buffer.from('%%EOF\n');
	return Buffer.concat([pdf, Buffer.alloc(Math.round(megabytes * 1024 * 1024) - pdf.length - end.length, 0x0a), end]);
}

const upload = async (data: Buffer) =>
	await esign(sb, { resource: 'document', operation: 'upload', title: 'Big scan' }, { input: [{ json: {}, binary: { data: { data, fileName: 'scan.pdf', mimeType: 'application/pdf' } } }] });

describe('Document → Upload over the site\'s PHP upload limits', () => {
	test('without limits the 3 MB file uploads (the file itself is fine)', async () => {
		const res = await upload(await bigPdf(3));
		expect(res.error).toBeUndefined();
		expect(res.items[0].json).toMatchObject({ title: 'Big scan', status: 'draft' });
	});

	test('over upload_max_filesize (3 MB > 2M): the error explains the PHP limits and gives the size', async () => {
		await control(sb, 'POST', '/__sandbox/php-limits', {});
		const data = await bigPdf(3);
		const res = await upload(data);
		expect(res.error?.message).toMatch(/missing_file/);
		expect(res.error?.description).toContain(`this request carried one of 3.0 MB (${data.length.toLocaleString('en-US')} bytes)`);
		expect(res.error?.description).toMatch(/upload_max_filesize \(Debian's default 2M\).*post_max_size \(default 8M\)/);
		expect(sb.state.documents.size).toBe(0);
	});

	test('over post_max_size (9 MB > 8M): the same explanation', async () => {
		await control(sb, 'POST', '/__sandbox/php-limits', { upload_max_filesize: '20M', post_max_size: '8M' });
		const res = await upload(await bigPdf(9));
		expect(res.error?.description).toMatch(/received no file, but this request carried one of 9\.0 MB/);
	});

	test('a web server\'s HTML 413 names the server limits and the size', async () => {
		await hostile(sb, { path: '/documents/upload', raw: { status: 413, headers: { 'Content-Type': 'text/html' }, body: '<html><head><title>413 Request Entity Too Large</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>nginx</center></body></html>' } });
		const res = await upload(await bigPdf(1.5));
		expect(res.error?.message).toMatch(/HTTP 413/);
		expect(res.error?.description).toMatch(/refused the upload as too large \(HTTP 413\); the file is 1\.5 MB/);
		expect(res.error?.description).toMatch(/client_max_body_size in nginx/);
	});

	test('the site\'s own 413 (over its 20 MB maximum) also gives the size and the limits to raise', async () => {
		const res = await upload(await bigPdf(21));
		expect(res.error?.message).toMatch(/file_too_large/);
		expect(res.error?.description).toMatch(/refused the upload as too large \(HTTP 413\); the file is 21\.0 MB/);
	});
});
