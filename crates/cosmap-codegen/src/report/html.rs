//! Small pieces of HTML and SVG text: escaping and number formatting.

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

/// Request units as people read them: two decimals below 100, whole numbers with
/// thousands separators above (`21,250`); non-finite values as `–`.
pub fn ru(value: f64) -> String {
    if !value.is_finite() {
        return "–".to_string();
    }
    if value.abs() < 100.0 {
        return format!("{value:.2}");
    }
    cosmap_mapper::human_count(value)
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
    fn formats_request_units() {
        assert_eq!(ru(0.5), "0.50");
        assert_eq!(ru(21250.0), "21,250");
        assert_eq!(ru(118082.4), "118,082");
        assert_eq!(ru(1234567.0), "1,234,567");
        assert_eq!(ru(f64::NAN), "–");
        assert_eq!(px(f64::INFINITY), "0");
    }
}
