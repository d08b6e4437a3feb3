/** Tests run on Node 24 (npm puts node_modules/.bin/node first), against the sandbox over real HTTP. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	// Both, so a suite in either language is never silently skipped.
	testMatch: ['**/*.test.ts', '**/*.test.js'],
	testPathIgnorePatterns: ['/node_modules/', '/.n8n-runtime/', '/dist/'],
	modulePathIgnorePatterns: ['<rootDir>/.n8n-runtime/', '<rootDir>/dist/'],
	watchPathIgnorePatterns: ['<rootDir>/.n8n-runtime/'],
	transform: {
		// Type errors are caught by `npm run typecheck` (tsconfig.test.json); ts-jest only transpiles.
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.test.json' }],
	},
	moduleFileExtensions: ['ts', 'js', 'json'],
	testTimeout: 30000,
	maxWorkers: 2,
	// The harness's per-worker temp folders outlive workers jest stops: removed before and after each run.
	globalSetup: '<rootDir>/test/harness/stale-folders.js',
	globalTeardown: '<rootDir>/test/harness/stale-folders.js',
};
