// Stats → Get of the eSign node (counts per status, scoped by the key's user), run in n8n-core's WorkflowExecute
// against the sandbox over HTTP.
import { control, esign, sentDocument, useSandbox } from '../../support';

const sb = useSandbox();

describe('Stats → Get', () => {
	test('counts by status, per user for a non-admin key and global for admin', async () => {
		await control(sb, 'POST', '/__sandbox/seed/documents', { count: 2, owner: 'user' });
		await control(sb, 'POST', '/__sandbox/seed/documents', { count: 3, owner: 'admin' });
		await sentDocument(sb);
		const admin = await esign(sb, { resource: 'stats', operation: 'get' });
		expect(admin.items[0].json).toMatchObject({ total: 6, draft: 5, sent: 1 });
		const user = await esign(sb, { resource: 'stats', operation: 'get' }, { who: 'user' });
		expect(user.items[0].json).toMatchObject({ total: 2, draft: 2, sent: 0 });
	});
});
