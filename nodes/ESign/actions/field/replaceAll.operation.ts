import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { signerIdFromRow } from '../../helpers/fields';
import { coordinateCollectionOptions, fieldInputProperties, formFieldOptions, tagOptions } from '../../helpers/fieldDescriptions';
import { planFields } from '../../helpers/planFields';
import { getDocumentId, getRequestOptions } from '../../helpers/utils';
import { readDocumentBytes } from '../../../shared/documentFile';
import { eSignApiRequest } from '../../../shared/transport';
import { documentRLC } from '../common.descriptions';

const signerPicker: INodeProperties = {
	displayName: 'Signer Name or ID',
	name: 'signer_id',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getSigners', loadOptionsDependsOn: ['documentId.value'] },
	default: '',
	required: true,
	description:
		'Who fills this field. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const properties: INodeProperties[] = [
	{
		displayName:
			'Replaces ALL fields of the document with the ones given here: fields not listed are removed. Send the complete set every time (see the option to combine items).',
		name: 'replaceNotice',
		type: 'notice',
		default: '',
	},
	documentRLC,
	...fieldInputProperties(signerPicker, {
		key: 'signer_id',
		example: '1',
		description:
			'Array of fields as the API takes them: signer_ID, field_type, page_number, position_x, position_y, and optionally width, height, is_required, field_name, font_size, font_family, placeholder, options',
	}, 'A tag’s signer is the document’s signers in signing order: 1 = the first. The node reads the draft’s file from the site and leaves it as it is, since the site cannot replace a document’s file: signers see the tags unless they are written in white. Create and Send removes them from the file it uploads.', '1 = the document’s first signer in signing order, 2 = the second, …'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Combine Items for the Same Document',
				name: 'combineItems',
				type: 'boolean',
				default: false,
				description:
					'Whether to send the fields of all input items that target the same document in one call (e.g. one item per field). Off: each item replaces the fields again, so only the last item’s fields remain.',
			},
			...coordinateCollectionOptions,
			...tagOptions,
			// The site cannot replace a document's file: its form boxes stay (Create and Send removes them from its upload).
			...formFieldOptions.map((option) =>
				option.name === 'formFieldSize'
					? {
							...option,
							description: `${option.description}. The draft's file on the site stays as it is (the site cannot replace it), so signers see its form boxes under the fields; Create and Send removes them from the file it uploads.`,
						}
					: option,
			),
		],
	},
];

const displayOptions = { show: { resource: ['field'], operation: ['replaceAll'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * With "Combine Items for the Same Document", items targeting one document form one call;
 * the router pairs the output with every item of the group.
 */
export function groupItems(this: IExecuteFunctions, itemCount: number): number[][] {
	const groups: number[][] = [];
	const byDocument = new Map<string, number[]>();
	for (let i = 0; i < itemCount; i++) {
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		let documentId: string | undefined;
		if (options.combineItems === true) {
			try {
				documentId = getDocumentId.call(this, i);
			} catch {
				documentId = undefined; // reported when the item itself runs
			}
		}
		const group = documentId === undefined ? undefined : byDocument.get(documentId);
		if (group) group.push(i);
		else {
			const created = [i];
			groups.push(created);
			if (documentId !== undefined) byDocument.set(documentId, created);
		}
	}
	return groups;
}

/** The document's signers in signing order (then by id), for text tags and form fields: signer 1 is the first. */
async function signersInOrder(this: IExecuteFunctions, id: string, i: number): Promise<IDataObject[]> {
	const signers = (await eSignApiRequest.call(this, 'GET', `/documents/${id}/signers`, {
		...getRequestOptions.call(this, i),
		expect: 'list',
	})) as IDataObject[];
	const order = (signer: IDataObject) => (Number.isFinite(Number(signer.signing_order)) ? Number(signer.signing_order) : Infinity);
	return signers.slice().sort((a, b) => order(a) - order(b) || Number(a.id) - Number(b.id));
}

export async function execute(
	this: IExecuteFunctions,
	i: number,
	group: number[] = [i],
): Promise<INodeExecutionData[]> {
	const id = getDocumentId.call(this, i);
	const fields: IDataObject[] = [];
	// The draft's file and signers are read once for the whole group, and only when a field needs them.
	let file: Promise<{ bytes: Buffer; where: string }> | undefined;
	let signers: Promise<IDataObject[]> | undefined;
	// Field numbers run across the whole combined list, as the API numbers what it receives.
	let nextNumber = 1;
	for (const item of group) {
		const options = this.getNodeParameter('options', item, {}) as IDataObject;
		const planned = await planFields.call(this, item, {
			options,
			file: () =>
				(file ??= readDocumentBytes
					.call(this, id, getRequestOptions.call(this, i))
					.then(({ bytes, fileName }) => ({ bytes, where: `the file of document ${id} (${fileName})` }))),
			signerCount: async () => (await (signers ??= signersInOrder.call(this, id, i))).length,
			tagSigner: async (n) => {
				const list = await (signers ??= signersInOrder.call(this, id, i));
				const signer = list[n - 1];
				if (signer) return { row: { signer_id: signer.id } };
				const names = list.map((s, k) => `${k + 1} = ${String(s.email ?? s.name ?? s.id)}`).join(', ');
				return { error: `it names signer ${n}, but document ${id} has ${list.length} signer${list.length === 1 ? '' : 's'}${names ? ` (${names})` : ''}` };
			},
			resolveSigner: signerIdFromRow,
			firstNumber: nextNumber,
		});
		nextNumber += planned.rowCount;
		fields.push(...planned.fields);
	}
	const saved = (await eSignApiRequest.call(this, 'POST', `/documents/${id}/fields`, {
		...getRequestOptions.call(this, i),
		body: { fields },
		expect: 'list',
	})) as IDataObject[];
	return [{ json: { document_id: id, field_count: saved.length, fields: saved } }];
}
