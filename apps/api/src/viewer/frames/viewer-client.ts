/**
 * Section times, shared by the page and the frame: `sectionTracker(headings, contentBottom)`
 * keeps running totals of ms per section index (index = position among the document's h1–h3,
 * as the server counts them, document-sections.ts). A section runs from its heading to the next
 * rendered heading (the last one to the end of the content) and is on screen when any part of
 * that span is in the viewport (2 CSS pixels at least: the sub-pixel sliver of the previous
 * section that scrolling a heading to the top can leave is not). Every section on screen
 * accrues, up to four at once (those
 * showing the most of themselves): the server refuses a beacon whose sections add up to more
 * than four times the visit's elapsed time (section-reads.repository.ts, MAX_SECTIONS_ON_SCREEN).
 * `tick(active)` credits the time since the previous tick to what was on screen then, when the
 * reader was active, and looks again; a heading that is not rendered (burned, display:none)
 * starts no span.
 */
const SECTION_TRACKER = String.raw`function sectionTracker(headings, contentBottom) {
    var totals = [], onScreen = [], last = Date.now();
    function look() {
      var list = headings(), view = window.innerHeight, rendered = [], shown = [];
      for (var i = 0; i < list.length && i < 1000; i++) {
        if (totals.length <= i) totals.push(0);
        if (list[i].getClientRects().length) rendered.push({ i: i, top: list[i].getBoundingClientRect().top });
      }
      for (var k = 0; k < rendered.length; k++) {
        var bottom = k + 1 < rendered.length ? rendered[k + 1].top : contentBottom();
        var px = Math.min(bottom, view) - Math.max(rendered[k].top, 0);
        if (px >= 2) shown.push({ i: rendered[k].i, px: px });
      }
      shown.sort(function (a, b) { return b.px - a.px || a.i - b.i; });
      onScreen = shown.slice(0, 4).map(function (s) { return s.i; });
    }
    return {
      totals: totals,
      tick: function (active) {
        var now = Date.now();
        if (active) onScreen.forEach(function (i) { totals[i] += now - last; });
        last = now;
        look();
      }
    };
  }`;

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
 * changed, and when the page is hidden or left. Under the same rules, how long each section (an
 * h1, h2 or h3 starts one) was on screen: measured here for a document rendered into the page,
 * by the frame (FRAME_SCRIPT, once this page asks it to) for an HTML document, which posts its
 * running totals here; this page sends them in the same beacons (`s`, see SECTION_TRACKER).
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
  var wasVisible = document.visibilityState === 'visible';
  // Running totals of ms on screen per section index: this page's own, or the frame's last report.
  var sectionMs = [];
  ${SECTION_TRACKER}
  // The sections with the largest totals that fit in the beacon's 512 bytes (the server reads no more).
  function sectionField(room) {
    var order = [];
    for (var i = 0; i < sectionMs.length; i++) if (sectionMs[i] >= 1) order.push(i);
    order.sort(function (a, b) { return sectionMs[b] - sectionMs[a] || a - b; });
    var field = '';
    for (var k = 0; k < order.length && k < 64; k++) {
      var entry = (field ? ',' : '') + order[k] + ':' + Math.round(sectionMs[order[k]]);
      if (field.length + entry.length > room) break;
      field += entry;
    }
    return field;
  }
  function send(force) {
    if (!measure) return;
    var now = Date.now();
    var payload = 't=' + Math.round(activeMs) + '&d=' + depth.toFixed(4) + '&c=' + (ended ? '1' : '0');
    var visit = 'v=' + encodeURIComponent(data.visit) + '&';
    var sections = sectionField(512 - visit.length - payload.length - 3);
    if (sections) payload += '&s=' + sections;
    if (payload === sentKey || (!force && now - lastSent < 3000)) return;
    sentKey = payload;
    lastSent = now;
    // Sent as written: URLSearchParams would escape the separators of s and triple its size.
    navigator.sendBeacon('/s/_beacon', new Blob([visit + payload], { type: 'application/x-www-form-urlencoded' }));
  }
  function reached(d, end) {
    if (d > depth) depth = Math.min(1, d);
    if (end) { ended = true; depth = 1; }
  }
  var own = null;
  // Credits the time since the last tick when the page was visible through it and the reader active.
  function tick() {
    var now = Date.now();
    var active = wasVisible && now - lastInput < 60000;
    if (active) activeMs += now - lastTick;
    lastTick = now;
    wasVisible = document.visibilityState === 'visible';
    if (own) own.tick(active);
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
      var scrolled = function () {
        var root = document.documentElement;
        var bottom = window.scrollY + window.innerHeight;
        reached(root.scrollHeight > 0 ? bottom / root.scrollHeight : 1, bottom >= root.scrollHeight - 2);
      };
      window.addEventListener('scroll', scrolled, { passive: true });
      scrolled();
      var article = document.querySelector('.sd-doc');
      if (article) {
        own = sectionTracker(
          function () { return article.querySelectorAll('h1, h2, h3'); },
          function () { return article.getBoundingClientRect().bottom; }
        );
        sectionMs = own.totals;
        var looking = false;
        // Before the view changes, the time so far goes to what was on screen; then it looks again.
        window.addEventListener('scroll', function () {
          if (!looking) { looking = true; window.requestAnimationFrame(function () { looking = false; tick(); }); }
        }, { passive: true });
        own.tick(false);
      }
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
      if (event.data.sd === 'sections') {
        var ms = event.data.ms;
        if (measure && Array.isArray(ms) && ms.length <= 1000) {
          sectionMs = ms.map(function (n) { return typeof n === 'number' && n > 0 && n < 1e8 ? n : 0; });
        }
        return;
      }
      if (event.data.sd === 'ready' && measure) frame.contentWindow.postMessage({ sd: 'measure' }, '*');
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
  ${SECTION_TRACKER}
  // Section times, once the viewer page (which measures this visit) asks: the same rules as the
  // page's own measurement, with this document's input and visibility, posted as running totals.
  var sections = null;
  var lastInput = Date.now(), wasVisible = document.visibilityState === 'visible', posted = '';
  function measureTick() {
    var active = wasVisible && Date.now() - lastInput < 60000;
    wasVisible = document.visibilityState === 'visible';
    sections.tick(active);
    var key = sections.totals.join(',');
    if (key !== posted) { posted = key; parent.postMessage({ sd: 'sections', ms: sections.totals.slice() }, '*'); }
  }
  window.addEventListener('message', function (event) {
    if (event.source !== parent || !event.data || event.data.sd !== 'measure' || sections) return;
    sections = sectionTracker(
      function () {
        return Array.prototype.filter.call(document.querySelectorAll('h1, h2, h3'), function (el) { return !el.closest('noscript'); });
      },
      function () { return document.documentElement.getBoundingClientRect().bottom; }
    );
    ['scroll', 'pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'].forEach(function (type) {
      window.addEventListener(type, function () { lastInput = Date.now(); }, { passive: true, capture: true });
    });
    var looking = false;
    window.addEventListener('scroll', function () {
      if (!looking) { looking = true; window.requestAnimationFrame(function () { looking = false; measureTick(); }); }
    }, { passive: true });
    document.addEventListener('visibilitychange', measureTick);
    sections.tick(false);
    setInterval(measureTick, 500);
  });
  function ready() { parent.postMessage({ sd: 'ready' }, '*'); depth(); }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready); else ready();
})`;
