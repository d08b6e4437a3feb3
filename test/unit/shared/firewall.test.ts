// Pure pieces of the method override (override.ts) and of the firewall messages (firewall.ts). No server:
// the engine tests over HTTP against the sandbox's ModSecurity + CRS front are in test/shared/firewall.test.ts.
import type { IHttpRequestOptions } from 'n8n-workflow';

import { parseBody } from '../../../nodes/shared/transport/answer';
import { firewallError, likelyTrigger, ruleIdIn } from '../../../nodes/shared/transport/firewall';
import { inForm, refusedByFront, rememberForm, rememberedForm, requestValues, sendForms } from '../../../nodes/shared/transport/override';
import { SECRETS, requestInfo } from '../fakes';

const APACHE_403 =
	'<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">\n<html><head>\n<title>403 Forbidden</title>\n</head><body>\n<h1>Forbidden</h1>\n<p>You don\'t have permission to access this resource.</p>\n</body></html>\n';

describe('the forms a request goes out in', () => {
	test('PUT and DELETE: the method first, then ?_method=, then the header; a remembered form starts the list', () => {
		expect(sendForms('PUT')).toEqual(['method', 'query', 'header']);
		expect(sendForms('DELETE', 'query')).toEqual(['query', 'header']);
		expect(sendForms('DELETE', 'header')).toEqual(['header']);
		expect(sendForms('PUT', 'method')).toEqual(['method', 'query', 'header']);
	});

	test('GET and POST have one form only, whatever was remembered', () => {
		expect(sendForms('GET', 'query')).toEqual(['method']);
		expect(sendForms('POST', 'header')).toEqual(['method']);
	});

	test('inForm: POST with _method in the query (next to rest_route and any other parameter) or the header; the body stays', () => {
		const request: IHttpRequestOptions = {
			method: 'DELETE',
			url: 'https://sign.example.com/index.php?rest_route=/esign/v1/documents/5',
			qs: { force: 'true' },
			headers: { Accept: 'application/json' },
			body: { title: 'x' },
		};
		expect(inForm(request, 'method')).toEqual(request);
		expect(inForm(request, 'query')).toEqual({ ...request, method: 'POST', qs: { force: 'true', _method: 'DELETE' } });
		expect(inForm(request, 'header')).toEqual({ ...request, method: 'POST', headers: { Accept: 'application/json', 'X-HTTP-Method-Override': 'DELETE' } });
		// The original is left as it was: every attempt starts from it.
		expect(request).toMatchObject({ method: 'DELETE', qs: { force: 'true' }, headers: { Accept: 'application/json' } });
	});

	test('remembered per context object only, and only an override form', () => {
		const [one, two] = [{}, {}];
		rememberForm(one, 'method');
		expect(rememberedForm(one)).toBeUndefined();
		rememberForm(one, 'query');
		expect([rememberedForm(one), rememberedForm(two)]).toEqual(['query', undefined]);
	});
});

describe('refusedByFront: a page in front of the API, never the API\'s JSON', () => {
	test.each([
		[403, 'Apache\'s bare page', APACHE_403, true],
		[406, 'a Mod_Security page', '<html>Not Acceptable!</html>', true],
		[405, 'an empty body', '', true],
		[501, 'plain text', 'Method Not Implemented', true],
		[403, 'the API\'s JSON error', '{"code":"rest_forbidden","message":"Read only","data":{"status":403}}', false],
		[405, 'the API\'s JSON error', '{"code":"rest_no_route"}', false],
		[500, 'a page', APACHE_403, false],
		[404, 'a page', '<html>Not found</html>', false],
		[400, 'a page', APACHE_403, false],
	])('%i with %s → %s', (status, _, body, refused) => {
		expect(refusedByFront(status, parseBody(body))).toBe(refused);
	});
});

describe('requestValues and likelyTrigger', () => {
	test('values by where they were: nested bodies, arrays, form fields and file names, the query without _ and _method', () => {
		const form = new FormData();
		form.append('title', 'Lease');
		form.append('file', new Blob(['%PDF']), 'Vertrag Müller & Söhne.pdf');
		expect(requestValues(form)).toEqual([['title', 'Lease'], ['file (file name)', 'Vertrag Müller & Söhne.pdf']]);
		expect(requestValues({ title: 'T', signers: [{ name: 'Ann', signing_order: 1 }], prefill: { company: 'Acme' } }, { search: 'nda', _: '17', _method: 'PUT' })).toEqual([
			['title', 'T'],
			['signers[0].name', 'Ann'],
			['prefill.company', 'Acme'],
			['search', 'nda'],
		]);
	});

	test('names, titles and file names people really use look like nothing', () => {
		const everyday = ["Zoë O'Brien", 'Vertrag Müller & Söhne.pdf', "Rock 'n' Roll Ltd", 'Q3 & Q4 -- final', 'Select a plan from the list', 'Terms 1=1 (v2)', 'A/B test', 'email: ann@example.org'];
		expect(likelyTrigger(everyday.map((value) => ['title', value]))).toBeUndefined();
	});

	test.each([
		["1' OR '1'='1", 'SQL'],
		["Robert'); DROP TABLE documents;--", 'SQL'],
		['x UNION SELECT password FROM users', 'SQL'],
		['<script>alert(1)</script>', 'HTML or a script'],
		['<img src=x onerror=alert(1)>', 'HTML or a script'],
		['../../etc/passwd', 'a file path or a shell command'],
		['<?php system("id"); ?>', 'PHP code'],
	])('%s looks like %s', (value, looksLike) => {
		expect(likelyTrigger([['title', 'Fine'], ['signers[1].name', value]])).toEqual({ field: 'signers[1].name', value, looksLike });
	});

	test('a file name with an apostrophe, a quote, ; or = (CRS rule 920120); the same text elsewhere is fine', () => {
		expect(likelyTrigger([['title', "Zoë's Vertrag"], ['file (file name)', "Zoë's Vertrag.pdf"]])).toEqual({
			field: 'file (file name)',
			value: "Zoë's Vertrag.pdf",
			looksLike: 'a multipart trick (a file name with \' " ; or =)',
		});
		expect(likelyTrigger([['file (file name)', 'Vertrag Müller & Söhne.pdf']])).toBeUndefined();
	});

	test('rule ids on block pages', () => {
		expect(ruleIdIn(APACHE_403)).toBeUndefined();
		expect(ruleIdIn('ModSecurity: Access denied [id "942100"] [msg "SQL Injection"]')).toBe('942100');
		expect(ruleIdIn('<p>Rule ID: 911100</p>')).toBe('911100');
		expect(ruleIdIn('Blocked by rule #340003')).toBe('340003');
	});
});

describe('firewallError', () => {
	test('the method: what was tried, and the rule to change; nothing changed', () => {
		const error = firewallError(requestInfo({ method: 'DELETE', endpoint: '/documents/7' }), 403, APACHE_403, undefined, ['method', 'query', 'header'], []);
		expect(error.message).toBe('A firewall in front of the site refused DELETE /documents/7 (HTTP 403): not WordPress, and not the API key');
		expect(error.description).toMatch(/^It refused DELETE, and the same request sent as POST with \?_method=DELETE and with the X-HTTP-Method-Override header \(the ways WordPress accepts it\)/);
		expect(error.description).toMatch(/allow DELETE for \/wp-json\/esign\/v1 \(Core Rule Set: add it to tx\.allowed_methods, rule 911100\)\. The request did not reach WordPress, so nothing was changed\./);
		expect(error.httpCode).toBe('403');
		expect(error.context).toMatchObject({ apiCode: 'blocked_firewall', triedOverride: ['method', 'query', 'header'] });
	});

	test('the text of a field, shown short, with the credential\'s values blanked; the rule id when the page shows one', () => {
		const value = `${SECRETS.apiSecret}' OR 'a'='a ${'x'.repeat(80)}`;
		const error = firewallError(requestInfo({ method: 'POST', endpoint: '/documents' }), 403, '<html>Request blocked. Rule ID: 942100</html>', undefined, ['method'], [['title', value]]);
		expect(error.description).toMatch(/^The likely trigger is the text of title \(«\*\*\*' OR 'a'='a x+…»\), which looks like SQL to its attack rules\. Ask the host to allow \/wp-json\/esign\/v1 for rule 942100 \(its page names it\), or change that text\./);
		expect(JSON.stringify(error)).not.toContain(SECRETS.apiSecret);
		expect(error.context).toMatchObject({ firewallRule: '942100', likelyTrigger: 'title' });
	});

	test('a read with nothing to name: the rule its log names; nothing about writes; never only "403"', () => {
		const error = firewallError(requestInfo(), 406, '<html>Not Acceptable! This error was generated by Mod_Security.</html>', 'modsecurity', ['method'], []);
		expect(error.message).toBe('The server\'s firewall (mod_security) refused GET /documents/7 (HTTP 406): not WordPress, and not the API key');
		expect(error.description).toMatch(/^Something in the request matched one of its rules\. Ask the host to allow \/wp-json\/esign\/v1 for the rule its log names for this request\. Start of the answer/);
		expect(error.context.apiCode).toBe('blocked_modsecurity');
	});
});
