// Types for test/support/pdfAfm.js: standard-14 widths from pdf-lib's copy of Adobe's AFM files.
export function afmWidth(font: 'Helvetica' | 'Helvetica-Bold' | 'Helvetica-Oblique' | 'Times-Roman' | 'Times-Bold' | 'Times-Italic' | 'Courier' | 'Symbol', glyph: string): number;
