/**
 * Byte figures: raw, gzip and brotli of every shipped script and of the element's own code, beside
 * the gzip budgets. The measuring and the budgets are the size script's (scripts/size.mjs), so the
 * benchmark and `npm run size` can never disagree.
 */
import { budgetsFor, cdnLoads, elementOwnCode, esmPieces, litAlone, measureFiles, ownLogicAlone, shippedScripts, type SizeResult } from '../scripts/size.mjs';

/** One measured file, with its gzip budget when it has one. */
export interface ByteRow extends SizeResult {
  gzipBudget?: number;
}

/**
 * Measures dist/ as it is now (run `buildPackage()` first), what an English-page payer loads from the
 * CDN and the Nepali chunk, the ESM pieces the classic file inlines (its budget's base), the element's
 * first module's own code, its logic alone (every string
 * emptied), and Lit alone (the CDN entry's floor).
 */
export async function benchBytes(): Promise<ByteRow[]> {
  const results = [...(await measureFiles(await shippedScripts())), ...(await cdnLoads()), await esmPieces(), await elementOwnCode(), await ownLogicAlone(), await litAlone()];
  const budgets = budgetsFor(results);
  return results.map((result) => {
    const budget = budgets.find((item) => item.name === result.name);
    return budget ? { ...result, gzipBudget: budget.gzip } : result;
  });
}
