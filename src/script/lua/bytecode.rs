//! A rule function's compiled form (Lua 5.4 bytecode with its debug information, as
//! `string.dump` writes it) read into prototypes, for what the loader checks before any rule
//! runs: the globals a chunk reads (`globals`) and the variables a function assigns that
//! outlive its call (`upvalues`).

use anyhow::{Result, bail};

/// A line-info delta that says "see the absolute line list" (ldebug.h).
const ABS_LINE: i8 = -128;

/// One function prototype.
pub struct Proto {
    /// Each instruction with its line.
    pub code: Vec<(u32, usize)>,
    /// The string constants by index (None: a constant of another type).
    pub constants: Vec<Option<String>>,
    /// Each upvalue: whether it is a local of the enclosing function (else one of its
    /// upvalues), its index there, and its name.
    pub upvalues: Vec<Upvalue>,
    pub nested: Vec<Proto>,
}

pub struct Upvalue {
    pub in_stack: bool,
    pub index: usize,
    pub name: Option<String>,
}

impl Proto {
    /// The opcode and arguments A, B and C of an instruction (lopcodes.h).
    pub fn decode(i: u32) -> (u32, usize, usize, usize) {
        (
            i & 0x7f,
            ((i >> 7) & 0xff) as usize,
            ((i >> 16) & 0xff) as usize,
            ((i >> 24) & 0xff) as usize,
        )
    }
}

/// The main prototype of a dumped function.
pub fn read(bytecode: &[u8]) -> Result<Proto> {
    let mut r = Reader {
        bytes: bytecode,
        at: 0,
    };
    // Header: signature, version, format, LUAC_DATA, three sizes, LUAC_INT, LUAC_NUM.
    r.take(4 + 1 + 1 + 6 + 3 + 8 + 8)?;
    r.byte()?; // upvalues of the main function
    function(&mut r)
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

/// One function prototype (lundump.c's loadFunction), its nested ones inside.
fn function(r: &mut Reader) -> Result<Proto> {
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
    let mut upvalues = Vec::new();
    for _ in 0..r.size()? {
        let d = r.take(3)?; // in stack, index, kind
        upvalues.push(Upvalue {
            in_stack: d[0] != 0,
            index: usize::from(d[1]),
            name: None,
        });
    }
    let nested = (0..r.size()?)
        .map(|_| function(r))
        .collect::<Result<Vec<_>>>()?;
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
    for i in 0..r.size()? {
        let name = r.string()?;
        if let Some(u) = upvalues.get_mut(i) {
            u.name = name;
        }
    }
    let mut line = line_defined as i64;
    let code = code
        .into_iter()
        .enumerate()
        .map(|(pc, i)| {
            match deltas.get(pc) {
                Some(&ABS_LINE) => {
                    if let Some(&(_, l)) = absolute.iter().find(|(at, _)| *at == pc) {
                        line = l as i64;
                    }
                }
                Some(&d) => line += i64::from(d),
                None => {}
            }
            (i, line.max(0) as usize)
        })
        .collect();
    Ok(Proto {
        code,
        constants,
        upvalues,
        nested,
    })
}
