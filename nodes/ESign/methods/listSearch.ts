import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { hasNextPage } from '../../shared/pages';
import { eSignApiGetPage, eSignApiRequest } from '../../shared/transport';

const PAGE_SIZE = 50;

export async function searchDocuments(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1) || 1;
	const qs: IDataObject = { page, per_page: PAGE_SIZE };
	if (filter?.trim()) qs.search = filter.trim();
	const { items: documents, totalPages } = await eSignApiGetPage.call(this, '/documents', { qs });
	return {
		results: documents.map((d) => ({
			name: `${d.title} (#${d.id}, ${d.status})`,
			value: String(d.id),
		})),
		// The same rule as Return All: the site's page count, or a full page when it sends none.
		paginationToken: hasNextPage(page, PAGE_SIZE, documents.length, totalPages) ? String(page + 1) : undefined,
	};
}

export async function searchTemplates(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const qs: IDataObject = { per_page: 100 };
	if (filter?.trim()) qs.search = filter.trim();
	const templates = (await eSignApiRequest.call(this, 'GET', '/templates', { qs, expect: 'list' })) as IDataObject[];
	return {
		results: (Array.isArray(templates) ? templates : []).map((t) => ({
			name: `${t.name} (#${t.id})`,
			value: String(t.id),
		})),
	};
}
