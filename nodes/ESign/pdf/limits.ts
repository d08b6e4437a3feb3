/**
 * Every bound of the PDF reader, each with why it is where it is. A hostile or broken file meets one of these and
 * stops (a PdfError 'limit' or 'damaged' with its own message) or is read no further than the bound, never takes the
 * process down. `PdfLimits` holds the ones the node may tune per read; the rest are fixed, set far above what real
 * producers write. docs/text-tags.md ("What the reader reads, and its limits") states the ones a user meets.
 */

/** What a read may cost at most (the node may tune these). */
export interface PdfLimits {
	/** bytes one stream may expand to */
	streamBytes: number;
	/** bytes all streams of one read may expand to, together */
	totalBytes: number;
	pages: number;
	/** bytes of page content interpreted, Form XObjects counted each time they are drawn */
	contentBytes: number;
}

export const DEFAULT_LIMITS: PdfLimits = {
	streamBytes: 32 * 1048576,
	totalBytes: 256 * 1048576,
	pages: 20_000,
	contentBytes: 128 * 1048576,
};

// Syntax (read/lexer.ts, read/parser.ts, read/objects.ts)

/** Objects nested deeper are refused: no real producer comes near it, and recursion must stay bounded. */
export const MAX_NESTING = 64;
/** Bytes of one name: real names are short; a longer one is damage, not something to build a string of. */
export const MAX_NAME_BYTES = 4096;
/** Short keywords kept interned (content is mostly operators: a table, not a new string each time), at most. */
export const MAX_KEYWORDS = 4096;
/** Names interned (they compare by identity); past this, new names are plain objects, so the table cannot grow. */
export const MAX_INTERNED_NAMES = 50_000;

// Cross-reference and objects (read/xref.ts, read/document.ts)

/** Bytes at the file's end searched for "startxref" (some files carry junk after %%EOF). */
export const STARTXREF_WINDOW = 65536;
/** Sections of a /Prev chain read (a file updated more often than this is damaged or hostile). */
export const MAX_XREF_SECTIONS = 256;
/** Entries of one classic xref subsection. */
export const MAX_XREF_SUBSECTION = 10_000_000;
/**
 * Objects a file's tables may name: a quarter of its bytes (every object takes more than that, even compressed), at
 * least XREF_ENTRIES_FLOOR. Xref stream rows are compressed, so a small file could otherwise claim millions.
 */
export const XREF_ENTRIES_FLOOR = 1 << 17;
export const maxXrefEntries = (fileBytes: number): number => Math.max(XREF_ENTRIES_FLOOR, fileBytes >> 2);
/** Objects one object stream may list (/N): its header is read up to /First anyway. */
export const MAX_OBJECT_STREAM_ENTRIES = 1_000_000;
/** References followed for one value: a longer chain (or a loop) resolves to null. */
export const MAX_REF_HOPS = 32;
/** Decoded Form XObjects kept per document (a letterhead or logo drawn on every page is decoded once). */
export const FORM_CACHE_BYTES = 16 * 1048576;

// Filters (read/filters.ts)

/** A predictor's /Columns: wider rows than any image a PDF holds; the row buffer is sized by it. */
export const MAX_PREDICTOR_COLUMNS = 1 << 20;

// Pages (text/pages.ts)

/** Depth of the page tree: real trees are a few levels; recursion must stay bounded. */
export const MAX_PAGE_TREE_DEPTH = 64;
/** Content streams of one page read: producers write one or a few; a list of millions would be read for nothing. */
export const MAX_CONTENT_PARTS = 10_000;

// Page content (text/content.ts, text/layout.ts); PdfLimits.contentBytes bounds the bytes interpreted

/** Form XObjects nested inside each other (a form drawing itself is a cycle; real documents nest two or three). */
export const MAX_FORM_DEPTH = 12;
/** A Form XObject's draw counts as at least this many bytes of content: its setup is work even when it is empty. */
export const FORM_DRAW_COST = 1024;
/** Graphics states saved by q and not yet restored that are kept (deeper saves are dropped, not stacked). */
export const MAX_STATE_DEPTH = 256;
/** Operands kept before one operator (no operator takes more than a handful; a TJ array is one operand). */
export const MAX_CONTENT_OPERANDS = 4096;
/** Glyphs one page may show: a dense page has tens of thousands; past this the page's lines would not fit in memory. */
export const MAX_PAGE_GLYPHS = 1_000_000;

// Fonts (fonts/)

/** Items of a font's /Widths (or other number list) read: codes of a simple font are 0–255, CIDs two bytes. */
export const MAX_FONT_NUMBERS = 65536;
/** Widths a CID font's /W may set (CIDs run to 65,535; overlapping ranges are counted each time). */
export const MAX_CID_WIDTHS = 200_000;
/** CIDs one /W range may set (a CID is two bytes). */
export const MAX_CID_RANGE = 65536;
/** Glyphs of a composite font remembered by code (codes of up to 4 bytes could otherwise fill memory). */
export const MAX_GLYPH_CACHE = 65536;
/** Entries of one CMap (code ranges and single codes): Adobe's largest CJK CMaps have tens of thousands. */
export const MAX_CMAP_ENTRIES = 1 << 17;
/** Real CMaps have a handful of codespace ranges; every code of a string is checked against them. */
export const MAX_CODESPACES = 32;
/** Operands kept between two CMap keywords: a block's entries (three operands each) up to the entry limit. */
export const MAX_CMAP_OPERANDS = 3 * MAX_CMAP_ENTRIES;
/** A CMap destination is at most 512 bytes (the format's limit); a longer one is cut, so its text stays short. */
export const MAX_CMAP_DESTINATION = 512;
/** Entries of a Type 1 program's encoding read (a code is 0–255; a file writing more `dup` lines gains nothing). */
export const MAX_TYPE1_ENCODING_ENTRIES = 256;
/** CIDs of a bundled CID → Unicode table (CIDs are two bytes; the largest collection, GB1, has 30,284). */
export const MAX_COLLECTION_CIDS = 65536;
/** Code points after the first one of a CID (a variation selector, Korean parenthesised numbers: up to 3). */
export const MAX_EXTRA_CODE_POINTS = 8;
/** Bytes a bundled CID → Unicode table unpacks to (the largest unpacks to 43 KB of varints). */
export const MAX_COLLECTION_BYTES = 1 << 20;

// Form fields (forms/)

/** Depth of the form-field tree (real forms nest a few levels; recursion must stay bounded). */
export const MAX_FIELD_DEPTH = 64;
/** Field-tree nodes read at most (kids included): a form of a few thousand fields is far below it. */
export const MAX_FIELD_NODES = 50_000;
/** Characters of a full field name kept (a longer one is cut there: no eSign field name is that long). */
export const MAX_NAME_CHARS = 1_000;
/** Widgets read at most (each becomes a field the node may send). */
export const MAX_WIDGETS = 10_000;
/** Annotations of all pages looked at, for the page of each widget and for widgets /Fields does not reach. */
export const MAX_ANNOTATIONS = 200_000;
/** Choices of one combo or list box. */
export const MAX_OPTIONS = 5_000;
/** Characters of one choice kept. */
export const MAX_OPTION_CHARS = 500;

// Content operands (text/operators.ts): inline images' dictionaries and arrays in page content

/** Arrays and dictionaries nested inside one content operand (a TJ array is one level; deeper is damage). */
export const MAX_OPERAND_NESTING = 32;
/** Items kept in one content array (a TJ of a long line has hundreds; the rest is dropped, not stored). */
export const MAX_OPERAND_ITEMS = 65536;

// Glyph names (fonts/glyphList.ts)

/** Characters of a glyph name looked up: no real name is this long; a longer one maps to nothing at no cost. */
export const MAX_GLYPH_NAME_CHARS = 200;

// The writer (write/): tag and widget removal's incremental update

/** Tags one removal takes out: far past any real contract; a file with more goes up unchanged (with why). */
export const MAX_TAGS_TO_REMOVE = 100_000;
/** Objects nested deeper are not written: what the parser reads (MAX_NESTING) is all the writer ever gets. */
export const MAX_WRITE_NESTING = MAX_NESTING;
/** Form fields looked at for a signature before an update (a larger form is taken as unsigned by its signature flags alone). */
export const MAX_SIGNATURE_CHECK_FIELDS = 10_000;
/** Depth of the field tree looked at for a signature (real forms nest a few levels). */
export const MAX_SIGNATURE_CHECK_DEPTH = 32;

// Text tags (textTags/fold.ts, through index.ts)

/** Non-ASCII characters whose folded form is kept for the process (past it they are folded each time: no growth). */
export const FOLD_CACHE_CHARS = 20_000;
