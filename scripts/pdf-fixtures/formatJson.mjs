// The fixture manifests' JSON layout (manifest.json of test/fixtures/pdf/ and of its fill/): tabs, and any object or
// array that fits in 120 columns on one line (a tag, a box, a page size), so a remade manifest diffs line by line.
export function formatJson(value, indent = '') {
	const flat = JSON.stringify(value);
	if (typeof value !== 'object' || value === null || indent.length * 4 + flat.length <= 120) return flat;
	const next = `${indent}\t`;
	const items = Array.isArray(value)
		? value.map((v) => next + formatJson(v, next))
		: Object.entries(value).map(([k, v]) => `${next}${JSON.stringify(k)}: ${formatJson(v, next)}`);
	return Array.isArray(value) ? `[\n${items.join(',\n')}\n${indent}]` : `{\n${items.join(',\n')}\n${indent}}`;
}
