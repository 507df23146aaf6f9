//! Generates one buffer binding's WGSL type from fuzz input: scalars (`f32`, `i32`, `u32`, `f16`,
//! `f64`, `i64`, `u64`), vectors, matrices, atomics, fixed and runtime-sized arrays, nested
//! structs, with `@align`/`@size` attributes. Many generated types are invalid (uniform layout
//! rules, attributes too small): naga rejects them and the input is skipped.

use arbitrary::{Result, Unstructured};

/// The generated module: the binding is `@group(0) @binding(0) var<…> u: …`.
#[derive(Debug)]
pub struct Generated {
    /// WGSL source.
    pub source: String,
    /// The address space (`uniform`, `storage, read` or `storage, read_write`).
    pub space: &'static str,
}

const MAX_DEPTH: u32 = 4;

struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    structs: Vec<String>,
    f16: bool,
    atomics: bool,
}

/// Generates a module with one buffer binding `u`.
pub fn generate(u: &mut Unstructured<'_>) -> Result<Generated> {
    let space = match u.int_in_range(0u8..=19)? {
        0..=6 => "uniform",
        7..=15 => "storage, read",
        _ => "storage, read_write",
    };
    let storage = space != "uniform";
    let mut g = Gen {
        u,
        structs: Vec::new(),
        f16: false,
        atomics: space == "storage, read_write",
    };
    let root = match g.u.int_in_range(0u8..=9)? {
        // A struct, possibly ending in a runtime-sized array (storage only).
        0..=6 => {
            let tail = storage && g.u.ratio(1u8, 3)?;
            g.strukt(0, tail)?
        }
        // A runtime-sized array at the top (storage only).
        7 if storage => format!("array<{}>", g.ty(1)?),
        _ => g.ty(0)?,
    };
    let mut source = String::new();
    if g.f16 {
        source.push_str("enable f16;\n");
    }
    for s in &g.structs {
        source.push_str(s);
        source.push('\n');
    }
    source.push_str(&format!("@group(0) @binding(0) var<{space}> u: {root};\n"));
    Ok(Generated { source, space })
}

impl Gen<'_, '_> {
    fn scalar(&mut self) -> Result<&'static str> {
        Ok(match self.u.int_in_range(0u8..=15)? {
            0..=4 => "f32",
            5..=7 => "i32",
            8..=10 => "u32",
            11 | 12 => {
                self.f16 = true;
                "f16"
            }
            13 => "f64",
            14 => "i64",
            _ => "u64",
        })
    }

    fn float(&mut self) -> Result<&'static str> {
        Ok(match self.u.int_in_range(0u8..=5)? {
            0..=3 => "f32",
            4 => {
                self.f16 = true;
                "f16"
            }
            _ => "f64",
        })
    }

    fn ty(&mut self, depth: u32) -> Result<String> {
        let max = if depth >= MAX_DEPTH { 3 } else { 6 };
        Ok(match self.u.int_in_range(0u8..=max)? {
            0 => self.scalar()?.to_owned(),
            1 => format!("vec{}<{}>", self.u.int_in_range(2u8..=4)?, self.scalar()?),
            2 => format!(
                "mat{}x{}<{}>",
                self.u.int_in_range(2u8..=4)?,
                self.u.int_in_range(2u8..=4)?,
                self.float()?
            ),
            3 if self.atomics => {
                format!(
                    "atomic<{}>",
                    if self.u.arbitrary()? { "i32" } else { "u32" }
                )
            }
            3 => self.scalar()?.to_owned(),
            4 => format!(
                "array<{}, {}>",
                self.ty(depth + 1)?,
                self.u.int_in_range(1u8..=4)?
            ),
            _ => self.strukt(depth + 1, false)?,
        })
    }

    /// Declares a struct and returns its name.
    fn strukt(&mut self, depth: u32, runtime_tail: bool) -> Result<String> {
        let n = self.u.int_in_range(1u8..=5)?;
        let mut body = String::new();
        for i in 0..n {
            // 9..=11 (never the 0 an exhausted input gives): an attribute.
            let attr = match self.u.int_in_range(0u8..=11)? {
                9 => format!("@align({}) ", 1u32 << self.u.int_in_range(2u32..=6)?),
                10 => format!("@size({}) ", 4 * self.u.int_in_range(1u32..=32)?),
                11 => format!(
                    "@align({}) @size({}) ",
                    1u32 << self.u.int_in_range(2u32..=5)?,
                    4 * self.u.int_in_range(1u32..=32)?
                ),
                _ => String::new(),
            };
            let ty = if runtime_tail && i + 1 == n {
                format!("array<{}>", self.ty(depth + 1)?)
            } else {
                self.ty(depth + 1)?
            };
            body.push_str(&format!("    {attr}m{i}: {ty},\n"));
        }
        let name = format!("S{}", self.structs.len());
        self.structs.push(format!("struct {name} {{\n{body}}}"));
        Ok(name)
    }
}
