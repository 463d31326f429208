/**
 * The only module that makes the page leave: every navigation of the element goes through a
 * {@link PageNavigator}, so a test (or a host with its own router) replaces this one object.
 */

/** How the element leaves the page. */
export interface PageNavigator {
  /** Top-level navigation to `url` (GET). */
  assign(url: string): void;
  /** Top-level form POST of `fields` to `url`. */
  postForm(url: string, fields: Record<string, string>): void;
  /** Opens the wallet app through its deeplink (a top-level navigation the OS may hand to the app). */
  openApp(url: string): void;
}

/**
 * The real navigator for a window. Created lazily by the element, never at module load, so the
 * package root stays importable without a DOM.
 */
export function createBrowserNavigator(win: Window): PageNavigator {
  return {
    assign(url) {
      win.location.assign(url);
    },
    postForm(url, fields) {
      // Built with DOM APIs (not markup strings) so no field value is ever parsed as HTML. A field
      // named like a form member (`submit`, `action`, `method`, `remove`) shadows that member, so the
      // form is set up before its fields exist and driven through the prototypes, never by name.
      const doc = win.document;
      const form = doc.createElement('form');
      form.setAttribute('method', 'POST');
      form.setAttribute('action', url);
      form.setAttribute('target', '_top');
      form.setAttribute('hidden', '');
      for (const [name, value] of Object.entries(fields)) {
        const input = doc.createElement('input');
        input.type = 'hidden';
        input.name = name;
        input.value = value;
        form.append(input);
      }
      doc.body.append(form);
      HTMLFormElement.prototype.submit.call(form);
      Element.prototype.remove.call(form);
    },
    openApp(url) {
      win.location.assign(url);
    },
  };
}
