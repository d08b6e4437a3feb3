// Types for test/support/qpdf.js.
/** qpdf --check on `bytes`: exit status 0 when clean (2 errors, 3 warnings), null when qpdf is not installed. */
export function qpdfCheck(bytes: Uint8Array): { status: number | null; output: string };
