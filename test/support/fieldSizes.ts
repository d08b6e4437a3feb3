/**
 * Default field sizes in points (width, height) as the API reference states them: the tests' own copy, kept
 * apart from the package's nodes/shared/fieldDefaults.json so a wrong entry there fails the tests.
 */
export const SPEC_FIELD_SIZES: Record<string, [number, number]> = {
	signature: [200, 60],
	initials: [100, 50],
	name: [150, 30],
	email: [200, 30],
	date: [100, 30],
	text: [200, 30],
	textarea: [200, 80],
	checkbox: [20, 20],
	dropdown: [150, 30],
	stamp: [150, 100],
};
