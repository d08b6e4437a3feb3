// The long contract for the reader's benchmark: a flat-ODF document of `pages` pages, one clause per page (each clause
// starts a new page), each page with 1–2 tags. Deterministic: the text comes from a fixed sentence bank and a seeded
// generator. Returns the document and the tags it holds, with their page numbers.

import { mulberry32 } from '../../test/support/prng.js';

const SENTENCES = [
	'The Supplier shall perform the services with the care and skill of a diligent professional.',
	'The Customer shall provide the information and access the Supplier reasonably requires.',
	'Any change to the scope of the services requires a written change request signed by both Parties.',
	'Invoices are payable within thirty days of receipt unless the order form states otherwise.',
	'Neither Party is liable for indirect or consequential loss, including loss of profit or data.',
	'Each Party shall comply with the data protection laws that apply to its processing of personal data.',
	'The Supplier may engage subcontractors but remains responsible for their performance.',
	'Notices under this Agreement must be given in writing to the addresses stated in the order form.',
	'A failure to exercise a right does not waive that right or any other right.',
	'If a provision is held invalid, the remaining provisions continue in full force and effect.',
	'This Agreement is governed by the laws of the country in which the Supplier has its registered office.',
	'The Parties shall first try to settle any dispute through good-faith negotiation between senior managers.',
	'Service credits are the Customer’s sole remedy for a failure to meet the service levels.',
	'The Supplier keeps records of the services for at least three years after their completion.',
	'Intellectual property created specifically for the Customer is assigned to the Customer on payment.',
	'The Customer shall not resell or sublicense the services without the Supplier’s prior written consent.',
];

const TOPICS = ['Scope', 'Cooperation', 'Changes', 'Payment', 'Liability', 'Data protection', 'Subcontracting', 'Notices'];

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function benchContract(pages = 300) {
	const next = mulberry32(20260101); // seeded: every run writes the same text
	const tags = [];
	const body = [];
	for (let page = 1; page <= pages; page++) {
		body.push(`<text:p text:style-name="${page === 1 ? 'First' : 'Clause'}">${page}. ${TOPICS[(page - 1) % TOPICS.length]}</text:p>`);
		for (let p = 0; p < 3; p++) {
			const count = 3 + Math.floor(next() * 3);
			const text = Array.from({ length: count }, () => SENTENCES[Math.floor(next() * SENTENCES.length)]).join(' ');
			body.push(`<text:p text:style-name="Body">${page}.${p + 1} ${esc(text)}</text:p>`);
		}
		const line = [];
		const tag = (t) => (tags.push({ text: t, page }), esc(t));
		line.push(`Initials ${tag('{{initials:1}}')}`);
		if (page % 3 === 0) line.push(`Initials ${tag('{{initials:2:n}}')}`);
		if (page % 25 === 0) line.push(`Prepared for ${esc('{{client_name}}')}`);
		body.push(`<text:p text:style-name="Body">${line.join('<text:tab/>')}</text:p>`);
		if (page === pages) {
			body.push(`<text:p text:style-name="Body">Signature: ${tag('{{signature:1}}')}</text:p>`);
			body.push(`<text:p text:style-name="Body">Date: ${tag('{{date:2}}')}</text:p>`);
		}
	}
	const xml = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:font-face-decls>
  <style:font-face style:name="Liberation Serif" svg:font-family="'Liberation Serif'" style:font-family-generic="roman"/>
 </office:font-face-decls>
 <office:styles>
  <style:default-style style:family="paragraph">
   <style:text-properties style:font-name="Liberation Serif" fo:font-size="11pt" fo:language="en" fo:country="US"/>
  </style:default-style>
  <style:style style:name="Body" style:family="paragraph">
   <style:paragraph-properties fo:text-align="justify" fo:margin-bottom="0.25cm"/>
  </style:style>
  <style:style style:name="First" style:family="paragraph">
   <style:paragraph-properties fo:margin-bottom="0.3cm"/>
   <style:text-properties fo:font-size="14pt" fo:font-weight="bold"/>
  </style:style>
  <style:style style:name="Clause" style:family="paragraph" style:parent-style-name="First">
   <style:paragraph-properties fo:break-before="page"/>
  </style:style>
 </office:styles>
 <office:automatic-styles>
  <style:page-layout style:name="pm">
   <style:page-layout-properties fo:page-width="21.59cm" fo:page-height="27.94cm" fo:margin-top="2cm"
    fo:margin-bottom="2cm" fo:margin-left="2.5cm" fo:margin-right="2.5cm"/>
  </style:page-layout>
 </office:automatic-styles>
 <office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm"/></office:master-styles>
 <office:body><office:text>
${body.join('\n')}
 </office:text></office:body>
</office:document>
`;
	return { xml, tags };
}
