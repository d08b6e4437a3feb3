// Types for the JS test support (index.js), where the TypeScript suites meet it.
// What the engine and the site answer is JSON of many shapes that the tests assert on field by field:
// it is typed `Json` (any), and everything else (parameters, options, helpers) precisely.
/* eslint-disable @typescript-eslint/no-explicit-any */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

export type Json = any;

export type KeyName = 'admin' | 'adminReadOnly' | 'user' | 'user2';

export interface Sandbox {
	url: string;
	apiUrl: string;
	port: number;
	keys: Record<KeyName, { key: string; secret: string }>;
	webhookSecret: string;
	state: Json;
	/** createSandbox({tls}): the certificate's variant and PEM (to trust it); null over plain HTTP. */
	tls: { variant: 'self-signed' | 'expired' | 'wrong-host'; cert: string } | null;
	/** createSandbox({tls}): the same site over plain HTTP (control(), api(), upload(), sample() use it); else null. */
	plain: { url: string; apiUrl: string } | null;
	/** The profile's name at start: 'default' (the sandbox's guesses), 'strict' (the spec alone) or 'family' (a WPsigner-like site). */
	profile: 'default' | 'strict' | 'family';
	reset(): void;
	idle(): Promise<void>;
	now(): string;
	close(): Promise<void>;
	/** createSandbox({dataDir}): where the data is kept, and what happened to an unreadable file; null without dataDir. */
	persistence: { dir: string; file: string; restored: boolean; movedAside: string | null; warning: string | null } | null;
	/** createSandbox({dataDir}): resolves after the next save of the data. */
	nextSave(): Promise<void>;
}

/** An error as the engine reports it (NodeApiError / NodeOperationError). */
export interface RunError {
	message: string;
	description?: string | null;
	httpCode?: string | null;
	context: Json;
	[key: string]: Json;
}

export interface NodeRun {
	items: Json[];
	error: RunError;
	runData: Json;
	run: Json;
	binary(index: number, property?: string): Promise<Buffer>;
	credentialsHelper: Json;
}

export interface RunOptions {
	who?: KeyName | string;
	input?: Array<{ json: IDataObject; binary?: Record<string, { data: Buffer | string; fileName?: string; mimeType?: string }> }>;
	continueOnFail?: boolean;
	binaryMode?: string;
	typeVersion?: number;
	[key: string]: unknown;
}

export interface WebhookRun {
	statusCode: number;
	json: Json;
	answered: boolean;
	result: Json;
	workflowData?: INodeExecutionData[][];
	/** The trigger's output: in the run when it executed (what the next node gets), else what webhook() returned. */
	items: Json[];
	/** What webhook() returned (workflowData[0]), before the run. */
	webhookItems: Json[];
	/** Whether n8n created a run for the call. */
	runCreated: boolean;
	/** What n8n has stored as the workflow's static data after the call and its run, and whether it saved anything. */
	staticData: Json;
	staticDataChanged: boolean;
	error?: RunError;
	/** What the node logged as warnings and errors. */
	logs: { warn: string[]; error: string[] };
	[key: string]: Json;
}

export interface Harness {
	runNode(options: { type: string; parameters?: IDataObject; credentials?: IDataObject } & RunOptions): Promise<NodeRun>;
	runMethod(options: { kind: string; method: string; parameters?: IDataObject; args?: unknown[]; credentials: IDataObject }): Promise<Json>;
	runWebhook(options: {
		parameters?: IDataObject;
		credentials?: IDataObject;
		request: { headers?: Record<string, string>; rawBody?: Buffer | string; body?: unknown };
		/** false: n8n creates the run but does not execute it here (a queued job); default true. */
		execute?: boolean;
		/** n8n cannot create the run (a full disk, a locked database, Redis down): it answers 500. */
		failRun?: boolean;
		/** Awaited where n8n creates the run: a test holds it there, or fails it by throwing. */
		beforeRun?: () => Promise<void>;
		staticData?: unknown;
		mode?: 'webhook' | 'manual';
		/** The same id on several calls: one saved workflow called again (default: a new id per call). */
		workflowId?: string;
		/** How many credential reads throw first, as n8n 2.x's do under a burst. */
		failCredentialReads?: number;
		[key: string]: unknown;
	}): Promise<WebhookRun>;
	testCredential(data: IDataObject, type?: string): Promise<{ status: 'OK' | 'Error'; message: string }>;
	runPoll(options: {
		parameters?: IDataObject;
		credentials?: IDataObject;
		staticData?: unknown;
		mode?: 'trigger' | 'manual';
		/** The same id on every poll of one active workflow (default: a new one per run). */
		workflowId?: string;
		[key: string]: unknown;
	}): Promise<PollRun>;
	/** The eSign node as an AI agent's tool: `args` are the model's arguments for the `$fromAI()` parameters. */
	runTool(options: { parameters?: IDataObject; args?: IDataObject; credentials?: IDataObject; name?: string; onError?: string }): Promise<ToolRun>;
	[key: string]: unknown;
}

export interface ToolRun {
	/** The tool message the model receives, as n8n's AI Agent 3.x builds it. */
	observation: string;
	/** The observation parsed. */
	answer: Json;
	/** The tool node's output items. */
	items: Json[];
	error?: RunError;
	runData: Json;
}

export interface PollRun {
	output: INodeExecutionData[][] | null;
	items: Json[];
	error?: RunError;
	warnings: string[];
	staticData: Json;
	binary(index: number, property?: string): Promise<Buffer>;
}

export const ESIGN: string;
export const harness: Harness;
export function createSandbox(options?: IDataObject): Promise<Sandbox>;
export const DEFAULT_WEBHOOK_SECRET: string;
export function useSandbox(options?: IDataObject): Sandbox;
/** The profile the engine suites' sandboxes play in this jest project: 'strict' in the project `strict`. */
export const SANDBOX_PROFILE: 'default' | 'strict';
/** SANDBOX_PROFILE === 'strict': a test that checks one of the default profile's guesses says so by branching on it. */
export const strictProfile: boolean;
export type CredentialData = { siteUrl: string; apiKey: string; apiSecret: string; webhookSecret: string };
export function credentialsFor(site: Pick<Sandbox, 'url' | 'keys' | 'webhookSecret'>, who?: KeyName): CredentialData;
export const OFFLINE_SITE: string;
export function offlineCredentials(webhookSecret: string): CredentialData;
export function keyedRequest(
	url: string,
	pair: { key: string; secret: string } | null,
	method?: string,
	body?: unknown,
): Promise<{ status: number; headers: Headers; body: Json }>;
export function control<T = Json>(sb: Sandbox, method: string, path: string, body?: unknown): Promise<T>;
export function api(sb: Sandbox, method: string, path: string, body?: unknown, who?: KeyName | string): Promise<{ status: number; headers: Headers; body: Json }>;
export function upload(sb: Sandbox, buffer: Buffer, fileName: string, title?: string, who?: KeyName): Promise<Json>;
export function sample(sb: Sandbox, name: string): Promise<Buffer>;
export function makeDraft(
	sb: Sandbox,
	options?: {
		title?: string;
		signers?: Array<{ name: string; email: string; [key: string]: unknown }>;
		fields?: boolean;
		who?: KeyName | string;
		/** the draft's file (default: the sandbox's contract.pdf) */
		file?: { data: Buffer; name: string };
	},
): Promise<Json>;
export function sentDocument(
	sb: Sandbox,
	options?: { title?: string; signers?: Array<{ name: string; email: string; [key: string]: unknown }>; fields?: boolean; who?: KeyName },
): Promise<Json>;
export function rl(value: string | number): { __rl: true; mode: 'id'; value: string };
export function esign(sb: Sandbox, parameters: IDataObject, options?: RunOptions): Promise<NodeRun>;
export function requestLog(sb: Sandbox): Promise<Json[]>;
export function clearLog(sb: Sandbox): Promise<void>;
export function requestLines(sb: Sandbox): Promise<string[]>;
export function timersSet<T>(fn: () => Promise<T>, minMs?: number): Promise<{ result: T; delays: number[] }>;
export function hostile(sb: Sandbox, fault: IDataObject): Promise<Json>;
export function startSiteWithoutPageHeaders(
	total: number,
	keysFrom: Sandbox,
): Promise<{ site: Sandbox; pages: number[]; close(): Promise<void> }>;
export interface RecordedRequest {
	method: string;
	url: string;
	headers: Record<string, string>;
	body: string;
	raw: Buffer;
}
export function startRecorder(
	answer?: (request: RecordedRequest) => { status: number; body: unknown; record?: Record<string, unknown> },
): Promise<{
	url: string;
	requests: Array<RecordedRequest & Record<string, unknown>>;
	close(): Promise<void>;
}>;

/** The site described in ESIGN_CONTRACT_SITE (set by `npm run test:wordpress`), or null for the sandbox. */
export function describedContractSite(): {
	kind: 'wordpress';
	url: string;
	apiBase: string;
	controlBase: string;
	keys: Record<KeyName, { key: string; secret: string }>;
	webhookSecret: string;
} | null;

/** Trusts a certificate (sb.tls.cert) in this process, for every new TLS connection; returns the undo. */
export function trustCertificate(cert: string): () => void;

/** The body of POST /__sandbox/fronts and createSandbox({fronts}): a named front is set, false/null turns it off. */
export interface SandboxFronts {
	basicAuth?: { user: string; password: string; realm?: string; applicationPasswords?: boolean } | false | null;
	cache?: { ttlSeconds?: number; ignoreQuery?: boolean | string[]; headers?: Array<'x-cache' | 'age' | 'cf-cache-status'> } | true | false | null;
	challenge?: { status?: 403 | 503 } | true | false | null;
	block?: 'wordfence' | 'modsecurity' | 'sucuri' | 'solid' | { kind: 'wordfence' | 'modsecurity' | 'sucuri' | 'solid'; status?: number; writesOnly?: boolean } | false | null;
	/** ModSecurity with the OWASP Core Rule Set: true = Debian 12's CRS 3.3 at paranoia level 1. */
	crs?: { version?: '3.3' | '4'; paranoiaLevel?: 1 | 2; attacks?: boolean } | true | false | null;
	stripHeaders?: { headers?: string[] } | true | false | null;
}
