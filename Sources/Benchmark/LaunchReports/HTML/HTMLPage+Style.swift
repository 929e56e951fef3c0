extension HTMLPage {
    /// The page's whole style: system fonts only, print-friendly, charts
    /// shrink to narrow windows.
    static let styleSheet = """
        :root { color-scheme: light; }
        body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; font-size: 14px; line-height: 1.45;
          color: #1f2328; background: #ffffff; margin: 0 auto; padding: 16px 24px 32px; max-width: 1180px; }
        h1 { font-size: 24px; margin: 4px 0 2px; }
        h2 { font-size: 18px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 1px solid #d8dee4; }
        .lede { color: #57606a; margin: 0 0 10px; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0; font-size: 13px; }
        dl.facts dt { color: #57606a; }
        dl.facts dd { margin: 0; overflow-wrap: anywhere; }
        code { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; background: #f6f8fa; padding: 1px 4px;
          border-radius: 3px; overflow-wrap: anywhere; }
        table { border-collapse: collapse; font-size: 13px; margin: 6px 0; }
        th, td { padding: 4px 10px; border-bottom: 1px solid #d8dee4; text-align: left; vertical-align: top; }
        th { background: #f6f8fa; font-weight: bold; }
        td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
        a { color: #0969da; }
        .bad { color: #b35000; font-weight: bold; }
        .note { color: #57606a; font-size: 12.5px; }
        .empty { font-style: italic; }
        .warning { background: #fff8c5; border-left: 4px solid #d4a72c; padding: 6px 10px; margin: 6px 0; }
        ul.warnings, details.warnings { background: #fff8c5; border-left: 4px solid #d4a72c; margin: 6px 0;
          padding: 6px 10px 6px 28px; font-size: 13px; }
        details.warnings { padding-left: 10px; }
        details.warnings summary { cursor: pointer; }
        @media print { details.warnings ul { display: block; } }
        .command { margin: 0 0 8px; }
        figure { margin: 12px 0; }
        svg.chart { max-width: 100%; height: auto; display: block; }
        footer { margin-top: 32px; color: #57606a; font-size: 12px; }
        @media print { body { max-width: none; } figure { break-inside: avoid; } }
        """
}
