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

/// Whether a message starts with the place that raised it (`rules/x.lua:12: …`). Messages
/// raised without one (`error(msg, 0)`) are meant for the user and shown without a traceback.
fn has_place(head: &str) -> bool {
    head.split_once(": ").is_some_and(|(place, _)| {
        place
            .rsplit_once(':')
            .is_some_and(|(file, line)| !file.contains(' ') && line.parse::<u32>().is_ok())
    })
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
