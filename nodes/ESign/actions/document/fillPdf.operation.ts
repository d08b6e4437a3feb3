import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { fillValuesParameter, readFillValues, throwFillProblems } from '../../helpers/fillValues';
import { planFill, writeFill } from '../../helpers/pdfFill';
import { openPdf } from '../../helpers/pdfFile';
import { answersAsTool } from '../toolAnswer';

const properties: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field holding the PDF; the filled PDF goes out in the same field',
	},
	fillValuesParameter({ required: true }),
];

const displayOptions = { show: { resource: ['document'], operation: ['fillPdf'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * Document → Fill PDF: the item's PDF with the values drawn into its pages (form fields and data tags), as binary in
 * the same field; nothing is sent to the site. The item's JSON goes on unchanged, so the row that filled the PDF can
 * fill the next node too (an AI agent, which sees no binary, hears what was filled).
 */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const binaryPropertyName = this.getNodeParameter('binaryPropertyName', i) as string;
	const values = readFillValues.call(this, i, 'pdfValues');
	const binaryData = this.helpers.assertBinaryData(i, binaryPropertyName);
	const where = `the file in binary field "${binaryPropertyName}" (${binaryData.fileName ?? binaryPropertyName})`;
	const bytes = await this.helpers.getBinaryDataBuffer(i, binaryPropertyName);
	const pdf = await openPdf.call(this, i, bytes, where, true, 'form fields or data tags');
	if (!pdf) throw new NodeOperationError(this.getNode(), `${where} cannot be read as a PDF`, { itemIndex: i });
	const plan = await planFill(pdf, values);
	throwFillProblems.call(this, i, where, plan.problems);
	const written = await writeFill(plan);
	throwFillProblems.call(this, i, where, written.problems);
	const { removal } = written;
	const file = removal.update ? Buffer.concat([removal.original, ...removal.update]) : bytes;
	const fileName = binaryData.fileName ?? 'document.pdf';
	const binary = await this.helpers.prepareBinaryData(file, fileName, 'application/pdf');
	const item = this.getInputData()[i];
	const json: IDataObject = answersAsTool.call(this) ? { filled: plan.filled, filename: fileName, size: file.length } : { ...item.json };
	return [{ json, binary: { ...item.binary, [binaryPropertyName]: binary } }];
}
