//! SVG writing shared by the study charts ([`crate::sim::svg`]) and the board pictures
//! ([`crate::session::picture`]): one escaping, one document head, one number format, so
//! both read the same to a parser and stay byte-identical from run to run.

use std::fmt::Write;

/// Text or an attribute value as XML character data.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Opens a document of `width` × `height` user units (its fixed viewBox) with its `<title>`.
pub fn open(s: &mut String, width: f64, height: f64, title: &str) {
    let (w, h) = (num(width), num(height));
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, "<title>{}</title>", esc(title));
}

/// A coordinate with at most two decimals and no trailing zeros (`12`, `3.5`, `-0.25`).
pub fn num(v: f64) -> String {
    let text = format!("{v:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}
