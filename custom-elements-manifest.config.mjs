import { existsSync } from 'node:fs';

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

/**
 * Keeps each module's `exports` to what a script can import: type-only exports (`export type`,
 * `export { type X }`) are left out, and a re-export names the module it comes from by its path in the
 * package, as every other entry does (`src/element/events.ts`, not `./element/events.js`), also
 * when the module imported the name before exporting it.
 */
function importableExports() {
  const typeOnly = new Set();
  /** Exports of a name the module imported, by the specifier it came from. */
  const imported = new Map();
  const key = (path, name) => `${path}#${name}`;
  const modulePath = (from, specifier) => {
    const path = new URL(specifier, `file:///${from}`).pathname.replace(/^\/+/, '');
    const source = path.replace(/\.js$/, '.ts');
    return source !== path && existsSync(source) ? source : path;
  };
  return {
    name: 'importable-exports',
    analyzePhase({ ts, node, moduleDoc }) {
      if (!ts.isExportDeclaration(node) || !node.exportClause || !ts.isNamedExports(node.exportClause)) return;
      for (const element of node.exportClause.elements) {
        const name = element.name.getText();
        if (node.isTypeOnly || element.isTypeOnly) typeOnly.add(key(moduleDoc.path, name));
        // `import { X } from './x.js'; export { X };` declares X in ./x.js, not here.
        if (!node.moduleSpecifier) {
          const local = (element.propertyName ?? element.name).getText();
          const from = node.getSourceFile().statements.find(
            (statement) =>
              ts.isImportDeclaration(statement) &&
              statement.importClause?.namedBindings &&
              ts.isNamedImports(statement.importClause.namedBindings) &&
              statement.importClause.namedBindings.elements.some((binding) => binding.name.getText() === local),
          );
          if (from) imported.set(key(moduleDoc.path, name), from.moduleSpecifier.text);
        }
      }
    },
    packageLinkPhase({ customElementsManifest }) {
      for (const module of customElementsManifest.modules) {
        if (!module.exports) continue;
        module.exports = module.exports.filter((entry) => !typeOnly.has(key(module.path, entry.name)));
        for (const entry of module.exports) {
          const specifier = imported.get(key(module.path, entry.name)) ?? entry.declaration?.module;
          if (specifier && /^\.{0,2}\//.test(specifier)) entry.declaration.module = modulePath(module.path, specifier);
        }
      }
    },
  };
}

export default {
  globs: ['src/index.ts', 'src/element/wallet-pay-button.ts', 'src/element/button-properties.ts', 'src/define.ts', 'src/element/events.ts'],
  outdir: 'dist',
  litelement: true,
  // package.json's `customElements` field is written by hand; the analyzer must not rewrite the file.
  packagejson: false,
  plugins: [publicMembersOnly(), importableExports()],
};
