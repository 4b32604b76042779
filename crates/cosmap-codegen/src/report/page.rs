//! The page around the report's sections: head, style, the rule filter's script.
//! A Content-Security-Policy forbids every request: the file opens offline and
//! nothing in it can reach the network.

/// The page's `<head>` and opening `<body>`, titled `title` (already escaped).
pub fn open(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
    )
}

/// The rule filter's script and the closing tags.
pub fn close() -> String {
    format!("<script>{SCRIPT}</script>\n</body>\n</html>\n")
}

const STYLE: &str = r#"
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1500px;padding:0 24px 48px;color:#1d2330}
h1{margin:24px 0 4px}h2{margin-top:36px;border-bottom:1px solid #d5d9e0;padding-bottom:4px}
table{border-collapse:collapse;margin:8px 0}th,td{text-align:left;padding:4px 10px;border-bottom:1px solid #e6e8ec;vertical-align:top}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
pre{background:#f4f5f7;padding:6px 10px;white-space:pre-wrap;margin:4px 0 10px}
code{background:#f4f5f7;padding:0 3px}
.warning{color:#8a4b00}.muted{color:#5b6270}
.figure{overflow-x:auto;border:1px solid #e6e8ec;border-radius:6px;padding:8px;margin:8px 0}
svg text{font:12px system-ui,sans-serif;fill:#1d2330}
svg .box{fill:#fbfbf2;stroke:#b9b98a}svg .name{font-weight:600;font-size:13px}svg .key{fill:#5b6270;font-size:11px}
svg .doc{fill:#e8e9fb;stroke:#9a9ee0}svg .doc.copy{fill:#fdeede;stroke:#e0a66a}svg .embedded{fill:#3b4150}
svg .link path{fill:none;stroke:#555;stroke-width:1.2}svg .link.ref path{stroke-dasharray:5 4}
svg .link.ext path{stroke:#6a3fb5;stroke-width:2;stroke-dasharray:9 3}svg .link.claim path{stroke:#2e8b57;stroke-width:1.5;stroke-dasharray:2 3}
svg .link.copy path{stroke:#c2691d;stroke-width:3}svg .link-label{font-size:10px;fill:#333;paint-order:stroke;stroke:#fff;stroke-width:3px}
svg .attribute{fill:#5b6270;font-size:11px}svg .part-label{fill:#fff;font-size:11px}svg .legend{font-size:11px}
.legend{list-style:none;padding:0;margin:4px 0;display:flex;flex-wrap:wrap;gap:4px 18px}.legend svg{vertical-align:middle}
.diagram-full{display:none}#show-attributes:checked~.diagram-full{display:block}#show-attributes:checked~.diagram-compact{display:none}
.figure svg.diagram{display:block;margin:0 auto}
svg .bar.naive{fill:#b3b8c3}svg .bar.rules{fill:#7d9fd6}svg .bar.optimised{fill:#2f6fd0}
svg .title{font-weight:600}svg .design,svg .value{font-size:11px}
.pattern{margin:18px 0}.pattern h3{margin:0 0 4px}
.filter button{margin:0 4px 4px 0;padding:2px 8px;border:1px solid #9aa1ad;background:#fff;border-radius:4px;cursor:pointer}
.filter button.on{background:#2f6fd0;color:#fff;border-color:#2f6fd0}
tr.overridden td{color:#7a808c}tr.overridden td.outcome{text-decoration:line-through}
#decisions{width:100%;table-layout:fixed}#decisions th:nth-child(1){width:9%}#decisions th:nth-child(2){width:15%}
#decisions th:nth-child(3){width:22%}#decisions th:nth-child(4){width:32%}#decisions th:nth-child(5){width:22%}#decisions td{overflow-wrap:anywhere}
.tag{font-size:11px;background:#eee;border-radius:3px;padding:0 4px;margin-left:4px}
"#;

const SCRIPT: &str = r#"
(function(){
  var buttons=document.querySelectorAll('.filter button');
  var rows=document.querySelectorAll('#decisions tbody tr');
  function show(rule){
    buttons.forEach(function(b){b.classList.toggle('on',b.getAttribute('data-rule')===rule);});
    rows.forEach(function(r){r.hidden=!(rule==='*'||r.getAttribute('data-rule')===rule);});
    var shown=0;rows.forEach(function(r){if(!r.hidden){shown++;}});
    document.getElementById('decision-count').textContent=String(shown);
  }
  buttons.forEach(function(b){b.addEventListener('click',function(){show(b.getAttribute('data-rule'));});});
  show('*');
})();
"#;
