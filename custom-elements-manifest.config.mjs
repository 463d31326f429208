// `npm run build` generates dist/custom-elements.json from the element's JSDoc (@fires, @csspart,
// @cssprop, @slot and the property comments), so the manifest never drifts from the code.

/**
 * Keeps the manifest to the public API: members that are private (`#name`, `private`) or marked
 * `@internal` in their JSDoc are left out, with the attributes that belong to them.
 */
function publicMembersOnly() {
  const internal = new Set();
  return {
    name: 'public-members-only',
    analyzePhase({ ts, node }) {
      if (!ts.isPropertyDeclaration(node) && !ts.isGetAccessor(node) && !ts.isMethodDeclaration(node)) return;
      if (ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'internal')) internal.add(node.name.getText());
    },
    packageLinkPhase({ customElementsManifest }) {
      for (const module of customElementsManifest.modules) {
        for (const declaration of module.declarations ?? []) {
          const hidden = (name) => name.startsWith('#') || internal.has(name);
          if (declaration.members) {
            declaration.members = declaration.members.filter((member) => member.privacy !== 'private' && !hidden(member.name));
          }
          if (declaration.attributes) {
            declaration.attributes = declaration.attributes.filter((attribute) => !attribute.fieldName || !hidden(attribute.fieldName));
          }
        }
      }
    },
  };
}

export default {
  globs: ['src/element/wallet-pay-button.ts', 'src/define.ts', 'src/element/events.ts'],
  outdir: 'dist',
  litelement: true,
  // package.json's `customElements` field is written by hand; the analyzer must not rewrite the file.
  packagejson: false,
  plugins: [publicMembersOnly()],
};
