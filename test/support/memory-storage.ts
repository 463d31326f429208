/** A `Storage` kept in a map, for Node tests of code that takes the tab's `sessionStorage` as an argument. */
export class MemoryStorage implements Storage {
  readonly #items = new Map<string, string>();

  [name: string]: unknown;

  get length(): number {
    return this.#items.size;
  }

  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null;
  }

  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.#items.set(key, String(value));
  }

  removeItem(key: string): void {
    this.#items.delete(key);
  }

  clear(): void {
    this.#items.clear();
  }
}
