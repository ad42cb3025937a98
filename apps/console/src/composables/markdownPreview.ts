const STYLE = `
body { font: 16px/1.65 system-ui, -apple-system, 'Segoe UI', Roboto, 'PingFang SC', 'Microsoft YaHei', sans-serif; margin: 0; padding: 24px; color: #1b2030; background: #fff; }
main { max-width: 760px; margin: 0 auto; }
h1, h2, h3 { line-height: 1.25; }
pre, code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.9em; }
pre { background: #f3f4f8; padding: 12px 14px; border-radius: 8px; overflow-x: auto; }
:not(pre) > code { background: #f3f4f8; padding: 0.1em 0.35em; border-radius: 4px; }
blockquote { margin: 0; padding: 0 1em; border-left: 4px solid #d5d9e6; color: #5b647a; }
table { border-collapse: collapse; } th, td { border: 1px solid #d5d9e6; padding: 6px 10px; }
img { max-width: 100%; }
a { color: #4f46e5; }
html.dark { color-scheme: dark; }
html.dark body { color: #e7eaf4; background: #161b2c; }
html.dark pre, html.dark :not(pre) > code { background: #1f2538; }
html.dark blockquote { border-color: #3a4360; color: #9aa3bb; }
html.dark th, html.dark td { border-color: #3a4360; }
html.dark a { color: #a29dff; }`;

/**
 * Markdown turned into a standalone page for a sandboxed preview frame. Raw HTML in the source
 * is escaped (html: false), and the frame itself runs no scripts, so the preview is inert.
 */
export async function markdownPreviewDocument(source: string, title: string, dark = false): Promise<string> {
  const { default: MarkdownIt } = await import('markdown-it');
  const body = new MarkdownIt({ html: false, linkify: true, typographer: false }).render(source);
  const safeTitle = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html${dark ? ' class="dark"' : ''}><head><meta charset="utf-8"><title>${safeTitle}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}
