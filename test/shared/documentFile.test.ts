// The action's Download and the trigger's Download Document use one helper: same file name and media type
// fallbacks when the site's answer names neither.
import * as crypto from 'crypto';
import { credentialsFor, esign, harness, hostile, makeDraft, rl, sample, useSandbox } from '../support';

/** A delivery signed with the site's webhook secret, as the site sends it. */
const signedRequest = (site: { webhookSecret: string }, rawBody: string) => ({
	headers: { 'content-type': 'application/json', 'x-esign-signature': `sha256=${crypto.createHmac('sha256', site.webhookSecret).update(rawBody).digest('hex')}` },
	rawBody,
});

const sb = useSandbox();
const API = '/wp-json/esign/v1';

async function fileWithoutNames(docId: string, bytes: Buffer) {
	await hostile(sb, {
		path: `${API}/documents/${docId}/file`,
		count: 2,
		raw: { status: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ content: bytes.toString('base64'), encoding: 'base64' }) },
	});
}

test.each([
	['one-page.pdf', 'pdf', 'application/pdf'],
	['photo.png', 'png', 'image/png'],
])('a %s answer without filename or type: both name it document-<id>.%s (%s)', async (name, extension, mimeType) => {
	const doc = await makeDraft(sb);
	const bytes = await sample(sb, name);
	await fileWithoutNames(doc.id, bytes);

	const action = await esign(sb, { resource: 'document', operation: 'download', documentId: rl(doc.id), binaryPropertyName: 'data' });
	expect(action.error).toBeUndefined();
	expect(action.items[0].binary.data).toMatchObject({ fileName: `document-${doc.id}.${extension}`, mimeType, bytes: bytes.length });

	const trigger = await harness.runWebhook({
		parameters: { events: ['*'], options: { downloadDocument: true } },
		credentials: credentialsFor(sb),
		request: signedRequest(sb, `{"event":"document.completed","data":{"document_id":${doc.id}}}`),
	});
	expect(trigger.items[0].json.downloadError).toBeUndefined();
	expect(trigger.items[0].binary.data).toMatchObject({ fileName: `document-${doc.id}.${extension}`, mimeType });
});

test('the site’s own filename and type win over the fallbacks, in both', async () => {
	const doc = await makeDraft(sb, { title: 'Lease' });
	const action = await esign(sb, { resource: 'document', operation: 'download', documentId: rl(doc.id), binaryPropertyName: 'data' });
	expect(action.items[0].binary.data).toMatchObject({ fileName: 'contract.pdf', mimeType: 'application/pdf' });
	const trigger = await harness.runWebhook({
		parameters: { events: ['*'], options: { downloadDocument: true } },
		credentials: credentialsFor(sb),
		request: signedRequest(sb, `{"event":"document.completed","data":{"document_id":${doc.id}}}`),
	});
	expect(trigger.items[0].binary.data).toMatchObject({ fileName: 'contract.pdf', mimeType: 'application/pdf' });
});
