import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { uploadBinary } from '../../helpers/documents';
import { coordinateCollectionOptions, fieldInputProperties, formFieldOptions, tagOptions } from '../../helpers/fieldDescriptions';
import { removeFormFieldsOption, removeTagsOption } from '../../helpers/fieldOptions';
import { fillValuesParameter, readFillValues } from '../../helpers/fillValues';
import { planFields } from '../../helpers/planFields';
import { emailKey, readSignerRows } from '../../helpers/signers';
import { getRequestOptions, toExecutionData } from '../../helpers/utils';
import { idFromAnswer } from '../../../shared/values';
import { eSignApiRequest } from '../../../shared/transport';
import { binaryPropertyInput, fileTitle, signersCollection } from '../common.descriptions';

const signerReference: INodeProperties = {
	displayName: 'Signer',
	name: 'signer',
	type: 'string',
	default: '1',
	required: true,
	description: 'Which signer fills this field: their position in the Signers list above (1 = first) or their email',
	hint: '1 = the first signer in "Signers" above, 2 = the second, …; or a signer\'s email',
};

const properties: INodeProperties[] = [
	binaryPropertyInput,
	fileTitle,
	signersCollection([], { required: true }),
	...fieldInputProperties(
		signerReference,
		{
			key: 'signer',
			example: '1',
			description:
				'Array of fields as the API takes them, with "signer" (position in the Signers list, from 1, or email) instead of signer_ID',
		},
		'A tag’s signer is the position in "Signers" above: 1 = the first. The tags are removed from the file uploaded, so any colour will do (Options → Remove Tags From the PDF); an encrypted or digitally signed PDF goes up unchanged with its tags visible, and a hint says so.',
		'1 = the first entry of "Signers" above, 2 = the second, …',
		'Every signer needs at least one signature field before the document can be sent',
		' The form fields that become fields are removed from the file uploaded, so no empty form box shows over them (Options → Remove Form Fields From the PDF).',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			...coordinateCollectionOptions,
			...tagOptions,
			removeTagsOption,
			fillValuesParameter(),
			...formFieldOptions,
			removeFormFieldsOption,
			{
				displayName: 'Keep Draft on Failure',
				name: 'keepDraftOnFailure',
				type: 'boolean',
				default: false,
				description:
					'Whether to keep the uploaded draft when adding signers or fields fails (by default it is deleted)',
			},
		],
	},
];

const displayOptions = { show: { resource: ['document'], operation: ['createAndSend'] } };

export const description = updateDisplayOptions(displayOptions, properties);

interface SignerInput {
	name: string;
	email: string;
	role: string;
	signing_order: number;
}

function readSigners(this: IExecuteFunctions, i: number): SignerInput[] {
	const rows = readSignerRows.call(this, i);
	if (!rows.length) {
		throw new NodeOperationError(this.getNode(), `"Signers" needs at least one signer`, {
			itemIndex: i,
			description: 'Add a signer with a name and an email under "Signers".',
		});
	}
	// Unset orders follow the list order, so fields can refer to signers by position.
	return rows.map((row, index) => ({
		name: row.name,
		email: row.email,
		role: row.role,
		signing_order: row.signingOrder || index + 1,
	}));
}

/** A signer reference is a 1-based position in the Signers list or one of their emails. */
function signerIndexResolver(signers: SignerInput[]) {
	return (row: IDataObject): { index?: number; error?: string } => {
		const ref = String(row.signer ?? '').trim();
		if (!ref) return { error: 'signer is required (position in the Signers list or email)' };
		if (/^[0-9]+$/.test(ref)) {
			const position = Number(ref);
			if (position >= 1 && position <= signers.length) return { index: position - 1 };
			return { error: `signer ${ref} is not in the Signers list (1 to ${signers.length})` };
		}
		const index = signers.findIndex((s) => emailKey(s.email) === emailKey(ref));
		return index >= 0 ? { index } : { error: `signer "${ref}" is not an email in the Signers list` };
	};
}

type Step = 'signers' | 'fields' | 'send';

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const binaryPropertyName = this.getNodeParameter('binaryPropertyName', i) as string;
	const title = this.getNodeParameter('title', i, '') as string;
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const requestOptions = getRequestOptions.call(this, i);

	// Everything that can be checked is checked before the upload, so bad input leaves nothing behind.
	const signers = readSigners.call(this, i);
	const resolve = signerIndexResolver(signers);
	const binaryData = this.helpers.assertBinaryData(i, binaryPropertyName);
	// Placeholder ids (position + 1) let the shared builder validate now; real ids are mapped in later.
	const planned = await planFields.call(this, i, {
		options,
		// The file is in hand: its pages check every field before the upload.
		always: true,
		// On unless switched off: saved workflows from before the option get the new default (CHANGELOG).
		removeTags: options.removeTags !== false,
		removeFormFields: options.removeFormFields !== false,
		// Drawn into the file before the upload, in the same update as the removals (Document → Fill PDF).
		fill: Object.hasOwn(options, 'pdfValues') ? readFillValues.call(this, i, 'options.pdfValues') : undefined,
		file: async () => ({
			bytes: await this.helpers.getBinaryDataBuffer(i, binaryPropertyName),
			where: `the file in binary field "${binaryPropertyName}" (${binaryData.fileName ?? binaryData.mimeType})`,
		}),
		signerCount: () => signers.length,
		tagSigner: (n) =>
			n <= signers.length
				? { row: { signer: String(n) } }
				: { error: `it names signer ${n}, but "Signers" has ${signers.length} (1 = the first)` },
		resolveSigner: (row) => {
			const { index, error } = resolve(row);
			return error ? { error } : { id: (index as number) + 1 };
		},
	});
	// Only a signer signs: a viewer or approver (roles of the plugin family) needs no signature field.
	const unsigned = signers.filter(
		(signer, index) => signer.role === 'signer' && !planned.fields.some((f) => f.field_type === 'signature' && f.signer_id === index + 1),
	);
	if (unsigned.length) {
		throw new NodeOperationError(
			this.getNode(),
			`Every signer with the role Signer needs a signature field in "Fields"; none for ${unsigned.map((s) => s.email).join(', ')}`,
			{
				itemIndex: i,
				description:
					this.getNodeParameter('fieldsInput', i) === 'formFields'
						? 'Give each of them a signature form field: a "Form Field Signers" row whose text is part of that field’s name, with their number as Signer.'
						: 'Add a field of type Signature for each of them under "Fields".',
			},
		);
	}

	const document = await uploadBinary.call(this, i, binaryPropertyName, title, requestOptions, planned.upload);
	const documentId = idFromAnswer(document.id);
	if (!documentId) {
		// Never put an id we did not validate into a path: nothing more is sent.
		throw new NodeOperationError(
			this.getNode(),
			`The site answered the upload with the document id ${JSON.stringify(document.id)}, which is not a positive whole number; nothing more was sent`,
			{ itemIndex: i, description: 'Check the site: a draft may have been created by the upload.' },
		);
	}
	let step: Step = 'signers';
	try {
		for (const signer of signers) {
			await eSignApiRequest.call(this, 'POST', `/documents/${documentId}/signers`, {
				...requestOptions,
				body: { ...signer },
				expect: 'object',
			});
		}
		// The add-signer response is not part of the contract: read the ids back.
		const saved = (await eSignApiRequest.call(
			this,
			'GET',
			`/documents/${documentId}/signers`,
			{ ...requestOptions, expect: 'list' },
		)) as IDataObject[];
		const idByEmail = new Map(saved.map((s) => [emailKey(s.email), Number(s.id)]));
		const fields = planned.fields.map((field) => ({
			...field,
			signer_id: idByEmail.get(emailKey(signers[(field.signer_id as number) - 1].email)),
		}));

		step = 'fields';
		const savedFields = (await eSignApiRequest.call(this, 'POST', `/documents/${documentId}/fields`, {
			...requestOptions,
			body: { fields },
			expect: 'list',
		})) as IDataObject[];

		step = 'send';
		const sent = (await eSignApiRequest.call(
			this,
			'POST',
			`/documents/${documentId}/send`,
			{ ...requestOptions, expect: ['sent'] },
		)) as IDataObject;

		return toExecutionData({
			...document,
			status: 'sent',
			signers: saved,
			fields: savedFields,
			sent: sent.sent === true,
			message: sent.message,
		});
	} catch (error) {
		const cause = error as NodeApiError | NodeOperationError;
		const httpCode = Number((cause as NodeApiError).httpCode);
		const definite = httpCode >= 400 && httpCode < 500;
		let outcome: string;
		let deleted = false;
		if (!definite && step === 'send') {
			outcome = `The send may have reached the site, so signers may already have been emailed: draft ${documentId} was kept. Check its status before running again.`;
		} else if (!definite) {
			outcome = `The site's answer was uncertain, so document ${documentId} was kept. Check it before running again.`;
		} else if (options.keepDraftOnFailure === true) {
			outcome = `Draft ${documentId} was kept (Keep Draft on Failure).`;
		} else {
			try {
				await eSignApiRequest.call(this, 'DELETE', `/documents/${documentId}`, {
					...requestOptions,
					expect: ['deleted'],
				});
				deleted = true;
				outcome = `Draft ${documentId} was deleted.`;
			} catch {
				outcome = `Deleting draft ${documentId} failed too: delete it by hand.`;
			}
		}
		const failure = new NodeOperationError(
			this.getNode(),
			`Create and Send failed at step "${step}": ${cause.message}. ${outcome}`,
			{ itemIndex: i, description: [cause.description, outcome].filter(Boolean).join('\n') },
		);
		Object.assign(failure.context, {
			failedStep: step,
			documentId,
			documentDeleted: deleted,
			httpCode: Number.isFinite(httpCode) ? httpCode : undefined,
			apiCode: cause.context?.apiCode,
		});
		throw failure;
	}
}
