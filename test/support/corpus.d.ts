// Types for test/support/corpus.js.
import type { INode } from 'n8n-workflow';

export interface CorpusWorkflow {
	id: string;
	name: string;
	nodes: INode[];
	connections: Record<string, unknown>;
}

export function readCorpus(): Array<{ file: string; workflow: CorpusWorkflow }>;
