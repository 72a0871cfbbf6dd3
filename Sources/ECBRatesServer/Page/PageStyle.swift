/// The page's style sheet: system fonts, the browser's light or dark scheme (`color-scheme`
/// and `prefers-color-scheme`), one column on a phone (390 px) and a grid of forms on a wide
/// screen, visible keyboard focus, and tables that scroll inside their region.
enum PageStyle {
    /// The CSS.
    static let css = """
        :root { color-scheme: light dark; --ink: #1b1f24; --paper: #ffffff; --muted: #57606a; --line: #d0d7de;
          --accent: #1d4f91; --panel: #f6f8fa; --warn-ink: #7a4a00; --warn-paper: #fff8c5; --error-ink: #8c1d18;
          --error-paper: #ffebe9; --focus: #0969da; }
        @media (prefers-color-scheme: dark) {
          :root { --ink: #e6edf3; --paper: #0d1117; --muted: #9da7b3; --line: #30363d; --accent: #79b8ff;
            --panel: #161b22; --warn-ink: #f2cc60; --warn-paper: #3b2e00; --error-ink: #ffa198; --error-paper: #3d1214;
            --focus: #58a6ff; }
        }
        * { box-sizing: border-box; }
        html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
          font-size: 100%; line-height: 1.5; color: var(--ink); background: var(--paper); }
        body { margin: 0 auto; max-width: 72rem; padding: 0 1rem 2rem; }
        a { color: var(--accent); }
        a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible,
        [tabindex]:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        .skip { position: absolute; left: -9999px; top: 0; }
        .skip:focus { left: 1rem; background: var(--paper); padding: 0.5rem; z-index: 1; }
        header { border-bottom: 1px solid var(--line); padding: 1rem 0 0.5rem; }
        h1 { margin: 0; font-size: 1.75rem; }
        h2 { font-size: 1.35rem; margin: 0 0 0.75rem; }
        nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; padding: 0; margin: 0.5rem 0 0; }
        section { padding: 1.25rem 0; border-bottom: 1px solid var(--line); }
        code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.92em; }
        form { display: grid; grid-template-columns: 1fr; gap: 0.75rem; background: var(--panel);
          border: 1px solid var(--line); border-radius: 8px; padding: 1rem; }
        @media (min-width: 800px) {
          form { grid-template-columns: repeat(3, minmax(0, 1fr)); }
          .converter { grid-template-columns: 1.2fr 1fr 1fr 1.2fr 1.6fr; }
          .field.checkbox { grid-column: span 2; }
        }
        .field { display: flex; flex-direction: column; gap: 0.25rem; min-width: 0; }
        .field.checkbox { flex-direction: row; align-items: center; gap: 0.5rem; }
        label { font-weight: 600; }
        small { color: var(--muted); }
        input, select, button { font: inherit; color: inherit; background: var(--paper); border: 1px solid var(--line);
          border-radius: 6px; padding: 0.45rem 0.6rem; min-height: 2.5rem; width: 100%; }
        input[type="checkbox"] { width: 1.25rem; min-height: 1.25rem; }
        .actions { display: flex; align-items: end; }
        button { background: var(--accent); color: var(--paper); border-color: var(--accent); font-weight: 600;
          cursor: pointer; }
        .result { font-size: 1.25rem; overflow-wrap: anywhere; margin: 1rem 0 0.5rem; }
        dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0.5rem 0; }
        dt { color: var(--muted); }
        dd { margin: 0; overflow-wrap: anywhere; }
        .hint { color: var(--muted); }
        .warning { color: var(--warn-ink); background: var(--warn-paper); border-radius: 6px; padding: 0.5rem 0.75rem; }
        .error { color: var(--error-ink); background: var(--error-paper); border-radius: 6px; padding: 0.25rem 0.75rem;
          margin: 1rem 0; overflow-wrap: anywhere; }
        .table-scroll { overflow: auto; max-height: 28rem; border: 1px solid var(--line); border-radius: 6px; }
        .table-scroll.tall { max-height: 22rem; margin-top: 0.75rem; }
        table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
        caption { text-align: left; padding: 0.5rem; color: var(--muted); }
        th, td { text-align: left; padding: 0.3rem 0.6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        thead th { position: sticky; top: 0; background: var(--panel); }
        .number { text-align: right; }
        abbr { text-decoration: none; }
        figure { margin: 1rem 0 0; }
        .chart-scroll { overflow-x: auto; }
        figure svg { display: block; width: 100%; height: auto; max-width: 60rem; min-width: 640px; }
        th[scope="row"], td.number { white-space: nowrap; }
        figcaption { color: var(--muted); margin-top: 0.25rem; }
        details.operation { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.75rem; margin: 0.5rem 0; }
        details.operation table { margin: 0.5rem 0; }
        summary { cursor: pointer; overflow-wrap: anywhere; }
        #mcp-tools li, .responses li { margin: 0.4rem 0; }
        footer { color: var(--muted); font-size: 0.9rem; padding-top: 1rem; }

        """
}
