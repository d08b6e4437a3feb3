import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ESignRequestOptions } from '../../shared/transport';
import { eSignApiRequest } from '../../shared/transport';
import { detectFileType } from '../../shared/documentFile';
import { fileStem, uploadForm } from './utils';

/**
 * Reads the item's binary through n8n's helpers (works in memory, filesystem and S3 modes),
 * refuses anything that is not PDF/PNG/JPG before any request, and uploads it.
 */
export async function uploadBinary(
	this: IExecuteFunctions,
	i: number,
	binaryPropertyName: string,
	title: string,
	requestOptions: ESignRequestOptions,
): Promise<IDataObject> {
	const binaryData = this.helpers.assertBinaryData(i, binaryPropertyName);
	const buffer = await this.helpers.getBinaryDataBuffer(i, binaryPropertyName);
	const detected = detectFileType(buffer);
	const shownName = binaryData.fileName ?? binaryPropertyName;
	if (!detected) {
		const looksLikePdf = buffer.subarray(0, 5).toString('latin1') === '%PDF-';
		throw new NodeOperationError(
			this.getNode(),
			looksLikePdf
				? `Item ${i}: the file in binary field "${binaryPropertyName}" (${shownName}) starts like a PDF but is not a complete PDF (no %%EOF at its end)`
				: `Item ${i}: the file in binary field "${binaryPropertyName}" (${shownName}, ${binaryData.mimeType}) is not a PDF, PNG or JPG`,
			{
				itemIndex: i,
				description:
					'eSign accepts PDF, PNG and JPG files only, recognised by their content. Convert the file first (e.g. to PDF).',
			},
		);
	}
	let fileName = binaryData.fileName ?? `document.${detected.extension}`;
	if (!/\.[A-Za-z0-9]+$/.test(fileName)) fileName += `.${detected.extension}`;
	return (await eSignApiRequest.call(this, 'POST', '/documents/upload', {
		...requestOptions,
		expect: ['id'],
		body: uploadForm(buffer, fileName, detected.mimeType, title.trim() || fileStem(fileName)),
	})) as IDataObject;
}
