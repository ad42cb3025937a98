/** A full page load, for return addresses the server answers itself (share links under /s/). */
export function leaveTo(path: string): void {
  window.location.assign(path);
}
