/**
 * The layers, run together by `npm test` and apart with `--selectProjects`:
 * - unit (test/unit/): pure logic of the nodes against fakes; no server, no n8n-core engine, no child process
 *   (`npm run test:unit`, within 20 s so that it runs on every save).
 * - slow (every `*.slow.test.ts`): the PDF reader against pdf.js and its bounds: suites that start child processes
 *   (hostile files in a heap-limited child) or run pdf.js (the oracle), and the fuzz slice (`npm run test:slow`).
 *   A suite that starts child processes or runs pdf.js is named `*.slow.test.ts`; no other layer runs it.
 * - engine (the rest of test/): the nodes in n8n-core's WorkflowExecute against the sandbox over real HTTP.
 * - strict: the engine suites below once more, against the sandbox's strict profile (the spec alone, varied where
 *   it says "not shown"; test/sandbox/CONTRACT.md → Profiles), so a node that relies on a guess fails there.
 * Tests run on Node 24 (npm puts node_modules/.bin/node first).
 */
const shared = {
	testEnvironment: 'node',
	// Every suite is TypeScript and type-checked (npm run typecheck); Node built-ins the lint keeps out of .ts files
	// come from JS helpers (test/support, test/harness, test/sandbox/nodeTools.js).
	testMatch: ['**/*.test.ts'],
	modulePathIgnorePatterns: ['<rootDir>/.n8n-runtime/', '<rootDir>/dist/'],
	transform: {
		// Transpile only (isolatedModules is set in tsconfig.test.json): type errors are caught by `npm run typecheck`.
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	moduleFileExtensions: ['ts', 'js', 'json'],
};

/** The engine suites that run against the strict profile too: both triggers, and the action node's writes. */
const STRICT_SUITES = [
	'test/ESignStatusTrigger/**/*.test.ts',
	'test/ESignTrigger/**/*.test.ts',
	'test/ESign/document/document.test.ts',
	'test/ESign/document/createAndSend.test.ts',
	'test/ESign/document/tags.test.ts',
	'test/ESign/document/tagRemoval.test.ts',
	'test/ESign/document/formFields.slow.test.ts',
	'test/ESign/signer/*.test.ts',
	'test/ESign/field/*.test.ts',
	'test/ESign/template/*.test.ts',
	'test/ESign/tool.test.ts',
];

/** The slow layer's suites (child processes, pdf.js): the other projects leave them to it. */
const SLOW = '\\.slow\\.test\\.ts$';

const engineFolders = {
	// The harness's per-worker temp folders outlive workers jest stops: removed before and after each run
	// (jest runs these only when a suite of this project runs).
	globalSetup: '<rootDir>/test/harness/stale-folders.js',
	globalTeardown: '<rootDir>/test/harness/stale-folders.js',
};

module.exports = {
	// A hang guard only, never part of what a test proves (no wall-clock deadlines, issue 27): generous enough that
	// a busy 2-core machine (npm test beside an e2e run) never reaches it; no test sets a lower one of its own.
	testTimeout: 300000,
	maxWorkers: 2,
	watchPathIgnorePatterns: ['<rootDir>/.n8n-runtime/'],
	projects: [
		{
			...shared,
			displayName: 'unit',
			roots: ['<rootDir>/test/unit'],
			testPathIgnorePatterns: ['/node_modules/', SLOW],
		},
		{
			...shared,
			displayName: 'slow',
			roots: ['<rootDir>/test'],
			testMatch: ['<rootDir>/test/**/*.slow.test.ts'],
			// A slow suite outside test/unit may use the engine harness: its temp folders are cleared as the engine's.
			...engineFolders,
		},
		{
			...shared,
			displayName: 'engine',
			roots: ['<rootDir>/test'],
			testPathIgnorePatterns: ['/node_modules/', '/.n8n-runtime/', '/dist/', '<rootDir>/test/unit/', SLOW],
			...engineFolders,
		},
		{
			...shared,
			displayName: 'strict',
			roots: ['<rootDir>/test'],
			testMatch: STRICT_SUITES.map((glob) => `<rootDir>/${glob}`),
			// test/support's useSandbox() starts its sandboxes with this profile.
			globals: { ESIGN_SANDBOX_PROFILE: 'strict' },
			...engineFolders,
		},
	],
};
