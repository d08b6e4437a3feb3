// Types for test/support/npmWatch.js.
export interface WatchedOutcome {
	ok: boolean;
	stalled?: boolean;
	message?: string;
	/** What npmInstallWatched reported between attempts. */
	logged: string[];
	/** node_modules/<pkg>/package.json exists after the run. */
	installed: boolean;
	/** The URLs the registry double was asked for, in order. */
	requests: string[];
	/** node_modules/.half-written (made by halfTree) still exists. */
	leftover: boolean;
}
export function watchedInstall(options: {
	packages: Record<string, Record<string, string>>;
	pkg: string;
	/** How to answer the n-th request: at once, never, after ms, or in 40 pieces over ms. Packages named big-* hold 400 KB. */
	plan: (requestNumber: number, url: string) => 'serve' | 'hang' | number | { trickle: number };
	stallMs: number;
	maxMs?: number;
	attempts?: number;
	/** Start with node_modules/.half-written, as an interrupted install leaves it. */
	halfTree?: boolean;
	/** Count npm's downloads folder (its cache's tmp) as progress, as the runtime installs do. */
	watchDownloads?: boolean;
}): Promise<WatchedOutcome>;
