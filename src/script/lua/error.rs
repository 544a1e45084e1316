//! Turning Lua errors into one clear message: the rule file and line first, then a short
//! traceback through rule files only.

use mlua::Error;

/// How many traceback lines to keep.
const TRACE_LINES: usize = 4;

/// The user-facing text of a rules error.
pub fn message(e: &Error) -> String {
    match e {
        Error::CallbackError { cause, traceback } => {
            let inner = message(cause);
            with_trace(&inner, traceback)
        }
        Error::RuntimeError(text) => {
            let (head, trace) = text.split_once("\nstack traceback:").unwrap_or((text, ""));
            with_trace(head, trace)
        }
        Error::SyntaxError { message, .. } => format!("syntax error: {message}"),
        Error::MemoryError(_) => {
            "memory limit exceeded: does a rule allocate without bound?".into()
        }
        Error::WithContext { context, cause } => format!("{context}: {}", message(cause)),
        other => other.to_string(),
    }
}

/// Whether a message starts with the place in rule code that raised it (`rules/x.lua:12: …`).
/// Messages raised without one (`error(msg, 0)`) are meant for the user and shown without a
/// traceback, and so are those that name a place in a data file (`data.fail`'s
/// `rules/pirates/maps/x.map:98:31: …`): the mistake is in the file, not in the rules.
fn has_place(head: &str) -> bool {
    head.split_once(": ").is_some_and(|(place, _)| {
        place.rsplit_once(':').is_some_and(|(file, line)| {
            !file.contains(' ') && line.parse::<u32>().is_ok() && !is_data_file(file)
        })
    })
}

/// Whether `file` (perhaps followed by `:line`) is a data file: a name with an extension that
/// is not a rule file's `.lua`.
fn is_data_file(file: &str) -> bool {
    let file = match file.rsplit_once(':') {
        Some((f, line)) if line.parse::<u32>().is_ok() => f,
        _ => file,
    };
    let name = file.rsplit('/').next().unwrap_or(file);
    name.rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && ext != "lua")
}

fn with_trace(head: &str, trace: &str) -> String {
    let head = head.trim();
    if !has_place(head) {
        return head.to_string();
    }
    let frames: Vec<&str> = trace
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("[C]") && !l.starts_with("kernel/"))
        .filter(|l| !l.starts_with("stack traceback"))
        .filter(|l| !head.starts_with(l.split(": in").next().unwrap_or(l)))
        .take(TRACE_LINES)
        .collect();
    if frames.is_empty() {
        head.to_string()
    } else {
        format!("{head}\n  {}", frames.join("\n  "))
    }
}

/// A Lua error as an anyhow error carrying that message.
pub fn describe(e: Error) -> anyhow::Error {
    anyhow::anyhow!(message(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_errors_keep_their_traceback_and_data_file_errors_do_not() {
        let trace = "\nstack traceback:\n\trules/g/map.lua:9: in local 'fail'\n\trules/g/game.lua:3: in function <rules/g/game.lua:1>";
        let rule = Error::RuntimeError(format!(
            "rules/g/game.lua:5: attempt to index a nil value{trace}"
        ));
        assert_eq!(
            message(&rule),
            "rules/g/game.lua:5: attempt to index a nil value\n  rules/g/map.lua:9: in local 'fail'\n  rules/g/game.lua:3: in function <rules/g/game.lua:1>"
        );
        let data = Error::RuntimeError(format!(
            "rules/g/maps/x.map:98:31: unknown terrain character 'x'{trace}"
        ));
        assert_eq!(
            message(&data),
            "rules/g/maps/x.map:98:31: unknown terrain character 'x'"
        );
        let line_only = Error::RuntimeError(format!("rules/g/maps/x.map:98: a ragged row{trace}"));
        assert_eq!(message(&line_only), "rules/g/maps/x.map:98: a ragged row");
        let typed = Error::RuntimeError(format!("lua:1: boom{trace}"));
        assert!(message(&typed).contains("\n  rules/g/map.lua:9"));
    }
}
