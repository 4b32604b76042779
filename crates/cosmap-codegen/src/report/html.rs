//! Small pieces of HTML and SVG text: escaping, inline code and number formatting.

/// `text` escaped for HTML and SVG text and attribute values (`&`, `<`, `>`, `"`, `'`).
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Prose from the mapper as HTML: escaped, each `` `name` `` in backticks set as
/// `<code>` (an unpaired backtick stays as it is).
pub fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else {
            break;
        };
        out.push_str(&esc(&rest[..open]));
        out.push_str("<code>");
        out.push_str(&esc(&rest[open + 1..open + 1 + len]));
        out.push_str("</code>");
        rest = &rest[open + 2 + len..];
    }
    out.push_str(&esc(rest));
    out
}

/// A figure as people read it: whole numbers from 100 up with thousands separators
/// (`21,250`), at most two decimals from 1 (`2.5`), two significant digits below
/// (`0.40`, `0.0031`); non-finite values as `–`.
pub fn num(value: f64) -> String {
    if !value.is_finite() {
        return "–".to_string();
    }
    let magnitude = value.abs();
    if magnitude >= 100.0 || magnitude == 0.0 || value.fract() == 0.0 {
        return cosmap_mapper::human_count(value);
    }
    if magnitude >= 1.0 {
        let text = format!("{value:.2}");
        return text.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    // Two significant digits: as many decimals as the leading zeros need.
    let decimals = (-magnitude.log10().floor()) as usize + 1;
    format!("{value:.decimals$}")
}

/// Request units per second with their unit (`1,448 RU/s`, `0.40 RU/s`).
pub fn ru(value: f64) -> String {
    format!("{} RU/s", num(value))
}

/// Bytes with their unit (`1.2 GB`).
pub fn bytes(value: f64) -> String {
    if value.is_finite() {
        cosmap_mapper::human_bytes(value)
    } else {
        "–".to_string()
    }
}

/// A decision's figure `value` named `key`, with the unit its name gives it:
/// `…Bytes` as bytes, RU/s for `…RuPerSecond`, `…RuSaved` and `…RuAdded`, `/s` for
/// other rates, a share as a percentage, `growthYears` in years.
pub fn figure(key: &str, value: &serde_json::Value) -> String {
    let Some(v) = value.as_f64() else {
        return match value {
            serde_json::Value::String(s) => inline(s),
            other => esc(&other.to_string()),
        };
    };
    let k = key.to_ascii_lowercase();
    let text = if k.ends_with("bytes") {
        bytes(v)
    } else if k.contains("rupersecond") || k.ends_with("rusaved") || k.ends_with("ruadded") {
        ru(v)
    } else if k.ends_with("persecond") {
        format!("{}/s", num(v))
    } else if k.ends_with("share") {
        cosmap_mapper::human_share(v)
    } else if k.ends_with("years") {
        format!("{} years", num(v))
    } else if k.ends_with("ttl") {
        if v < 0.0 {
            "never expires".to_string()
        } else {
            format!("{} s", num(v))
        }
    } else {
        num(v)
    };
    esc(&text)
}

/// A coordinate or length in SVG, one decimal, never `NaN`.
pub fn px(value: f64) -> String {
    if value.is_finite() {
        format!("{value:.1}")
    } else {
        "0".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(
            esc("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn backticks_become_code() {
        assert_eq!(
            inline("`UniqueClaims`: a <b> `x`"),
            "<code>UniqueClaims</code>: a &lt;b&gt; <code>x</code>"
        );
        assert_eq!(inline("one ` alone"), "one ` alone");
        assert_eq!(inline("`<i>`"), "<code>&lt;i&gt;</code>");
    }

    #[test]
    fn formats_figures() {
        assert_eq!(num(0.4), "0.40");
        assert_eq!(num(0.003_14), "0.0031");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(12.256), "12.26");
        assert_eq!(num(7.0), "7");
        assert_eq!(num(21250.0), "21,250");
        assert_eq!(num(118_082.4), "118,082");
        assert_eq!(num(f64::NAN), "–");
        assert_eq!(ru(1448.2), "1,448 RU/s");
        assert_eq!(ru(0.4), "0.40 RU/s");
        assert_eq!(px(f64::INFINITY), "0");
    }

    #[test]
    fn figures_carry_their_units() {
        let n = |v: f64| serde_json::json!(v);
        assert_eq!(figure("containerBytes", &n(11_312_000_000.0)), "11.3 GB");
        assert_eq!(figure("readRuSaved", &n(27500.0)), "27,500 RU/s");
        assert_eq!(figure("addsRuPerSecond", &n(4933.22)), "4,933 RU/s");
        assert_eq!(figure("perSecond", &n(200.0)), "200/s");
        assert_eq!(figure("largestValueShare", &n(0.04)), "4.0%");
        assert_eq!(figure("growthYears", &n(5.0)), "5 years");
        assert_eq!(figure("distinctValues", &n(250.0)), "250");
        assert_eq!(figure("note", &serde_json::json!("`a` b")), "<code>a</code> b");
    }
}
