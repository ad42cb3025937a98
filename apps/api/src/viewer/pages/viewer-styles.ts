import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Colours of the highlight.js themes that fall below 4.5:1 on the code block's background (WCAG
 * AA), each replaced by the nearest darker (light theme) or lighter (dark theme) shade of GitHub's
 * own palette.
 */
const READABLE_CODE_COLOURS: Record<string, Record<string, string>> = {
  github: { '#d73a49': '#cf222e', '#e36209': '#953800', '#22863a': '#116329', '#6a737d': '#57606a' },
  'github-dark': { '#1f6feb': '#79c0ff' },
};

function highlightTheme(name: string): string {
  let css = readFileSync(require.resolve(`highlight.js/styles/${name}.min.css`), 'utf8');
  for (const [from, to] of Object.entries(READABLE_CODE_COLOURS[name] ?? {})) css = css.replaceAll(from, to);
  return css;
}

/** The viewer's stylesheet: readable on phones, dark-mode aware, print rules for watermark and copy protection. */
export function viewerStyles(): string {
  return `${highlightTheme('github')}
@media (prefers-color-scheme: dark){${highlightTheme('github-dark')}}
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#fff;--soft:#f6f8fa;--line:#d1d9e0;--accent:#4f46e5;--accent-soft:#eef0ff;--on-accent:#fff;--ring:rgba(79,70,229,.45);--danger:#cf222e;--wm:rgba(0,0,0,.13)}
@media (prefers-color-scheme: dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--soft:#151b23;--line:#3d444d;--accent:#8b85ff;--accent-soft:#25244a;--on-accent:#0d1117;--ring:rgba(139,133,255,.55);--danger:#f85149;--wm:rgba(255,255,255,.12)}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.65 system-ui,-apple-system,"Segoe UI","PingFang SC","Hiragino Sans GB","Microsoft YaHei","Noto Sans CJK SC",sans-serif}
a{color:var(--accent)}
:focus-visible{outline:2px solid var(--accent);outline-offset:2px;box-shadow:0 0 0 4px var(--ring);border-radius:4px}
.sd-card input:focus-visible,.sd-card textarea:focus-visible{outline:0;border-color:var(--accent);box-shadow:0 0 0 3px var(--ring)}
.sd-bar{display:flex;align-items:center;gap:.75rem;justify-content:space-between;padding:.55rem 1rem;border-bottom:1px solid var(--line);font-size:.875rem;color:var(--muted);background:var(--soft)}
.sd-bar .sd-name{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-weight:600;color:var(--fg)}
.sd-bar a{color:var(--muted);white-space:nowrap}
.sd-main{max-width:48rem;margin:0 auto;padding:1.5rem 1.1rem 4rem}
.sd-doc,.sd-agreement{overflow-wrap:anywhere}
.sd-doc img,.sd-doc video,.sd-agreement img,.sd-agreement video{max-width:100%;height:auto}
.sd-doc pre,.sd-agreement pre{overflow:auto;padding:.9rem 1rem;border-radius:6px;background:var(--soft);font-size:.875rem;line-height:1.45}
.sd-doc code,.sd-agreement code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.sd-doc :not(pre)>code,.sd-agreement :not(pre)>code{padding:.15em .35em;border-radius:4px;background:var(--soft)}
.sd-doc blockquote,.sd-agreement blockquote{margin:1em 0;padding:0 1em;color:var(--muted);border-left:.25em solid var(--line)}
.sd-doc table,.sd-agreement table{border-collapse:collapse;display:block;overflow:auto;max-width:100%}
.sd-doc th,.sd-doc td,.sd-agreement th,.sd-agreement td{border:1px solid var(--line);padding:.35rem .7rem;overflow-wrap:normal}
.sd-doc h1,.sd-doc h2,.sd-agreement h1,.sd-agreement h2{padding-bottom:.3em;border-bottom:1px solid var(--line)}
.sd-doc hr,.sd-agreement hr{border:0;border-top:1px solid var(--line)}
.sd-text{white-space:pre-wrap;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem;margin:0 0 1em}
.sd-burned{visibility:hidden}
.sd-gone{display:none!important}
.sd-burn-note{margin:0 0 1rem;padding:.6rem .8rem;border-radius:6px;background:var(--soft);color:var(--muted);font-size:.875rem}
.sd-frame-page{height:100vh;height:100dvh;display:flex;flex-direction:column;overflow:hidden}
.sd-frame{flex:1;width:100%;border:0;background:#fff}
.sd-wm{position:fixed;inset:0;z-index:2147483647;pointer-events:none;overflow:hidden;display:flex;flex-wrap:wrap;align-content:space-around;justify-content:space-around;-webkit-print-color-adjust:exact;print-color-adjust:exact}
.sd-wm span{display:block;padding:3rem 2rem;transform:rotate(-28deg);white-space:nowrap;font-size:15px;color:var(--wm);user-select:none}
.sd-list h2{margin:1.6rem 0 .4rem;font-size:1rem;color:var(--muted)}
.sd-list table{width:100%;border-collapse:collapse;font-size:.9375rem}
.sd-list th,.sd-list td{padding:.45rem .5rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
.sd-list th{font-size:.8125rem;font-weight:600;color:var(--muted)}
.sd-list td.sd-num{white-space:nowrap;color:var(--muted)}
.sd-list td:first-child a{overflow-wrap:normal;hyphens:none}
.sd-list .sd-empty{color:var(--muted)}
@media (max-width:40rem){
  .sd-doc pre,.sd-agreement pre{white-space:pre-wrap}
  .sd-list thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
  .sd-list table,.sd-list tbody,.sd-list tr{display:block}
  .sd-list tr{padding:.6rem 0;border-bottom:1px solid var(--line)}
  .sd-list td{display:inline;padding:0;border:0;font-size:.875rem;color:var(--muted)}
  .sd-list td:first-child{display:block;font-size:1rem;margin-bottom:.15rem}
  .sd-list td+td+td::before{content:" · "}
}
.sd-card{max-width:28rem;margin:12vh auto;padding:1.75rem 1.5rem;border:1px solid var(--line);border-radius:10px;background:var(--bg)}
.sd-card h1{margin:0 0 .5rem;font-size:1.3rem}
.sd-from{display:flex;align-items:center;gap:.5rem;margin:0 0 1rem;font-size:.8125rem;color:var(--muted)}
.sd-from::before{content:"";flex:none;width:.75rem;height:.75rem;border-radius:3px;background:var(--accent)}
.sd-card .sd-from{margin:0 0 1rem}
.sd-card p{margin:.4rem 0 1rem;color:var(--muted)}
.sd-card form{display:grid;gap:.7rem}
.sd-card label{display:grid;gap:.3rem;font-size:.9rem}
.sd-card input,.sd-card textarea{font:inherit;padding:.55rem .7rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
.sd-card textarea{min-height:7rem;resize:vertical}
.sd-card button{font:inherit;font-weight:600;padding:.6rem 1rem;border:0;border-radius:6px;background:var(--accent);color:var(--on-accent);cursor:pointer}
.sd-agreement-card{max-width:40rem}
.sd-agreement{max-height:55vh;overflow:auto;margin:0 0 1rem;padding:.75rem 1rem;border:1px solid var(--line);border-radius:6px;background:var(--soft)}
.sd-card .sd-agreement p{color:var(--fg);margin:.4rem 0}
.sd-card label.sd-check{display:flex;gap:.5rem;align-items:flex-start}
.sd-card .sd-error{color:var(--danger);margin:0}
.sd-card .sd-links{font-size:.875rem}
.sd-card .sd-sso{margin:.4rem 0 1rem}
.sd-lang{display:flex;flex-wrap:wrap;justify-content:center;gap:.35rem .9rem;max-width:28rem;margin:0 auto 2rem;padding:1rem 1rem 0;font-size:.8125rem;color:var(--muted)}
.sd-card+.sd-lang{margin-top:-8vh}
.sd-lang span{font-weight:600}
.sd-card .sd-button{display:block;text-align:center;font-weight:600;padding:.6rem 1rem;border-radius:6px;background:var(--accent);color:var(--on-accent);text-decoration:none}
.sd-protect,.sd-protect *{-webkit-user-select:none!important;user-select:none!important;-webkit-touch-callout:none!important}
@media print{
  .sd-bar,.sd-burn-note{display:none}
  .sd-protect body>*{display:none!important}
  .sd-protect body::before{content:attr(data-no-print);display:block;padding:2rem;font-size:1.25rem}
}
`;
}
