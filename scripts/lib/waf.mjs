// The WordPress test site behind a real firewall (issue 26): Apache 2.4 + ModSecurity 2.9 + OWASP CRS 3.3 with
// their defaults (test/wordpress/apache.mjs). The checks test-wordpress.mjs makes there: the front is real (a
// plain PUT gets the firewall's 403, and ModSecurity's log names rule 911100), and every write of the node gets
// through it, with the text and file names people use.
import fs from 'node:fs';
import { NODE_TYPES, credRef, manual, node } from './esign.mjs';
import { assert, nodeOutput, siteCalls } from './expectations.mjs';
import { sleep } from './runtime.mjs';

/** ModSecurity's rule ids in the error log (each rule that matched a request writes a line naming its id). */
export function ruleHits(errorLog) {
	const hits = {};
	const text = fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : '';
	for (const [, id] of text.matchAll(/ModSecurity: [^\n]*?\[id "(\d+)"\]/g)) hits[id] = (hits[id] ?? 0) + 1;
	return hits;
}

/** A plain PUT with a valid key, straight to the firewall: its 403 page, and rule 911100 in ModSecurity's log. */
export async function plainPutRefused(wp) {
	const before = ruleHits(wp.waf.errorLog)['911100'] ?? 0;
	const headers = { 'X-ESIGN-API-Key': wp.keys.admin.key, 'X-ESIGN-API-Secret': wp.keys.admin.secret, 'content-type': 'application/json' };
	const res = await fetch(`${wp.apiUrl}/documents/1`, { method: 'PUT', headers, body: JSON.stringify({ title: 'Renamed' }) });
	const page = await res.text();
	assert(res.status === 403 && /You don't have permission to access this resource/.test(page), `a plain PUT answered ${res.status}: ${page.slice(0, 200)}`);
	let after = before;
	for (let i = 0; i < 20 && after === before; i++, await sleep(100)) after = ruleHits(wp.waf.errorLog)['911100'] ?? 0;
	assert(after === before + 1, `ModSecurity's error log does not name rule 911100 for it (${wp.waf.errorLog})`);
	return `a plain PUT → 403 "${/<title>([^<]*)<\/title>/.exec(page)?.[1]}" (Apache's page; no word of ModSecurity), and ModSecurity's log names [id "911100"] "Method is not allowed by policy"`;
}

const FILE_NAME = 'Vertrag Müller & Söhne.pdf';
const TITLE = "Zoë's Vertrag – Müller & Söhne";
const RENAMED = "Vertrag für Zoë O'Brien & Söhne (endgültig)";
const SIGNER = "Zoë O'Brien";
const PLACEHOLDER = "Entwurf d'Élodie & Co";
const PREFILL = { client_name: "O'Brien & Söhne GmbH", property_address: 'Königsallee 5, Düsseldorf' };
// Not an apostrophe, which CRS refuses too: n8n's HTTP Request node cuts a file name at one in filename*.
const REFUSED_FILE_NAME = 'Vertrag; Entwurf.pdf';
const WORKFLOW_ID = 'esignWafOperations';

/** Every write of the node in one workflow, with apostrophes, ampersands and accents, and a Create and Send that fails after its upload. */
function operationsWorkflow(site, credentialId) {
	const creds = { credentials: credRef(credentialId) };
	const esign = (name, parameters, extra = {}) => node(name, NODE_TYPES.action, 1, parameters, { ...creds, ...extra });
	const pdf = (name, fileName = FILE_NAME, sample = 'contract.pdf') => node(name, 'n8n-nodes-base.httpRequest', 4.2, {
		url: `${site.controlBase}/samples/${sample}?filename=${encodeURIComponent(fileName)}`,
		options: { response: { response: { responseFormat: 'file' } } },
	});
	const id = (from) => ({ __rl: true, mode: 'id', value: `={{ $('${from}').item.json.id }}` });
	const text = (name) => ({ id: name, displayName: name, required: false, defaultMatch: false, display: true, type: 'string', canBeUsedToMatch: false });
	const nodes = [
		manual(),
		pdf('Get PDF'),
		esign('Upload', { resource: 'document', operation: 'upload', title: TITLE }),
		esign('Add signer', { resource: 'signer', operation: 'add', documentId: id('Upload'), name: SIGNER, email: 'zoe@example.org' }),
		esign('Rename', { resource: 'document', operation: 'update', documentId: id('Upload'), updateFields: { title: RENAMED } }),
		esign('Create placeholder', { resource: 'document', operation: 'create', title: PLACEHOLDER }),
		esign('Delete placeholder', { resource: 'document', operation: 'delete', documentId: id('Create placeholder') }),
		esign('Find template', { resource: 'template', operation: 'getMany', returnAll: false, limit: 1, filters: { search: 'Rental' } }),
		esign('Create from template', {
			resource: 'template',
			operation: 'createDocument',
			templateId: id('Find template'),
			title: `Mietvertrag – ${PREFILL.client_name}`,
			signers: { signer: [{ name: SIGNER, email: 'zoe@example.org', role: 'signer', signingOrder: 1 }] },
			variables: { mappingMode: 'defineBelow', value: PREFILL, matchingColumns: [], schema: Object.keys(PREFILL).map(text) },
			send: false,
		}),
		pdf('Get image', FILE_NAME.replace(/\.pdf$/, '.png'), 'photo.png'),
		// An image is one page, which the node cannot measure (a PDF's pages it checks before the upload): the site
		// refuses a field on page 9 (a 4xx after the upload), so the draft is deleted.
		esign('Create and Send (fails)', {
			resource: 'document',
			operation: 'createAndSend',
			title: `Rollback – ${PLACEHOLDER}`,
			signers: { signer: [{ name: SIGNER, email: 'zoe@example.org', role: 'signer', signingOrder: 0 }] },
			fieldsInput: 'ui',
			fieldsUi: { field: [{ signer: '1', field_type: 'signature', page_number: 9, position_x: 72, position_y: 600, width: 0, height: 0 }] },
		}, { onError: 'continueRegularOutput' }),
		// CRS refuses a file name with ' " ; or = as a multipart trick (rule 920120): the error must name it.
		pdf('Get PDF with an apostrophe', REFUSED_FILE_NAME),
		esign('Upload (refused)', { resource: 'document', operation: 'upload', title: 'Refused by its file name' }, { onError: 'continueRegularOutput' }),
	];
	return {
		id: WORKFLOW_ID,
		name: 'eSign behind a firewall: every write',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes,
		connections: Object.fromEntries(nodes.slice(0, -1).map((n, i) => [n.name, { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] }])),
	};
}

/**
 * Runs the operations workflow in n8n against the site behind the firewall (`site`: its direct-address client,
 * whose log shows what got through), then checks the site: the texts exactly as sent, the file name, PUT and
 * DELETE carried out through WordPress's override after the firewall's refusal, and the rolled-back draft gone.
 */
export async function operationsThroughFirewall(n8n, site, credentialId, wp) {
	await site.control('POST', '/reset');
	await site.control('DELETE', '/requests');
	const hitsBefore = ruleHits(wp.waf.errorLog);
	await n8n.import(operationsWorkflow(site, credentialId));
	const runData = (await n8n.run(WORKFLOW_ID)).data.resultData.runData;
	// The site's request log as the workflow left it (the checks below read the site too).
	const { log } = await siteCalls(site);
	const out = (name) => nodeOutput(runData, name)[0]?.json ?? {};
	const docId = String(out('Upload').id ?? '');
	const doc = await site.document(docId);
	assert(doc?.title === RENAMED, `document ${docId}: title ${JSON.stringify(doc?.title)}, expected ${JSON.stringify(RENAMED)}`);
	assert(doc.original_filename === FILE_NAME, `original_filename ${JSON.stringify(doc.original_filename)}, expected ${JSON.stringify(FILE_NAME)}`);
	const signers = (await site.call('GET', `/documents/${docId}/signers`)).body;
	assert(signers.length === 1 && signers[0].name === SIGNER, `signers ${JSON.stringify(signers)}`);
	assert(!(await site.document(out('Create placeholder').id)), `the placeholder ${out('Create placeholder').id} was not deleted`);
	const fromTemplate = out('Create from template');
	const templateDoc = String(fromTemplate.document_id ?? fromTemplate.id ?? '');
	const fields = (await site.call('GET', `/documents/${templateDoc}/fields`)).body;
	const values = Array.isArray(fields) ? fields.map((f) => f.value) : [];
	for (const value of Object.values(PREFILL)) assert(values.includes(value), `document ${templateDoc} from the template: field values ${JSON.stringify(values)} lack ${JSON.stringify(value)}`);
	const failed = nodeOutput(runData, 'Create and Send (fails)')[0]?.json ?? {};
	const rolledBack = /failed at step "fields".*Draft (\d+) was deleted/.exec(String(failed.error ?? ''))?.[1];
	assert(rolledBack, `Create and Send: ${JSON.stringify(failed).slice(0, 400)}`);
	assert(!(await site.document(rolledBack)), `the rolled-back draft ${rolledBack} still exists`);

	const refusedUpload = nodeOutput(runData, 'Upload (refused)')[0]?.json ?? {};
	assert(refusedUpload.httpCode === '403' && /^A firewall in front of the site refused POST \/documents\/upload \(HTTP 403\): not WordPress, and not the API key$/.test(refusedUpload.error ?? ''), `Upload (refused): ${JSON.stringify(refusedUpload).slice(0, 400)}`);
	assert((refusedUpload.description ?? '').startsWith(`The likely trigger is the text of file (file name) («${REFUSED_FILE_NAME}»)`), `Upload (refused): ${refusedUpload.description}`);

	// What reached WordPress: PUT and DELETE as POST with ?_method=, each once; nothing failed but the refused fields.
	const overridden = log.filter((e) => e.sentAs);
	const lines = overridden.map((e) => `${e.method} as ${e.sentAs} ?_method=${e.query?._method}`);
	assert(JSON.stringify(lines) === JSON.stringify(['PUT as POST ?_method=PUT', 'DELETE as POST ?_method=DELETE', 'DELETE as POST ?_method=DELETE']), `overridden requests: ${JSON.stringify(lines)}`);
	const errors = log.filter((e) => !(e.status >= 200 && e.status < 300)).map((e) => `${e.method} ${e.path.replace(/.*\/v1/, '')} → ${e.status}`);
	assert(JSON.stringify(errors) === JSON.stringify([`POST /documents/${rolledBack}/fields → 400`]), `failed API calls: ${errors.join(', ')}`);
	// Every rule that scored a request of this run: 911100 alone (with CRS's blocking and correlation rules after it).
	const hits = Object.entries(ruleHits(wp.waf.errorLog)).map(([id, n]) => [id, n - (hitsBefore[id] ?? 0)]).filter(([, n]) => n > 0);
	const scored = Object.fromEntries(hits);
	assert(scored['911100'] === 3, `ModSecurity refused ${scored['911100'] ?? 0} requests with rule 911100, expected 3 (the PUT and two DELETEs before their override)`);
	assert(scored['920120'] === 1, `rule 920120 (the file name with a ;) scored ${scored['920120'] ?? 0} requests, expected 1`);
	const others = hits.filter(([id]) => !['911100', '920120', '949110', '980130'].includes(id));
	assert(!others.length, `other rules of CRS scored the node's requests: ${others.map(([id, n]) => `${id}×${n}`).join(', ')}`);
	return `document ${docId} "${doc.title}" from "${doc.original_filename}", signer ${SIGNER}; template document ${templateDoc} prefilled ${Object.values(PREFILL).join(' / ')}; placeholder deleted; Create and Send rolled back draft ${rolledBack}; the firewall refused PUT and DELETE ×2 (911100), each then carried out once as POST ?_method=; the upload of "${REFUSED_FILE_NAME}" refused (920120) and named: "${refusedUpload.description.slice(0, 140)}…"; rules that scored: ${hits.map(([id, n]) => `${id}×${n}`).join(', ')}`;
}
