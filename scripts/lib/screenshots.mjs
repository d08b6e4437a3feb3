// README screenshots of the eSign nodes in the real n8n editor, taken with Debian's headless Chromium
// driven by playwright-core (no browser download). Used by `npm run test:e2e` (n8n 2.x and 1.x).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_OWNER } from './instance.mjs';
import { ensureDebianPackages } from './services.mjs';

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/**
 * Makes sure /usr/bin/chromium exists: installs Debian's `chromium` with apt-get when running as root.
 * Resolves { ok: true } or { ok: false, reason } (the caller skips the screenshots then).
 */
export function ensureChromium(say = console.log) {
	try {
		ensureDebianPackages([{ command: CHROMIUM, package: 'chromium', find: () => fs.existsSync(CHROMIUM) }], say);
		return { ok: true };
	} catch (err) {
		return { ok: false, reason: `no browser, so the node panel and the node in the editor are not checked and no screenshot is taken: ${err.message}` };
	}
}

/**
 * Pans the canvas (horizontal wheel) so the workflow's nodes end left of the node panel, which
 * covers the right part of the canvas; leaves the mouse on an empty spot (no hover toolbars).
 */
async function fitCanvasLeftOfPanel(page) {
	const panel = await page.locator('[data-test-id=node-creator]').first().boundingBox();
	if (!panel) return;
	const edges = await page.locator('[data-test-id=canvas-node]').evaluateAll((els) => els.map((e) => [e.getBoundingClientRect().left, e.getBoundingClientRect().right]));
	const left = Math.min(...edges.map((e) => e[0]));
	const right = Math.max(...edges.map((e) => e[1])) + 40; // node labels are wider than the node
	const shift = Math.min(right - (panel.x - 24), left - 80);
	if (shift > 0) {
		await page.mouse.move(Math.max(60, panel.x / 2), 120);
		await page.mouse.wheel(shift * 2, 0); // the canvas pans by half the wheel delta
		await page.waitForTimeout(600);
	}
	await page.mouse.move(60, 120);
}

/** The node panel's entries as shown: { name, description } (description '' when the entry shows none). */
const panelEntries = (page) =>
	page.locator('[data-test-id=node-creator-item-name]').evaluateAll((els) =>
		els.map((el) => {
			const entry = el.closest('[data-test-id=node-creator-node-item], [data-test-id=node-creator-action-item]');
			const text = entry?.querySelector('[data-test-id=node-creator-item-description]')?.textContent ?? '';
			return { name: el.textContent.trim(), description: text.trim() };
		}),
	);

/** The text of a node's page in the panel above its first category ("Actions (n)"): name, description, source. */
const nodePageHeader = (page) =>
	page.locator('[data-test-id=node-creator]').first().evaluate((panel) => {
		const text = panel.innerText;
		const category = panel.querySelector('[data-test-id=node-creator-category-item]')?.innerText ?? '';
		return (category && text.includes(category) ? text.slice(0, text.indexOf(category)) : text).replace(/\s+/g, ' ').trim();
	});

/**
 * Headless Chromium logged into the editor at url as owner: { context, page, open(path), close() }. open(path) goes to
 * the editor's path in a new tab (each walk starts on a page of its own; the tab before it is closed without asking to
 * save). close() closes the browser and removes its profile.
 */
export async function openEditor({ url, owner = DEFAULT_OWNER, timeoutMs = 120000, viewport = { width: 1280, height: 800 } }) {
	const { chromium } = await import('playwright-core');
	const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'esign-chromium-'));
	let context;
	const close = async () => {
		await context?.close().catch(() => {});
		fs.rmSync(userDataDir, { recursive: true, force: true });
	};
	try {
		context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport, deviceScaleFactor: 1 });
		const page = context.pages()[0] ?? (await context.newPage());
		page.setDefaultTimeout(timeoutMs);
		await page.goto(`${url}/signin`);
		await page.fill('#emailOrLdapLoginId, input[name=emailOrLdapLoginId], input[name=email]', owner.email); // 2.x, 1.x, older
		await page.fill('#password, input[name=password]', owner.password);
		await page.click('[data-test-id=form-submit-button]');
		await page.waitForURL((u) => !u.pathname.startsWith('/signin'));
	} catch (err) {
		await close();
		throw err;
	}
	const editor = {
		context,
		page: context.pages()[0],
		async open(p) {
			const previous = editor.page;
			const page = await context.newPage();
			page.setDefaultTimeout(timeoutMs);
			await page.goto(url + p);
			editor.page = page;
			if (previous) await previous.close({ runBeforeUnload: false }).catch(() => {});
			return page;
		},
		close,
	};
	return editor;
}

/** Opens the node panel with the canvas "+" and searches "eSign"; returns the list's eSign entry. */
export async function searchNodePanelForESign(page) {
	// The canvas "+" opens the node panel (the keyboard shortcut changed between versions and can race).
	await page.locator('[data-test-id=node-creator-plus-button]').first().click();
	const search = page.locator('input[data-test-id=node-creator-search-bar], [data-test-id=node-creator-search-bar] input').first();
	await search.click();
	await search.pressSequentially('eSign', { delay: 40 });
	return page.locator('[data-test-id=node-creator-item-name]', { hasText: /^\s*eSign\s*$/ }).first();
}

/**
 * Logs into the editor at url, opens a workflow, opens the node panel with the canvas "+", searches
 * "eSign" and saves the result list (names.nodePanel), then opens the eSign entry and saves its page
 * (names.operations). Returns { files, items, entries, header, categories, actions } (items: the names the
 * search listed; entries: { name, description } of each; header: the eSign page's text above its actions).
 */
export async function takeScreenshots({ url, workflowId, outDir, names = { nodePanel: 'node-panel.png', operations: 'operations.png' }, owner = DEFAULT_OWNER, timeoutMs = 120000 }) {
	const editor = await openEditor({ url, owner, timeoutMs });
	const files = {};
	try {
		const page = editor.page;
		await page.goto(`${url}/workflow/${workflowId}`);
		await page.waitForSelector('[data-test-id=canvas-node]');
		await page.waitForTimeout(1000); // canvas fit-to-view animation
		// Fit-to-view zooms a small workflow in a lot: zoom out so the nodes stay readable next to the panel.
		for (let i = 0; i < 2; i++) {
			await page.locator('[data-test-id=zoom-out-button]').click();
			await page.waitForTimeout(300);
		}
		const item = await searchNodePanelForESign(page);
		await item.waitFor();
		await page.waitForTimeout(500); // list settles after the debounced search
		await fitCanvasLeftOfPanel(page);
		const entries = await panelEntries(page);
		const items = entries.map((e) => e.name);
		fs.mkdirSync(outDir, { recursive: true });
		files.nodePanel = path.join(outDir, names.nodePanel);
		await page.screenshot({ path: files.nodePanel });

		await item.click();
		// The node's page: "Actions (n)" / "Triggers (n)" categories, the document actions first.
		await page.locator('[data-test-id=node-creator-category-item]').first().waitFor();
		await page.waitForTimeout(500);
		const header = await nodePageHeader(page);
		const categories = (await page.locator('[data-test-id=node-creator-category-item]').allTextContents()).map((s) => s.trim().replace(/\s+/g, ' '));
		const actions = (await page.locator('[data-test-id=node-creator-item-name]').allTextContents()).map((s) => s.trim());
		files.operations = path.join(outDir, names.operations);
		await page.screenshot({ path: files.operations });
		return { files, items, entries, header, categories, actions };
	} finally {
		await editor.close();
	}
}
