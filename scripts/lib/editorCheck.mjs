// The eSign node in the real n8n editor, walked as a user walks it (issue 38), for `npm run test:e2e` step 6 on both
// lines: from the node panel to Template → Create Document (no error before a template is chosen, the template's
// variables as rows after), Create and Send's hints in a Signers row and a Fields row, and example 1 run with the
// Execute Workflow button, and what each way of reading fields from the PDF shows (6f). Each step is one function the e2e runs as a check of its own: it resolves the PASS note,
// or throws naming what the editor showed instead. What the node should show (action names, option names, hints) is
// read from the node's description as n8n serves it (/types/nodes.json of the running instance, i.e. the packed
// package), so a reworded hint needs no change here, and a hint gone from the description fails.
// Waits are for events: a selector, or the answer the editor itself waits for (the mapper's variables, the run's
// execution id) and then two animation frames, by which Vue has rendered what that answer changed.
import path from 'node:path';
import { assert } from './expectations.mjs';
import { searchNodePanelForESign } from './screenshots.mjs';

const MAPPER_FIELDS = '/rest/dynamic-node-parameters/resource-mapper-fields';
const MAPPER = '[data-test-id=resource-mapper-container]';
// n8n's own label above the mapper's rows (MappingModeSelect), the only text its area shows before a template is chosen.
const MODE_LABEL = 'Mapping Column Mode';

/** The operation's action text as the node panel lists it, and the resource's and operation's option names. */
function operationNames(description, resource, operation) {
	const resources = description.properties.find((p) => p.name === 'resource')?.options ?? [];
	const operations = description.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))?.options ?? [];
	const op = operations.find((o) => o.value === operation);
	const res = resources.find((o) => o.value === resource);
	assert(op?.action && res, `the node's description has no ${resource} → ${operation} with an action`);
	return { action: op.action, resourceName: res.name, operationName: op.name };
}

/** The parameter `name` shown for resource → operation in the node's description. */
function parameterOf(description, resource, operation, name) {
	const found = description.properties.find((p) => p.name === name && p.displayOptions?.show?.resource?.includes(resource) && p.displayOptions?.show?.operation?.includes(operation));
	assert(found, `the node's description has no parameter "${name}" for ${resource} → ${operation}`);
	return found;
}

/** Resolves after two animation frames: what a response changed is rendered by then. */
const rendered = (page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/**
 * For a screenshot: the mouse moved to an empty spot of the output panel (off the hover toolbars of the rows), the
 * parameter row holding `scrollTo` (a locator) scrolled to the top of its panel, and every finite animation (the
 * toolbars fading) ended.
 */
async function still(page, scrollTo) {
	if (scrollTo) await scrollTo.evaluate((el) => el.closest('[data-test-id=parameter-item]')?.scrollIntoView({ block: 'start' }));
	await page.mouse.move(1100, 200);
	await rendered(page);
	await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity));
}

/** The next answer to the mapper's request for its rows (set up before the action that makes the editor ask). */
const mapperAnswer = (page) => page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === MAPPER_FIELDS);

/** The lines of text an element shows (innerText), trimmed, without empty ones. */
const linesOf = async (locator) => (await locator.innerText()).split('\n').map((s) => s.trim()).filter(Boolean);

/** The text of the parameter row that holds the input `parameter-input-<name>` (its label, input and hint). */
const parameterLines = (page, name) =>
	page.locator(`[data-test-id=parameter-input-${name}]`).evaluateAll((els) =>
		els.map((el) => (el.closest('[data-test-id=parameter-item]')?.innerText ?? '').split('\n').map((s) => s.trim()).filter(Boolean)),
	);

/** Node panel (the canvas "+"), search "eSign", open the eSign entry and pick `action` (expanding Actions when the page shows only triggers). */
async function addFromNodePanel(page, action) {
	await (await searchNodePanelForESign(page)).click();
	await page.locator('[data-test-id=node-creator-category-item]').first().waitFor(); // the eSign page, its entries rendered with it
	const item = page.locator('[data-test-id=node-creator-item-name]').filter({ hasText: new RegExp(`^\\s*${action.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) }).first();
	// In an empty workflow the eSign page opens with its triggers and the Actions category closed.
	if (!(await item.isVisible())) await page.locator('[data-test-id=node-creator-category-item]', { hasText: /^\s*Actions\b/ }).first().click();
	await item.click();
	await page.locator('[data-test-id=ndv]').waitFor();
}

/** Picks the credential by name in the open node's credential select (a new node gets the newest credential of its type). */
async function chooseCredential(page, name) {
	const select = page.locator('[data-test-id=node-credentials-select]').first();
	if ((await select.locator('input').first().inputValue()) === name) return;
	await select.click();
	await page.locator('.el-select-dropdown__item:visible', { hasText: name }).first().click();
	await page.waitForFunction((n) => document.querySelector('[data-test-id=node-credentials-select] input')?.value === n, name);
}

/** The shown value of an options parameter (its select's input). */
const optionShown = (page, name) => page.locator(`[data-test-id=parameter-input-${name}] input`).first().inputValue();

/** Picks an option of an options parameter by its name (the dropdown's headline). */
async function chooseOption(page, name, optionName) {
	await page.locator(`[data-test-id=parameter-input-${name}]`).first().click();
	await page.locator('.el-select-dropdown__item:visible').filter({ has: page.locator('.option-headline', { hasText: new RegExp(`^\\s*${optionName}\\s*$`) }) }).first().click();
}

/**
 * e2e 6b. In a new workflow, "Create document from template" (its action text) from the node panel: the node opens on
 * Template → Create Document, and once the mapper has its answer for no template its area shows nothing but its mode
 * label: no red "No variables found in eSign. Retry", no notice. Leaves the node open for templateVariables.
 */
export async function templateBeforeChoice(editor, { description, credential }) {
	const names = operationNames(description, 'template', 'createDocument');
	const page = await editor.open('/workflow/new');
	await page.locator('[data-test-id=node-creator-plus-button]').first().waitFor();
	const loaded = mapperAnswer(page); // the mapper asks for its rows as the node opens
	await addFromNodePanel(page, names.action);
	const answer = await (await loaded).json();
	await chooseCredential(page, credential);
	await rendered(page);
	const opened = [await optionShown(page, 'resource'), await optionShown(page, 'operation')];
	assert(opened[0] === names.resourceName && opened[1] === names.operationName, `"${names.action}" opened ${opened.join(' → ')}, not ${names.resourceName} → ${names.operationName}`);
	const shown = await linesOf(page.locator(MAPPER));
	const extra = shown.filter((line) => line !== MODE_LABEL);
	assert(!extra.length, `before a template is chosen the variables mapper shows ${JSON.stringify(extra.join(' | '))} (the mapper's method answered ${JSON.stringify(answer?.data ?? answer).slice(0, 200)})`);
	return `"${names.action}" opened ${opened.join(' → ')}; the mapper, answered ${JSON.stringify(answer?.data ?? answer).slice(0, 80)}, shows only "${MODE_LABEL}"`;
}

/**
 * e2e 6c. Picks `template.name` from the Template list in the node templateBeforeChoice left open: once the mapper
 * has its answer, each of the template's variables (`template.variables`, as the site lists them) is a row, with its
 * label. Saves the screenshot `file`.
 */
export async function templateVariables(editor, { template, file }) {
	const page = editor.page;
	assert(page && (await page.locator(MAPPER).count()) === 1, 'no Template → Create Document node open (the step before did not get that far)');
	await page.locator('[data-test-id=resource-locator-templateId] [data-test-id=rlc-input]').click();
	const item = page.locator('[data-test-id=rlc-item]', { hasText: template.name }).first();
	await item.waitFor();
	const loaded = mapperAnswer(page);
	await item.click();
	const answer = await (await loaded).json();
	await rendered(page);
	const shown = await linesOf(page.locator(MAPPER));
	const rows = [];
	for (const v of template.variables) rows.push({ ...v, count: await page.locator(`${MAPPER} [data-test-id=parameter-input-${v.key}]`).count() });
	const missing = rows.filter((r) => r.count !== 1);
	assert(!missing.length, `after choosing "${template.name}" the mapper has no row for ${missing.map((r) => r.key).join(', ')}; it shows ${JSON.stringify(shown.join(' | '))} (the method answered ${(answer?.data?.fields ?? []).length} variables)`);
	const unlabelled = rows.filter((r) => !shown.some((line) => line.includes(r.label)));
	assert(!unlabelled.length, `rows without their label: ${unlabelled.map((r) => `${r.key} ("${r.label}")`).join(', ')}; the mapper shows ${JSON.stringify(shown.join(' | '))}`);
	await still(page, page.locator('[data-test-id=parameter-input-templateId]').first());
	await page.screenshot({ path: file });
	return `rows ${rows.map((r) => `"${r.label}" (${r.key})`).join(', ')}; ${path.basename(file)}`;
}

/**
 * e2e 6d. In a new workflow, "Create and send document" from the node panel, one signer row and one field row added:
 * each hint below (its text from the node's description) shows under its parameter; Font Size and Font Family are not
 * shown for the default Signature type and are for Text. Saves the screenshot `file` (the rows with their hints).
 */
export async function createAndSendHints(editor, { description, credential, file }) {
	const names = operationNames(description, 'document', 'createAndSend');
	const signerRow = parameterOf(description, 'document', 'createAndSend', 'signers').options[0].values;
	const fieldRow = parameterOf(description, 'document', 'createAndSend', 'fieldsUi').options[0].values;
	const hinted = [
		...['signingOrder'].map((name) => ({ name, row: 'Signers', values: signerRow })),
		...['signer', 'position_x', 'width', 'height'].map((name) => ({ name, row: 'Fields', values: fieldRow })),
	].map(({ name, row, values }) => {
		const property = values.find((p) => p.name === name);
		assert(property, `the node's description has no "${name}" in a ${row} row`);
		assert(property.hint, `"${property.displayName}" in a ${row} row has no hint in the node's description`);
		return { name, row, label: property.displayName, hint: property.hint };
	});
	const textType = fieldRow.find((p) => p.name === 'field_type')?.options?.find((o) => o.value === 'text')?.name;
	assert(textType, 'the Field Type of a Fields row has no option "text"');

	const page = await editor.open('/workflow/new');
	await page.locator('[data-test-id=node-creator-plus-button]').first().waitFor();
	await addFromNodePanel(page, names.action);
	await chooseCredential(page, credential);
	await page.locator('[data-test-id=fixed-collection-signers] [data-test-id=fixed-collection-add]').first().click();
	await page.locator('[data-test-id=parameter-input-signingOrder]').first().waitFor();
	await page.locator('[data-test-id=fixed-collection-fieldsUi] [data-test-id=fixed-collection-add]').first().click();
	await page.locator('[data-test-id=parameter-input-signer]').first().waitFor();
	await rendered(page);

	const missing = [];
	for (const h of hinted) {
		const rows = await parameterLines(page, h.name);
		if (rows.length !== 1 || !rows[0].includes(h.hint)) missing.push(`${h.row} → ${h.label}: expected the hint "${h.hint}", the row shows ${JSON.stringify((rows[0] ?? ['(no such parameter)']).join(' | '))}`);
	}
	assert(!missing.length, missing.join('\n'));

	const fonts = async () => ({ size: await page.locator('[data-test-id=parameter-input-font_size]').count(), family: await page.locator('[data-test-id=parameter-input-font_family]').count() });
	const signatureType = await optionShown(page, 'field_type');
	const before = await fonts();
	assert(before.size === 0 && before.family === 0, `with Field Type "${signatureType}" the row shows Font Size ×${before.size}, Font Family ×${before.family}`);
	await still(page, page.locator('[data-test-id=parameter-input-signingOrder]').first());
	await page.screenshot({ path: file });

	await chooseOption(page, 'field_type', textType);
	await page.locator('[data-test-id=parameter-input-font_size]').first().waitFor();
	const after = await fonts();
	assert(after.size === 1 && after.family === 1, `with Field Type "${textType}" the row shows Font Size ×${after.size}, Font Family ×${after.family}`);
	return `${hinted.map((h) => `${h.label}: "${h.hint}"`).join('; ')}; Font Size and Family hidden for ${signatureType}, shown for ${textType}; ${path.basename(file)}`;
}

/**
 * e2e 6f. In a new workflow, Create and Send from the node panel, each way of defining fields read from the PDF
 * (text tags, form fields) chosen in Define Fields: what the node's description shows only for that choice is shown
 * (its notice's text, its parameters), what it shows only for another choice is not (the Fields rows), and the
 * Options list offers exactly the options meant for that choice among those bound to a choice (Remove Tags From the
 * PDF and Tag Field Size for tags, Form Field Size and the form options for form fields).
 */
export async function defineFieldsChoices(editor, { description, credential }) {
	const names = operationNames(description, 'document', 'createAndSend');
	const define = parameterOf(description, 'document', 'createAndSend', 'fieldsInput');
	const options = parameterOf(description, 'document', 'createAndSend', 'options');
	const choiceOf = (p) => p.displayOptions?.show?.fieldsInput ?? p.displayOptions?.show?.['/fieldsInput'];
	const own = description.properties.filter((p) => choiceOf(p) && p.displayOptions?.show?.resource?.includes('document') && p.displayOptions?.show?.operation?.includes('createAndSend'));
	const bound = (options.options ?? []).filter((o) => choiceOf(o));
	const choices = define.options.filter((o) => ['tags', 'formFields'].includes(o.value));
	assert(choices.length === 2, `Define Fields offers ${define.options.map((o) => o.value).join(', ')}: no tags and form fields choices`);

	const page = await editor.open('/workflow/new');
	await page.locator('[data-test-id=node-creator-plus-button]').first().waitFor();
	await addFromNodePanel(page, names.action);
	await chooseCredential(page, credential);
	const ndv = page.locator('[data-test-id=ndv]');
	const shownCount = async (p) =>
		p.type === 'notice'
			? await ndv.getByText(p.displayName.slice(0, 60)).count()
			: await ndv.locator(`[data-test-id=parameter-input-${p.name}], [data-test-id=fixed-collection-${p.name}]`).count();
	const notes = [];
	for (const choice of choices) {
		await chooseOption(page, 'fieldsInput', choice.name);
		await rendered(page);
		const problems = [];
		for (const p of own) {
			const meant = choiceOf(p).includes(choice.value);
			const count = await shownCount(p);
			if (meant !== count > 0) problems.push(`"${p.displayName.slice(0, 60)}" is ${count ? 'shown' : 'not shown'}`);
		}
		// The Options list: its add control (a button in n8n 2.x, a select in 1.x) opened, the offered names read.
		const add = ndv.locator(`input[placeholder="${options.placeholder}"]`).or(ndv.getByText(options.placeholder, { exact: true })).first();
		await add.scrollIntoViewIfNeeded();
		await add.click();
		await rendered(page);
		// Read until every option meant for this choice is listed (for up to 10 s): 1.123.81's select once
		// listed Remove Form Fields without Form Field Size at the first read (e2e 2026-11-28; the rerun listed both).
		const meantNames = bound.filter((o) => choiceOf(o).includes(choice.value)).map((o) => o.displayName);
		const readOffered = async () => {
			const names = [];
			for (const o of bound) if (await page.getByText(o.displayName, { exact: true }).filter({ visible: true }).count()) names.push(o.displayName);
			return names;
		};
		let offered = await readOffered();
		for (let tries = 0; tries < 40 && meantNames.some((n) => !offered.includes(n)); tries++) {
			await page.waitForTimeout(250);
			offered = await readOffered();
		}
		for (const o of bound) {
			const visible = offered.includes(o.displayName);
			if (meantNames.includes(o.displayName) !== visible) problems.push(`Options ${visible ? 'offers' : 'does not offer'} "${o.displayName}"`);
		}
		await page.keyboard.press('Escape');
		await rendered(page);
		assert(!problems.length, `with Define Fields "${choice.name}": ${problems.join('; ')}`);
		notes.push(`${choice.name}: ${own.filter((p) => choiceOf(p).includes(choice.value)).length} own parameters shown, others hidden; Options offers ${offered.join(', ')}`);
	}
	return notes.join('; ');
}

/**
 * e2e 6e. Opens the workflow and runs it with the Execute Workflow button: the editor's run request gives the
 * execution id, n8n's own list (the public API) says when it ended, and the canvas then marks every node that ran as
 * successful. Resolves { runData, note } for exampleRun (checks.mjs), which checks what the site received.
 */
export async function runFromEditor(editor, n8n, workflowId) {
	const page = await editor.open(`/workflow/${workflowId}`);
	await page.locator('[data-test-id=canvas-node]').first().waitFor();
	const before = (await n8n.executions(workflowId)).length;
	const started = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/rest/workflows/${workflowId}/run`);
	await page.locator('[data-test-id=execute-workflow-button]').first().click();
	const res = await started;
	const body = await res.json().catch(() => ({}));
	const executionId = String(body?.data?.executionId ?? '');
	assert(res.ok() && executionId, `the editor's run request answered ${res.status()}: ${JSON.stringify(body).slice(0, 300)}`);
	await n8n.waitForExecutions(workflowId, before + 1, 120000);
	const exec = (await n8n.executions(workflowId, { includeData: true })).find((e) => String(e.id) === executionId);
	assert(exec, `execution ${executionId} is not in n8n's list of ${workflowId}`);
	const runData = exec.data?.resultData?.runData ?? {};
	const error = exec.data?.resultData?.error;
	assert(exec.status === 'success', `execution ${executionId} (${exec.mode}) ended ${exec.status}${error ? `: ${error.node?.name ?? '?'}: ${error.message}` : ''}`);
	const ran = Object.keys(runData).length;
	// The editor learns of the end through its push connection: it marks each node that ran.
	await page.waitForFunction((n) => document.querySelectorAll('[data-test-id=canvas-node-status-success]').length >= n, ran);
	const failedMarks = await page.locator('[data-test-id=canvas-node-status-error]').count();
	assert(failedMarks === 0, `the canvas marks ${failedMarks} nodes as failed`);
	return { runData, note: `execution ${executionId} (${exec.mode}) success, the canvas marks its ${ran} nodes successful` };
}
