// The one rule for "is there another page" (nodes/shared/pages.ts), which Return All, the Status Trigger and the
// document picker share, whatever count header a site sends (X-ESIGN-TotalPages, X-WP-TotalPages, or none).
import type { Page } from '../../../nodes/shared/pages';
import { hasNextPage, walkPages } from '../../../nodes/shared/pages';

describe('hasNextPage', () => {
	test.each([
		// [page, perPage, items on it, the site's page count, another page?]
		[1, 50, 50, 3, true],
		[3, 50, 20, 3, false],
		[2, 50, 50, 2, false], // a full last page: the count says it is the last
		[1, 50, 20, 3, true], // a site that serves fewer than asked (its own page size): the count still leads on
		[1, 50, 50, undefined, true], // no count: a full page may have a next one
		[1, 50, 49, undefined, false], // no count: a short page is the last
		[4, 50, 0, 9, false], // an empty page is the last, whatever the count says
		[1, 50, 50, 0, false],
	])('page %i of %i-item pages with %i items, count %s → %s', (page, perPage, count, totalPages, expected) => {
		expect(hasNextPage(page, perPage, count, totalPages)).toBe(expected);
	});
});

describe('walkPages', () => {
	/** A list of `total` items served `served` at a time, with or without a page count. */
	const site = (total: number, served: number, withCount: boolean) => {
		const pages: number[] = [];
		const read = async (page: number): Promise<Page<number>> => {
			pages.push(page);
			const items = Array.from({ length: Math.max(0, Math.min(served, total - (page - 1) * served)) }, (_, k) => (page - 1) * served + k);
			return { items, totalPages: withCount ? Math.ceil(total / served) : undefined };
		};
		return { pages, read };
	};

	test.each([
		[120, 50, true, [1, 2, 3]],
		[120, 50, false, [1, 2, 3]],
		[100, 50, false, [1, 2, 3]], // only an empty page 3 says a full page 2 was the last
		[100, 50, true, [1, 2]],
		[0, 50, true, [1]],
	])('%i items, %i a page, count sent %s: reads pages %j, every item once', async (total, served, withCount, expectedPages) => {
		const { pages, read } = site(total, served, withCount);
		const seen: number[] = [];
		await walkPages(served, read, (items) => void seen.push(...items));
		expect(pages).toEqual(expectedPages);
		expect(seen).toEqual(Array.from({ length: total }, (_, k) => k));
	});

	test('a site that serves 20 per page when asked for 100 and says so in its count: every item', async () => {
		const { pages, read } = site(70, 20, true);
		const seen: number[] = [];
		await walkPages(100, read, (items) => void seen.push(...items));
		expect(pages).toEqual([1, 2, 3, 4]);
		expect(seen).toHaveLength(70);
	});

	test('take returning false stops at once', async () => {
		const { pages, read } = site(500, 50, true);
		await walkPages(50, read, () => false);
		expect(pages).toEqual([1]);
	});
});
