// `npm run build` generates dist/custom-elements.json from the element's JSDoc (@fires, @csspart,
// @cssprop, @slot and the property comments), so the manifest never drifts from the code.
export default {
  globs: ['src/element/wallet-pay-button.ts', 'src/define.ts', 'src/element/events.ts'],
  outdir: 'dist',
  litelement: true,
  // package.json's `customElements` field is written by hand; the analyzer must not rewrite the file.
  packagejson: false,
};
