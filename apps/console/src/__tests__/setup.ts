// jsdom has no layout: scrolling is a no-op here rather than a "not implemented" error. (A store's
// spec that runs in Node's environment, without jsdom, has no window to patch.)
if (typeof window !== 'undefined') {
  window.scrollTo = () => undefined;
  Element.prototype.scrollIntoView = () => undefined;
}
