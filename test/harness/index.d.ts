// Types of the engine harness (JS) where the TypeScript suites call it directly.
import type { Harness } from '../support';

export const runNode: Harness['runNode'];
export const runMethod: Harness['runMethod'];
export const runWebhook: Harness['runWebhook'];
export const runPoll: Harness['runPoll'];
export const runTool: Harness['runTool'];
export const testCredential: Harness['testCredential'];
export function runWorkflow(options: Record<string, unknown>): Promise<import('../support').NodeRun>;
export function startWebhookServer(options: Record<string, unknown>): Promise<{
	url: string;
	base: string;
	port: number;
	path: string;
	calls: import('../support').WebhookRun[];
	waitForCalls(count?: number): Promise<import('../support').WebhookRun[]>;
	waitFor(predicate: (call: import('../support').WebhookRun) => boolean): Promise<import('../support').WebhookRun>;
	idle(): Promise<void>;
	close(): Promise<void>;
}>;
export function runWebhookLifecycle(options: {
	parameters?: Record<string, unknown>;
	credentials?: Record<string, unknown>;
	steps?: Array<'activate' | 'deactivate'>;
	mode?: string;
	activation?: string;
	[key: string]: unknown;
}): Promise<{ calls: Array<{ method: string; result: unknown }>; error?: Error; webhookUrl: string | undefined }>;
export function createRequest(options: Record<string, unknown>): Record<string, unknown>;
export function createResponse(raw?: unknown): Record<string, unknown>;
export function registerNodeType(name: string, instance: unknown): void;
/** 'filesystem' (n8n 2.x's default) or 'default' (in memory, base64 in the item). */
export function useBinaryMode(mode?: 'filesystem' | 'default'): Promise<unknown>;
export function readBinary(binaryData: unknown): Promise<Buffer>;
export const nodeTypes: Record<string, unknown>;
export function withCredentialDefaults(type: string, data: Record<string, unknown>): Record<string, unknown>;
export const HarnessCredentialsHelper: new (credentialsByType: Record<string, unknown>) => { decryptCalls: number; authenticateCalls: number };
export const HARNESS_DIR: string;
