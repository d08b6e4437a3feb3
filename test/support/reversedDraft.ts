import type { IDataObject } from 'n8n-workflow';
import { clearLog, control, esign, makeDraft, requestLines, strictProfile } from './index';
import type { Json, NodeRun, Sandbox } from './index';

interface Person {
	name: string;
	email: string;
}

/**
 * Replace All's engine tests (from text tags, from form fields) read "signer n" as the draft's n-th signer in
 * signing order. This makes the draft that tells that apart from the order they were added: `first` added with
 * signing order 2, `second` with order 1, and the site set to list its signers as added (the spec shows no order
 * for that list). It runs `parameters(documentId)` on it with a fresh request log and puts the profile back.
 */
export async function replaceAllOnReversedDraft(
	sb: Sandbox,
	file: { data: Buffer; name: string },
	[first, second]: [Person, Person],
	parameters: (documentId: string) => IDataObject,
): Promise<{ doc: Json; idOf: (email: string) => string; res: NodeRun; requests: string[] }> {
	const profile = strictProfile ? 'strict' : 'default';
	await control(sb, 'POST', '/__sandbox/profile', { name: profile, signerList: 'added' });
	const doc = await makeDraft(sb, {
		file,
		signers: [
			{ ...first, role: 'signer', signing_order: 2 },
			{ ...second, role: 'signer', signing_order: 1 },
		],
		fields: false,
	});
	await clearLog(sb);
	const res = await esign(sb, parameters(String(doc.id)));
	const requests = await requestLines(sb);
	await control(sb, 'POST', '/__sandbox/profile', { name: profile });
	const idOf = (email: string) => String(doc.signers.find((s: Json) => s.email === email).id);
	return { doc, idOf, res, requests };
}
