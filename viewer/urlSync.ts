/**
 * The URL hash follows the configuration: rewritten (replaceState) on every change; a hash edited
 * by hand reloads the page, which then opens that configuration.
 */
import type { Flock } from '../src/flock.ts';
import type { Params } from '../src/params/schema.ts';
import { formatHash, type ViewerConfig } from './config.ts';

export class UrlSync {
  /** The hash last written by the page (a hashchange to anything else is the user's). */
  private written = '';

  constructor(
    private readonly config: ViewerConfig,
    private readonly flock: () => Flock,
  ) {
    window.addEventListener('hashchange', () => {
      if (location.hash !== this.written) location.reload();
    });
  }

  /** The hash of the current configuration. */
  hash(): string {
    return formatHash({ ...this.config, params: this.flock().params as Params });
  }

  /** Write the current configuration to the URL. */
  sync(): void {
    this.written = this.hash();
    if (this.written !== location.hash) history.replaceState(null, '', this.written);
  }
}
