/**
 * The viewer page's only script, served as a static file under `/s/_assets/` so the page's CSP
 * can forbid inline script. Plain ES2017, no framework. Settings come from data attributes on
 * <body>: data-share, data-version, data-copy ("1"), data-burn ("1"), and the burn notes in the
 * page's language: data-burned-all, data-burned-some.
 *
 * Burn-after-read: the document's top-level blocks that have scrolled fully above the viewport
 * are hidden; how many is kept in localStorage (the render origin), so after a reload they stay
 * gone and reading resumes at the first unread block. HTML documents live in a sandboxed frame
 * with an opaque origin and no storage: the frame reports its progress by postMessage and this
 * page keeps it.
 *
 * Engagement (only when <body> carries data-visit, which a visitor sending DNT or Sec-GPC never
 * gets): time the page was visible with the reader active in the last minute, the furthest scroll
 * depth (of the frame's document for HTML, which reports it by postMessage), and whether the end
 * was reached, sent with navigator.sendBeacon to /s/_beacon every few seconds while something
 * changed, and when the page is hidden or left.
 */
export const VIEWER_SCRIPT = String.raw`(function () {
  'use strict';
  var body = document.body;
  var data = body.dataset;
  var copy = data.copy === '1';
  var burn = data.burn === '1';
  var key = 'sd-burn:' + data.share + ':' + data.version;

  function stored() {
    try { return parseInt(localStorage.getItem(key) || '0', 10) || 0; } catch (e) { return 0; }
  }
  function store(n) {
    try { localStorage.setItem(key, String(n)); } catch (e) { /* storage disabled: progress lasts this page only */ }
  }

  if (copy) {
    document.documentElement.classList.add('sd-protect');
    ['copy', 'cut', 'contextmenu', 'dragstart', 'selectstart', 'paste'].forEach(function (type) {
      document.addEventListener(type, function (event) { event.preventDefault(); }, true);
    });
    document.addEventListener('keydown', function (event) {
      if ((event.ctrlKey || event.metaKey) && /^[acpsux]$/i.test(event.key)) event.preventDefault();
    }, true);
    window.addEventListener('beforeprint', function () { document.documentElement.classList.add('sd-noprint'); });
  }

  var frame = document.querySelector('iframe.sd-frame');
  var measure = typeof data.visit === 'string' && typeof navigator.sendBeacon === 'function';
  var activeMs = 0, depth = 0, ended = false, sentKey = '', lastSent = 0, lastInput = Date.now(), lastTick = Date.now();
  function send(force) {
    if (!measure) return;
    var now = Date.now();
    var payload = 't=' + Math.round(activeMs) + '&d=' + depth.toFixed(4) + '&c=' + (ended ? '1' : '0');
    if (payload === sentKey || (!force && now - lastSent < 3000)) return;
    sentKey = payload;
    lastSent = now;
    navigator.sendBeacon('/s/_beacon', new URLSearchParams('v=' + encodeURIComponent(data.visit) + '&' + payload));
  }
  function reached(d, end) {
    if (d > depth) depth = Math.min(1, d);
    if (end) { ended = true; depth = 1; }
  }
  function tick() {
    var now = Date.now();
    if (document.visibilityState === 'visible' && now - lastInput < 60000) activeMs += now - lastTick;
    lastTick = now;
  }
  if (measure) {
    ['scroll', 'pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'].forEach(function (type) {
      window.addEventListener(type, function () { lastInput = Date.now(); }, { passive: true, capture: true });
    });
    document.addEventListener('visibilitychange', function () {
      tick();
      if (document.visibilityState === 'hidden') send(true);
    });
    window.addEventListener('pagehide', function () { tick(); send(true); });
    setInterval(function () { tick(); send(false); }, 1000);
    if (!frame) {
      var own = function () {
        var root = document.documentElement;
        var bottom = window.scrollY + window.innerHeight;
        reached(root.scrollHeight > 0 ? bottom / root.scrollHeight : 1, bottom >= root.scrollHeight - 2);
      };
      window.addEventListener('scroll', own, { passive: true });
      own();
    }
  }

  if (frame) {
    window.addEventListener('message', function (event) {
      if (event.source !== frame.contentWindow || !event.data || typeof event.data.sd !== 'string') return;
      if (event.data.sd === 'depth') {
        lastInput = Date.now();
        reached(Math.max(0, Math.min(1, +event.data.depth || 0)), event.data.end === true);
        return;
      }
      if (!burn) return;
      if (event.data.sd === 'ready') {
        frame.contentWindow.postMessage({ sd: 'init', burned: stored() }, '*');
      } else if (event.data.sd === 'burn') {
        var n = event.data.burned | 0;
        if (n > stored()) store(n);
      }
    });
    return;
  }

  if (!burn) return;
  // A reload must start at the first unread block, not where the browser would restore the scroll.
  if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
  var doc = document.querySelector('.sd-doc');
  if (!doc) return;
  var blocks = Array.prototype.slice.call(doc.children);
  var burned = Math.min(stored(), blocks.length);
  for (var i = 0; i < burned; i++) blocks[i].classList.add('sd-gone');
  if (burned > 0) {
    var note = document.querySelector('.sd-burn-note');
    if (note) {
      note.textContent = (burned >= blocks.length ? data.burnedAll : data.burnedSome) || '';
      note.hidden = false;
    }
    window.scrollTo(0, 0);
  }
  var pending = false;
  function scan() {
    pending = false;
    var n = burned;
    while (n < blocks.length && blocks[n].getBoundingClientRect().bottom <= 0) {
      blocks[n].classList.add('sd-burned');
      n++;
    }
    if (n !== burned) { burned = n; store(n); }
  }
  window.addEventListener('scroll', function () {
    if (!pending) { pending = true; window.requestAnimationFrame(scan); }
  }, { passive: true });
  scan();
})();
`;

/**
 * Injected at the start of an author's HTML document (which runs in the sandboxed frame). Copy
 * protection is switched on from the start by the flag in front of it; burn progress arrives
 * from the viewer page.
 */
export const FRAME_SCRIPT = String.raw`(function (copy) {
  'use strict';
  var burn = false;
  var burned = 0;
  function blocks() {
    if (!document.body) return [];
    return Array.prototype.filter.call(document.body.children, function (el) {
      return !/^(SCRIPT|STYLE|TEMPLATE|NOSCRIPT|LINK|META)$/.test(el.tagName);
    });
  }
  function scan() {
    if (!burn) return;
    var list = blocks();
    var n = burned;
    while (n < list.length && list[n].getBoundingClientRect().bottom <= 0) {
      list[n].style.setProperty('visibility', 'hidden', 'important');
      n++;
    }
    if (n !== burned) { burned = n; parent.postMessage({ sd: 'burn', burned: n }, '*'); }
  }
  if (copy) {
    var style = document.createElement('style');
    style.textContent = '*{-webkit-user-select:none!important;user-select:none!important;-webkit-touch-callout:none!important}@media print{html{display:none!important}}';
    document.documentElement.appendChild(style);
    ['copy', 'cut', 'contextmenu', 'dragstart', 'selectstart', 'paste'].forEach(function (type) {
      document.addEventListener(type, function (event) { event.preventDefault(); }, true);
    });
    document.addEventListener('keydown', function (event) {
      if ((event.ctrlKey || event.metaKey) && /^[acpsux]$/i.test(event.key)) event.preventDefault();
    }, true);
  }
  window.addEventListener('message', function (event) {
    if (event.source !== parent || !event.data || event.data.sd !== 'init') return;
    burn = true;
    var list = blocks();
    burned = Math.min(event.data.burned | 0, list.length);
    for (var i = 0; i < burned; i++) list[i].style.setProperty('display', 'none', 'important');
    window.scrollTo(0, 0);
    scan();
  });
  var reported = -1;
  function depth() {
    var root = document.documentElement;
    var bottom = window.scrollY + window.innerHeight;
    var d = root.scrollHeight > 0 ? Math.min(1, bottom / root.scrollHeight) : 1;
    var end = bottom >= root.scrollHeight - 2;
    if (d > reported || end) { reported = d; parent.postMessage({ sd: 'depth', depth: d, end: end }, '*'); }
  }
  window.addEventListener('scroll', function () { scan(); depth(); }, { passive: true });
  function ready() { parent.postMessage({ sd: 'ready' }, '*'); depth(); }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready); else ready();
})`;
