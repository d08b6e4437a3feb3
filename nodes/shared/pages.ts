/** One page of a list endpoint, and the page count the site gave (X-ESIGN-TotalPages or X-WP-TotalPages), if any. */
export interface Page<T> {
	items: T[];
	totalPages?: number;
}

/**
 * The one rule for "is there a page after this one", used by Return All, the Status Trigger and the document
 * picker alike: as the site's page count says when it sends one (the spec's X-ESIGN-TotalPages, or WordPress's
 * X-WP-TotalPages that sites of the same plugin family send); without a count, when this page was full. An empty
 * page is always the last, whatever a count says (so a wrong count never makes a reader loop).
 */
export function hasNextPage(page: number, perPage: number, itemCount: number, totalPages?: number): boolean {
	if (itemCount === 0) return false;
	if (totalPages !== undefined) return page < totalPages;
	return itemCount >= perPage;
}

/**
 * Walks pages 1, 2, … of a list while `hasNextPage` says there is one, or until `take` (handed each page's
 * items) returns false, so no page is read in vain.
 */
export async function walkPages<T>(
	perPage: number,
	read: (page: number) => Promise<Page<T>>,
	take: (items: T[]) => boolean | void,
): Promise<void> {
	for (let page = 1; ; page++) {
		const { items, totalPages } = await read(page);
		if (take(items) === false) return;
		if (!hasNextPage(page, perPage, items.length, totalPages)) return;
	}
}
