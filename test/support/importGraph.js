'use strict';
// Import cycles under nodes/, for test/unit/importCycles.test.ts (a .js file: the lint refuses fs and path in .ts
// tests). Every relative import counts, type-only ones too: a cycle of types still ties two files into one concept
// that neither can be read without.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, filesUnder, relative, specifiers } = require('./sourceTree');

/** The file a relative specifier names from `from`: X.ts, X.json, X/index.ts; undefined for a package or a miss. */
function resolveImport(from, spec) {
	if (!spec.startsWith('.')) return undefined;
	const base = path.resolve(path.dirname(from), spec);
	return [base, `${base}.ts`, path.join(base, 'index.ts')].find((file) => fs.existsSync(file) && fs.statSync(file).isFile());
}

/** The import graph of `files`: file → the files it imports (relative paths, both sides). */
function importGraph(files, read = (file) => fs.readFileSync(file, 'utf8')) {
	const graph = new Map();
	for (const file of files) {
		const targets = new Set();
		for (const spec of specifiers(read(file))) {
			const target = resolveImport(file, spec);
			if (target) targets.add(relative(target));
		}
		graph.set(relative(file), [...targets].sort());
	}
	return graph;
}

/**
 * The cycles of a graph (Map: node → nodes): its strongly connected components of more than one node, and any
 * node that imports itself, each as its sorted node list (Tarjan's algorithm, iterative).
 */
function cyclesOf(graph) {
	let counter = 0;
	const index = new Map();
	const low = new Map();
	const onStack = new Set();
	const stack = [];
	const cycles = [];
	for (const root of graph.keys()) {
		if (index.has(root)) continue;
		const work = [[root, 0]];
		index.set(root, counter);
		low.set(root, counter++);
		stack.push(root);
		onStack.add(root);
		while (work.length) {
			const top = work[work.length - 1];
			const [node, next] = top;
			const edges = graph.get(node) ?? [];
			if (next < edges.length) {
				top[1]++;
				const to = edges[next];
				if (!index.has(to)) {
					index.set(to, counter);
					low.set(to, counter++);
					stack.push(to);
					onStack.add(to);
					work.push([to, 0]);
				} else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
				continue;
			}
			work.pop();
			if (work.length) {
				const parent = work[work.length - 1][0];
				low.set(parent, Math.min(low.get(parent), low.get(node)));
			}
			if (low.get(node) !== index.get(node)) continue;
			const component = [];
			let member;
			do {
				member = stack.pop();
				onStack.delete(member);
				component.push(member);
			} while (member !== node);
			if (component.length > 1 || edges.includes(node)) cycles.push(component.sort());
		}
	}
	return cycles;
}

/** Every import cycle among the TypeScript files under nodes/. */
function importCycles() {
	return cyclesOf(importGraph(filesUnder(path.join(ROOT, 'nodes'), /\.ts$/)));
}

module.exports = { cyclesOf, importCycles, importGraph };
