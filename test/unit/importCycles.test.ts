// No import cycle anywhere in nodes/ (issue 50): two files that import each other are one concept cut in two, and
// neither can be read, tested or moved alone. The scan is test/support/importGraph.js.
import { cyclesOf, importCycles } from '../support/importGraph';

describe('no import cycle in nodes/', () => {
	it('the files under nodes/ import each other without a cycle', () => {
		expect(importCycles()).toEqual([]);
	});

	it('finds a cycle through any number of files, and a file importing itself, and nothing in a tree', () => {
		const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
		expect(cyclesOf(graph({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] }))).toEqual([['a', 'b', 'c']]);
		expect(cyclesOf(graph({ a: ['a'], b: [] }))).toEqual([['a']]);
		expect(cyclesOf(graph({ a: ['b', 'c'], b: ['c'], c: [] }))).toEqual([]);
		expect(cyclesOf(graph({ a: ['b'], b: ['a'], c: ['d'], d: ['c'] }))).toEqual([
			['a', 'b'],
			['c', 'd'],
		]);
	});
});
