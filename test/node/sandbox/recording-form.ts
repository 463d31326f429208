/** A page form (payOnPage's fillers' view of a provider's page) that keeps what it is asked, for the fillers' unit tests. */
import type { PageForm } from '../../../src/testing/pay-on-page.js';

/** A form that keeps each fill and pick, in order, as `fill name=value` and `pick scenario`. */
export function recordingForm(): { form: PageForm; done: string[] } {
  const done: string[] = [];
  return {
    done,
    form: {
      fill: async (name, value) => void done.push(`fill ${name}=${value}`),
      pick: async (scenario) => void done.push(`pick ${scenario}`),
    },
  };
}
