// jsdom has no layout: scrolling is a no-op here rather than a "not implemented" error.
window.scrollTo = () => undefined;
Element.prototype.scrollIntoView = () => undefined;
