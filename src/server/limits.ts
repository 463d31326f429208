/** Bounds shared by the handler's parts. */

/** Deeper orders are refused before anything walks them (a 5,000-deep order fits in 16 KiB). */
export const MAX_ORDER_DEPTH = 32;
