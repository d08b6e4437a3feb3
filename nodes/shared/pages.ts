/** One page of a list endpoint, and the page count the site gave (X-ESIGN-TotalPages), if any. */
export interface Page<T> {
	items: T[];
	totalPages?: number;
}

/**
 * Walks pages 1, 2, … of a list: stops after a short page (fewer than `perPage` items), at the last page
 * the site names, or when `take` (handed each page's items) returns false, so no page is read in vain.
 */
export async function walkPages<T>(
	perPage: number,
	read: (page: number) => Promise<Page<T>>,
	take: (items: T[]) => boolean | void,
): Promise<void> {
	for (let page = 1; ; page++) {
		const { items, totalPages } = await read(page);
		if (take(items) === false) return;
		if (items.length < perPage) return;
		if (totalPages !== undefined && page >= totalPages) return;
	}
}
