import fieldDefaults from '../../shared/fieldDefaults.json';

/**
 * Sizes in points: the one place for the field types' default sizes and the page heights, read by the checks
 * (fields.ts) and by the editor's texts (fieldDescriptions.ts). Which types there are, and what else each has: fieldTypes.ts.
 */

/**
 * Default sizes from the API reference, used when width or height is left at 0. One table for the node and the
 * sandbox site (the tests keep the spec's own copy as the independent expectation).
 */
export const FIELD_DEFAULT_SIZES: Record<string, { width: number; height: number }> = fieldDefaults;

/** Page heights to convert bottom-left coordinates: the API gives no page sizes (US Letter is the default). */
export const PAGE_HEIGHTS = { letter: 792, a4: 842 } as const;

export const DEFAULT_PAGE_HEIGHT = PAGE_HEIGHTS.letter;

/** "signature 200, initials 100, checkbox 20": a few default sizes, for a parameter's description. */
export function defaultSizesText(dimension: 'width' | 'height'): string {
	return ['signature', 'initials', 'checkbox'].map((type) => `${type} ${FIELD_DEFAULT_SIZES[type][dimension]}`).join(', ');
}
