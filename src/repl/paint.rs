//! Colour for text that rules render: `{red}…{/}` style tags become ANSI escapes, or vanish
//! when colour is off (`NO_COLOR`, not a terminal, or batch mode).

const TAGS: [(&str, &str); 12] = [
    ("/", "\x1b[0m"),
    ("bold", "\x1b[1m"),
    ("dim", "\x1b[2m"),
    ("red", "\x1b[31m"),
    ("green", "\x1b[32m"),
    ("yellow", "\x1b[33m"),
    ("blue", "\x1b[34m"),
    ("magenta", "\x1b[35m"),
    ("cyan", "\x1b[36m"),
    ("white", "\x1b[37m"),
    ("gray", "\x1b[90m"),
    ("reverse", "\x1b[7m"),
];

/// Replaces known `{tag}`s; unknown braces are left as they are.
pub fn paint(text: &str, color: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let tag = after
            .find('}')
            .map(|close| &after[..close])
            .and_then(|name| TAGS.iter().find(|(t, _)| *t == name));
        match tag {
            Some((name, code)) => {
                if color {
                    out.push_str(code);
                }
                rest = &after[name.len() + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    if color && text.contains('{') {
        out.push_str("\x1b[0m");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::paint;

    #[test]
    fn tags_become_escapes_or_vanish() {
        assert_eq!(paint("{red}X{/} {x}", false), "X {x}");
        assert_eq!(paint("{red}X{/}", true), "\x1b[31mX\x1b[0m\x1b[0m");
        assert_eq!(paint("{\"board\":[1]}", false), "{\"board\":[1]}");
    }
}
