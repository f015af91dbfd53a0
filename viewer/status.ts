/** The status line at the bottom of the page: a message shown for six seconds (empty hides it). */
export type Status = (message: string) => void;

/** The message of anything thrown. */
export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export function statusLine(el: HTMLElement): Status {
  let timer = 0;
  return (message: string) => {
    el.textContent = message;
    el.classList.toggle('shown', message !== '');
    clearTimeout(timer);
    if (message) timer = window.setTimeout(() => el.classList.remove('shown'), 6000);
  };
}
