//! Undefined globals found at load: a rule file's compiled chunk (Lua 5.4 bytecode, with its
//! debug information) is read for every read of a global by a constant name (`GETTABUP` on
//! the `_ENV` upvalue), so a typo such as `tabel.insert` is an error naming the file and line
//! before any of the file runs, not when a rarely taken branch reaches it.

use anyhow::Result;

use super::bytecode::{Proto, read};

/// `GETTABUP A B C`: R[A] := UpValue[B][K[C]] (lopcodes.h of Lua 5.4).
const OP_GETTABUP: u32 = 11;

/// The globals a compiled chunk reads by name, with the line of each read, in code order.
pub fn reads(bytecode: &[u8]) -> Result<Vec<(String, usize)>> {
    let mut out = Vec::new();
    collect(&read(bytecode)?, &mut out);
    Ok(out)
}

/// The reads of `p`, then those of its nested functions.
fn collect(p: &Proto, out: &mut Vec<(String, usize)>) {
    let env = p
        .upvalues
        .iter()
        .position(|u| u.name.as_deref() == Some("_ENV"));
    for &(i, line) in &p.code {
        let (op, _, b, c) = Proto::decode(i);
        if op == OP_GETTABUP
            && Some(b) == env
            && let Some(Some(name)) = p.constants.get(c)
        {
            out.push((name.clone(), line));
        }
    }
    for n in &p.nested {
        collect(n, out);
    }
}

#[cfg(test)]
mod tests {
    use super::reads;
    use mlua::Lua;

    #[test]
    fn finds_each_global_read_with_its_line() {
        let lua = Lua::new();
        let f = lua
            .load("local t = {}\nprint(t)\nlocal function g()\n  return tabel.insert\nend\nx = 1\n")
            .into_function()
            .unwrap();
        let found = reads(&f.dump(false)).unwrap();
        assert_eq!(found, [("print".to_string(), 2), ("tabel".to_string(), 4)]);
    }
}
