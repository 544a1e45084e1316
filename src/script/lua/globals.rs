//! Undefined globals found at load: a rule file's compiled chunk (Lua 5.4 bytecode, with its
//! debug information) is read for every read of a global by a constant name (`GETTABUP` on
//! the `_ENV` upvalue), so a typo such as `tabel.insert` is an error naming the file and line
//! before any of the file runs, not when a rarely taken branch reaches it.

use anyhow::{Result, bail};

/// `GETTABUP A B C`: R[A] := UpValue[B][K[C]] (lopcodes.h of Lua 5.4).
const OP_GETTABUP: u32 = 11;
/// A line-info delta that says "see the absolute line list" (ldebug.h).
const ABS_LINE: i8 = -128;

/// The globals a compiled chunk reads by name, with the line of each read, in code order.
pub fn reads(bytecode: &[u8]) -> Result<Vec<(String, usize)>> {
    let mut r = Reader {
        bytes: bytecode,
        at: 0,
    };
    // Header: signature, version, format, LUAC_DATA, three sizes, LUAC_INT, LUAC_NUM.
    r.take(4 + 1 + 1 + 6 + 3 + 8 + 8)?;
    r.byte()?; // upvalues of the main function
    let mut out = Vec::new();
    function(&mut r, &mut out)?;
    Ok(out)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8]> {
        let Some(s) = self.bytes.get(self.at..self.at + n) else {
            bail!("bytecode ends early");
        };
        self.at += n;
        Ok(s)
    }

    fn byte(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    /// lundump.c's loadUnsigned: 7 bits a byte, most significant first, the last byte marked.
    fn size(&mut self) -> Result<usize> {
        let mut x: usize = 0;
        loop {
            let b = self.byte()?;
            x = x.checked_shl(7).unwrap_or(usize::MAX) | usize::from(b & 0x7f);
            if b & 0x80 != 0 {
                return Ok(x);
            }
        }
    }

    fn string(&mut self) -> Result<Option<String>> {
        match self.size()? {
            0 => Ok(None),
            n => Ok(Some(
                String::from_utf8_lossy(self.take(n - 1)?).into_owned(),
            )),
        }
    }
}

/// One function prototype (lundump.c's loadFunction), then its nested ones.
fn function(r: &mut Reader, out: &mut Vec<(String, usize)>) -> Result<()> {
    r.string()?; // source
    let line_defined = r.size()?;
    r.size()?; // last line
    r.take(3)?; // parameters, vararg, stack size
    let code: Vec<u32> = (0..r.size()?)
        .map(|_| Ok(u32::from_le_bytes(r.take(4)?.try_into()?)))
        .collect::<Result<_>>()?;
    let mut constants = Vec::new();
    for _ in 0..r.size()? {
        constants.push(match r.byte()? {
            0x04 | 0x14 => r.string()?, // short and long strings
            0x03 | 0x13 => {
                r.take(8)?; // integer, float
                None
            }
            _ => None, // nil, false, true
        });
    }
    let upvalues = r.size()?;
    r.take(3 * upvalues)?;
    let mut nested = Vec::new();
    for _ in 0..r.size()? {
        function(r, &mut nested)?;
    }
    let n = r.size()?;
    let deltas: Vec<i8> = r.take(n)?.iter().map(|&b| b as i8).collect();
    let mut absolute = Vec::new();
    for _ in 0..r.size()? {
        absolute.push((r.size()?, r.size()?));
    }
    for _ in 0..r.size()? {
        r.string()?;
        r.size()?;
        r.size()?;
    }
    let names: Vec<Option<String>> = (0..r.size()?).map(|_| r.string()).collect::<Result<_>>()?;
    let env = names.iter().position(|n| n.as_deref() == Some("_ENV"));
    let mut line = line_defined as i64;
    for (pc, &i) in code.iter().enumerate() {
        match deltas.get(pc) {
            Some(&ABS_LINE) => {
                if let Some(&(_, l)) = absolute.iter().find(|(at, _)| *at == pc) {
                    line = l as i64;
                }
            }
            Some(&d) => line += i64::from(d),
            None => {}
        }
        let (op, b, c) = (i & 0x7f, (i >> 16) & 0xff, (i >> 24) & 0xff);
        if op == OP_GETTABUP
            && Some(b as usize) == env
            && let Some(Some(name)) = constants.get(c as usize)
        {
            out.push((name.clone(), line.max(0) as usize));
        }
    }
    out.extend(nested);
    Ok(())
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
