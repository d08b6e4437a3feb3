// The advice table (transport/advice.ts): the one place for what to do about a site or a front that does not
// give the API's answer. The node's errors and the credential test read it; the engine tests (test/shared/) check
// the texts each error shows over HTTP, this checks the table's form and that both readers take its rows.
import { ESignApi } from '../../../credentials/ESignApi.credentials';
import { ADVICE, type AdviceKey, UNKNOWN, credentialTestRules, explained, fill } from '../../../nodes/shared/transport/advice';
import { frontAdvice } from '../../../nodes/shared/transport/fronts';

const rows = Object.entries(ADVICE) as Array<[AdviceKey, { message: string; description: string }]>;

describe('the rows follow n8n\'s UX guidelines for errors', () => {
	test.each(rows)('%s: a message saying what happened, a description saying what to do', (_key, { message, description }) => {
		expect(message.length).toBeGreaterThan(15);
		expect(message).not.toMatch(/\.$/); // a message, not a paragraph
		expect(description.length).toBeGreaterThan(15);
		expect(description).toMatch(/[.)]$/);
		// Without "error", "problem", "failure", "mistake" (the guidelines), except in WordPress's own words and PHP's terms.
		const own = `${message} ${description}`.replace(/"[^"]*"/g, '').replace(/PHP error log|fatal error/g, '');
		expect(own).not.toMatch(/\b(errors?|problems?|failures?|failed|mistakes?)\b/i);
	});
});

test('fill puts values in their slots and leaves unknown slots as they are', () => {
	expect(fill('at {endpoint} with {method}', { endpoint: '/stats' })).toBe('at /stats with {method}');
	expect(explained('notFound', { endpoint: '/documents/7' })).toBe(`Nothing exists at /documents/7. ${ADVICE.notFound.description}`);
});

describe('the credential test reads the same rows', () => {
	const rules = new ESignApi().test?.rules ?? [];
	const message = (status: number) =>
		(rules.find((rule) => 'properties' in rule && (rule.properties as { value: number }).value === status)?.properties as { message: string } | undefined)?.message ?? '';

	test('its rules are the table\'s, one per status it can see', () => {
		expect(rules).toEqual(credentialTestRules());
		expect(rules.map((rule) => (rule.properties as { value: number }).value).sort()).toEqual([301, 302, 303, 307, 308, 401, 403, 404, 406, 503]);
	});

	test.each([
		[401, ['basicAuthMissing', 'keyRejected'] as AdviceKey[]],
		[403, ['blockedInFront']],
		[404, ['noApi', 'plainPermalinks', 'prettyPermalinks']],
		[406, ['modsecurity']],
		[503, ['maintenance', 'blockedInFront']],
	])('%i names the causes of that status with their fixes', (status, keys) => {
		for (const key of keys) {
			expect(message(status)).toContain(ADVICE[key].message);
			expect(message(status)).toContain(ADVICE[key].description);
		}
	});

	test.each([301, 302, 303, 307, 308])('%i: the redirect row, in general words, and the Plain permalinks row', (status) => {
		expect(message(status)).toContain(`${fill(ADVICE.redirected.message, UNKNOWN)} (HTTP ${status})`);
		expect(message(status)).toContain(fill(ADVICE.redirected.description, UNKNOWN));
		expect(message(status)).toContain(explained('plainPermalinks'));
		expect(message(status)).not.toMatch(/\{\w+\}/);
	});

	test('and so do the node\'s errors for the fronts it recognises', () => {
		for (const front of ['challenge', 'wordfence', 'modsecurity', 'sucuri', 'solid'] as const) expect(frontAdvice(front, false)).toBe(ADVICE[front]);
		expect(frontAdvice('basicAuth', false)).toBe(ADVICE.basicAuthMissing);
		expect(frontAdvice('basicAuth', true)).toBe(ADVICE.basicAuthRefused);
	});
});
