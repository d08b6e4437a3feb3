import type { INodeProperties } from 'n8n-workflow';

/**
 * The node's subtitle on the canvas, e.g. "Get Audit Trail: Document": the display names of the chosen
 * operation and resource, built from the descriptions so it never disagrees with them.
 */
export function subtitleFor(properties: INodeProperties[]): string {
	const resources: Record<string, string> = {};
	const operations: Record<string, Record<string, string>> = {};
	for (const property of properties) {
		const options = (property.options ?? []) as Array<{ name?: string; value?: unknown }>;
		if (property.name === 'resource') {
			for (const option of options) resources[String(option.value)] = String(option.name);
		}
		const shownFor = property.displayOptions?.show?.resource;
		if (property.name === 'operation' && Array.isArray(shownFor)) {
			for (const resource of shownFor) {
				operations[String(resource)] = Object.fromEntries(options.map((option) => [String(option.value), String(option.name)]));
			}
		}
	}
	// "}}" would end the expression early: nested objects get a space between their closing braces.
	const names = JSON.stringify({ resources, operations }).replace(/}/g, '} ');
	return `={{ (function (n, r, o) { return ((n.operations[r] || {})[o] || o) + ': ' + (n.resources[r] || r); })(${names}, $parameter["resource"], $parameter["operation"]) }}`;
}
