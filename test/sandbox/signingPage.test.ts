// The sandbox's signing page (/sign/:token) over HTTP, its script run against a stand-in for the browser
// (pageScript.js): what a signer sees is what gets signed (issue 51). A dropdown nothing was chosen in shows an empty
// "Choose…" option, not its first option as if chosen; a required one cannot be signed empty from the page.
import type { Json, Sandbox } from '../support';
import { api, control, createSandbox, makeDraft } from '../support';
import { loadPage } from './pageScript';

let sb: Sandbox;
beforeAll(async () => {
	sb = await createSandbox({ port: 0 });
});
afterAll(async () => {
	await sb.close();
});
beforeEach(async () => {
	await control(sb, 'POST', '/__sandbox/reset');
});

/** A sent document whose one signer has a signature, a required dropdown "Plan" and an optional dropdown "Extras". */
async function dropdownDocument() {
	const doc = await makeDraft(sb, { signers: [{ name: 'Ann Signer', email: 'ann@example.org' }], fields: false });
	const signer_id = Number(doc.signers[0].id);
	const at = (position_y: number) => ({ signer_id, page_number: 1, position_x: 72, position_y });
	const fields = await api(sb, 'POST', `/documents/${doc.id}/fields`, {
		fields: [
			{ ...at(100), field_type: 'signature' },
			{ ...at(200), field_type: 'dropdown', field_name: 'Plan', options: ['Basic', 'Pro', 'Team'], is_required: true },
			{ ...at(260), field_type: 'dropdown', field_name: 'Extras', options: ['Parking', 'Storage'], is_required: false },
		],
	});
	expect(fields.status).toBeLessThan(300);
	expect((await api(sb, 'POST', `/documents/${doc.id}/send`)).status).toBe(200);
	const [signer] = await control<Json[]>(sb, 'GET', `/__sandbox/signers?document_id=${doc.id}`);
	const listed = (await api(sb, 'GET', `/documents/${doc.id}/fields`)).body as Json[];
	const idOf = (name: string) => String(listed.find((f) => f.field_name === name).id);
	return { doc, token: String(signer.token), plan: idOf('Plan'), extras: idOf('Extras') };
}

const pageHtml = async (token: string) => {
	const res = await fetch(`${sb.url}/sign/${encodeURIComponent(token)}`);
	expect(res.status).toBe(200);
	return await res.text();
};

const openPage = async (token: string) => {
	const page = loadPage(await pageHtml(token), (path, init) => fetch(sb.url + path, init));
	await page.settle(); // the page posts /view as it opens
	return page;
};

/** The <option>s of the select of a field id, as the page writes them. */
const optionsOf = (html: string, id: string) => {
	const select = new RegExp(`<select data-field="${id}"[^>]*>([\\s\\S]*?)</select>`).exec(html);
	expect(select).not.toBeNull();
	return [...(select as RegExpExecArray)[1].matchAll(/<option[^>]*>[^<]*<\/option>/g)].map((m) => m[0]);
};

describe('the signing page’s dropdowns', () => {
	test('nothing chosen shows as nothing chosen: an empty "Choose…" option first and selected, and a required dropdown marked required', async () => {
		const { token, plan, extras } = await dropdownDocument();
		const html = await pageHtml(token);
		expect(optionsOf(html, plan)).toEqual([
			'<option value="" selected>Choose…</option>',
			'<option value="Basic">Basic</option>',
			'<option value="Pro">Pro</option>',
			'<option value="Team">Team</option>',
		]);
		expect(optionsOf(html, extras)[0]).toBe('<option value="" selected>Choose…</option>');
		expect(html).toMatch(new RegExp(`<select data-field="${plan}"[^>]* required>`));
		expect(html).not.toMatch(new RegExp(`<select data-field="${extras}"[^>]* required>`));

		// What the script reads is what the signer sees: no value.
		const page = await openPage(token);
		expect([page.field(plan)?.value, page.field(extras)?.value]).toEqual(['', '']);
	});

	test('Sign with a required dropdown left at "Choose…" is refused on the page, naming it; nothing is signed', async () => {
		const { doc, token, plan } = await dropdownDocument();
		const page = await openPage(token);
		await page.click('sign');
		expect(page.requests.map((r) => r.path)).not.toContain(`/__sandbox/sign/${token}/sign`);
		expect(page.result()).toContain('Plan');
		expect(page.reloads()).toBe(0);
		const [signer] = await control<Json[]>(sb, 'GET', `/__sandbox/signers?document_id=${doc.id}`);
		expect(signer.status).toBe('viewed');
		const fields = (await api(sb, 'GET', `/documents/${doc.id}/fields`)).body as Json[];
		expect(fields.find((f) => String(f.id) === plan).value).toBe('');
	});

	test('once chosen, the choice is what is signed, an optional dropdown left empty stays empty, and the page shows both so after', async () => {
		const { doc, token, plan, extras } = await dropdownDocument();
		const page = await openPage(token);
		const control_ = page.field(plan);
		if (!control_) throw new Error('no Plan dropdown on the page');
		control_.value = 'Pro';
		await page.click('sign');
		expect(page.requests.find((r) => r.path === `/__sandbox/sign/${token}/sign`)?.body).toEqual({ values: { [plan]: 'Pro' } });
		expect(page.reloads()).toBe(1);

		const fields = (await api(sb, 'GET', `/documents/${doc.id}/fields`)).body as Json[];
		const valueOf = (id: string) => fields.find((f) => String(f.id) === id).value;
		expect([valueOf(plan), valueOf(extras)]).toEqual(['Pro', '']);
		expect((await api(sb, 'GET', `/documents/${doc.id}`)).body.status).toBe('completed');

		// The page after signing: Pro chosen, Extras still "Choose…".
		const html = await pageHtml(token);
		expect(optionsOf(html, plan).filter((o) => o.includes(' selected'))).toEqual(['<option value="Pro" selected>Pro</option>']);
		expect(optionsOf(html, extras).filter((o) => o.includes(' selected'))).toEqual(['<option value="" selected>Choose…</option>']);
	});
});
