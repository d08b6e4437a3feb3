#!/usr/bin/env node
// `npm run test:wordpress`: the package against a real WordPress site (test/wordpress: the eSign plugin on Debian's
// WordPress 6.1, PHP 8.2 and MariaDB, served by nginx + PHP-FPM with WordPress's documented nginx recipe as it is):
// the contract suite, the examples, both triggers fired by real signings on the WordPress signing page; again with
// Plain permalinks; again behind HTTPS (self-signed), Basic auth and a URL-keyed page cache; again behind a real
// firewall (Apache 2.4 + ModSecurity 2.9 + OWASP CRS 3.3 with their defaults). docs/wordpress-test-site.md.
// Env: WP_KEEP=1 keeps the site and n8n folders; WP_ONLY=firewall runs only the pass behind the firewall.
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { ROOT, ensureRuntime, npmEnv, run } from './lib/runtime.mjs';
import { POLL_SECONDS, STATUS_TRIGGER_WORKFLOW_ID, credRef, credentialData, readExamples, secs, siteClient, withPollTimes } from './lib/esign.mjs';
import { assert, testScript } from './lib/expectations.mjs';
import { credentialTests, examplesRun, pollingFiresOnce, sentDocument, signersPolledOnce, triggerFires } from './lib/checks.mjs';
import { createInstance } from './lib/instance.mjs';
import { operationsThroughFirewall, plainPutRefused } from './lib/waf.mjs';
import { ensureWordPressPackages, startWordPress } from '../test/wordpress/site.mjs';

const KEEP = process.env.WP_KEEP === '1';
const FIREWALL_ONLY = process.env.WP_ONLY === 'firewall';
const { check, measure, say, cleanups, main, pack, watchdog } = testScript('wordpress');

/**
 * The site in a permalink style (plain: only ?rest_route= is served, through index.php as WordPress's rest_url()
 * writes it), at its direct address: the checks read the request log and outbox there, past any front.
 */
function styled(wp, style) {
	const url = wp.directUrl ?? wp.url;
	const base = style === 'plain' ? `${url}/index.php?rest_route=` : `${url}/wp-json`;
	return siteClient({ url, apiBase: `${base}/esign/v1`, controlBase: `${base}/esign-test/v1`, keys: wp.keys, webhookSecret: wp.webhookSecret, style });
}

/**
 * test/contract against the site (in band: the suites reset the one site). The note counts the tests by what they
 * hold to: the spec alone, [guess] (choices both doubles make where the spec is silent: a failure there means the
 * WordPress site and the sandbox drifted apart, not that the API changed) and [WordPress] (WordPress's own REST server).
 */
async function contractSuite(site) {
	const target = { kind: 'wordpress', url: site.url, apiBase: site.apiBase, controlBase: site.controlBase, keys: site.keys, webhookSecret: site.webhookSecret };
	const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'esign-contract-')), 'report.json');
	const res = await run('npx', ['jest', '--runInBand', '--colors=false', '--json', `--outputFile=${report}`, 'test/contract'], { cwd: ROOT, env: npmEnv({ ESIGN_CONTRACT_SITE: JSON.stringify(target) }), check: false, timeoutMs: 10 * 60000 });
	const out = res.stdout + res.stderr;
	const summary = /Tests:\s+(.*)/.exec(out)?.[1] ?? 'no summary';
	let tests = [];
	try {
		tests = JSON.parse(fs.readFileSync(report, 'utf8')).testResults.flatMap((s) => s.assertionResults);
	} catch { /* no report: jest did not run; the exit code says so below */ }
	fs.rmSync(path.dirname(report), { recursive: true, force: true });
	const kind = (t) => (t.fullName.includes('[guess]') ? 'guess' : t.fullName.includes('[WordPress]') ? 'WordPress' : 'spec');
	const failed = tests.filter((t) => t.status === 'failed').map((t) => `${kind(t) === 'spec' ? '' : `(${kind(t)}) `}${t.fullName}`);
	assert(res.code === 0, `jest exited ${res.code}: ${summary}${failed.length ? `; failed: ${failed.join(' | ')}` : ''}\n${out.split('\n').filter((l) => /●|✕|Expected|Received/.test(l)).slice(0, 40).join('\n')}`);
	const ran = tests.filter((t) => t.status === 'passed');
	const by = (k) => ran.filter((t) => kind(t) === k).length;
	return `${summary}: ${by('spec')} hold to the spec alone, ${by('guess')} also check [guess]es both doubles make, ${by('WordPress')} WordPress's own REST server`;
}

/** The signer's way: open the signing link from the invitation email, then submit the page's Sign form. */
async function signOnPage(site, title) {
	const { docId } = await sentDocument(site, title, { people: [['Ann Tenant', 'ann@example.org']] });
	const mail = (await site.control('GET', `/outbox?document_id=${docId}`)).find((m) => m.kind === 'invitation');
	assert(mail?.signing_url, `no invitation with a signing link for document ${docId}`);
	const page = await fetch(mail.signing_url);
	const html = await page.text();
	assert(page.status === 200, `signing page answered ${page.status}`);
	const form = /<form[^>]*action="([^"]+)"[^>]*id="sign"[^>]*>([\s\S]*?)<\/form>/.exec(html);
	assert(form, `no Sign form on the signing page: ${html.slice(0, 300)}`);
	const body = new URLSearchParams();
	for (const [tag] of form[2].matchAll(/<input\b[^>]*>/g)) {
		const attr = (name) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
		if (attr('name')) body.append(attr('name'), attr('value') ?? '');
	}
	const started = Date.now();
	const signed = await fetch(form[1].replace(/&#038;|&amp;/g, '&'), { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
	const after = await signed.text();
	assert(signed.status === 200 && /you signed the document/.test(after), `Sign answered ${signed.status}: ${after.slice(0, 300)}`);
	return { docId, note: `the Sign request took ${Date.now() - started} ms (WordPress waits for each delivery)` };
}

// ---------------------------------------------------------------- n8n

async function runExamples(tag, n8n, site, credentialId) {
	await site.control('POST', '/rate-limits', { enabled: false });
	await site.control('POST', '/reset');
	await n8n.importExamples(site, credentialId, undefined, { pollSeconds: POLL_SECONDS });
	await examplesRun(check, tag, n8n, site);
}

// ---------------------------------------------------------------- main

main(async () => {
	await ensureRuntime('2');
	// Every Debian package this run needs (the firewall pass's too) first, so the watchdog times the tests alone.
	const installed = await check('Debian packages for the site and its fronts (WordPress, PHP, MariaDB, nginx, Apache with ModSecurity)', async () => {
		ensureWordPressPackages(say, { tls: !FIREWALL_ONLY, waf: true });
	});
	if (!installed) return;
	watchdog('WP_TIMEOUT_MIN', 30);
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'esign-wordpress-test-'));
	cleanups.push(() => (KEEP ? say(`kept ${work}`) : fs.rmSync(work, { recursive: true, force: true })));

	if (FIREWALL_ONLY) {
		const tarball = await pack();
		if (!tarball) return;
		const n8n = await createInstance({ tarball, userFolder: path.join(work, 'n8n'), cleanups });
		if (await check(`${n8n.tag} n8n starts with the package installed`, async () => (await n8n.start()).url)) await firewallPass(n8n, work);
		return;
	}
	let wp;
	const up = await check('WordPress test site starts (Debian WordPress 6.1, PHP 8.2, MariaDB; the eSign plugin active; pretty permalinks)', async () => {
		const started = Date.now();
		wp = await startWordPress({ dir: path.join(work, 'site'), strictRecipe: true, say });
		cleanups.push(() => wp.stop());
		return `${wp.url} in ${secs(Date.now() - started)}`;
	});
	if (!up) return;
	const pretty = styled(wp, 'pretty');
	const plain = styled(wp, 'plain');

	await check('the site answers like WordPress: Link header, WP_Error shape', async () => {
		const res = await pretty.call('GET', '/stats');
		assert(res.status === 200 && typeof res.body.total === 'number', `stats ${res.status}`);
		assert(/rel="https:\/\/api\.w\.org\/"/.test(res.headers.get('link') ?? ''), `Link header ${res.headers.get('link')}`);
		const denied = await fetch(pretty.api('/stats'));
		const body = await denied.json();
		assert(denied.status === 401 && body.code === 'rest_forbidden' && body.data?.status === 401, `unauthenticated: ${denied.status} ${JSON.stringify(body)}`);
		return `Link: ${res.headers.get('link')}; unauthenticated → 401 rest_forbidden`;
	});
	// How slow a real site is (nginx + PHP-FPM + MariaDB on this machine): a figure, not a pass.
	await measure('latency of the WordPress site (20 × GET /documents)', async () => {
		const times = [];
		for (let i = 0; i < 20; i++) {
			const t = performance.now();
			await pretty.call('GET', '/documents');
			times.push(performance.now() - t);
		}
		times.sort((a, b) => a - b);
		return `GET /documents: median ${times[10].toFixed(0)} ms, max ${times[19].toFixed(0)} ms`;
	});

	await check('contract suite (test/contract) against WordPress, pretty permalinks', () => contractSuite(pretty));

	const tarball = await pack();
	if (!tarball) return;
	const n8n = await createInstance({ tarball, userFolder: path.join(work, 'n8n'), cleanups });
	const { tag } = n8n;
	if (!(await check(`${tag} n8n starts with the package installed`, async () => (await n8n.start()).url))) return;
	let credential = await n8n.ensureCredential(credentialData(pretty));

	await check(`${tag} credential test against WordPress: good key OK, bad secret Error`, () => credentialTests(n8n, credential, credentialData(pretty), /401/));
	await runExamples(tag, n8n, pretty, credential.id);
	await triggerFires(check, tag, n8n, pretty, () => signOnPage(pretty, 'Signed on the WordPress page'), {
		// WordPress sent each event with wp_remote_post while handling the signer's request.
		more: ({ bin, completed, deliveries }) => {
			assert(/\\\//.test(completed.body) || !completed.body.includes('/'), 'the body is not wp_json_encode output (slashes unescaped)');
			assert(/-signed\.pdf$/.test(bin.fileName ?? ''), `binary file name ${bin.fileName}`);
			return deliveries.map((d) => `${d.event} ${d.ms} ms`).join(', ');
		},
	});
	await check(`${tag} polling example: a document signed on WordPress between polls gives exactly one execution, with the signed PDF`, () =>
		pollingFiresOnce(n8n, pretty, () => signOnPage(pretty, 'Polled on WordPress')).finally(() => n8n.deactivate(STATUS_TRIGGER_WORKFLOW_ID).catch(() => {})),
	);

	await check(`${tag} polling trigger, signer events: a two-signer document signed one signer at a time on WordPress`, () => signersPolledOnce(n8n, pretty, credential.id));

	// Plain permalinks: WordPress then serves the API only as ?rest_route=.
	const switched = await check('the site switched to Plain permalinks: /wp-json/ redirects (301, WordPress canonical), ?rest_route= answers', async () => {
		await pretty.control('POST', '/permalinks', { structure: 'plain' });
		const old = await pretty.call('GET', '/stats');
		assert(old.status === 301, `/wp-json/ answered ${old.status}`);
		const now = await plain.call('GET', '/stats');
		assert(now.status === 200, `?rest_route= answered ${now.status}`);
		return `/wp-json/esign/v1/stats → 301 ${old.headers.get('location')}`;
	});
	if (!switched) return;
	await check('contract suite (test/contract) against WordPress, plain permalinks (?rest_route=)', () => contractSuite(plain));
	await check(`${tag} credential test with Plain permalinks: the /wp-json/ style fails naming the URL style, ?rest_route= passes`, async () => {
		const wrong = await n8n.testCredential(credential, credentialData(pretty));
		assert(wrong?.status === 'Error' && /REST API URL Style to \?rest_route=/.test(wrong.message), `/wp-json/ style: ${JSON.stringify(wrong)}`);
		const right = await n8n.testCredential(credential, credentialData(plain));
		assert(right?.status === 'OK', `?rest_route= style: ${JSON.stringify(right)}`);
		return `/wp-json/ style → "${wrong.message.slice(0, 120)}…"`;
	});
	credential = await n8n.ensureCredential(credentialData(plain));
	await runExamples(`${tag} [plain permalinks]`, n8n, plain, credential.id);

	// Real hosting (issue 19): the same site behind HTTPS (self-signed), Basic auth and a URL-keyed page cache.
	// Back to pretty permalinks, asked in the style the site answers now: with Plain permalinks WordPress serves a
	// POST to /wp-json/… its home page (only a GET is redirected to ?rest_route=).
	await plain.control('POST', '/permalinks', { structure: 'pretty' });
	await wp.stop();
	const behind = await check('the site behind a combined front: HTTPS (self-signed), HTTP Basic auth, a page cache ignoring Cache-Control', async () => {
		// The cleanup pushed at the first start stops whichever site `wp` is then.
		wp = await startWordPress({ dir: path.join(work, 'site'), strictRecipe: true, front: { basicAuth: true, cache: true, tls: true }, say });
		// The front really is there: no password → 401; the same URL twice → the second from the cache.
		const auth = `Basic ${Buffer.from(`${wp.basicAuth.user}:${wp.basicAuth.password}`).toString('base64')}`;
		const keyed = { 'X-ESIGN-API-Key': wp.keys.admin.key, 'X-ESIGN-API-Secret': wp.keys.admin.secret };
		const { status } = await insecureFetch(`${wp.apiUrl}/stats`, { headers: keyed });
		assert(status === 401, `no password: ${status}`);
		const first = await insecureFetch(`${wp.apiUrl}/stats?probe=1`, { headers: { ...keyed, Authorization: auth } });
		const second = await insecureFetch(`${wp.apiUrl}/stats?probe=1`, { headers: { ...keyed, Authorization: auth, 'Cache-Control': 'no-cache' } });
		assert(first.status === 200 && second.headers['x-cache'] === 'HIT', `cache: ${first.status} ${first.headers['x-cache']} then ${second.headers['x-cache']}`);
		return `${wp.url} (401 without the password; the same URL again → X-Cache: HIT despite Cache-Control: no-cache)`;
	});
	if (!behind) return;
	const fronted = styled(wp, 'pretty');
	const frontedData = { ...credentialData(fronted), siteUrl: wp.url, ignoreSslIssues: true, basicAuth: true, basicAuthUser: wp.basicAuth.user, basicAuthPassword: wp.basicAuth.password };
	credential = await n8n.ensureCredential(frontedData);
	await check(`${tag} [behind the front] credential test: OK with Basic auth and Ignore SSL Issues`, async () => {
		const tested = await n8n.testCredential(credential, frontedData);
		assert(tested?.status === 'OK', JSON.stringify(tested));
		const without = await n8n.testCredential(credential, { ...frontedData, basicAuth: false });
		assert(without?.status === 'Error' && /sign-in box/.test(without.message), `without Basic auth: ${JSON.stringify(without)}`);
		return `without Basic auth: "${without.message.slice(0, 80)}…"`;
	});
	await runExamples(`${tag} [behind the front]`, n8n, fronted, credential.id);
	// A fresh copy of the polling example: the original's stored state belongs to the site before its resets.
	const polled = withPollTimes(readExamples().find(({ workflow }) => workflow.id === STATUS_TRIGGER_WORKFLOW_ID).workflow);
	const copy = { ...polled, id: 'esignFrontPolled', name: `${polled.name} (behind the front)`, active: false };
	copy.nodes = polled.nodes.map((n) => (n.credentials ? { ...n, credentials: credRef(credential.id) } : n));
	await n8n.import(copy);
	await check(`${tag} [behind the front] polling example: a document signed between polls gives exactly one execution (the cached /stats does not hide it)`, () =>
		pollingFiresOnce(n8n, fronted, () => signOnPage(fronted, 'Polled behind the front'), copy.id).finally(() => n8n.deactivate(copy.id).catch(() => {})),
	);

	await wp.stop();
	await firewallPass(n8n, work);
});

/**
 * A real firewall (issue 26): the site behind Apache 2.4 + ModSecurity 2.9 + OWASP CRS 3.3, Debian's packages with
 * ModSecurity's recommended configuration, SecRuleEngine On and CRS's defaults, no exclusion for the API: it refuses
 * PUT and DELETE (rule 911100), and the node carries them out through WordPress's ?_method= override.
 */
async function firewallPass(n8n, work) {
	let wp;
	const walled = await check('the site behind a firewall: Apache 2.4 + ModSecurity 2.9 + OWASP CRS 3.3 with their defaults; the front is real', async () => {
		const started = Date.now();
		wp = await startWordPress({ dir: path.join(work, 'site'), strictRecipe: true, front: { waf: true }, say });
		cleanups.push(() => wp.stop());
		return `${wp.url} in ${secs(Date.now() - started)}; ${await plainPutRefused(wp)}`;
	});
	if (!walled) return;
	const firewalled = styled(wp, 'pretty');
	const firewalledData = { ...credentialData(firewalled), siteUrl: wp.url };
	const credential = await n8n.ensureCredential(firewalledData);
	await check(`${n8n.tag} [behind the firewall] credential test: OK`, async () => {
		const tested = await n8n.testCredential(credential, firewalledData);
		assert(tested?.status === 'OK', JSON.stringify(tested));
	});
	await runExamples(`${n8n.tag} [behind the firewall]`, n8n, firewalled, credential.id);
	await check(`${n8n.tag} [behind the firewall] every write with apostrophes, ampersands and accents, the file "Vertrag Müller & Söhne.pdf", Update and Delete, and Create and Send's rollback`, () =>
		operationsThroughFirewall(n8n, firewalled, credential.id, wp),
	);
}

/** A GET to the HTTPS front that trusts its self-signed certificate (node:https, so fetch's global trust stays). */
function insecureFetch(url, { headers = {} } = {}) {
	return new Promise((resolve, reject) => {
		https
			.get(url, { headers, rejectUnauthorized: false }, (res) => {
				res.resume();
				res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
			})
			.on('error', reject);
	});
}

