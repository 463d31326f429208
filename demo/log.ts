/** The playground's live log: server-side lines over Server-Sent Events plus the page's own lines. */
import { logIndent } from './log-layout.js';

export type LogSource = 'element' | 'proxy' | 'callback' | 'sandbox' | 'merchant' | 'page';

const list = document.querySelector<HTMLOListElement>('#log');

/** Appends one line to the log, newest last. */
export function log(source: LogSource | string, text: string): void {
  if (!list) return;
  const item = document.createElement('li');
  const label = document.createElement('span');
  label.className = 'source';
  label.textContent = `[${source}]`;
  item.append(label, ` ${text}`);
  list.append(item);
  // The numbers grow a digit at 10, 100, ...: widen the padding they are drawn in, or they are clipped.
  list.style.paddingLeft = logIndent(list.childElementCount);
  list.scrollTop = list.scrollHeight;
}

/** Streams the merchant server's and the sandbox's log lines into the list. */
export function followServerLog(): void {
  const events = new EventSource('/api/log');
  events.addEventListener('message', (event: MessageEvent<string>) => {
    try {
      const entry = JSON.parse(event.data) as { source: string; text: string };
      log(entry.source, entry.text);
    } catch {
      log('page', `unreadable log line: ${event.data}`);
    }
  });
}
