/**
 * The kinds of leaf block the block pass keeps open (leaf-blocks.ts, blocks.ts): one small
 * number each, since the parser compares them in its hottest branches.
 */
// The verbatim ones (FENCE…COMMENT) swallow lines until their end marker.
/** Leaf kind: no leaf is open. */
export const L_NONE = 0;
/** Leaf kind: a paragraph. */
export const L_PARA = 1;
/** Leaf kind: a fenced code block. */
export const L_FENCE = 2;
/** Leaf kind: indented code. */
export const L_ICODE = 3;
/** Leaf kind: an HTML block. */
export const L_HTML = 4;
/** Leaf kind: a `$$` math block. */
export const L_MATH = 5;
/** Leaf kind: a `%%` comment. */
export const L_COMMENT = 6;
/** Leaf kind: a table. */
export const L_TABLE = 7;
/** Leaf kind: a footnote definition. */
export const L_FOOTNOTE = 8;
